"""A broken user catalog yields precise errors and never stops the bundled catalog from loading."""

from __future__ import annotations

from pathlib import Path

from gpuplanner.catalog import load_catalog
from gpuplanner.catalog.loader import parse_entry

GOOD_GPU = """\
id: acme-x1
kind: gpu
vendor: ACME
model: X1
name: ACME X1
source: ACME X1 datasheet
as_of: "2025-01"
tdp_w: 500
mem_gb: 96
mem_bw_tbyte_per_s: 3.0
bf16_dense_tflops: 500
fp8_dense_tflops: 1000
scaleup_tech: nvlink4
scaleup_bw_gbyte_per_s: 900
pcie_gen: 5
"""


def _write(root: Path, rel: str, text: str) -> Path:
    p = root / rel
    p.parent.mkdir(parents=True, exist_ok=True)
    p.write_text(text, encoding="utf-8")
    return p


def test_good_user_entry_loads_and_overrides(tmp_path):
    _write(tmp_path, "gpu/acme-x1.yaml", GOOD_GPU)
    cat = load_catalog(user_dir=tmp_path)
    assert cat.get("acme-x1").tdp_w == 500
    assert not [e for e in cat.errors if "acme" in (e.file or "")]


def test_broken_entries_are_reported_precisely_and_rest_loads(tmp_path):
    bundled = load_catalog(include_user=False)
    _write(tmp_path, "gpu/acme-x1.yaml", GOOD_GPU.replace("tdp_w: 500", "tdp_w: -5"))
    _write(tmp_path, "gpu/acme-x2.yaml", "id: acme-x2\nkind: gpu\n  bad: [indent\n")
    _write(tmp_path, "gpu/acme-x3.yaml", GOOD_GPU.replace("acme-x1", "acme-x3").replace("tdp_w", "tdp_watts"))
    cat = load_catalog(user_dir=tmp_path)
    msgs = [(Path(e.file).name, e.field, e.one_line()) for e in cat.errors]
    assert any(f == "acme-x1.yaml" and fld == "tdp_w" and "-5" in m for f, fld, m in msgs)
    assert any(f == "acme-x2.yaml" and "line" in m for f, _, m in msgs)
    assert any(f == "acme-x3.yaml" and "tdp_watts" in m for f, _, m in msgs)
    assert "acme-x1" not in cat.entries and "acme-x3" not in cat.entries
    assert len(cat.entries) == len(bundled.entries)  # the bundled catalog still loads in full


def test_sparse_figure_is_caught_by_rules(tmp_path):
    p = _write(
        tmp_path, "gpu/acme-x1.yaml", GOOD_GPU.replace("fp8_dense_tflops: 1000", "fp8_dense_tflops: 250")
    )
    entry, errors = parse_entry(p, "gpu")
    assert entry is None and errors[0].field == "fp8_dense_tflops"


def test_estimate_requires_a_note(tmp_path):
    p = _write(tmp_path, "gpu/acme-x1.yaml", GOOD_GPU + "estimate: true\n")
    entry, errors = parse_entry(p, "gpu")
    assert entry is None and "estimate_note" in errors[0].message


def test_id_must_match_file_name(tmp_path):
    p = _write(tmp_path, "gpu/other.yaml", GOOD_GPU)
    entry, errors = parse_entry(p, "gpu")
    assert entry is None and errors[0].field == "id"
