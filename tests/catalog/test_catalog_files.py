"""One test per bundled catalog file: schema, rules, references, source and date, and plausible figures.

A failure names the file and the field. The plausible ranges are wide on purpose — they catch a unit slip
(kW typed as W, a sparse figure, MB for GB), not a disagreement between datasheets — and each bound says
what it is anchored to.
"""

from __future__ import annotations

import math
from pathlib import Path

import pytest

from gpuplanner.catalog import load_catalog
from gpuplanner.catalog.loader import RENAMED_FIELDS, parse_entry, parse_prices
from gpuplanner.catalog.rules import check_references
from gpuplanner.catalog.types import KIND_DIRS, CatalogEntry

ROOT = Path(__file__).resolve().parents[2] / "catalogs"
FILES = sorted(p for folder in KIND_DIRS.values() for p in (ROOT / folder).glob("*.yaml"))
PRICE_FILES = sorted((ROOT / "prices").glob("*.yaml"))

# (kind, field): (low, high, why) — inclusive bounds; None values are skipped where the schema allows null.
RANGES: dict[tuple[str, str], tuple[float, float, str]] = {
    ("gpu", "tdp_w"): (50, 2000, "L4 72 W … GB300 1.4 kW per GPU"),
    ("gpu", "power_idle_w"): (5, 300, "idle reading of a data-centre GPU"),
    ("gpu", "mem_gb"): (8, 300, "HBM/GDDR per GPU: 24 GB … 288 GB (B300, MI355X)"),
    ("gpu", "mem_bw_tbyte_per_s"): (0.3, 10, "GDDR6 0.3 … HBM3e 8 TB/s"),
    ("gpu", "bf16_dense_tflops"): (20, 6000, "dense BF16, never the sparse figure"),
    ("gpu", "fp8_dense_tflops"): (40, 12000, "dense FP8"),
    ("gpu", "scaleup_bw_gbyte_per_s"): (0, 3600, "NVLink 5 1.8 TB/s both directions"),
    ("gpu", "released"): (2017, 2027, "hardware a consultant still meets"),
    ("server", "gpu_count"): (0, 384, "8-GPU box … a 384-NPU SuperPoD"),
    ("server", "ru"): (1, 52, "at most one rack"),
    ("server", "power_max_w"): (300, 250_000, "a 1U box … a 132 kW NVL72 rack"),
    ("server", "airflow_cfm"): (50, 3000, "fans of one chassis"),
    ("server", "weight_kg"): (5, 1600, "a 1U box … a 1.36 t NVL72 rack"),
    ("switch", "power_max_w"): (20, 40_000, "a 1U switch … a 16-slot chassis"),
    ("switch", "ru"): (1, 48, "1U … a full-rack chassis"),
    ("switch", "latency_ns"): (50, 10_000, "cut-through … deep-buffer chassis"),
    ("nic", "speed_gbps"): (1, 1600, "per port"),
    ("nic", "power_max_w"): (1, 150, "a NIC … a DPU card"),
    ("transceiver", "power_w"): (0.5, 40, "SFP 1 W … 1.6T OSFP ~30 W"),
    ("transceiver", "reach_max_m"): (1, 100_000, "SR … ZR"),
    ("cable", "reach_max_m"): (0.5, 100_000, "DAC … single-mode fibre"),
    ("cable", "power_w"): (0, 20, "per end; 0 for passive"),
    ("rack", "power_budget_kw"): (1, 300, "design budget of one rack"),
    ("pdu", "capacity_kw"): (1, 1000, "one rack PDU … an 800 A busway run"),
    ("pdu", "voltage_v"): (100, 480, "mains"),
    ("cooling", "max_kw_per_rack"): (3, 300, "open-room air … immersion tank"),
    ("cooling", "pue_typical"): (1.01, 2.5, "PUE"),
    ("cooling", "delta_t_k"): (2, 30, "coolant or air temperature rise"),
    ("cooling", "supply_temp_c"): (5, 50, "chilled water … W45"),
    ("cooling", "unit_capacity_kw"): (5, 5000, "an in-rack CDU … a room CDU"),
    ("cooling", "flow_l_per_min"): (5, 10_000, "coolant flow of one unit"),
    ("storage", "read_gbyte_per_s"): (0.5, 1000, "per unit"),
    ("storage", "power_max_w"): (100, 40_000, "per unit"),
}


def plausibility_problems(entry: CatalogEntry, file: str) -> list[str]:
    """Every figure outside its range, and the cross-checks, as 'file: field = value …' sentences."""
    out = []
    figures = entry.figures()
    for (kind, field), (lo, hi, why) in RANGES.items():
        if kind != entry.kind:
            continue
        v = figures.get(field)
        if v is None:
            continue
        if not lo <= v <= hi:
            out.append(f"{file}: field '{field}' = {v} outside {lo}–{hi} ({why})")
    if entry.kind == "server" and entry.gpu_count:
        per_gpu = entry.power_max_w / entry.gpu_count
        if not 150 <= per_gpu <= 4000:
            out.append(f"{file}: field 'power_max_w' = {entry.power_max_w} is {per_gpu:.0f} W per GPU")
        if entry.ru and entry.weight_kg and entry.weight_kg / entry.ru > 60:
            out.append(f"{file}: field 'weight_kg' = {entry.weight_kg} is over 60 kg per RU")
    if entry.kind == "pdu":
        raw_kw = entry.voltage_v * entry.current_a * (math.sqrt(3) if entry.phases == 3 else 1) / 1000
        if not 0.5 * raw_kw <= entry.capacity_kw <= 1.05 * raw_kw:
            out.append(
                f"{file}: field 'capacity_kw' = {entry.capacity_kw} does not follow from "
                f"{entry.phases}-phase {entry.voltage_v} V × {entry.current_a} A = {raw_kw:.1f} kW"
            )
    fp4, fp8 = figures.get("fp4_dense_tflops"), figures.get("fp8_dense_tflops")
    if entry.kind == "gpu" and fp4 is not None and fp8 and fp4 < fp8:
        out.append(f"{file}: field 'fp4_dense_tflops' = {entry.fp4_dense_tflops} below FP8")
    ec = figures.get("export_control")
    if ec and not ec.get("source"):
        out.append(f"{file}: field 'export_control.source' is empty")
    return out


@pytest.fixture(scope="module")
def bundled():
    return load_catalog(include_user=False)


@pytest.mark.parametrize("path", FILES, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_catalog_file(path, bundled):
    rel = f"{path.parent.name}/{path.name}"
    kind = next(k for k, d in KIND_DIRS.items() if d == path.parent.name)
    entry, errors = parse_entry(path, kind)
    assert not errors, "\n".join(f"{rel}: field '{e.field}': {e.message}" for e in errors)
    assert entry is not None
    assert not any(old in entry.raw for old in RENAMED_FIELDS.get(kind, {})), f"{rel}: uses a renamed field"
    refs = check_references({**bundled.entries, entry.id: entry})
    mine = [e for e in refs if e.entry == entry.id]
    assert not mine, "\n".join(f"{rel}: field '{e.field}': {e.message}" for e in mine)
    assert entry.source.strip() and entry.as_of.strip(), f"{rel}: field 'source'/'as_of' empty"
    if entry.estimate:
        assert entry.estimate_note.strip(), f"{rel}: field 'estimate_note' missing for an estimate"
    for name, fs in (entry.field_sources or {}).items():
        assert fs.get("source") and fs.get("as_of"), f"{rel}: field 'field_sources.{name}' lacks source/as_of"
    problems = plausibility_problems(entry, rel)
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("path", PRICE_FILES, ids=lambda p: f"prices/{p.name}")
def test_price_file(path, bundled):
    prices, errors = parse_prices(path)
    assert not errors, "\n".join(f"prices/{path.name}: field '{e.field}': {e.message}" for e in errors)
    for p in prices:
        assert p.id in bundled.entries, f"prices/{path.name}: price for unknown entry '{p.id}'"
        assert p.source.strip() and p.as_of, f"prices/{path.name}: entry '{p.id}' lacks source/as_of"


def test_a_bad_figure_fails_naming_file_and_field(tmp_path):
    """The check above can fail: a GPU whose TDP was typed in kW·1000 twice, and a 3-phase PDU in kVA·√3."""
    src = (ROOT / "gpu" / "nvidia-h100-sxm.yaml").read_text(encoding="utf-8")
    (tmp_path / "gpu").mkdir()
    bad = tmp_path / "gpu" / "nvidia-h100-sxm.yaml"
    bad.write_text(src.replace("tdp_w: 700", "tdp_w: 7000"), encoding="utf-8")
    entry, errors = parse_entry(bad, "gpu")
    assert not errors and entry is not None
    problems = plausibility_problems(entry, "gpu/nvidia-h100-sxm.yaml")
    assert problems == [
        "gpu/nvidia-h100-sxm.yaml: field 'tdp_w' = 7000 outside 50–2000 (L4 72 W … GB300 1.4 kW per GPU)"
    ]
    pdu_src = (ROOT / "pdu" / "generic-3ph-400v-32a.yaml").read_text(encoding="utf-8")
    (tmp_path / "pdu").mkdir()
    pdu = tmp_path / "pdu" / "generic-3ph-400v-32a.yaml"
    pdu.write_text(pdu_src.replace("capacity_kw: 22.2", "capacity_kw: 38.4"), encoding="utf-8")
    entry, _ = parse_entry(pdu, "pdu")
    assert any("field 'capacity_kw'" in p for p in plausibility_problems(entry, "pdu/x.yaml"))


def test_old_field_name_still_loads_from_a_project_copy():
    """A project saved before the rename stored `switching_tbps`; it must open with the same figure."""
    from gpuplanner.catalog.loader import entry_from_dict

    cur = load_catalog(include_user=False).get("nvidia-quantum-2-qm9700")
    old = dict(cur.raw)
    old["switching_tbps"] = old.pop("switching_tbps_unidirectional")
    entry, errors = entry_from_dict(old, origin="old project")
    assert not errors
    assert entry.switching_tbps_unidirectional == 25.6 and entry.switching_tbps_bidirectional == 51.2
