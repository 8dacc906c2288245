"""Refusals that name a catalog entry name it in the message's language (s11-zhpolish): the catalog's English
name in English, the Chinese name (``catalog.names.local_name``) in Chinese, with the id beside the name where
the reader chose the entry by its id (a command line's --server, a price list). The figures are the same in
both languages, and the name changes no figure of the engine."""

from __future__ import annotations

import dataclasses
import re

import pytest

from gpuplanner import text
from gpuplanner.catalog.loader import load_catalog
from gpuplanner.catalog.names import local_name
from gpuplanner.core.errors import GenerationError, ValidationError
from gpuplanner.engine.perf.request import cluster_of, run
from gpuplanner.model import Device, Project
from gpuplanner.model.validate import check_device_kind

CJK = re.compile(r"[\u4e00-\u9fff]")


@pytest.fixture(scope="module")
def cat():
    return load_catalog(include_user=False)


def _both(exc: BaseException) -> tuple[str, str]:
    return str(exc), text.error_line(exc, "zh")


def test_a_role_kind_refusal_names_the_model_in_each_language(cat):
    sw = cat.entries["nvidia-quantum-2-qm9700"]
    row = Device(id="d1", name="node-01", type_id=sw.id, role="compute")
    with pytest.raises(ValidationError) as info:
        check_device_kind(row, sw, cat)
    en, zh = _both(info.value)
    assert sw.name in en and local_name(sw, cat, "zh") not in en
    assert local_name(sw, cat, "zh") in zh and sw.name not in zh
    # the Chinese name says its kind; the sentence says the kind once more, after it
    assert "而所选的英伟达 Quantum-2 QM9700 NDR InfiniBand 交换机是交换机" in zh, zh


def test_a_link_on_a_missing_port_group_names_the_model(cat):
    from gpuplanner.commands import AddRows
    from gpuplanner.model import Link

    p = Project(cat)
    a = Device(id="a", name="node-a", type_id="nvidia-dgx-h100", role="compute")
    b = Device(id="b", name="node-b", type_id="nvidia-dgx-h100", role="compute")
    AddRows("devices", [a, b]).apply(p)
    link = Link(
        id="l1", a_device="a", a_group="no-such-group", b_device="b", b_group="compute", speed_gbps=400.0
    )
    with pytest.raises(ValidationError) as info:
        AddRows("links", [link]).apply(p)
    en, zh = _both(info.value)
    dgx = cat.entries["nvidia-dgx-h100"]
    assert f"({dgx.name})" in en and "nvidia-dgx-h100" not in en.split(":")[-1], en
    assert f"（{local_name(dgx, cat, 'zh', with_figures=False)}）没有端口组" in zh, zh


def test_a_generator_refusal_names_the_server_with_its_id(cat):
    """A template's server is chosen by its id (--server, the dialog's list "name (id)"): named and id."""
    from gpuplanner.topology.fattree import compute_ports

    srv = dataclasses.replace(cat.entries["nvidia-dgx-h100"], port_groups=())
    with pytest.raises(GenerationError) as info:
        compute_ports(srv)
    en, zh = _both(info.value)
    assert "the server NVIDIA DGX H100 (nvidia-dgx-h100) has no compute-fabric ports" in en, en
    assert "GPU 服务器 DGX H100（nvidia-dgx-h100）没有计算网络端口" in zh, zh


def test_the_estimate_names_the_gpu_in_each_language_and_changes_no_figure(cat):
    req = {"model": "llama3-8b", "gpu": "nvidia-h100-sxm", "gpus": 8, "tp": 1, "pp": 1}
    cluster = cluster_of(req, cat)
    gpu = cat.entries["nvidia-h100-sxm"]
    assert cluster.gpu_name == gpu.name  # the model reads gpu_name (family values): unchanged
    assert cluster.gpu_label is not None
    assert cluster.gpu_label.render("en") == gpu.name
    assert cluster.gpu_label.render("zh") == local_name(gpu, cat, "zh", with_figures=False)
    assert CJK.search(cluster.gpu_label.render("zh"))
    from gpuplanner.engine.perf.training import estimate

    res = run(req, cat)
    cfg, with_label = res.rows[0]
    without = estimate(res.shape, cfg, dataclasses.replace(res.cluster, gpu_label=None))
    assert (without.step_time_s, without.tokens_per_s, without.mfu) == (
        with_label.step_time_s,
        with_label.tokens_per_s,
        with_label.mfu,
    )


def test_the_mxfp8_refusal_names_the_gpu_in_each_language(cat):
    req = {
        "model": "llama3-8b",
        "gpu": "nvidia-h100-sxm",
        "gpus": 8,
        "tp": 1,
        "pp": 1,
        "precision": "fp8",
        "fp8_recipe": "mxfp8",
    }
    with pytest.raises(ValidationError) as info:
        run(req, cat)
    en, zh = _both(info.value)
    gpu = cat.entries["nvidia-h100-sxm"]
    assert f"{gpu.name} has none" in en, en
    assert f"{local_name(gpu, cat, 'zh', with_figures=False)} 不支持" in zh and gpu.name not in zh, zh
