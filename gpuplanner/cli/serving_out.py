"""`estimate --inference`: the static-batch figures (one batch of prompts) and the serving plan (continuous
batching or disaggregated prefill/decode, capacity within TTFT/TPOT targets, GPUs for N users or N requests/s).
"""

from __future__ import annotations

import argparse
import dataclasses
from collections.abc import Mapping
from typing import Any

from gpuplanner import text
from gpuplanner.cli.common import EXIT_BAD_INPUT, print_json, print_pairs
from gpuplanner.core.errors import ValidationError


def add_arguments(p: argparse.ArgumentParser) -> None:
    g = p.add_argument_group("serving (with --inference)")
    g.add_argument("--ttft", type=float, help="time-to-first-token target, seconds")
    g.add_argument(
        "--ttft-percentile",
        type=float,
        help="the --ttft target holds at this percentile of requests (MLPerf Server: 99); default: in the mean",
    )
    g.add_argument(
        "--prompt-dataset",
        help="prompt lengths vary as in this dataset (catalogs/validation/inference_datasets.yaml, e.g. "
        "mlperf-llama2-70b); --prompt must be its mean. The TTFT counts each length's own prefill",
    )
    g.add_argument("--tpot", type=float, help="time-per-output-token target, seconds")
    g.add_argument(
        "--tpot-percentile",
        type=float,
        help="the --tpot target holds for this percentile of requests' mean TPOT (MLPerf: 99); default: in the mean",
    )
    g.add_argument("--rate", type=float, help="requests per second to serve: prints the GPUs needed")
    g.add_argument("--users", type=float, help="concurrent users to serve: prints the GPUs needed")
    g.add_argument("--think-time", type=float, default=0.0, help="seconds a user waits between requests")
    g.add_argument(
        "--serving",
        choices=["aggregated", "disaggregated", "best"],
        default="best",
        help="continuous batching on each replica, separate prefill/decode workers, or the better of the two",
    )
    g.add_argument(
        "--serving-stack",
        choices=["vllm", "trtllm"],
        default="vllm",
        help="how the KV cache is sized: vllm = a share of the device's memory holds weights, workspace and KV "
        "cache (vLLM --gpu-memory-utilization); trtllm = the KV cache takes a share of the memory left after the "
        "weights and workspace (TensorRT-LLM free_gpu_memory_fraction). Shares: catalogs/assumptions/serving.yaml",
    )
    g.add_argument(
        "--kv-fraction",
        type=float,
        help="the --serving-stack's share as your deployment sets it, in (0, 1]: vllm --gpu-memory-utilization, "
        "trtllm free_gpu_memory_fraction (MLPerf harnesses: kvcache_free_gpu_mem_frac); default: the stack's "
        "documented default, catalogs/assumptions/serving.yaml",
    )
    g.add_argument(
        "--capacity-in",
        choices=["requests", "users"],
        default="requests",
        help="what the capacity of --gpus is judged by when no --rate or --users asks for GPUs: the layout "
        "serving the most requests/s (default) or the most concurrent users (as `analyze` judges a workload "
        "that states only users, and the advisor a goal that does)",
    )
    g.add_argument(
        "--max-seqs",
        type=int,
        help="the most sequences one replica (or decode worker) runs at once, as your deployment caps it: vllm "
        "--max-num-seqs, trtllm max_batch_size (MLPerf configs: gpu_batch_size); default: the stack's default "
        "(vllm 1024 on GPUs of 70 GiB or more, else 256; trtllm uncapped), catalogs/assumptions/serving.yaml",
    )
    g.add_argument(
        "--max-batched-tokens",
        type=int,
        help="the most tokens one engine step carries, decode tokens plus prefill (chunk) tokens, as your deployment "
        "sets it: trtllm max_num_tokens, vllm --max-num-batched-tokens (with chunked prefill on); default: "
        "catalogs/assumptions/serving.yaml max_batched_tokens",
    )
    g.add_argument(
        "--no-chunked-prefill",
        dest="chunked_prefill",
        action="store_false",
        help="the engine runs whole prompts in their own prefill-only steps while the running decodes wait (vLLM "
        "V0 with enable_chunked_prefill False); default: prompts are chunked into the decode steps (vLLM V1, "
        "TensorRT-LLM chunked context). Without --max-batched-tokens the budget is then vLLM V0's "
        "max(model context, 2048)",
    )
    g.add_argument(
        "--gemm-allreduce-fusion",
        action=argparse.BooleanOptionalAction,
        default=False,
        help="each tensor-parallel all-reduce runs fused into the GEMM before it, overlapping the GEMM's compute, "
        "as your deployment builds it: trtllm-build --gemm_allreduce_plugin (NVIDIA's MLPerf llama3.1-405b "
        "engines); default: a separate all-reduce after the GEMM",
    )


def run_inference(args: argparse.Namespace, shape, cluster, lang: str = "en") -> int:
    from gpuplanner.engine.perf.request import default_kv_bytes, kv_precision_of
    from gpuplanner.engine.perf.serving import ServingSetup, plan_serving
    from gpuplanner.engine.perf.serving_setup import PRECISION_BYTES  # fp4: NVFP4, 0.5 + 1/16 bytes

    # --precision is unset unless given (a --stack may set it for training): serving defaults to bf16
    args.precision = args.precision or "bf16"
    # KV cache: 1 byte (FP8) with fp8 or fp4 weights, else 2 (the advisor takes the same default)
    kv_bytes = args.kv_bytes if args.kv_bytes else default_kv_bytes(args.precision)
    if args.kv_bytes not in (None, 1, 2):
        raise ValidationError(text.Msg("error.kv_bytes"), field="--kv-bytes", value=args.kv_bytes)
    tp = args.tp or 1
    if shape.heads % tp or not (shape.kv_heads % tp == 0 or tp % shape.kv_heads == 0):
        raise ValidationError(
            text.Msg("error.serving_tp_heads", {"tp": tp, "heads": shape.heads, "kv": shape.kv_heads}),
            field="--tp",
            value=tp,
        )
    static, static_tp = _static(args, shape, cluster, kv_bytes, PRECISION_BYTES[args.precision])
    dist = None
    if args.prompt_dataset:
        from gpuplanner.engine.perf.serving_prompts import prompt_lengths

        dist = prompt_lengths(args.prompt_dataset)
    setup = ServingSetup(
        prompt_len=args.prompt,
        output_len=args.output,
        precision=args.precision,
        kv_precision=kv_precision_of(kv_bytes),
        ttft_s=args.ttft,
        tpot_s=args.tpot,
        ttft_percentile=args.ttft_percentile,
        tpot_percentile=args.tpot_percentile,
        think_time_s=args.think_time,
        prompt_dist=dist,
        serving_stack=args.serving_stack,
        kv_fraction=args.kv_fraction,
        max_seqs=_count("max_seqs", args.max_seqs),
        max_batched_tokens=_count("max_batched_tokens", args.max_batched_tokens),
        chunked_prefill=args.chunked_prefill,
        gemm_allreduce_fusion=bool(args.gemm_allreduce_fusion),
    )
    plan = plan_serving(
        shape,
        cluster,
        setup,
        n_gpus=args.gpus or (tp if not (args.rate or args.users) else None),
        rate_per_s=args.rate,
        users=args.users,
        mode=args.serving,
        tp=args.tp,  # a TP given on the command line is the layout served; without one, the best
        objective=args.capacity_in,
    )
    data = {k: v for k, v in dataclasses.asdict(static).items()}
    data["tp"] = static_tp  # the static batch's layout: --tp, or the smallest that holds it (tp_searched)
    data["tp_searched"] = args.tp is None
    if not static.fits:  # no throughput for a layout that does not hold the batch: the memory and the refusal
        data.update(dict.fromkeys(_STATIC_FIGURES))
    data["precision"] = args.precision
    data["serving_stack"] = args.serving_stack
    data.update(setup.stated())  # the settings stated only
    if args.capacity_in != "requests":
        data["capacity_in"] = args.capacity_in
    data["serving"] = plan.to_json()
    # error ranges from the published serving results (`gpuplanner validate --inference`)
    from gpuplanner.engine.perf.bands_inference import serving_ranges

    scenario = "server" if (args.ttft or args.tpot) else "offline"
    data["serving_ranges"] = serving_ranges(
        plan.output_tokens_per_s, plan.max_requests_per_s, shape.is_moe, scenario
    )
    if args.json:
        print_json(data)
    else:
        _print_text(
            static, plan, args, static_tp, data["serving_ranges"], shape, scenario, lang, setup.stated()
        )
    return 0 if static.fits or plan.fits else EXIT_BAD_INPUT


# the static batch's figures that only a layout holding the batch has (null in the JSON when it does not fit)
_STATIC_FIGURES = (
    "decode_tokens_per_s",
    "decode_step_s",
    "ttft_s",
    "cluster_tokens_per_s",
    "replicas",
    "bound",
)


def _static(args: argparse.Namespace, shape, cluster, kv_bytes: int, weight_bytes: float):
    """The static batch and its TP: `--tp`, or without one the smallest TP a serving engine accepts (within
    `--gpus`) whose GPUs hold the batch, as the serving search takes the layouts that fit; when none does, the
    largest tried, for its refusal (the memory needed against what is usable)."""
    from gpuplanner.engine.perf import InferenceConfig, estimate_inference
    from gpuplanner.engine.perf.serving import tp_candidates

    def at(tp: int):
        cfg = InferenceConfig(
            batch=args.batch,
            prompt_len=args.prompt,
            output_len=args.output,
            tp=tp,
            kv_precision_bytes=kv_bytes,
            weight_precision_bytes=weight_bytes,
            weight_precision=args.precision,
        )
        return estimate_inference(shape, cfg, cluster, args.gpus)

    if args.tp:
        return at(args.tp), args.tp
    tps = [t for t in tp_candidates(shape, cluster) if not args.gpus or t <= args.gpus] or [1]
    for tp in tps:
        est = at(tp)
        if est.fits:
            break
    return est, tp


# the positive counts --max-seqs and --max-batched-tokens: (the option, the refusal's message id)
_COUNT_OPTIONS = {"max_seqs": ("--max-seqs", "error.max_seqs"),
                  "max_batched_tokens": ("--max-batched-tokens", "error.max_batched_tokens")}  # fmt: skip


def _count(name: str, value: int | None) -> int | None:
    """A count option (_COUNT_OPTIONS) as the ServingSetup field `name`: refused below 1, naming the option."""
    option, msg_id = _COUNT_OPTIONS[name]
    if value is not None and value < 1:
        raise ValidationError(text.Msg(msg_id, {"value": value}), field=option, value=value)
    return value


def _print_text(
    static, plan, args, tp: int, rng: dict, shape, scenario: str, lang: str, stated: Mapping[str, Any]
) -> None:
    """The static batch and the serving plan as text in ``lang`` (text/cli_estimate.py)."""
    from gpuplanner.engine.perf.bands_inference import explanation_msg
    from gpuplanner.engine.perf.inference import refusal_msg
    from gpuplanner.engine.perf.shapes import InferenceConfig

    def say(msg_id: str, **values) -> str:
        return text.render(msg_id, lang, **values)

    m = static.memory
    if args.tp:
        head = "perf.inf.static"
    else:  # the smallest TP that holds the batch, or none up to the largest tried
        head = "perf.inf.static_searched" if static.fits else "perf.inf.static_none"
    print(say(head, batch=args.batch, precision=args.precision, tp=tp))
    memory = say(
        "perf.inf.memory_value",
        weights=m["weights_gb"],
        kv=m["kv_cache_gb"],
        workspace=m["workspace_gb"],
        total=m["total_gb"],
        usable=m["usable_gb"],
    )
    if static.fits:
        pairs = [
            ("perf.inf.decode_tokens_per_s", f"{static.decode_tokens_per_s:,.1f}"),
            ("perf.inf.decode_step_s", say("perf.inf.ms", ms=static.decode_step_s * 1e3)),
            ("perf.inf.ttft_s", say("perf.inf.seconds", s=static.ttft_s)),
            ("perf.inf.cluster_tokens_per_s", f"{static.cluster_tokens_per_s:,.1f}"),
            ("perf.inf.replicas", str(static.replicas)),
            ("perf.inf.memory", memory),
            ("perf.inf.fits", say("col.yes")),
            ("perf.inf.bound", text.word("inference_bound", static.bound, lang)),
        ]
    else:  # no throughput for a layout that does not hold the batch: the memory and why
        cfg = InferenceConfig(batch=args.batch, prompt_len=args.prompt, output_len=args.output, tp=tp)
        why = refusal_msg(m, cfg)
        pairs = [
            ("perf.inf.memory", memory),
            ("perf.inf.fits", say("col.no")),
            ("perf.inf.refusal", why.render(lang) if why.render("en") == static.refusal else static.refusal),
        ]
    print_pairs([(say(k), v) for k, v in pairs])
    print(settings_line(args.serving_stack, args.prompt_dataset, stated, lang))
    print(_plan_text(plan, args, lang))
    if plan.fits and rng["output_tokens_per_s_range"]:
        lo, hi = rng["output_tokens_per_s_range"]
        explanation = explanation_msg(shape.is_moe, scenario)
        print("  " + say("perf.srv.range", lo=lo, hi=hi, explanation=explanation))


def settings_line(stack: str, dataset: str | None, stated: Mapping[str, Any], lang: str) -> str:
    """The serving settings a plan is for, in ``lang``: the stack's KV-cache rule, the prompt-length dataset
    (its mean) and the deployment settings `stated` (ServingSetup.stated(), or a JSON entry holding them: the
    KV-cache share, the cap on sequences at once, the token budget per step, prefill not chunked, the fused GEMM +
    all-reduce) (`estimate --inference`, `analyze`)."""
    if dataset:
        from gpuplanner.engine.perf.serving_prompts import prompt_lengths

        dist = prompt_lengths(dataset)
        line = text.render("perf.srv.settings_dataset", lang, stack=stack, dataset=dist.name, mean=dist.mean)
    else:
        line = text.render("perf.srv.settings", lang, stack=stack)
    if stated.get("kv_fraction") is not None:
        line += text.render("perf.srv.kv_fraction", lang, share=stated["kv_fraction"])
    for name in ("max_seqs", "max_batched_tokens"):
        if stated.get(name) is not None:
            line += text.render(f"perf.srv.{name}", lang, n=stated[name])
    if stated.get("chunked_prefill") is False:
        line += text.render("perf.srv.unchunked", lang)
    if stated.get("gemm_allreduce_fusion"):
        line += text.render("perf.srv.gemm_allreduce_fusion", lang)
    return line


def _plan_text(plan, args, lang: str = "en") -> str:
    def say(msg_id: str, **values) -> str:
        return text.render(msg_id, lang, **values)

    if not plan.fits:
        return say("perf.srv.no_fit", why=plan.refusal_msg or plan.refusal)
    if plan.mode == "aggregated":
        layout = say(
            "perf.srv.replicas", replicas=plan.replicas, tp=plan.tp, pp=f" PP{plan.pp}" if plan.pp > 1 else ""
        )
    else:
        layout = say(
            "perf.srv.workers",
            prefill=plan.prefill_workers,
            prefill_tp=plan.prefill_tp,
            decode=plan.decode_workers,
            decode_tp=plan.decode_tp,
            kv_ms=plan.kv_transfer_s * 1e3,
        )
    head = "perf.srv.needed" if (args.rate or args.users) else "perf.srv.capacity"
    lines = [
        say(head, mode=plan.mode, gpus=plan.gpus, layout=layout),
        say(
            "perf.srv.rate",
            rate=plan.max_requests_per_s,
            users=plan.max_concurrent_users,
            why=plan.limited_by or "nothing",
        ),
        say(
            "perf.srv.at_load",
            ttft=plan.ttft_s,
            tpot_ms=plan.tpot_s * 1e3,
            per_user=plan.per_user_tokens_per_s,
            output=plan.output_tokens_per_s,
            batch=plan.decode_batch,
        ),
    ]
    return "\n  ".join(lines)
