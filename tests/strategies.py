"""Hypothesis strategies: random projects built through the same model API users drive."""

from __future__ import annotations

from hypothesis import strategies as st

from gpuplanner.commands import AddRows
from gpuplanner.model import Device, Link, Project, Rack, Workload

SERVERS = ["nvidia-dgx-h100", "nvidia-dgx-a100", "supermicro-sys-821ge-tnhr"]
SWITCHES = ["nvidia-quantum-2-qm9700", "nvidia-spectrum-4-sn5600"]
RACKS = ["generic-42u-600x1200", "generic-48u-600x1200-hd"]

text = st.text(alphabet=st.characters(codec="utf-8", exclude_categories=("Cs",)), max_size=20)
floats = st.floats(min_value=0, max_value=1e5, allow_nan=False, allow_infinity=False)


@st.composite
def projects(draw) -> Project:
    p = Project()
    n_racks = draw(st.integers(0, 4))
    racks = [
        Rack(
            id=p.new_id("racks"),
            name=draw(text) or "r",
            type_id=draw(st.sampled_from(RACKS)),
            row=draw(st.sampled_from(["A", "B", "行1"])),
            position=draw(st.integers(1, 20)),
            power_budget_kw=draw(st.none() | floats),
            x=draw(floats),
            y=draw(floats),
        )
        for _ in range(n_racks)
    ]
    AddRows("racks", racks).apply(p)
    devices = []
    for _ in range(draw(st.integers(0, 8))):
        is_server = draw(st.booleans())
        devices.append(
            Device(
                id=p.new_id("devices"),
                name=draw(text),
                type_id=draw(st.sampled_from(SERVERS if is_server else SWITCHES)),
                role="compute" if is_server else draw(st.sampled_from(["leaf", "spine"])),
                rack_id=draw(st.sampled_from([None] + [r.id for r in racks])),
                u_position=draw(st.none() | st.integers(1, 42)),
                x=draw(st.floats(-1e4, 1e4, allow_nan=False)),
                y=draw(st.floats(-1e4, 1e4, allow_nan=False)),
                price_usd=draw(st.none() | floats),
                group=draw(text),
            )
        )
    AddRows("devices", devices).apply(p)
    servers = [d for d in devices if d.role == "compute"]
    switches = [d for d in devices if d.role != "compute"]
    links = []
    for s in servers:
        for sw in switches[: draw(st.integers(0, len(switches)))]:
            links.append(
                Link(
                    id=p.new_id("links"),
                    a_device=s.id,
                    a_group="compute",
                    b_device=sw.id,
                    b_group=p.catalog.get(sw.type_id).fabric_ports()[0].name,
                    multiplicity=draw(st.integers(1, 8)),
                    length_m=draw(st.none() | floats),
                )
            )
    AddRows("links", links).apply(p)
    if draw(st.booleans()):
        AddRows(
            "workloads",
            [
                Workload(
                    id=p.new_id("workloads"),
                    name=draw(text),
                    tp=draw(st.integers(1, 8)),
                    measured_mfu=draw(st.none() | st.floats(0, 1)),
                    chunked_prefill=draw(st.booleans()),  # serving settings (yes/no): saved and reopened
                    gemm_allreduce_fusion=draw(st.booleans()),
                )
            ],
        ).apply(p)
    return p
