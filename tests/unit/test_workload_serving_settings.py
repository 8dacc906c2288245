"""An inference workload states the serving settings `estimate --inference` takes: `serving_stack` (how the KV
cache is sized: vllm / trtllm, "" = vllm as the command line's default), `prompt_dataset` (prompt lengths as
in a dataset of catalogs/validation/inference_datasets.yaml, "" = every prompt is prompt_len) and `kv_fraction`
(the stack's KV-cache share as deployed, `--kv-fraction`; 0 = the stack's default) and `max_seqs` (the most
sequences one replica runs at once, `--max-seqs`; 0 = the stack's default) and `max_batched_tokens` (the most tokens
one engine step carries, `--max-batched-tokens`; 0 = the engine's default).

Oracle: the command line. A saved and reopened project's inference workload serves exactly what
`gpuplanner estimate --inference --serving-stack X --prompt-dataset D --json` prints for the same cluster,
model and targets. Older files without the columns open with ""; bad values open, leave the file as it was and
are named by the analysis (workload, field, value); `gpuplanner set` refuses them with the file untouched.
"""

from __future__ import annotations

import contextlib
import io
import json
import sqlite3
from pathlib import Path

import pytest

from gpuplanner.cli import main
from gpuplanner.core.errors import PlannerError
from gpuplanner.engine.analysis import analyze_project
from gpuplanner.engine.perf.serving_prompts import dataset_names, prompt_lengths
from gpuplanner.engine.workload_settings import SERVING_SETTINGS, workload_serving_settings
from gpuplanner.model import Project, Workload
from gpuplanner.storage import open_project, save_project
from gpuplanner.text import error_line, shown
from gpuplanner.topology import GenerateOptions
from gpuplanner.topology.compose import add_pod

SERVER = "nvidia-dgx-h100"  # 8 GPUs


@pytest.fixture(scope="module")
def cluster_file(tmp_path_factory) -> Path:
    p = Project()
    add_pod(p, GenerateOptions(template="single-switch", server=SERVER, servers=1), "serve")
    path = tmp_path_factory.mktemp("srv") / "cluster.gpuplan"
    save_project(p, path)
    return path


def _cli(args: list[str]) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        rc = main(args)
    return rc, out.getvalue(), err.getvalue()


def _mean(name: str) -> int:
    return round(prompt_lengths(name).mean)


def test_the_fields_are_not_stated_unless_stated():
    wl = Workload(id="w", name="w", kind="inference")
    assert {k: getattr(wl, k) for k in SERVING_SETTINGS} == {"serving_stack": "", "prompt_dataset": ""}
    assert workload_serving_settings(wl) == {"serving_stack": "vllm", "prompt_dist": None}


def test_both_fields_survive_save_and_open(tmp_path):
    p = Project()
    p.insert("workloads", Workload(id="w1", name="chat", kind="inference", prompt_len=_mean("mlperf-mixtral-8x7b"),
                                   serving_stack="trtllm", prompt_dataset="mlperf-mixtral-8x7b"))  # fmt: skip
    save_project(p, tmp_path / "a.gpuplan")
    back = open_project(tmp_path / "a.gpuplan").tables["workloads"]["w1"]
    assert (back.serving_stack, back.prompt_dataset) == ("trtllm", "mlperf-mixtral-8x7b")


@pytest.mark.parametrize("n", [1, 40])  # 40: read a column at a time (projectfile.COLUMN_CHECK_MIN_ROWS)
def test_an_older_file_without_the_columns_opens_with_nothing_stated(tmp_path, n):
    p = Project()
    for i in range(1, n + 1):
        p.insert("workloads", Workload(id=f"w{i}", name=f"chat{i}", kind="inference", prompt_len=222,
                                       serving_stack="trtllm", prompt_dataset="mlperf-llama2-70b"))  # fmt: skip
    path = tmp_path / "old.gpuplan"
    save_project(p, path)
    conn = sqlite3.connect(path)
    with conn:
        for name in SERVING_SETTINGS:
            conn.execute(f"ALTER TABLE workloads DROP COLUMN [{name}]")
    cols = {r[1] for r in conn.execute("PRAGMA table_info(workloads)")}
    conn.close()
    assert not cols & set(SERVING_SETTINGS) and "serving_mode" in cols
    rows = open_project(path).tables["workloads"]
    assert len(rows) == n
    for back in rows.values():
        assert back.prompt_len == 222 and back.serving_stack == "" and back.prompt_dataset == ""


CASES = [  # (serving_stack, prompt_dataset, model, precision, serving mode, TTFT/TPOT targets)
    ("", "", "llama3-70b", "fp8", "best", True),
    ("vllm", "", "llama3-70b", "fp8", "aggregated", False),
    ("trtllm", "", "llama3-70b", "fp8", "aggregated", False),
    ("trtllm", "", "llama3-70b", "fp8", "best", True),
    ("trtllm", "mlperf-llama2-70b", "llama3-70b", "fp8", "best", True),
    ("trtllm", "mlperf-llama2-70b", "llama3-70b", "bf16", "aggregated", False),
    ("vllm", "mlperf-mixtral-8x7b", "mixtral-8x7b", "bf16", "aggregated", True),
    ("", "mlperf-mixtral-8x7b", "mixtral-8x7b", "fp8", "disaggregated", True),
    ("trtllm", "mlperf-llama2-70b", "llama3-8b", "bf16", "disaggregated", True),
]


def _args(stack, dataset, model, precision, mode, targets, prompt, output, users, by_users=True):
    """estimate's arguments for a workload; ``users`` 0 asks for the capacity of the 8 GPUs, judged in users
    (``--capacity-in users``) as `analyze` judges a workload that states only users, unless ``by_users`` is
    False (a workload that states no load)."""
    args = ["estimate", "--inference", "--model", model, "--server", SERVER, "--gpus", "8", "--prompt",
            str(prompt), "--output", str(output), "--precision", precision, "--serving", mode, "--json"]  # fmt: skip
    if targets:
        args += ["--ttft", "2", "--tpot", "0.05"]
    if users:
        args += ["--users", str(users)]
    elif by_users:
        args += ["--capacity-in", "users"]
    if stack:
        args += ["--serving-stack", stack]
    if dataset:
        args += ["--prompt-dataset", dataset]
    return args


@pytest.mark.parametrize(("stack", "dataset", "model", "precision", "mode", "targets"), CASES)
def test_the_workload_serves_what_estimate_inference_prints(cluster_file, tmp_path, stack, dataset, model,
                                                            precision, mode, targets):  # fmt: skip
    prompt = _mean(dataset) if dataset else 1024
    output = 256 if targets else 2048
    users = 300
    project = open_project(cluster_file)
    project.insert("workloads", Workload(id="w1", name="chat", kind="inference", model_id=model, prompt_len=prompt,
                                         output_len=output, ttft_target_s=2.0 if targets else 0.0,
                                         tpot_target_s=0.05 if targets else 0.0, precision=precision,
                                         kv_bytes=1 if precision == "fp8" else 2, serving_mode=mode, users=users,
                                         serving_stack=stack, prompt_dataset=dataset))  # fmt: skip
    path = tmp_path / "serve.gpuplan"
    save_project(project, path)
    entry = next(e for e in analyze_project(open_project(path)).workloads if e.id == "w1")
    d = entry.to_json()
    assert d["serving_stack"] == (stack or "vllm") and d["prompt_dataset"] == (dataset or None)
    # the capacity of the project's 8 GPUs: the command without --users; the GPUs 300 users need: with it
    for n_users, got in ((0, d["serving"]), (users, d["needed"])):
        rc, out, err = _cli(_args(stack, dataset, model, precision, mode, targets, prompt, output, n_users))
        assert out, err
        cli = json.loads(out)
        assert cli["serving_stack"] == (stack or "vllm")
        assert got == cli["serving"], (n_users, got, cli["serving"])
    assert d["serving"]["fits"] and d["serving"]["max_requests_per_s"] > 0


KV_FRACTION_CASES = [  # (serving_stack, kv_fraction, precision, serving mode, TTFT/TPOT targets, KV-bound)
    ("", 0.7, "fp8", "aggregated", False, True),
    ("vllm", 0.5, "bf16", "disaggregated", True, True),
    ("trtllm", 0.95, "fp8", "best", True, False),  # prefill compute binds: the share changes nothing
    ("trtllm", 0.6, "fp8", "aggregated", False, True),
]


@pytest.mark.parametrize(("stack", "fraction", "precision", "mode", "targets", "binds"), KV_FRACTION_CASES)
def test_a_workloads_kv_fraction_serves_what_estimate_kv_fraction_prints(cluster_file, tmp_path, stack, fraction,
                                                                         precision, mode, targets, binds):  # fmt: skip
    """kv_fraction (0 = not stated) is estimate's --kv-fraction: the saved and reopened workload serves what the
    command prints with it, capacity and GPUs needed alike, and not what it prints without it."""
    output = 256 if targets else 2048
    project = open_project(cluster_file)
    common = dict(kind="inference", model_id="llama3-70b", prompt_len=1024, output_len=output,
                  ttft_target_s=2.0 if targets else 0.0, tpot_target_s=0.05 if targets else 0.0,
                  precision=precision, serving_mode=mode, users=300, serving_stack=stack)  # fmt: skip
    project.insert("workloads", Workload(id="w1", name="chat", kv_fraction=fraction, **common))
    project.insert("workloads", Workload(id="w2", name="chat-default", **common))
    path = tmp_path / "kvf.gpuplan"
    save_project(project, path)
    entries = {e.id: e.to_json() for e in analyze_project(open_project(path)).workloads}
    d = entries["w1"]
    assert (
        d["kv_fraction"] == fraction and "kv_fraction" not in entries["w2"]
    )  # stated only, as estimate's JSON
    for n_users, got in ((0, d["serving"]), (300, d["needed"])):
        args = _args(stack, "", "llama3-70b", precision, mode, targets, 1024, output, n_users)
        rc, out, err = _cli([*args, "--kv-fraction", repr(fraction)])
        assert out, err
        cli = json.loads(out)
        assert cli["kv_fraction"] == fraction
        assert got == cli["serving"], (n_users, got, cli["serving"])
    assert d["serving"]["fits"] and d["serving"]["max_requests_per_s"] > 0
    # where the KV cache binds, the share moves the capacity (the comparison is not vacuous)
    base = entries["w2"]["serving"]["max_requests_per_s"]
    assert (abs(d["serving"]["max_requests_per_s"] - base) > 1e-3 * base) == binds, (base, d["serving"])


MAX_SEQS_CASES = [  # (serving_stack, max_seqs, precision, serving mode, TTFT/TPOT targets, the cap binds)
    ("", 48, "fp8", "aggregated", False, True),
    ("trtllm", 32, "fp8", "disaggregated", True, True),
    ("vllm", 100000, "bf16", "best", True, False),  # far above what KV memory holds: nothing moves
]


@pytest.mark.parametrize(("stack", "cap", "precision", "mode", "targets", "binds"), MAX_SEQS_CASES)
def test_a_workloads_max_seqs_serves_what_estimate_max_seqs_prints(cluster_file, tmp_path, stack, cap, precision,
                                                                   mode, targets, binds):  # fmt: skip
    """max_seqs (0 = not stated: the stack's default) is estimate's --max-seqs: the saved and reopened workload
    serves what the command prints with it, capacity and GPUs needed alike; the JSON names it only when stated."""
    output = 256 if targets else 2048
    project = open_project(cluster_file)
    common = dict(kind="inference", model_id="llama3-70b", prompt_len=1024, output_len=output,
                  ttft_target_s=2.0 if targets else 0.0, tpot_target_s=0.05 if targets else 0.0,
                  precision=precision, serving_mode=mode, users=300, serving_stack=stack)  # fmt: skip
    project.insert("workloads", Workload(id="w1", name="chat", max_seqs=cap, **common))
    project.insert("workloads", Workload(id="w2", name="chat-default", **common))
    path = tmp_path / "seqs.gpuplan"
    save_project(project, path)
    entries = {e.id: e.to_json() for e in analyze_project(open_project(path)).workloads}
    d = entries["w1"]
    assert d["max_seqs"] == cap and "max_seqs" not in entries["w2"]  # stated only, as estimate's JSON
    for n_users, got in ((0, d["serving"]), (300, d["needed"])):
        args = _args(stack, "", "llama3-70b", precision, mode, targets, 1024, output, n_users)
        rc, out, err = _cli([*args, "--max-seqs", str(cap)])
        assert out, err
        cli = json.loads(out)
        assert cli["max_seqs"] == cap
        assert got == cli["serving"], (n_users, got, cli["serving"])
    assert d["serving"]["fits"] and 0 < d["serving"]["decode_batch"] <= cap
    base = entries["w2"]["serving"]["max_requests_per_s"]
    assert (abs(d["serving"]["max_requests_per_s"] - base) > 1e-3 * base) == binds, (base, d["serving"])


MAX_BATCHED_TOKENS_CASES = [  # (serving_stack, max_batched_tokens, precision, serving mode, targets, it binds)
    ("", 512, "fp8", "aggregated", False, True),
    ("trtllm", 512, "fp8", "disaggregated", True, True),
    (
        "vllm",
        2048,
        "bf16",
        "best",
        True,
        False,
    ),  # a 1024-token prompt fits beside the decode batch: nothing moves
]


@pytest.mark.parametrize(
    ("stack", "budget", "precision", "mode", "targets", "binds"), MAX_BATCHED_TOKENS_CASES
)
def test_a_workloads_max_batched_tokens_serves_what_estimate_max_batched_tokens_prints(
    cluster_file, tmp_path, stack, budget, precision, mode, targets, binds
):
    """max_batched_tokens (0 = not stated: the engine's default) is estimate's --max-batched-tokens: the saved and
    reopened workload serves what the command prints with it, capacity and GPUs needed alike; the JSON names it
    only when stated, and the settings line says it (en + zh)."""
    from gpuplanner.cli.analyze_out import _serving as serving_lines

    output = 256 if targets else 2048
    project = open_project(cluster_file)
    common = dict(kind="inference", model_id="llama3-70b", prompt_len=1024, output_len=output,
                  ttft_target_s=2.0 if targets else 0.0, tpot_target_s=0.05 if targets else 0.0,
                  precision=precision, serving_mode=mode, users=300, serving_stack=stack)  # fmt: skip
    project.insert("workloads", Workload(id="w1", name="chat", max_batched_tokens=budget, **common))
    project.insert("workloads", Workload(id="w2", name="chat-default", **common))
    path = tmp_path / "tokens.gpuplan"
    save_project(project, path)
    result = analyze_project(open_project(path))
    entries = {e.id: e.to_json() for e in result.workloads}
    d = entries["w1"]
    assert d["max_batched_tokens"] == budget and "max_batched_tokens" not in entries["w2"]  # stated only
    for n_users, got in ((0, d["serving"]), (300, d["needed"])):
        args = _args(stack, "", "llama3-70b", precision, mode, targets, 1024, output, n_users)
        rc, out, err = _cli([*args, "--max-batched-tokens", str(budget)])
        assert out, err
        cli = json.loads(out)
        assert cli["max_batched_tokens"] == budget
        assert got == cli["serving"], (n_users, got, cli["serving"])
    assert d["serving"]["fits"]
    base = entries["w2"]["serving"]["max_requests_per_s"]
    assert (abs(d["serving"]["max_requests_per_s"] - base) > 1e-3 * base) == binds, (base, d["serving"])
    for lang, said in (
        ("en", f"at most {budget:,} tokens per engine step"),
        ("zh", f"每个引擎步最多 {budget:,} 个 token"),
    ):
        assert any(said in line for line in serving_lines(d, None, lang)), (
            lang,
            serving_lines(d, None, lang),
        )
        assert not any(said in line for line in serving_lines(entries["w2"], None, lang))


@pytest.mark.parametrize("precision", ["bf16", "fp8"])
def test_kv_bytes_not_stated_takes_estimates_default_and_a_stated_one_is_kept(
    cluster_file, tmp_path, precision
):
    """A new workload states no KV-cache bytes (0): it serves what `estimate --inference` does without
    --kv-bytes (1 byte with fp8/fp4, else 2); a stated 2 with fp8 weights stays a 2-byte cache."""
    project = open_project(cluster_file)
    assert Workload(id="x", name="x").kv_bytes == 0
    common = dict(kind="inference", model_id="llama3-70b", prompt_len=1024, output_len=2048, precision=precision,
                  serving_mode="aggregated")  # fmt: skip
    project.insert("workloads", Workload(id="w1", name="auto", **common))
    project.insert("workloads", Workload(id="w2", name="two", kv_bytes=2, **common))
    path = tmp_path / "kv.gpuplan"
    save_project(project, path)
    got = {e.id: e.to_json()["serving"] for e in analyze_project(open_project(path)).workloads}
    rc, out, err = _cli(
        _args("", "", "llama3-70b", precision, "aggregated", False, 1024, 2048, 0, by_users=False)
    )
    assert out, err
    assert got["w1"] == json.loads(out)["serving"]
    rc, out, err = _cli(_args("", "", "llama3-70b", precision, "aggregated", False, 1024, 2048, 0, by_users=False)
                        + ["--kv-bytes", "2"])  # fmt: skip
    assert got["w2"] == json.loads(out)["serving"]
    if precision == "fp8":  # the two differ: a 1-byte cache holds twice the tokens
        assert got["w1"]["max_requests_per_s"] > got["w2"]["max_requests_per_s"]
    else:
        assert got["w1"] == got["w2"]


def test_the_stack_changes_the_kv_cache_and_the_dataset_the_ttft(cluster_file):
    """The oracle comparison above is not vacuous: each setting moves the workload's figures (offline, so the
    KV cache bounds the batch: 70B FP8 TP2 on H100 holds 40.4 GB of KV by vLLM's rule, 42.2 GB by TRT-LLM's
    (0.9 of the device less 2 GB outside torch, the weights and the workspace: s12-kvh100); the
    BF16 embedding table and output head (served_weights.py) take 1.05 GB per GPU more than FP8 tables would)."""
    project = open_project(cluster_file)
    base = dict(kind="inference", model_id="llama3-70b", prompt_len=222, output_len=2048, precision="fp8",
                kv_bytes=1, serving_mode="aggregated")  # fmt: skip
    for i, (stack, ds) in enumerate([("", ""), ("trtllm", ""), ("", "mlperf-llama2-70b")]):
        project.insert("workloads", Workload(id=f"w{i}", name=f"c{i}", serving_stack=stack, prompt_dataset=ds,
                                             **base))  # fmt: skip
    js = {e.id: e.to_json()["serving"] for e in analyze_project(project).workloads}
    assert js["w0"]["limited_by"] == "kv cache"
    assert js["w0"]["kv_cache_gb_per_gpu"] == pytest.approx(40.37, abs=0.05)
    assert js["w1"]["kv_cache_gb_per_gpu"] == pytest.approx(42.23, abs=0.05)
    assert js["w1"]["max_requests_per_s"] > js["w0"]["max_requests_per_s"]
    assert js["w2"]["kv_cache_gb_per_gpu"] == pytest.approx(js["w0"]["kv_cache_gb_per_gpu"], rel=1e-4)
    assert js["w0"]["ttft_s"] != js["w2"]["ttft_s"]


BAD = {
    "serving_stack": ("sglang", ["sglang", "vllm, trtllm"]),
    "prompt_dataset": ("sharegpt", ["sharegpt", "mlperf-llama2-70b"]),
}


@pytest.mark.parametrize("field", sorted(BAD))
def test_a_bad_value_is_refused_naming_the_workload_field_and_value(field):
    value, named = BAD[field]
    wl = Workload(id="w", name="chat-70b", kind="inference", **{field: value})
    with pytest.raises(PlannerError) as exc:
        workload_serving_settings(wl)
    for lang in ("en", "zh"):
        line = error_line(exc.value, lang)
        assert "chat-70b" in line and field in line and all(n in line for n in named), line


def test_a_dataset_whose_mean_is_not_the_prompt_length_names_the_workload_and_both_fields():
    """As estimate refuses --prompt-dataset with another --prompt (naming --prompt), the workload's refusal
    names the workload, prompt_dataset, prompt_len and the length to give."""
    wl = Workload(
        id="w", name="chat-70b", kind="inference", prompt_len=2048, prompt_dataset="mlperf-llama2-70b"
    )
    with pytest.raises(PlannerError) as exc:
        workload_serving_settings(wl)
    for lang in ("en", "zh"):
        line = error_line(exc.value, lang)
        for s in ("chat-70b", "prompt_dataset", "mlperf-llama2-70b", "prompt_len", "2048", "222"):
            assert s in line, (s, line)
    rc, _out, err = _cli(["estimate", "--inference", "--model", "llama3-70b", "--gpu", "nvidia-h100-sxm",
                          "--prompt", "2048", "--prompt-dataset", "mlperf-llama2-70b"])  # fmt: skip
    assert rc == 2 and "--prompt 222" in err, err
    assert workload_serving_settings(Workload(id="w", name="c", kind="inference", prompt_len=222,
                                              prompt_dataset="mlperf-llama2-70b"))["prompt_dist"] is not None  # fmt: skip


@pytest.mark.parametrize(
    ("field", "value", "named"),
    [("serving_stack", "sglang", "sglang"), ("prompt_dataset", "sharegpt", "sharegpt"),
     ("prompt_dataset", "mlperf-mixtral-8x7b", "prompt_len")],
)  # fmt: skip
def test_a_bad_value_in_a_file_opens_and_the_analysis_names_it(tmp_path, cluster_file, field, value, named):
    """Opening keeps the project as it is; the inference workload is not evaluated, its error and a finding
    name the workload, field and value; the other workloads and the rest of the analysis run."""
    project = open_project(cluster_file)
    serve = dict(kind="inference", model_id="llama3-8b", prompt_len=222, output_len=256)
    project.insert("workloads", Workload(id="w1", name="chat-a", **serve))
    project.insert("workloads", Workload(id="w2", name="chat-b", **serve))
    path = tmp_path / "bad.gpuplan"
    save_project(project, path)
    conn = sqlite3.connect(path)
    with conn:
        conn.execute(f"UPDATE workloads SET [{field}] = ? WHERE id = 'w1'", (value,))
    conn.close()
    before = path.read_bytes()
    opened = open_project(path)
    assert getattr(opened.tables["workloads"]["w1"], field) == value
    res = analyze_project(opened)
    entries = {e.id: e for e in res.workloads}
    for lang in ("en", "zh"):
        why = shown(entries["w1"].error, lang)
        assert "chat-a" in why and field in why and value in why and named in why, why
    assert not entries["w2"].error and entries["w2"].serving is not None and res.power is not None
    assert any(f.rule == "workload-not-evaluated" and f.items == ("w1",) for f in res.findings)
    assert path.read_bytes() == before


def test_set_takes_the_serving_settings_and_refuses_bad_ones(cluster_file, tmp_path):
    """`gpuplanner set FILE workload.NAME.serving_stack=…`: good values are saved (a dataset with its mean as
    prompt_len, in either order of the keys); a bad one exits 2 naming workload, field and value, and the file
    is left byte for byte as it was."""
    path = tmp_path / "set.gpuplan"
    path.write_bytes(cluster_file.read_bytes())
    rc, _out, err = _cli(["set", str(path), "workload.chat.model=llama3-8b", "workload.chat.kind=inference",
                          "workload.chat.prompt_dataset=mlperf-llama2-70b", "workload.chat.prompt_len=222",
                          "workload.chat.serving_stack=trtllm"])  # fmt: skip
    assert rc == 0, err
    row = next(iter(open_project(path).tables["workloads"].values()))
    assert (row.serving_stack, row.prompt_dataset, row.prompt_len) == ("trtllm", "mlperf-llama2-70b", 222)
    before = path.read_bytes()
    for bad, named in (
        (["workload.chat.serving_stack=sglang"], ["serving_stack", "sglang"]),
        (["workload.chat.serving_stack=TRTLLM"], ["serving_stack", "TRTLLM"]),
        (["workload.chat.prompt_dataset=sharegpt"], ["prompt_dataset", "sharegpt"]),
        (["workload.chat.prompt_len=2048"], ["prompt_dataset", "prompt_len", "2048", "222"]),
        (
            ["workload.chat.prompt_dataset=mlperf-mixtral-8x7b"],
            ["prompt_dataset", "mlperf-mixtral-8x7b", "427"],
        ),
    ):
        rc, _out, err = _cli(["set", str(path), "workload.chat.output_len=128", *bad])
        assert rc == 2 and "chat" in err and all(n in err for n in named), (bad, err)
        assert path.read_bytes() == before
    rc, _out, err = _cli(["set", str(path), "workload.chat.prompt_len=427",
                          "workload.chat.prompt_dataset=mlperf-mixtral-8x7b", "workload.chat.serving_stack="])  # fmt: skip
    assert rc == 0, err
    row = next(iter(open_project(path).tables["workloads"].values()))
    assert (row.serving_stack, row.prompt_dataset, row.prompt_len) == ("", "mlperf-mixtral-8x7b", 427)


def test_every_dataset_the_engine_knows_is_offered():
    from gpuplanner.engine.workload_settings import SERVING_SETTINGS as names

    assert names == ("serving_stack", "prompt_dataset") and len(dataset_names()) >= 3
