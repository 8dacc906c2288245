"""The report's translation table: every string in both languages, with the same placeholders."""

from __future__ import annotations

import datetime as dt
import string

from gpuplanner.reports import i18n


def fields(text: str) -> set[str]:
    """Placeholders, after the plural choices ("{n|one|other}", English only) are made."""
    return {f for _, f, _, _ in string.Formatter().parse(i18n.plurals(text, {})) if f}


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
        "aval_pue",
        "ph_gpus_value",
        "sched_kubernetes",
        "sched_slurm",
        "sched_volcano",
        "busway_value",
        "ol_cdus",
        "qty_with_unit",
        "port_group_words",
        "tech_infiniband",
        "tech_nvlink",
        "fld_gpu",
        "fld_cpu_model",
        "fld_pdu",
        "entry_label_plain",  # "{kind} {model}" (catalog/names.py)
        "fig_count_of",
        "fig_gbps",
        "fig_gbps_form",
        "fig_tb",
        "fig_mem",
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


def test_plural_choices_follow_the_count():
    from gpuplanner.reports.i18n import tr

    one = tr("sum_plan", "en", gpus="8", gpu="H100", servers="1", racks="1", switches="1", bisection="3.2")
    assert "in 1 server and 1 rack, connected by 1 switch with" in one and "GPUs" in one
    many = tr(
        "sum_plan", "en", gpus="1,024", gpu="H100", servers="128", racks="39", switches="60", bisection="1"
    )
    assert "in 128 servers and 39 racks, connected by 60 switches" in many
    zh = tr("sum_plan", "zh", gpus="8", gpu="H100", servers="1", racks="1", switches="1", bisection="3.2")
    assert "1 台服务器" in zh and "1 台交换机" in zh and "|" not in zh
    assert tr("ph_grows_no", "en", n=1) == "no: 1 finding"
    assert tr("ph_grows_no", "en", n="1,001") == "no: 1,001 findings"


def test_every_plural_choice_names_a_parameter_of_its_template():
    import re

    from gpuplanner.reports.i18n import TEXT

    for key, (en, zh) in TEXT.items():
        for text in (en, zh):
            for name in re.findall(r"\{(\w+)\|", text):
                assert "{" + name + "}" in text, (key, name)
