"""`estimate --inference`: the static-batch figures (one batch of prompts) and the serving plan (continuous
batching or disaggregated prefill/decode, capacity within TTFT/TPOT targets, GPUs for N users or N requests/s).
"""

from __future__ import annotations

import argparse
import dataclasses

from gpuplanner.cli.common import EXIT_BAD_INPUT, print_json
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


def run_inference(args: argparse.Namespace, shape, cluster) -> int:
    from gpuplanner.engine.perf import InferenceConfig, estimate_inference
    from gpuplanner.engine.perf.serving import ServingSetup, plan_serving
    from gpuplanner.engine.perf.serving_worker import PRECISION_BYTES  # fp4: NVFP4, 0.5 + 1/16 bytes

    # --precision is unset unless given (a --stack may set it for training): serving defaults to bf16
    args.precision = args.precision or "bf16"
    # KV cache: 1 byte (FP8) with fp8 or fp4 weights (MLPerf's NVFP4 submissions keep an FP8 KV cache), else 2
    kv_bytes = args.kv_bytes if args.kv_bytes else (1 if args.precision in ("fp8", "fp4") else 2)
    if args.kv_bytes not in (None, 1, 2):
        raise ValidationError(
            "--kv-bytes must be 1 (fp8) or 2 (bf16/fp16)", field="--kv-bytes", value=args.kv_bytes
        )
    tp = args.tp or 1
    if shape.heads % tp or not (shape.kv_heads % tp == 0 or tp % shape.kv_heads == 0):
        raise ValidationError(
            f"--tp {tp} does not split {shape.heads} attention heads / {shape.kv_heads} KV heads evenly",
            field="--tp",
            value=tp,
        )
    static = estimate_inference(
        shape,
        InferenceConfig(
            batch=args.batch,
            prompt_len=args.prompt,
            output_len=args.output,
            tp=tp,
            kv_precision_bytes=kv_bytes,
            weight_precision_bytes=PRECISION_BYTES[args.precision],
            weight_precision=args.precision,
        ),
        cluster,
        args.gpus,
    )
    dist = None
    if args.prompt_dataset:
        from gpuplanner.engine.perf.serving_prompts import prompt_lengths

        dist = prompt_lengths(args.prompt_dataset)
    setup = ServingSetup(
        prompt_len=args.prompt,
        output_len=args.output,
        precision=args.precision,
        kv_precision="fp8" if kv_bytes == 1 else "bf16",
        ttft_s=args.ttft,
        tpot_s=args.tpot,
        ttft_percentile=args.ttft_percentile,
        tpot_percentile=args.tpot_percentile,
        think_time_s=args.think_time,
        prompt_dist=dist,
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
    )
    data = {k: v for k, v in dataclasses.asdict(static).items()}
    data["precision"] = args.precision
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
        print(f"static batch of {args.batch} ({args.precision}, TP{tp}):")
        for k, v in dataclasses.asdict(static).items():
            print(f"  {k:28} {v}")
        print(_plan_text(plan, args))
        rng = data["serving_ranges"]
        if plan.fits and rng["output_tokens_per_s_range"]:
            lo, hi = rng["output_tokens_per_s_range"]
            print(f"  output tokens/s range {lo:,.0f}–{hi:,.0f}: {rng['band']['explanation']}")
    return 0 if static.fits or plan.fits else EXIT_BAD_INPUT


def _plan_text(plan, args) -> str:
    if not plan.fits:
        return f"serving: does not fit — {plan.refusal}"
    if plan.mode == "aggregated":
        layout = f"{plan.replicas} replica(s) of TP{plan.tp}" + (f" PP{plan.pp}" if plan.pp > 1 else "")
    else:
        layout = (
            f"{plan.prefill_workers} prefill worker(s) of TP{plan.prefill_tp} + {plan.decode_workers} decode "
            f"worker(s) of TP{plan.decode_tp}, KV transfer {plan.kv_transfer_s * 1e3:.1f} ms"
        )
    head = "GPUs needed" if (args.rate or args.users) else "capacity of"
    return (
        f"serving ({plan.mode}): {head} {plan.gpus} GPUs — {layout}\n"
        f"  up to {plan.max_requests_per_s:,.2f} requests/s, {plan.max_concurrent_users:,.0f} concurrent users"
        f" (limited by {plan.limited_by or 'nothing'})\n"
        f"  at that load: TTFT {plan.ttft_s:.3f} s, TPOT {plan.tpot_s * 1e3:.1f} ms "
        f"({plan.per_user_tokens_per_s:,.1f} tokens/s per user), {plan.output_tokens_per_s:,.0f} output tokens/s "
        f"in all, decode batch {plan.decode_batch:,.0f} per replica"
    )
