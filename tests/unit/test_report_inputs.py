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
    assert words(["air", "cold-plate"]) == "air, cold-plate"
    assert words(0.74) == "0.74"
    assert words(True, "zh") == "是" and words(False, "en") == "no"
    assert words("[]") == "—" and words("") == "—"
