"""``server-not-connected``: GPU servers without a link on a compute port. Oracle: the same set worked out
row by row from the model and the catalog's port groups (no arrays)."""

from __future__ import annotations

from gpuplanner.commands import RemoveRows, UndoStack
from gpuplanner.engine.analysis import analyze_project
from gpuplanner.model import Project
from gpuplanner.topology import GenerateOptions, generate_into


def _lonely_by_rows(p: Project) -> set[str]:
    def compute_end(dev_id: str, group: str) -> bool:
        entry = p.catalog.entries[p.devices[dev_id].type_id]
        return any(pg.name == group and pg.role == "compute" for pg in entry.port_groups)

    linked = set()
    for lk in p.links.values():
        for dev, group in ((lk.a_device, lk.a_group), (lk.b_device, lk.b_group)):
            if compute_end(dev, group):
                linked.add(dev)
    servers = {
        d.id
        for d in p.devices.values()
        if p.catalog.entries[d.type_id].kind == "server"
        and getattr(p.catalog.entries[d.type_id], "gpu_count", 0)
    }
    return servers - linked


def test_servers_cut_off_the_compute_fabric_are_named():
    p = Project()
    generate_into(p, GenerateOptions(template="leaf-spine", servers=16, rack_budget_kw=42))
    cut = sorted(d.id for d in p.devices.values() if d.role == "compute")[:2]
    links = sorted(lid for lid, lk in p.links.items() if lk.a_device in cut or lk.b_device in cut)
    UndoStack(p).push(RemoveRows("links", links))
    found = [f for f in analyze_project(p).findings if f.rule == "server-not-connected"]
    assert _lonely_by_rows(p) == set(cut)
    assert len(found) == 1 and set(found[0].items) == set(cut)
    assert found[0].params["n"] == 2
