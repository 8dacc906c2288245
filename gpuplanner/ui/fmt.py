"""Numbers, money, durations, airflow and dates as the UI shows them, in the UI locale (``i18n.ui_locale``:
thousands separators, decimal point, date order).

Money is shown in the project's currency at its ``usd_exchange_rate`` (the engine's figures are USD). Large
amounts: "1.25 M USD" / "3.40 B CNY" in the Western style; in the Chinese style (the default of the Chinese
UI, Preferences ▸ Numbers) the way Chinese proposals and tenders write them — 万 (10⁴) and 亿 (10⁸), with the
currency as a word where one is usual: "1,234.5 万元", "3.42 亿元", "860.0 万美元", "12.5 万 EUR".
Airflow is shown in m³/h (what Chinese and European facility teams size in) with CFM (what US datasheets and
CRAH vendors quote) next to it.
"""

from __future__ import annotations

import datetime as dt
import math

from PySide6.QtCore import QDate, QDateTime, QLocale

from gpuplanner.ui import i18n
from gpuplanner.ui.i18n import translate

DASH = "–"
M3H_PER_CFM = 1.6990108  # 1 ft³/min = 0.0283168 m³ × 60


_LOCALES: dict[str, QLocale] = {}


def locale() -> QLocale:
    """The UI locale, made once per UI language (building a QLocale from the system's settings on every
    call took 0.3 ms — 11 s for the 37,000 numbers of one edit's annotations at 131k GPUs)."""
    lang = i18n.current_language()
    loc = _LOCALES.get(lang)
    if loc is None:
        loc = _LOCALES[lang] = i18n.ui_locale()
    return loc


def number(value: float, decimals: int = 0) -> str:
    """``value`` with the locale's group separators ("12,345.6"); "–" for NaN/inf."""
    if value is None or not math.isfinite(float(value)):
        return DASH
    if decimals == 0:
        return locale().toString(int(round(float(value))))
    return locale().toString(float(value), "f", decimals)


def short(value: float, max_decimals: int = 2) -> str:
    """``value`` with as few decimals as it needs, at most ``max_decimals`` ("80", "1.5", "0.35"), with the
    locale's separators (a figure from a datasheet, shown as written rather than padded with zeros)."""
    if value is None or not math.isfinite(float(value)):
        return DASH
    v = round(float(value), max_decimals)
    for d in range(max_decimals):
        if abs(v - round(v, d)) < 1e-9 * max(1.0, abs(v)):
            return number(v, d)
    return number(v, max_decimals)


def percent(fraction: float, decimals: int = 1) -> str:
    return DASH if not math.isfinite(fraction) else f"{number(fraction * 100, decimals)} %"


CURRENCY_WORDS_ZH = {"CNY": "元", "RMB": "元", "USD": "美元", "EUR": "欧元", "JPY": "日元", "HKD": "港元"}


def currency_word(currency: str) -> str:
    """The currency as Chinese amounts write it after 万/亿 ("万元", "万美元") in the Chinese UI; else the
    ISO code."""
    if i18n.current_language() == "zh":
        return CURRENCY_WORDS_ZH.get(currency.upper(), currency)
    return currency


def money(usd: float, rate: float = 1.0, currency: str = "USD", chinese: bool | None = None) -> str:
    """An amount given in USD, shown in ``currency`` (``rate`` units per USD)."""
    v = usd * rate
    if not math.isfinite(v):
        return DASH
    if i18n.chinese_amounts() if chinese is None else chinese:
        word = currency_word(currency)
        sep = "" if word != currency else " "  # "万元" but "万 EUR"
        if abs(v) >= 1e8:
            return f"{number(v / 1e8, 2)} 亿{sep}{word}"
        if abs(v) >= 1e4:
            return f"{number(v / 1e4, 1)} 万{sep}{word}"
        return f"{number(v)} {word}"
    for div, unit in ((1e9, "B"), (1e6, "M"), (1e3, "k")):
        if abs(v) >= div:
            return f"{number(v / div, 2)} {unit} {currency}"
    return f"{number(v)} {currency}"


def money_scale(max_value: float, currency: str) -> tuple[float, str]:
    """(divisor, axis label) for a money axis whose largest value is ``max_value`` (in ``currency``)."""
    if i18n.chinese_amounts():
        word = currency_word(currency)
        sep = "" if word != currency else " "
        if abs(max_value) >= 1e8:
            return 1e8, f"亿{sep}{word}"
        return 1e4, f"万{sep}{word}"
    return 1e6, translate("fmt", "{cur} (millions)").format(cur=currency)


def duration(seconds: float) -> str:
    if not math.isfinite(seconds) or seconds <= 0:
        return DASH
    if seconds < 1:
        return translate("fmt", "{v} ms").format(v=number(seconds * 1000))
    if seconds < 120:
        return translate("fmt", "{v} s").format(v=number(seconds, 2))
    if seconds < 2 * 86400:
        return translate("fmt", "{v} h").format(v=number(seconds / 3600, 1))
    return translate("fmt", "{v} days").format(v=number(seconds / 86400, 1))


def airflow(m3_per_h: float, cfm: float | None = None) -> str:
    """ "12,345 m³/h (7,266 CFM)" (CFM from the engine's figure when given, else converted)."""
    if not math.isfinite(m3_per_h):
        return DASH
    cfm = m3_per_h / M3H_PER_CFM if cfm is None else cfm
    return f"{number(m3_per_h)} m³/h ({number(cfm)} CFM)"


def date(value: dt.date | dt.datetime | str) -> str:
    """A date (or an ISO date/time string, as stored in project files) in the locale's short format."""
    if isinstance(value, str):
        try:
            value = dt.datetime.fromisoformat(value)
        except ValueError:
            return value
    fmt = QLocale.FormatType.ShortFormat
    if isinstance(value, dt.datetime):
        return locale().toString(QDateTime(value), fmt)
    return locale().toString(QDate(value.year, value.month, value.day), fmt)
