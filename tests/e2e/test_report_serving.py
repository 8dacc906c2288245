"""The proposal of a plan that serves a model: the performance section gives each serving workload's layout,
capacity, latencies, limit, memory and target (it said "No training workload is defined. Add one …" and
showed serving nowhere but in one summary sentence), and the executive summary's tiles give the serving
capacity and time to first token instead of two dashes for training throughput and time to train."""

from __future__ import annotations

import re

import pytest
from pypdf import PdfReader

from gpuplanner.cli import main

TRAINING = "Llama 3 70B continued pre-training"  # the preset's training workload


@pytest.fixture(scope="module")
def plans(tmp_path_factory):
    d = tmp_path_factory.mktemp("serving")
    mixed, serving_only = d / "mixed.gpuplan", d / "serve.gpuplan"
    chat = ["workload.chat.kind=inference", "workload.chat.model=llama3-70b", "workload.chat.precision=fp8",
            "workload.chat.users=2000", "workload.chat.ttft_target_s=1", "workload.chat.tpot_target_s=0.05",
            "workload.chat.prompt_len=1000", "workload.chat.output_len=300"]  # fmt: skip
    assert main(["generate", "ib-su-32-node", "-o", str(mixed)]) == 0
    assert main(["set", str(mixed), *chat]) == 0
    serving_only.write_bytes(mixed.read_bytes())
    assert main(["set", str(serving_only), f"workload.{TRAINING}.active=false"]) == 0
    return d, mixed, serving_only


def pages(d, plan, lang: str) -> list[str]:
    out = d / f"{plan.stem}-{lang}.pdf"
    assert main(["report", str(plan), "-o", str(out), "--lang", lang]) == 0
    return [re.sub(r"\s+", " ", p.extract_text()) for p in PdfReader(out).pages]


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_serving_plan_shows_its_serving_performance(plans, lang, capsys):
    d, _mixed, serving_only = plans
    text = pages(d, serving_only, lang)
    capsys.readouterr()
    perf = next(
        p for p in text[2:] if ("9. Performance" if lang == "en" else "9. 性能") in p
    )  # past the contents
    if lang == "en":
        assert "No training workload is defined" not in perf
        for want in ("Serving “chat”", "Capacity (requests/s)", "Concurrent users", "disaggregated",
                     "Limited by", "2,000 concurrent users", "38 of 256 — met"):  # fmt: skip
            assert want in perf, (want, perf)
        assert "Serving capacity of “chat”" in text[2] and "First token at that load" in text[2]
        assert "Training throughput" not in text[2].split("Key figures")[0]
        # the decision summary's "How fast" gives the serving capacity
        assert (
            "How fast Serving “chat” 17,007 concurrent users (1,074.2 requests/s), first token in 1.000 s"
            in text[3]
        )
    else:
        assert "尚未定义训练负载" not in perf
        for want in ("推理服务“chat”", "服务能力（请求/秒）", "并发用户数", "预填充/解码分离式", "限制因素",
                     "2,000 个并发用户", "256 块中需要 38 块——满足"):  # fmt: skip
            assert want in perf, (want, perf)
        assert "“chat”的服务能力" in text[2] and "该负载下首字时延" in text[2]
        assert "推理服务“chat” 17,007 个并发用户（每秒 1,074.2 个请求），首字时延 1.000 秒" in text[3], text[
            3
        ]


def test_a_mixed_plan_shows_training_then_serving(plans, capsys):
    d, mixed, _ = plans
    text = " ".join(pages(d, mixed, "en"))
    capsys.readouterr()
    start = text.index("9. Performance Workload and layout")
    body = text[start : text.index("10. Cost and total cost of ownership", start)]
    assert "Predicted performance" in body and body.index("Serving “chat”") > body.index("Scaling")
    assert "Training throughput" in text  # the tiles stay the training ones
