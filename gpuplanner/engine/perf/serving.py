"""Serving model: continuous batching with chunked prefill, disaggregated prefill/decode, capacity and sizing.

One *replica* (aggregated serving) is tp × pp GPUs holding one copy of the weights at the chosen precision.
Every engine step runs the decode token of each running sequence plus prefill chunks of new prompts, up to
a token budget (vLLM V1 / TensorRT-LLM in-flight batching). A step on one pipeline stage costs

    bytes / (HBM · e) + FLOPs / (peak · e_gemm) + 2 all-reduces per layer over tp

with bytes = weights touched + the KV cache the decode tokens read, FLOPs = 2·N_active per token plus the
attention scores. In steady state at λ requests/s per replica with prompt P and output O tokens, Little's
law gives the decode batch B = λ·O·T and the prefill tokens per step C = λ·P·T, where T is the step time
(= time per output token, TPOT). Every term of the step is linear in (B, C), so the steady state
T = step(λOT, λPT) has a closed form, T* = α / (1 − λβ); it exists while λβ < 1, which is the replica's
capacity (MoE: the experts touched are min(all, per token × tokens), two branches, the smaller holds).

Time to first token: a prompt runs in ⌈P / (budget − B)⌉ steps, the last carrying only its rest (a step's time
grows with its tokens: serving_steady.chunked_prefill_s); prompts queue for the prefill (M/G/1 of prefill work,
serving_steady.py). Concurrent users (closed loop, Little): λ · (TTFT + (O − 1) · TPOT + think time).

Disaggregated serving (DistServe, OSDI 2024; Splitwise, ISCA 2024; NVIDIA Dynamo): prefill workers run
prompts only (compute bound), send each request's KV cache over the fabric (RDMA at the NICs of the worker,
times the drawn fabric's share), and decode workers run decode only. Each worker has its own TP; for MoE
models the experts are spread over the same GPUs (EP = TP).

Constants: catalogs/assumptions/performance.yaml (GEMM and HBM efficiencies, usable memory) and
catalogs/assumptions/serving.yaml (token budget, memory share, KV transfer efficiency).
"""

from __future__ import annotations

import dataclasses
import math
from dataclasses import dataclass
from typing import Any

import numpy as np

from gpuplanner import text
from gpuplanner.core.errors import ValidationError
from gpuplanner.engine.perf.assumptions import Assumptions, load_assumptions
from gpuplanner.engine.perf.serving_setup import (
    GB,
    MODES,
    PRECISION_BYTES,
    SERVING_STACKS,
    ServingSetup,
    serving_assumptions,
)
from gpuplanner.engine.perf.serving_steady import (
    Operating,
    at_concurrency,
    max_rate,
    prefill_own_s,
    prefill_queue_load,
    prefill_queue_load_lengths,
    prefill_service,
    steady_state,
)
from gpuplanner.engine.perf.serving_worker import Worker, worker
from gpuplanner.engine.perf.shapes import ClusterSpec, ModelShape

# the names callers import from here (engine/workloads.py, cli/serving_out.py, tests, benchmarks)
__all__ = [
    "GB",
    "MODES",
    "PRECISION_BYTES",
    "SERVING_STACKS",
    "Operating",
    "ServingPlan",
    "ServingSetup",
    "Worker",
    "at_concurrency",
    "max_rate",
    "plan_serving",
    "prefill_service",
    "serving_assumptions",
    "steady_state",
    "tp_candidates",
    "worker",
]


@dataclass(frozen=True)
class ServingPlan:
    """Serving on a set of GPUs: the layout, its capacity within the targets and the figures at that load.
    Rates and users are totals over all the plan's GPUs; batch, TTFT and TPOT are per replica/worker."""

    mode: str  # aggregated | disaggregated
    gpus: int
    tp: int = 0  # aggregated: one replica
    pp: int = 1
    replicas: int = 0
    prefill_tp: int = 0  # disaggregated
    prefill_workers: int = 0
    decode_tp: int = 0
    decode_workers: int = 0
    max_requests_per_s: float = 0.0
    max_concurrent_users: float = 0.0
    ttft_s: float = math.inf
    tpot_s: float = math.inf
    per_user_tokens_per_s: float = 0.0
    output_tokens_per_s: float = 0.0
    total_tokens_per_s: float = 0.0
    decode_batch: float = 0.0
    weights_gb_per_gpu: float = 0.0
    kv_cache_gb_per_gpu: float = 0.0
    kv_transfer_s: float = 0.0
    limited_by: str = ""
    fits: bool = True
    refusal: str = ""
    refusal_msg: text.Msg | None = dataclasses.field(
        default=None, repr=False, compare=False
    )  # not in the JSON

    def to_json(self) -> dict[str, Any]:
        out = {f.name: getattr(self, f.name) for f in dataclasses.fields(self) if f.name != "refusal_msg"}
        return {k: (None if isinstance(v, float) and not math.isfinite(v) else v) for k, v in out.items()}


def tp_candidates(shape: ModelShape, cluster: ClusterSpec) -> list[int]:
    """TP sizes a serving engine accepts: within the scale-up domain, dividing the heads, and dividing or
    multiplying the KV heads (vLLM replicates KV heads when tp exceeds them)."""
    out = []
    t = 1
    while t <= cluster.gpus_per_node:
        if shape.heads % t == 0 and (shape.kv_heads % t == 0 or t % shape.kv_heads == 0):
            out.append(t)
        t *= 2
    return out or [1]


def _users(rate: float, op_latency_s: float, setup: ServingSetup) -> float:
    return rate * (op_latency_s + setup.think_time_s) if math.isfinite(op_latency_s) else 0.0


def _aggregated(w: Worker, setup: ServingSetup, replicas: int) -> ServingPlan:
    lam, why = max_rate(w, setup, prefill=True)
    base = ServingPlan(
        mode="aggregated",
        gpus=replicas * w.gpus,
        tp=w.tp,
        pp=w.pp,
        replicas=replicas,
        weights_gb_per_gpu=w.weights_gb,
        fits=w.fits,
        refusal=w.refusal,
        refusal_msg=w.refusal_msg,
        limited_by=why,
    )
    if lam <= 0:
        return base
    op = steady_state(w, setup, [lam])
    tpot = float(op.tpot_s[0])
    return dataclasses.replace(
        base,
        max_requests_per_s=replicas * lam,
        max_concurrent_users=replicas * _users(lam, float(op.latency_s[0]), setup),
        ttft_s=float(op.ttft_s[0]),
        tpot_s=tpot,
        per_user_tokens_per_s=1.0 / tpot,
        output_tokens_per_s=replicas * lam * setup.output_len,
        total_tokens_per_s=replicas * lam * (setup.output_len + setup.prompt_len),
        decode_batch=float(op.decode_batch[0]),
        kv_cache_gb_per_gpu=float(op.kv_tokens[0]) * w.kv_gb_per_token,
    )


def _disaggregated(p: Worker, d: Worker, setup: ServingSetup, n_p: int, n_d: int) -> ServingPlan:
    """n_p prefill workers feeding n_d decode workers: the rate is the smaller of the two sides'."""
    one, mu, transfer = prefill_service(p, setup)
    full = 1.0 / mu
    lam_p, why_p = 0.0, "ttft"
    if p.fits:
        if setup.ttft_s is None:
            rho = 0.95  # without a target: keep the prefill queue finite
        else:
            q = None if setup.ttft_percentile is None else setup.ttft_percentile / 100.0
            own = prefill_own_s(p, setup)
            if own is None or setup.prompt_dist is None:
                rho = prefill_queue_load(setup.ttft_s - one - transfer, full, q)
            else:  # each prompt length its own prefill and transfer (serving_prompts.py)
                rho = prefill_queue_load_lengths(setup.ttft_s, own, setup.prompt_dist.w, full, q)
        lam_p = min(rho, 0.95) * mu
        why_p = "ttft" if setup.ttft_s is not None and rho < 0.95 else "prefill compute"
    lam_d, why_d = max_rate(d, setup, prefill=False)
    rate = min(n_p * lam_p, n_d * lam_d)
    base = ServingPlan(
        mode="disaggregated",
        gpus=n_p * p.gpus + n_d * d.gpus,
        prefill_tp=p.tp,
        prefill_workers=n_p,
        decode_tp=d.tp,
        decode_workers=n_d,
        weights_gb_per_gpu=max(p.weights_gb, d.weights_gb),
        kv_transfer_s=transfer,
        fits=p.fits and d.fits,
        refusal=p.refusal or d.refusal,
        refusal_msg=p.refusal_msg or d.refusal_msg,
        limited_by=why_p if n_p * lam_p <= n_d * lam_d else why_d,
    )
    if rate <= 0:
        return base
    rho = rate / n_p / mu
    own = prefill_own_s(p, setup)
    if own is None or setup.prompt_dist is None:
        ttft = one + rho * full / (2.0 * (1.0 - rho)) + transfer
    else:
        ttft = float(own @ setup.prompt_dist.w) + rho * full / (2.0 * (1.0 - rho))
    op = steady_state(d, setup, [rate / n_d], prefill=False)
    tpot = float(op.tpot_s[0])
    latency = ttft + max(setup.output_len - 1, 0) * tpot
    return dataclasses.replace(
        base,
        max_requests_per_s=rate,
        max_concurrent_users=_users(rate, latency, setup),
        ttft_s=ttft,
        tpot_s=tpot,
        per_user_tokens_per_s=1.0 / tpot,
        output_tokens_per_s=rate * setup.output_len,
        total_tokens_per_s=rate * (setup.output_len + setup.prompt_len),
        decode_batch=float(op.decode_batch[0]),
        kv_cache_gb_per_gpu=float(op.kv_tokens[0]) * d.kv_gb_per_token,
    )


def _workers(
    shape: ModelShape,
    cluster: ClusterSpec,
    setup: ServingSetup,
    a: Assumptions,
    sa: Assumptions,
    tp: int | None = None,
) -> list[Worker]:
    """Every layout worth trying: each TP in the node (or only `tp` when one is asked for); PP across nodes only
    when the largest TP does not fit."""
    tps = [tp] if tp else tp_candidates(shape, cluster)
    ws = [worker(shape, cluster, setup, t, 1, a, sa) for t in tps]
    if not any(w.fits for w in ws):
        top = max(tps)
        for pp in (2, 4, 8, 16):
            if pp <= shape.layers:
                ws.append(worker(shape, cluster, setup, top, pp, a, sa))
                if ws[-1].fits:
                    break
    return ws


def _prefill_rate(p: Worker, setup: ServingSetup) -> float:
    return _disaggregated(p, p, setup, 1, 10**9).max_requests_per_s if p.fits else 0.0


def _decode_rate(d: Worker, setup: ServingSetup) -> float:
    return max_rate(d, setup, prefill=False)[0]


def plan_serving(
    shape: ModelShape,
    cluster: ClusterSpec,
    setup: ServingSetup,
    *,
    n_gpus: int | None = None,
    rate_per_s: float | None = None,
    users: float | None = None,
    mode: str = "aggregated",
    a: Assumptions | None = None,
    tp: int | None = None,
    objective: str = "requests",
) -> ServingPlan:
    """With `rate_per_s` or `users`: the fewest GPUs that serve that load within the targets (and the
    layout). Otherwise: the capacity of `n_gpus` GPUs as drawn, with the layout that gives the most: the most
    requests/s, or with `objective` "users" the most concurrent users (a load stated in users is sized by users,
    so the capacity of the GPUs that sizing found must be judged by users too: the layout with the highest rate
    may serve fewer users, its latency being lower). `tp`: only that tensor-parallel size (prefill and decode
    workers alike), as a benchmark that states its TP ran."""
    if objective not in ("requests", "users"):
        raise ValueError(f"objective must be 'requests' or 'users', not {objective!r}")
    if mode not in MODES:
        raise ValidationError(
            text.Msg("error.unknown_serving_mode", {"value": mode}),
            field="mode",
            hint=text.Msg("error.unknown_serving_mode.hint"),
        )
    a = a or load_assumptions()
    sa = serving_assumptions()
    ws = _workers(shape, cluster, setup, a, sa, tp)
    ok = [w for w in ws if w.fits]
    if not ok:
        w = ws[-1]
        return ServingPlan(
            mode="aggregated",
            gpus=n_gpus or 0,
            tp=w.tp,
            pp=w.pp,
            fits=False,
            refusal=w.refusal,
            refusal_msg=w.refusal_msg,
            weights_gb_per_gpu=w.weights_gb,
            limited_by="memory",
        )
    sizing = rate_per_s is not None or users is not None
    if n_gpus and not sizing and all(w.gpus > n_gpus for w in ok):
        # capacity of the GPUs as drawn, but the smallest layout that holds the model needs more of them
        w = min(ok, key=lambda w: (w.gpus, -w.tp))
        msg = text.Msg(
            "perf.serving_too_few_gpus",
            dict(gpus=n_gpus, need=w.gpus, tp=w.tp, pp=w.pp, weights_gb=w.weights_gb),
        )
        return ServingPlan(
            mode="aggregated",
            gpus=n_gpus,
            tp=w.tp,
            pp=w.pp,
            fits=False,
            refusal=msg.render("en"),
            refusal_msg=msg,
            weights_gb_per_gpu=w.weights_gb,
            limited_by="memory",
        )
    plans: list[ServingPlan] = []
    if mode in ("aggregated", "best"):
        for w in ok:
            one = _aggregated(w, setup, 1)
            if one.max_requests_per_s <= 0:
                plans.append(one)
                continue
            if sizing:
                per = one.max_requests_per_s if rate_per_s is not None else one.max_concurrent_users
                want = rate_per_s if rate_per_s is not None else float(users or 0.0)
                plans.append(_aggregated(w, setup, max(1, math.ceil(want / per - 1e-9))))
            elif n_gpus:
                plans.append(_aggregated(w, setup, n_gpus // w.gpus))
    if mode in ("disaggregated", "best"):
        for p in ok:
            lam_p = _prefill_rate(p, setup)
            for d in ok:
                lam_d = _decode_rate(d, setup)
                if lam_p <= 0 or lam_d <= 0:
                    plans.append(_disaggregated(p, d, setup, 1, 1))
                    continue
                if sizing:
                    if rate_per_s is not None:
                        want = rate_per_s
                    else:  # users → rate at the latency of a balanced pair at its capacity
                        pair = _disaggregated(
                            p, d, setup, max(1, round(lam_d / lam_p)), max(1, round(lam_p / lam_d))
                        )
                        lat = pair.max_concurrent_users / pair.max_requests_per_s
                        want = float(users or 0.0) / lat
                    q = _disaggregated(
                        p, d, setup, math.ceil(want / lam_p - 1e-9), math.ceil(want / lam_d - 1e-9)
                    )
                    for _ in range(8):  # the users' latency moves with the split: top up until served
                        if users is None or q.max_concurrent_users >= users or q.max_concurrent_users <= 0:
                            break
                        want *= users / q.max_concurrent_users * 1.01
                        q = _disaggregated(p, d, setup, math.ceil(want / lam_p), math.ceil(want / lam_d))
                    plans.append(q)
                elif n_gpus:
                    n_p = np.arange(1, max(n_gpus // p.gpus, 1) + 1)
                    n_d = (n_gpus - n_p * p.gpus) // d.gpus
                    rate = np.minimum(n_p * lam_p, n_d * lam_d)
                    if rate.max() > 0:
                        i = int(np.argmax(rate))
                        plans.append(_disaggregated(p, d, setup, int(n_p[i]), int(n_d[i])))
    served = [q for q in plans if q.max_requests_per_s > 0 and (q.gpus > 0)]
    if not served:
        q = plans[0] if plans else _aggregated(ok[0], setup, 0)
        return dataclasses.replace(q, gpus=n_gpus or q.gpus)
    if sizing:
        return min(served, key=lambda q: (q.gpus, -q.max_requests_per_s))
    if objective == "users":
        return max(served, key=lambda q: (q.max_concurrent_users, q.max_requests_per_s, -q.gpus))
    return max(served, key=lambda q: (q.max_requests_per_s, -q.gpus))
