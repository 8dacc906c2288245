"""`estimate --inference`: the static-batch block never shows throughput for a layout that does not hold the
batch. Without `--tp` it takes the smallest TP that fits (as the serving search does) and says so; when none
fits, or the `--tp` given does not, it shows only the memory and the refusal. The JSON names the layout (`tp`,
`tp_searched`) and has no figures for a layout that does not fit. English and Chinese."""

from __future__ import annotations

import contextlib
import io
import json
import os

import pytest

from gpuplanner.cli import main

BASE = ("estimate", "--inference", "--model", "llama3-70b", "--gpu", "nvidia-h100-sxm", "--ttft", "1",
        "--tpot", "0.05")  # fmt: skip
THROUGHPUT = {
    "en": ("decode tokens/s", "decode step", "replicas"),
    "zh": ("解码吞吐", "解码步时间", "副本数"),
}


def cli(*args: str, lang: str = "en") -> tuple[int, str]:
    old = os.environ.pop("GPUPLANNER_LANG", None)
    os.environ["GPUPLANNER_LANG"] = lang
    out = io.StringIO()
    try:
        with contextlib.redirect_stdout(out):
            rc = main([*BASE, *args])
    finally:
        os.environ.pop("GPUPLANNER_LANG", None)
        if old is not None:
            os.environ["GPUPLANNER_LANG"] = old
    return rc, out.getvalue()


def static_block(out: str) -> str:
    """The static-batch block: its header and its indented lines, up to the serving settings line."""
    lines = out.splitlines()
    block = [lines[0]]
    for line in lines[1:]:
        if not line.startswith("  "):
            break
        block.append(line)
    return "\n".join(block)


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_without_tp_the_static_batch_is_the_smallest_layout_that_fits(lang):
    rc, out = cli("--gpus", "8", lang=lang)
    assert rc == 0
    block = static_block(out)
    head = {
        "en": "(bf16, TP4, the smallest tensor-parallel size that holds it)",
        "zh": "（bf16，TP4，能放下它的最小张量并行规模）",
    }
    assert head[lang] in block.splitlines()[0]
    assert all(word in block for word in THROUGHPUT[lang])
    assert (
        "fits in memory                 yes" if lang == "en" else "显存是否放得下                是"
    ) in block
    assert "532.2" not in out and "TP1" not in block  # the TP1 figures of a layout that does not fit
    d = json.loads(cli("--gpus", "8", "--json")[1])
    assert d["tp"] == 4 and d["tp_searched"] and d["fits"] and d["replicas"] == 2
    assert d["cluster_tokens_per_s"] == pytest.approx(2 * d["decode_tokens_per_s"])


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("args", [("--gpus", "8", "--tp", "1"), ("--gpus", "2")])
def test_a_layout_that_does_not_fit_shows_only_the_refusal(args, lang):
    rc, out = cli(*args, lang=lang)
    block = static_block(out)
    assert not any(word in block for word in THROUGHPUT[lang]), block
    assert ("does not fit" if lang == "en" else "放不下的原因") in block
    assert ("needs" if lang == "en" else "每块 GPU 需要") in block  # memory needed against what is usable
    if "--tp" not in args:  # the search found none: it says up to which TP it looked
        none = {"en": "no tensor-parallel size up to TP2 holds it", "zh": "张量并行规模直到 TP2 都放不下"}
        assert none[lang] in block.splitlines()[0]
    d = json.loads(cli(*args, "--json")[1])
    assert (
        not d["fits"] and d["tp"] == (1 if "--tp" in args else 2) and d["tp_searched"] == ("--tp" not in args)
    )
    assert d["memory"]["total_gb"] > d["memory"]["usable_gb"] and d["refusal"]
    for key in (
        "decode_tokens_per_s",
        "decode_step_s",
        "ttft_s",
        "cluster_tokens_per_s",
        "replicas",
        "bound",
    ):
        assert d[key] is None, key
