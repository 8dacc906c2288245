"""The appendix's project-inputs and model-assumption tables name every row in words with its unit, in
English and Chinese, and print values without identifiers."""

from __future__ import annotations

import dataclasses
import re
from pathlib import Path

import pytest
import yaml

from gpuplanner.model.rows import Site
from gpuplanner.reports import i18n
from gpuplanner.reports.sections.assumptions import words

ROOT = Path(__file__).resolve().parents[2]
SNAKE = re.compile(r"\b[a-z][a-z0-9]*(?:_[a-z0-9]+)+\b")
CJK = re.compile(r"[\u4e00-\u9fff]")


def assumption_names() -> list[str]:
    out = []
    for area in ("facility", "cost", "network", "performance"):
        data = yaml.safe_load(
            (ROOT / "catalogs" / "assumptions" / f"{area}.yaml").read_text(encoding="utf-8")
        )
        out += list(data["entries"])
    return out


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_every_site_field_and_assumption_has_a_human_name(lang):
    keys = [f"inp_{f.name}" for f in dataclasses.fields(Site) if f.name != "id"]
    keys += [f"aname_{n}" for n in assumption_names()]
    assert len(keys) > 100
    for key in keys:
        assert i18n.has(key), key
        name = i18n.tr(key, lang)
        assert not SNAKE.search(name), (key, name)
        if lang == "zh":
            assert CJK.search(name) or name.startswith(("UPS", "NVIDIA", "FlashAttention")), (key, name)


def test_values_are_printed_in_words():
    assert words({"norm_residual_fwd": 22, "attn_io_fwd": 4}) == "norm residual fwd: 22, attn io fwd: 4"
    assert words("on_demand") == "on demand"
    assert words({"busy_share": "site.expected_utilization"}) == "busy share: expected utilization"
    assert words(["air", "cold-plate"]) == "open air, cold plate"
    assert words(0.74) == "0.74"
    assert words(True, "zh") == "是" and words(False, "en") == "no"
    assert words("[]") == "—" and words("") == "—"


def area_values(*areas: str) -> list[tuple[str, object]]:
    out = []
    for area in areas:
        data = yaml.safe_load(
            (ROOT / "catalogs" / "assumptions" / f"{area}.yaml").read_text(encoding="utf-8")
        )
        out += [
            (name, e["value"])
            for name, e in data["entries"].items()
            if isinstance(e["value"], dict | list | str)
        ]
    return out


def test_site_and_cost_values_are_in_the_reports_language():
    """The Chinese appendix's values say their keys and slugs in Chinese (每柜最高 kW, 背板换热, 温和), not
    "max kw per rack: 40, rear-door", and the English ones write units as units ("max kW per rack", "GPU price")."""
    values = area_values("facility", "cost", "network")
    assert len(values) >= 10
    for name, v in values:
        zh = words(v, "zh")
        assert not re.search(r"[a-z]{3,}", zh), (name, zh)  # no English word left (kW, PUE, ΔT are units)
        en = words(v, "en")
        assert not re.search(r"\bkw\b|\bpue\b|\bgpu\b", en), (name, en)
    fallback = dict(values)["fallback_methods"]
    assert words(fallback, "en").startswith(
        "open air (max kW per rack: 10, liquid share: 0, typical PUE: 1.58"
    )
    assert words(fallback, "zh").startswith("开放式风冷 (每柜最高 kW: 10, 液冷比例: 0, 典型 PUE: 1.58")
    for site_value, zh in (("temperate", "温和"), ("colocation", "托管机房"), ("on_demand", "按需")):
        assert words(site_value, "zh") == zh


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_suggested_input_the_project_did_not_enter_is_not_shown_as_applied(lang):
    """cost insurance_pct_per_year (0.5 %) suggests a value for the optional site field of that name (default 0):
    beside a project input of 0 the appendix says it is a suggestion not applied, with the project's value; when
    the project entered it, the value alone."""
    from types import SimpleNamespace

    from gpuplanner.reports.sections.assumptions import assumed_value

    def ctx(site: Site) -> SimpleNamespace:
        return SimpleNamespace(
            project=SimpleNamespace(site=site), lang=lang, t=lambda k, **p: i18n.tr(k, lang, **p)
        )

    value = yaml.safe_load((ROOT / "catalogs" / "assumptions" / "cost.yaml").read_text(encoding="utf-8"))[
        "entries"
    ]["insurance_pct_per_year"]["value"]
    assert value == 0.5 and Site().insurance_pct_per_year == 0
    shown = assumed_value(ctx(Site()), "insurance_pct_per_year", value)
    expected = {
        "en": "0.5 (suggested; not applied: this project's input is 0)",
        "zh": "0.5（建议值，未采用：本项目输入为 0）",
    }
    assert shown == expected[lang]
    assert assumed_value(ctx(Site(insurance_pct_per_year=0.5)), "insurance_pct_per_year", value) == "0.5"
    assert assumed_value(ctx(Site()), "staff_min_fte", Site().staff_min_fte) == words(Site().staff_min_fte)
    assert assumed_value(ctx(Site()), "gpu_price_share", 0.7) == "0.7"  # not a project input: the value alone
