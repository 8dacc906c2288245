"""Bill of materials by construction, per preset: cages, cables and modules counted by hand formulas.

Sources: NVIDIA DGX H100 User Guide, 'Introduction to NVIDIA DGX H100/H200 Systems' (eight single-port
ConnectX-7 400 Gb/s compute ports brought out as four twin-port OSFP cages: one twin-port 2 × 400G module
per two links); NVIDIA DGX SuperPOD H100 RA-11333-001 (scalable unit of 32 DGX, 8 rail leaves, non-blocking).
"""

from __future__ import annotations

import math
from collections import Counter

import numpy as np
import pytest

from gpuplanner.catalog.types import TransceiverType
from gpuplanner.engine.compiled import KIND_CODES, compile_project
from gpuplanner.engine.fabric.network import analyze_fabric
from gpuplanner.topology.presets import get_preset

TWIN = "nvidia-mma4z00-ns"  # twin-port OSFP 2 × 400G SR4 (catalogs/transceiver)


@pytest.fixture(scope="module", params=["ib-su-32-node", "superpod-128-node", "roce-4-node", "pilot-1-node"])
def solved(request):
    p = get_preset(request.param).build()
    c = compile_project(p)
    return request.param, p, c, analyze_fabric(c, p.catalog)


def _ends(c, cab):
    """Per link end: (device row, port key, module id, module share)."""
    lk = c.links
    return [
        (lk.a, lk.a_port_key, cab.transceiver_a, cab.transceivers_a),
        (lk.b, lk.b_port_key, cab.transceiver_b, cab.transceivers_b),
    ]


def test_modules_are_whole_per_cage_and_sum_to_the_bom(solved):
    name, p, c, fab = solved
    cab = fab.cables
    per_group: Counter = Counter()
    for dev, key, mod, share in _ends(c, cab):
        for i in np.flatnonzero(share > 0):
            per_group[(int(dev[i]), int(key[i]), mod[i])] += float(share[i])
    expected: Counter = Counter()
    for (_, _, mod), s in per_group.items():
        expected[mod] += math.ceil(s - 1e-9)
    assert dict(expected) == cab.bom_transceivers


def test_dgx_h100_takes_four_twin_port_osfp_on_the_compute_fabric(solved):
    name, p, c, fab = solved
    if name not in ("ib-su-32-node", "superpod-128-node"):
        pytest.skip("no DGX H100 compute fabric")
    cab, lk = fab.cables, c.links
    dgx = {i for i, t in enumerate(c.devices.type_ids) if t == "nvidia-dgx-h100"}
    per_dgx: Counter = Counter()
    for dev, _key, mod, share in _ends(c, cab):
        roles = lk.a_role if dev is lk.a else lk.b_role
        for i in np.flatnonzero(share > 0):
            if int(dev[i]) in dgx and roles[i] == "compute":
                assert mod[i] == TWIN
                per_dgx[int(dev[i])] += float(share[i])
    assert len(per_dgx) == len(dgx)
    assert set(per_dgx.values()) == {4.0}  # 8 compute links / 2 links per twin-port module
    # whole fabric, all optical: every end twin-port → modules = 2 ends × links / 2
    compute = [i for i in range(len(lk.ids)) if cab.transceiver_a[i] == TWIN]
    links = sum(int(lk.multiplicity[i]) for i in compute)
    assert cab.bom_transceivers[TWIN] == links  # 2 × links / 2
    # rail-optimised non-blocking SU: 32 DGX × 8 server links + as many leaf→spine uplinks
    sus = len(dgx) // 32
    assert links == sus * 32 * 8 * 2


def test_ports_cabled_by_their_own_protocol(solved):
    """Fixed-protocol ports (a storage appliance's, with no VPI NIC) reach a switch of their own protocol.
    Server ports on ConnectX VPI adapters run either protocol and are cabled as the fabric's technology."""
    name, p, c, fab = solved
    lk = c.links
    storage = set(np.flatnonzero(c.devices.kind == KIND_CODES["storage"]).tolist())
    checked = 0
    for i in range(len(lk.ids)):
        if int(lk.a[i]) not in storage and int(lk.b[i]) not in storage:
            continue
        checked += 1
        ta = lk.port_keys[lk.a_port_key[i]]
        tb = lk.port_keys[lk.b_port_key[i]]
        ga = p.catalog.entries[ta[0]].port_group(ta[1])
        gb = p.catalog.entries[tb[0]].port_group(tb[1])
        if ga is None or gb is None:
            continue
        ib_a, ib_b = ga.type.startswith("infiniband"), gb.type.startswith("infiniband")
        assert ib_a == ib_b, f"{lk.ids[i]}: {ga.type} cabled to {gb.type}"
    assert checked or name == "pilot-1-node"


def test_cables_one_per_link_and_modules_only_on_optical_links(solved):
    name, p, c, fab = solved
    cab, lk = fab.cables, c.links
    assert sum(cab.bom_cables.values()) == int(lk.multiplicity[np.array(cab.cable_id) != ""].sum())
    for i, m in enumerate(cab.medium):
        if m.startswith("fiber-"):
            tr = p.catalog.entries[cab.transceiver_a[i]]
            assert isinstance(tr, TransceiverType)
        else:
            assert cab.transceiver_a[i] == "" and cab.transceivers_a[i] == 0
