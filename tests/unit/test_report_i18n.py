"""The report's translation table: every string in both languages, with the same placeholders."""

from __future__ import annotations

import datetime as dt
import string

from gpuplanner.reports import i18n


def fields(text: str) -> set[str]:
    return {f for _, f, _, _ in string.Formatter().parse(text) if f}


def test_every_entry_has_english_and_chinese_with_the_same_placeholders():
    for key, (en, zh) in i18n.TEXT.items():
        assert en.strip() and zh.strip(), key
        if key != "long_date":  # English names the month, Chinese numbers it
            assert fields(en) == fields(zh), key


def test_chinese_entries_are_chinese():
    untranslated = [k for k, (en, zh) in i18n.TEXT.items() if en == zh and any(c.isalpha() for c in en)]
    allowed = {
        "t_pue",
        "col_mfu",
        "col_lpm",
        "unit_kw",
        "unit_gpu",
        "p_gpu",
        "kf_power_value",
        "kf_cost_value",
        "col_gb",
        "section_number",
        "block_count",
        "rack_one",
        "price_value",
        "ph_pue",
        "ph_gpus_value",
        "sched_kubernetes",
        "sched_slurm",
        "sched_volcano",
    }  # names, units, number layouts
    ranges = {k for k in untranslated if k.startswith(("util_", "density_"))}  # "25–50%", "10–20 kW"
    assert set(untranslated) <= allowed | ranges


def test_tr_fills_placeholders_and_keeps_unknown_ones():
    assert i18n.tr("page_of", "en", page=2, total=9) == "Page 2 of 9"
    assert i18n.tr("page_of", "zh", page=2, total=9) == "第 2 页，共 9 页"
    assert i18n.tr("page_of", "en", page=2) == "Page 2 of {total}"
    assert i18n.tr("no-such-key", "zh") == "no-such-key"


def test_vocabulary_labels_fall_back_to_the_engine_slug():
    assert i18n.label("cool", "rear-door", "zh") == "背板换热器"
    assert i18n.label("cool", "liquid-nitrogen", "zh") == "liquid-nitrogen"


def test_dates():
    d = dt.date(2026, 12, 2)
    assert i18n.long_date(d, "en") == "2 December 2026"
    assert i18n.long_date(d, "zh") == "2026年12月2日"
