"""Export-control data on GPUs and servers (the contract another finding reads): its shape, inheritance and
the dated rules it encodes (BIS 88 FR 73458 of Oct 2023; NVIDIA 8-K of 2025-04-15 on H20)."""

from __future__ import annotations

import pytest

from gpuplanner.catalog import load_catalog
from gpuplanner.catalog.types import GpuType, ServerType, restricted_in


@pytest.fixture(scope="module")
def cat():
    return load_catalog(include_user=False)


def test_every_gpu_and_server_has_a_sourced_rule(cat):
    for e in cat.entries.values():
        if isinstance(e, GpuType | ServerType) and (not isinstance(e, ServerType) or e.gpu_count):
            ec = e.export_control
            assert isinstance(ec, dict), e.id
            assert ec["source"] and ec["as_of"] and isinstance(ec["classification"], str), e.id
            assert all(len(r) == 2 and r.isupper() for r in ec["restricted_regions"]), e.id


@pytest.mark.parametrize(
    ("gpu", "china_restricted"),
    [
        ("nvidia-a100-sxm4-80gb", True),
        ("nvidia-h100-sxm", True),
        ("nvidia-h200-sxm", True),
        ("nvidia-b200", True),
        ("nvidia-gb200", True),
        ("nvidia-h20", True),  # since 2025-04-09
        ("nvidia-l20", False),
        ("huawei-ascend-910b", False),
    ],
)
def test_china_rules(cat, gpu, china_restricted):
    assert restricted_in(cat.get(gpu), "CN") is china_restricted
    assert restricted_in(cat.get(gpu), "cn") is china_restricted


def test_h20_licence_date(cat):
    assert cat.get("nvidia-h20").export_control["licence_required_since"] == "2025-04-09"


def test_server_inherits_its_gpus_rule_unless_it_states_its_own(cat):
    dgx = cat.get("nvidia-dgx-h100")
    assert dgx.raw.get("export_control") is None  # not in the file …
    assert dgx.export_control["inherited_from"] == "nvidia-h100-sxm"  # … but on the type
    assert restricted_in(dgx, "CN") and cat.export_control_of("nvidia-dgx-h100")["inherited_from"]
    atlas = cat.get("huawei-atlas-800t-a2")
    assert atlas.export_control is not None and not restricted_in(atlas, "CN")
    own = [s for s in cat.of_kind("server") if s.raw.get("export_control")]
    for s in own:
        assert "inherited_from" not in s.export_control
