"""What the proposal cites to a customer (a catalog entry's or an assumption's source, its note, the report's
own text) names a publication — a title, a publisher, a URL — never one of the project's internal files: the
domain articles GPU Planner was made from are stored as `NNN_<hash>.txt`, a name that means nothing to a
reader ("domain article 003_e619bd75e1f44c1e.txt", "the domain article (000)")."""

from __future__ import annotations

import re
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[2]
# an internal article file ("003_e619bd75e1f44c1e.txt", with or without ".txt") or its bare number ("(000)")
INTERNAL = re.compile(r"\b\d{3}_[0-9a-f]{12,}\b|\barticle \(\d{3}\)")


def strings(x: object, where: str):
    if isinstance(x, str):
        yield where, x
    elif isinstance(x, dict):
        for k, v in x.items():
            yield from strings(v, f"{where}.{k}")
    elif isinstance(x, list):
        for i, v in enumerate(x):
            yield from strings(v, f"{where}[{i}]")


def test_the_pattern_finds_the_internal_names():
    assert INTERNAL.search("Domain article 003_e619bd75e1f44c1e.txt (interconnect at 20–30 % of GPU cost)")
    assert INTERNAL.search("derived from the domain article (000): 'GPU utilisation drops'")
    assert not INTERNAL.search(
        "closed/NVIDIA/results/run_1/mlperf_log_summary.txt; result_0.txt to result_2.txt"
    )


def test_no_catalog_text_names_an_internal_file():
    found = []
    for path in sorted((ROOT / "catalogs").rglob("*.yaml")):
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
        found += [f"{path.relative_to(ROOT)}{w}: {s}" for w, s in strings(data, "") if INTERNAL.search(s)]
    assert not found, "\n".join(found)


def test_no_report_text_names_an_internal_file():
    found = [
        f"{path.relative_to(ROOT)}:{n}"
        for folder in ("reports", "text")
        for path in sorted((ROOT / "gpuplanner" / folder).rglob("*.py"))
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if INTERNAL.search(line)
    ]
    assert not found, found


def test_the_articles_are_cited_by_title():
    def source(area: str, name: str) -> str:
        data = yaml.safe_load(
            (ROOT / "catalogs" / "assumptions" / f"{area}.yaml").read_text(encoding="utf-8")
        )
        return data["entries"][name]["source"]

    for area, name in (
        ("cost", "tco_discounting"),
        ("cost", "network_share_normal"),
        ("facility", "liquid_loop_pue"),
    ):
        assert "web article '显卡集群是什么，显卡集群如何搭建'" in source(area, name).lower()
    assert "今朝恒业" in source("network", "nic_warn_fraction")
