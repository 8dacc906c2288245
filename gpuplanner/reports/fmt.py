"""Number formats of the report, one function per kind of figure, so the report prints every figure of
``results_json`` the same way (and a test can format the engine's figure and find it in the PDF text).
``num``, ``integer`` and ``value`` live in ``gpuplanner.core.numfmt`` (the catalog entries' names use them
too)."""

from __future__ import annotations

from typing import Any

from gpuplanner.core.numfmt import DASH as DASH
from gpuplanner.core.numfmt import integer as integer
from gpuplanner.core.numfmt import num as num
from gpuplanner.core.numfmt import ok as _ok
from gpuplanner.core.numfmt import value as value


def kw(x: Any) -> str:
    return num(x, 1)


def pue(x: Any) -> str:
    return num(x, 2)


def money(x: Any) -> str:
    """A money amount in the project's currency, without the currency (it is in the column or label)."""
    return num(x, 0)


def money_cur(x: Any, currency: str) -> str:
    return f"{money(x)} {currency}" if _ok(x) else DASH


CURRENCY_WORDS_ZH = {"CNY": "元", "RMB": "元", "USD": "美元", "EUR": "欧元", "JPY": "日元", "HKD": "港元"}


def _zh_word(currency: str) -> tuple[str, str]:
    """(word, separator) after 万/亿 as Chinese amounts write them: "万元", "万美元", but "万 GBP"."""
    word = CURRENCY_WORDS_ZH.get(currency.upper(), currency)
    return word, ("" if word != currency else " ")


def money_words(x: Any, currency: str, lang: str, *, with_currency: bool = True) -> str:
    """A large amount the way the app shows it (``gpuplanner.ui.fmt.money``): "61.05 M USD" in English;
    in Chinese 万 (10⁴) and 亿 (10⁸) with the currency as a word — "6,104.5 万美元", "1.24 亿元"."""
    if not _ok(x):
        return DASH
    v = float(x)
    if lang == "zh":
        word, sep = _zh_word(currency)
        if abs(v) >= 1e8:
            return f"{num(v / 1e8, 2)} 亿{sep}{word}"
        if abs(v) >= 1e4:
            return f"{num(v / 1e4, 1)} 万{sep}{word}"
        return f"{money(v)} {word}"
    tail = f" {currency}" if with_currency else ""
    for div, unit in ((1e9, "B"), (1e6, "M"), (1e3, "k")):
        if abs(v) >= div:
            return f"{num(v / div, 2)} {unit}{tail}"
    return f"{money(v)}{tail}"


def money_scale_zh(max_value: float, currency: str) -> tuple[float, str]:
    """(divisor, unit) of a Chinese money axis, as the app's charts: 亿 from 10⁸ up, else 万."""
    word, sep = _zh_word(currency)
    return (1e8, f"亿{sep}{word}") if abs(max_value) >= 1e8 else (1e4, f"万{sep}{word}")


def axis_number(v: Any) -> str:
    """An axis tick: thousands separators, one decimal only when the tick needs it."""
    return num(v, 0) if _ok(v) and float(v).is_integer() else num(v, 1)


def unit_price(x: Any) -> str:
    """Unit prices below 100 keep their cents (per-metre fibre, per-kW cooling)."""
    return num(x, 2) if _ok(x) and abs(float(x)) < 100 else num(x, 0)


def pct(fraction: Any, digits: int = 1) -> str:
    return f"{float(fraction) * 100:.{digits}f}%" if _ok(fraction) else DASH


def seconds(x: Any) -> str:
    if not _ok(x):
        return DASH
    return f"{float(x):.3f}" if abs(float(x)) < 1 else f"{float(x):,.2f}"


def days(x: Any) -> str:
    return num(x, 1)


SUFFIXES = {
    "en": ((1e12, "T"), (1e9, "B"), (1e6, "M"), (1e3, "k")),
    "zh": ((1e12, "万亿"), (1e8, "亿"), (1e4, "万")),
}


def compact(x: Any, lang: str = "en") -> str:
    """Short form for tiles and axis labels: 1.2k, 3.4M, 5.6B (English); 1.2万, 3.4亿 (Chinese)."""
    if not _ok(x):
        return DASH
    v = float(x)
    for div, suffix in SUFFIXES.get(lang, SUFFIXES["en"]):
        if abs(v) >= div:
            return f"{v / div:,.1f}".removesuffix(".0") + suffix
    return f"{v:,.0f}" if abs(v) >= 10 or v == int(v) else f"{v:.2g}"
