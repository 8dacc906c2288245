"""The UI language: which one to use (Preferences, then ``GPUPLANNER_LANG``, then the system locale), loading
and swapping the Qt translator, and the locale numbers and dates are shown in.

Translations live in ``resources/translations/gpuplanner_<lang>.ts`` (made and updated by
``tools/translations.py``, which runs ``pyside6-lupdate`` over ``gpuplanner/ui``) and are compiled to the
``.qm`` next to it, which is committed so that a fresh clone and the installer need no build step.

Where the text is not in a QObject subclass, call ``translate("context", "literal")`` (this module's
``translate`` is ``QCoreApplication.translate``): lupdate records the context written at the call; a module
helper such as ``tr(text)`` would be recorded under an empty context and never found at run time.
"""

from __future__ import annotations

import os
from pathlib import Path

from PySide6.QtCore import QCoreApplication, QLibraryInfo, QLocale, QSettings, QTranslator

translate = QCoreApplication.translate

LANGUAGES = ("en", "zh")  # the UI languages shipped ("en" is the source text: no translator)
SETTINGS_LANGUAGE = "language"  # "" (follow the system), "en" or "zh"
SETTINGS_NUMBERS = "number_style"  # "auto", "western" (k / M / B) or "chinese" (万 / 亿)
NUMBER_STYLES = ("auto", "western", "chinese")

_state: dict[str, object] = {
    "language": "en",
    "translator": None,
    "qt_translator": None,
    "number_style": "auto",
}


def default_settings() -> QSettings:
    return QSettings("gpuplanner", "gpuplanner")


def translations_dir() -> Path:
    here = Path(__file__).resolve().parent.parent  # gpuplanner/
    for candidate in (here.parent / "resources", here / "_data" / "resources"):
        if (candidate / "translations").is_dir():
            return candidate / "translations"
    return here.parent / "resources" / "translations"


def qm_path(lang: str) -> Path:
    return translations_dir() / f"gpuplanner_{lang}.qm"


def normalise(lang: str | None) -> str:
    """ "zh_CN", "zh-Hans", "ZH" → "zh"; "" or None → ""."""
    return (lang or "").strip().replace("-", "_").split("_")[0].lower()


def system_language() -> str:
    lang = normalise(QLocale.system().name())
    return lang if lang in LANGUAGES else "en"


def chosen_language(settings: QSettings | None = None) -> str:
    """The language the user asked for: Preferences, then GPUPLANNER_LANG, then the system locale."""
    s = settings if settings is not None else default_settings()
    for value in (s.value(SETTINGS_LANGUAGE, ""), os.environ.get("GPUPLANNER_LANG")):
        lang = normalise(str(value or ""))
        if lang in LANGUAGES:
            return lang
    return system_language()


def current_language() -> str:
    return str(_state["language"])


def _qt_translator(app: QCoreApplication, lang: str) -> QTranslator | None:
    """Qt's own strings (OK / Cancel / Apply, file dialogs, context menus): qtbase_<locale>.qm from Qt."""
    translator = QTranslator(app)
    folder = QLibraryInfo.path(QLibraryInfo.LibraryPath.TranslationsPath)
    locale = QLocale(QLocale.Language.Chinese, QLocale.Country.China) if lang == "zh" else QLocale(lang)
    if translator.load(locale, "qtbase", "_", folder):
        app.installTranslator(translator)
        return translator
    return None


def set_language(lang: str) -> QTranslator | None:
    """Replace the installed translator by the one for ``lang`` (none for English); widgets made after this
    call are in the new language. Returns the translator, or None for English or when no .qm is found."""
    app = QCoreApplication.instance()
    for key in ("translator", "qt_translator"):
        old = _state.get(key)
        if app is not None and isinstance(old, QTranslator):
            app.removeTranslator(old)
        _state[key] = None
    lang = normalise(lang) or "en"
    translator: QTranslator | None = None
    # English has a translator too: its .qm holds only the plural forms of the %n messages ("1 rack").
    if app is not None and qm_path(lang).exists():
        translator = QTranslator(app)
        if translator.load(str(qm_path(lang))):
            app.installTranslator(translator)
        else:
            translator = None
    _state["language"] = lang if (translator is not None or lang == "en") else "en"
    _state["translator"] = translator
    if translator is not None and app is not None and lang != "en":
        _state["qt_translator"] = _qt_translator(app, lang)
    QLocale.setDefault(ui_locale())
    return translator


def number_style() -> str:
    return str(_state["number_style"])


def set_number_style(style: str) -> None:
    _state["number_style"] = style if style in NUMBER_STYLES else "auto"


def chinese_amounts() -> bool:
    """Whether large amounts are shown in 万 / 亿 (the default in the Chinese UI)."""
    style = number_style()
    return style == "chinese" or (style == "auto" and current_language() == "zh")


def ui_locale() -> QLocale:
    """The locale numbers and dates are shown in: Chinese (China) in the Chinese UI; in English, the system's
    locale when it is an English one (so en_GB gets its dates), else US English."""
    if current_language() == "zh":
        return QLocale(QLocale.Language.Chinese, QLocale.Country.China)
    system = QLocale.system()
    if system.language() == QLocale.Language.English:
        return system
    return QLocale(QLocale.Language.English, QLocale.Country.UnitedStates)
