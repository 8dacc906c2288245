"""Power sums, cooling and cost of random projects: the array pipeline (compile → compute_power →
compute_thermal → compute_cost) against a per-device Python loop over the project and the catalog entries
(``tests/oracles/facility_oracle.py``), per device, rack and row, to 1e-9 relative.

Random projects: a generator family with a random server type, size, rack budget and optional storage and
management fabrics; then random edits — per-device price overrides, devices taken out of their racks,
cooling pinned on some racks (a catalog cooling, or an id the catalog does not have), the site's climate,
utilisation and electricity price — and a random GPU utilisation per device.
"""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from gpuplanner.commands import ReplaceRows
from gpuplanner.engine.compiled import compile_project
from gpuplanner.engine.facility.cost import compute_cost
from gpuplanner.engine.facility.power import compute_power
from gpuplanner.engine.facility.thermal import compute_thermal
from gpuplanner.model import Project
from gpuplanner.topology import GenerateOptions, generate_into
from tests.oracles import facility_oracle as oracle

SERVERS = [
    "nvidia-dgx-h100",
    "nvidia-dgx-a100",
    "nvidia-dgx-b200",
    "nvidia-dgx-h200",
    "huawei-atlas-800t-a2",
    "supermicro-sys-821ge-tnhr",
    "supermicro-sys-421ge-tnrt-l40s",
]
TEMPLATES = ["single-switch", "rail-leaf-spine", "leaf-spine", "fat-tree-3tier"]
REL = 1e-9


def _random_project(seed: int) -> tuple[Project, dict[str, float]]:
    rng = np.random.default_rng(seed)
    p = Project()
    template = str(rng.choice(TEMPLATES))
    for server in rng.permutation(SERVERS).tolist():  # the first server type the template can cable
        opts = GenerateOptions(
            template=template,
            server=server,
            servers=int(rng.integers(2, 5)) if template == "single-switch" else int(rng.integers(4, 40)),
            su_size=int(rng.choice([2, 4, 8])),
            rails=template != "leaf-spine",
            rack_budget_kw=float(rng.choice([20.0, 42.0, 60.0, 130.0])),
            storage_fabric=bool(rng.random() < 0.4),
            storage_system=str(rng.choice(["ddn-ai400x2", "weka-wekapod-node"])),
            storage_units=int(rng.integers(1, 4)),
            management_fabric=bool(rng.random() < 0.5),
        )
        try:
            generate_into(p, opts)
            break
        except Exception:  # noqa: BLE001 - this server type does not fit the template; try the next
            p = Project()
    assert p.devices, f"seed {seed}: no server type fits {template}"
    devs = list(p.devices.values())
    edits = []
    for d in devs:
        r = rng.random()
        if r < 0.1:
            edits.append(dataclasses.replace(d, price_usd=float(rng.uniform(0, 5e5))))
        elif r < 0.15:
            edits.append(dataclasses.replace(d, rack_id=None, u_position=None))
    if edits:
        ReplaceRows("devices", edits).apply(p)
    coolings = [e.id for e in p.catalog.of_kind("cooling")] + ["no-such-cooling"]
    pins = [
        dataclasses.replace(r, cooling_id=str(rng.choice(coolings)))
        for r in p.racks.values()
        if rng.random() < 0.3
    ]
    if pins:
        ReplaceRows("racks", pins).apply(p)
    p.tables["site"]["site"] = dataclasses.replace(
        p.site,
        climate=str(rng.choice(["cold", "temperate", "hot"])),
        expected_utilization=float(rng.uniform(0, 1)),
        electricity_usd_per_kwh=float(rng.uniform(0.03, 0.3)),
    )
    util = {d: float(rng.uniform(-0.1, 1.1)) for d in p.devices}  # out-of-range values are clipped
    return p, util


def _close(engine, expected, what):
    np.testing.assert_allclose(engine, expected, rtol=REL, atol=1e-9, err_msg=what)


@pytest.mark.parametrize("seed", range(12))
def test_power_thermal_cost_match_the_per_device_loop(seed):
    p, util = _random_project(seed)
    c = compile_project(p)
    pw = compute_power(c, np.array([util[d] for d in c.devices.ids]))
    th = compute_thermal(c, pw, p.site, p.catalog)
    ref_p = oracle.power(p, util)
    ref_t = oracle.thermal(p, p.site, ref_p)
    rng = np.random.default_rng(seed)
    cables = [e.id for e in p.catalog.of_kind("cable")] + [e.id for e in p.catalog.of_kind("transceiver")]
    bom = {str(k): float(rng.integers(1, 500)) for k in rng.choice(cables, 4, replace=False)}
    cost = compute_cost(c, pw, th, p.site, p.info, p.catalog, bom=bom)
    ref_c = oracle.capex(p, ref_p, ref_t, bom)

    # power: every device, rack, row, the unracked bucket and the IT totals, for each quantity
    for q in ("idle", "typical", "max", "load"):
        _close(getattr(pw, f"device_{q}_w"), [ref_p["device"][d][q] for d in c.devices.ids], f"device {q}")
        _close(getattr(pw, f"rack_kw_{q}"), [ref_p["rack"][r][q] for r in c.racks.ids], f"rack kW {q}")
        _close(getattr(pw, f"row_kw_{q}"), [ref_p["row"][lab][q] for lab in pw.row_labels], f"row kW {q}")
        _close(getattr(pw, f"unracked_kw_{q}"), ref_p["unracked"][q], f"unracked kW {q}")
        _close(getattr(pw, f"it_kw_{q}"), ref_p["it"][q], f"IT kW {q}")
    assert sorted(pw.row_labels) == sorted(ref_p["row"]) or not ref_p["row"]

    # cooling: the choice per rack, liquid kW, airflow and coolant flow per rack, PUE, energy
    assert th.rack_cooling_ids == [ref_t["cooling"][r] for r in c.racks.ids]
    rack = ref_t["rack"]
    _close(th.rack_liquid_kw, [rack[r]["liquid_kw"] for r in c.racks.ids], "rack liquid kW")
    _close(th.rack_liquid_kw_max, [rack[r]["liquid_kw_max"] for r in c.racks.ids], "rack liquid kW max")
    _close(th.rack_loop_kw_max, [rack[r]["loop_kw_max"] for r in c.racks.ids], "rack loop kW max")
    _close(th.rack_airflow_m3_per_h, [rack[r]["airflow_m3_per_h"] for r in c.racks.ids], "rack airflow")
    _close(th.rack_coolant_l_per_min, [rack[r]["coolant_l_per_min"] for r in c.racks.ids], "rack coolant")
    _close(th.liquid_kw, sum(v["liquid_kw"] for v in rack.values()), "liquid kW")
    _close(th.pue, ref_t["pue"], "PUE")
    _close(th.annual_mwh, ref_t["annual_mwh"], "annual MWh")
    _close(th.energy_usd_per_year, ref_t["energy_usd_per_year"], "energy $/year")

    # capex by category and the total
    for k, v in ref_c.items():
        _close(cost.capex_usd_by_category[k], v, f"capex {k}")
    _close(cost.capex_usd, sum(ref_c.values()), "capex total")
