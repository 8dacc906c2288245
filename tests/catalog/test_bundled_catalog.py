"""The bundled catalog loads cleanly, holds the hardware issue #2 names, and its figures are consistent."""

from __future__ import annotations

import pytest

from gpuplanner.catalog import load_catalog
from gpuplanner.catalog.types import GpuType, ServerType

REQUIRED_GPUS = [
    "nvidia-a100-sxm4-40gb",
    "nvidia-a100-sxm4-80gb",
    "nvidia-a100-pcie-80gb",
    "nvidia-h100-sxm",
    "nvidia-h100-pcie",
    "nvidia-h100-nvl",
    "nvidia-h200-sxm",
    "nvidia-h20",
    "nvidia-l40s",
    "nvidia-l20",
    "nvidia-b200",
    "nvidia-gb200",
    "nvidia-rtx-4090",
    "amd-mi300x",
    "huawei-ascend-910b",
]


@pytest.fixture(scope="module")
def cat():
    return load_catalog(include_user=False)


def test_bundled_catalog_has_no_errors(cat):
    assert [e.one_line() for e in cat.errors] == []


@pytest.mark.parametrize("gpu_id", REQUIRED_GPUS)
def test_required_gpus_present_with_sources(cat, gpu_id):
    g = cat.get(gpu_id)
    assert isinstance(g, GpuType)
    assert g.source and g.as_of
    assert g.tdp_w > 0 and g.mem_gb > 0 and g.mem_bw_tbyte_per_s > 0 and g.bf16_dense_tflops > 0


def test_every_entry_has_source_and_date(cat):
    for e in cat.entries.values():
        assert e.source.strip(), e.id
        assert e.as_of[:2] in ("19", "20"), e.id
        if e.estimate:
            assert e.estimate_note.strip(), e.id


def test_dense_not_sparse_figures(cat):
    """Datasheets print 'with sparsity' = 2× dense; the bundled figures are dense (spot checks)."""
    h100 = cat.get("nvidia-h100-sxm")
    assert 980 <= h100.bf16_dense_tflops <= 1000  # 1,979 sparse / 2
    a100 = cat.get("nvidia-a100-sxm4-80gb")
    assert a100.bf16_dense_tflops == pytest.approx(312, rel=0.01)
    assert a100.fp8_dense_tflops is None
    assert cat.get("nvidia-a100-sxm4-40gb").mem_bw_tbyte_per_s < a100.mem_bw_tbyte_per_s
    assert cat.get("nvidia-h200-sxm").mem_gb > cat.get("nvidia-h100-nvl").mem_gb


def test_servers_reference_gpus_and_psus_carry_the_load(cat):
    servers = [e for e in cat.entries.values() if isinstance(e, ServerType)]
    assert servers
    for s in servers:
        if s.gpu_count:
            assert isinstance(cat.get(s.gpu), GpuType)
        n, m = s.psu_n_m()
        assert n + m == s.psu_count
        assert n * s.psu_rating_w >= s.power_max_w


def test_prices_refer_to_entries(cat):
    for pid in cat.prices:
        assert pid in cat.entries, f"price for unknown entry {pid}"
