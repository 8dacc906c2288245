"""Generators against published reference architectures and the textbook fat-tree formulas."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from gpuplanner.catalog import load_catalog
from gpuplanner.commands import UndoStack
from gpuplanner.core.errors import GenerationError
from gpuplanner.model import Project
from gpuplanner.topology import GenerateOptions, generate, generate_into

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures" / "catalog"


@pytest.fixture(scope="module")
def test_catalog():
    return load_catalog(user_dir=FIXTURES)


def roles(project: Project) -> Counter:
    return Counter(d.role for d in project.devices.values())


def ports_used(project: Project, device_id: str) -> Counter:
    """Cables per role of the far end."""
    out: Counter = Counter()
    for lid in project.links_of(device_id):
        lk = project.links[lid]
        other = lk.b_device if lk.a_device == device_id else lk.a_device
        out[project.devices[other].role] += lk.multiplicity
    return out


def test_superpod_4su_dgx_h100_on_qm9700():
    """NVIDIA DGX SuperPOD (H100) RA: 4 SUs of 32 DGX, 8 rails → 32 leaves, 16 spines at 1:1;
    each leaf has 32 ports to nodes and 32 to spines."""
    p = Project()
    generate_into(
        p,
        GenerateOptions(
            servers=128,
            su_size=32,
            server="nvidia-dgx-h100",
            leaf_switch="nvidia-quantum-2-qm9700",
            oversub=1,
        ),
    )
    r = roles(p)
    assert r["leaf"] == 32 and r["spine"] == 16 and r["compute"] == 128
    for d in p.devices.values():
        if d.role == "leaf":
            assert ports_used(p, d.id) == Counter({"compute": 32, "spine": 32})
        if d.role == "spine":
            assert ports_used(p, d.id) == Counter({"leaf": 64})


def test_oversubscription_2_to_1_halves_uplinks():
    p = Project()
    generate_into(p, GenerateOptions(servers=64, su_size=32, oversub=2))
    leaf = next(d for d in p.devices.values() if d.role == "leaf")
    used = ports_used(p, leaf.id)
    assert used["compute"] == 32 and used["spine"] == 16


@pytest.mark.parametrize("k", [8])
def test_two_tier_holds_k2_over_2(test_catalog, k):
    p = Project(test_catalog)
    generate_into(
        p,
        GenerateOptions(
            template="leaf-spine",
            server="acme-1nic",
            servers=k * k // 2,
            leaf_switch="acme-k8",
            rails=False,
            rack="generic-48u-600x1200-hd",
        ),
    )
    r = roles(p)
    assert r["leaf"] == k and r["spine"] == k // 2
    with pytest.raises(GenerationError, match="2-tier fabric of 8-port spines holds at most 8 leaves"):
        generate(
            Project(test_catalog),
            GenerateOptions(
                template="leaf-spine",
                server="acme-1nic",
                servers=k * k // 2 + 1,
                leaf_switch="acme-k8",
                rails=False,
            ),
        )


def test_three_tier_holds_k3_over_4(test_catalog):
    k = 8
    p = Project(test_catalog)
    generate_into(
        p,
        GenerateOptions(
            template="fat-tree-3tier",
            server="acme-1nic",
            servers=k**3 // 4,
            leaf_switch="acme-k8",
            rails=False,
            rack="generic-48u-600x1200-hd",
        ),
    )
    r = roles(p)
    assert r["leaf"] == k * k // 2  # k pods × k/2 leaves
    assert r["spine"] == k * k // 2  # k pods × k/2 spines
    assert r["core"] == (k // 2) ** 2
    for d in p.devices.values():
        if d.role == "core":
            assert sum(ports_used(p, d.id).values()) == k
    with pytest.raises(GenerationError, match="3-tier"):
        generate(
            Project(test_catalog),
            GenerateOptions(
                template="fat-tree-3tier",
                server="acme-1nic",
                servers=k**3 // 4 + 1,
                leaf_switch="acme-k8",
                rails=False,
            ),
        )


def test_refusal_names_the_limit():
    with pytest.raises(GenerationError) as exc:
        generate(Project(), GenerateOptions(servers=300, su_size=32))  # 300 DGX × 8 rails > 2,048 endpoints
    assert "2-tier" in str(exc.value) and "3 tiers" in str(exc.value)


def test_racks_respect_u_and_kw_budgets():
    p = Project()
    generate_into(p, GenerateOptions(servers=32, rack="generic-48u-600x1200-hd", rack_budget_kw=42))
    per_rack = Counter(d.rack_id for d in p.devices.values() if d.role == "compute")
    assert max(per_rack.values()) == 4  # 4 × 10.2 kW ≤ 42 kW; 5 would not fit
    p2 = Project()
    generate_into(p2, GenerateOptions(servers=32, rack="generic-48u-600x1200-hd", rack_budget_kw=25))
    assert max(Counter(d.rack_id for d in p2.devices.values() if d.role == "compute").values()) == 2


def test_generation_is_one_undo_step():
    p = Project()
    before = p.snapshot()
    stack = UndoStack(p)
    from gpuplanner.topology import generate as gen

    stack.push(gen(p, GenerateOptions(servers=16, management_fabric=True)).to_command("gen"))
    assert len(p.devices) > 16
    stack.undo()
    assert p.snapshot() == before
    stack.redo()
    assert len(p.devices) > 16


@pytest.mark.parametrize("template", ["single-switch", "leaf-spine", "dragonfly", "fat-tree-3tier"])
def test_every_template_generates(template):
    opts = GenerateOptions(template=template, servers=2 if template == "single-switch" else 64, rails=False)
    p = Project()
    generate_into(p, opts)
    assert roles(p)["compute"] == opts.servers
    assert all(p.links_of(d.id) for d in p.devices.values() if d.role == "compute")
