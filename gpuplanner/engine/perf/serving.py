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

Time to first token: a prompt needs ceil(P / (budget − B)) chunks of one step each; prompts queue for the
chunk budget (M/D/1 mean wait, utilisation ρ = C / (budget − B)). Concurrent users (closed loop, Little):
λ · (TTFT + (O − 1) · TPOT + think time).

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
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from gpuplanner.core.errors import ValidationError
from gpuplanner.engine.arrays import FloatArray, Num
from gpuplanner.engine.perf.assumptions import Assumptions, load_assumptions
from gpuplanner.engine.perf.collectives import group_all_reduce_s, links_for, p2p_s
from gpuplanner.engine.perf.flops import param_counts
from gpuplanner.engine.perf.memory import usable_memory_gb
from gpuplanner.engine.perf.shapes import ClusterSpec, ModelShape

GB = 1e9
PRECISION_BYTES = {"bf16": 2.0, "fp16": 2.0, "fp8": 1.0, "fp4": 0.5}
MODES = ("aggregated", "disaggregated", "best")


def serving_assumptions() -> Assumptions:
    from gpuplanner.catalog.loader import bundled_catalog_dir

    return load_assumptions(bundled_catalog_dir() / "assumptions" / "serving.yaml")


@dataclass(frozen=True)
class ServingSetup:
    """What is served and the service targets. `kv_precision` None = the weights' precision."""

    prompt_len: int
    output_len: int
    precision: str = "bf16"
    kv_precision: str | None = None
    ttft_s: float | None = None
    tpot_s: float | None = None
    think_time_s: float = 0.0
    max_batched_tokens: int | None = None  # None = the engine default (serving.yaml)

    def __post_init__(self) -> None:
        for name in ("prompt_len", "output_len"):
            if getattr(self, name) < 1:
                raise ValidationError(f"{name} must be at least 1", field=name, value=getattr(self, name))
        for name in ("precision", "kv_precision"):
            v = getattr(self, name)
            if v is not None and v not in PRECISION_BYTES:
                raise ValidationError(
                    f"unknown {name} {v!r}", field=name, value=v, hint="use bf16, fp16, fp8 or fp4"
                )
        for name in ("ttft_s", "tpot_s"):
            v = getattr(self, name)
            if v is not None and not v > 0:
                raise ValidationError(f"{name} must be positive", field=name, value=v)
        if self.think_time_s < 0:
            raise ValidationError("think_time_s cannot be negative", field="think_time_s")

    @property
    def weight_bytes(self) -> float:
        return PRECISION_BYTES[self.precision]

    @property
    def kv_bytes(self) -> float:
        return PRECISION_BYTES[self.kv_precision or self.precision]


@dataclass(frozen=True)
class Worker:
    """Per-GPU constants of one replica or worker (tp × pp GPUs). A step with B decode tokens and C prefill
    tokens costs  mem0 + min(moe_all, moe_tok·(B+C)) + mem_b·B  +  cmp_b·B + cmp_c·C  +  k0 + k_tok·(B+C)
    (the additive roofline of the training model: memory traffic and math do not fully overlap in the
    kernels of one step); a dense model has moe_all = 0."""

    tp: int
    pp: int
    weights_gb: float  # per GPU
    kv_gb_per_token: float  # per GPU, all layers of its stage
    kv_capacity_tokens: float  # tokens the KV cache can hold on this worker
    budget_tokens: int
    mem0_s: float  # dense weights read once per step
    moe_all_s: float  # all routed experts read
    moe_tok_s: float  # routed experts read per token (until all are touched)
    mem_b_s: float  # KV cache read per decode token (average context)
    cmp_b_s: float  # FLOPs per decode token
    cmp_c_s: float  # FLOPs per prefill token
    k0_s: float  # collective latency per step
    k_tok_s: float  # collective bytes per token
    kv_token_total_byte: float  # one token's K and V over all layers and heads (what a KV transfer moves)
    nic_byte_per_s: float  # the worker's NICs for a KV transfer (line rate × efficiency × fabric share)
    fits: bool
    refusal: str = ""

    @property
    def gpus(self) -> int:
        return self.tp * self.pp

    def step_s(self, decode_tokens: Num, prefill_tokens: Num) -> FloatArray:
        """One engine step (= one output token per running sequence), vectorised over its arguments."""
        b = np.asarray(decode_tokens, dtype=np.float64)
        t = b + np.asarray(prefill_tokens, dtype=np.float64)
        mem = self.mem0_s + np.minimum(self.moe_all_s, self.moe_tok_s * t) + self.mem_b_s * b
        cmp = self.cmp_b_s * b + self.cmp_c_s * (t - b)
        return mem + cmp + self.k0_s + self.k_tok_s * t


def worker(
    shape: ModelShape,
    cluster: ClusterSpec,
    setup: ServingSetup,
    tp: int,
    pp: int = 1,
    a: Assumptions | None = None,
    sa: Assumptions | None = None,
) -> Worker:
    a = a or load_assumptions()
    sa = sa or serving_assumptions()
    g = cluster.gpu_name
    c = param_counts(shape)
    n = tp * pp
    peak = cluster.peak_bf16_tflops * 1e12
    eff = a.number("gemm_efficiency", g)
    if setup.weight_bytes <= 1.0 and cluster.peak_fp8_tflops:  # FP8 weights and activations: FP8 GEMMs
        peak = cluster.peak_fp8_tflops * 1e12
        eff *= a.number("fp8_gemm_efficiency_ratio")
    rate = peak * eff
    bw = cluster.mem_bw_tbyte_per_s * 1e12 * a.number("decode_hbm_efficiency")
    links = links_for(cluster, a)
    g_tp = min(tp, cluster.gpus_per_node)

    weights = c["total"] * setup.weight_bytes / n
    kv_heads_gpu = max(shape.kv_heads / tp, 1.0)
    kv_tok = 2.0 * (shape.layers / pp) * kv_heads_gpu * shape.head_dim * setup.kv_bytes
    kv_total = 2.0 * shape.layers * shape.kv_heads * shape.head_dim * setup.kv_bytes
    ctx_decode = setup.prompt_len + setup.output_len / 2.0
    score = 2.0 * shape.layers * shape.heads * shape.head_dim  # QK^T + PV FLOPs per token per context token
    gemm_tok = 2.0 * c["active"] / n
    budget = int(setup.max_batched_tokens or sa.number("max_batched_tokens"))

    capacity_gb, usable_gb = usable_memory_gb(cluster.mem_gb, g, a)
    engine_gb = min(usable_gb, capacity_gb * sa.number("kv_cache_memory_fraction"))
    act_gb = sa.number("prefill_activation_bytes_per_token_hidden") * budget * shape.hidden / tp / GB
    free_gb = engine_gb - weights / GB - act_gb
    kv_capacity = max(free_gb, 0.0) * GB / kv_tok
    need = setup.prompt_len + setup.output_len
    fits = kv_capacity >= need
    refusal = ""
    if not fits:
        refusal = (
            f"TP{tp} PP{pp}: weights {weights / GB:.1f} GB + prefill workspace {act_gb:.1f} GB per GPU leave "
            f"{max(free_gb, 0):.1f} GB of the {engine_gb:.1f} GB usable, less than one sequence of {need} "
            f"tokens ({need * kv_tok / GB:.3f} GB of KV cache at {setup.kv_precision or setup.precision})"
        )

    # all-reduce made linear in the step's tokens (latency + bytes / bus bandwidth), 2 per layer
    probe = 4096.0
    ar1 = float(group_all_reduce_s(shape.hidden * 2.0, tp, g_tp, links, "tp"))
    arp = float(group_all_reduce_s(probe * shape.hidden * 2.0, tp, g_tp, links, "tp"))
    k_tok = 2.0 * shape.layers * max(arp - ar1, 0.0) / (probe - 1.0) if tp > 1 else 0.0
    k0 = 2.0 * shape.layers * ar1 if tp > 1 else 0.0
    if pp > 1:  # activations handed from stage to stage once per step (between nodes: one NIC)
        k0 += (pp - 1) * float(p2p_s(shape.hidden * 2.0, False, links))

    dense_w = weights
    moe_all = moe_tok = 0.0
    if shape.is_moe:
        expert_w = c["experts_total"] * setup.weight_bytes / n
        dense_w = weights - expert_w
        per_token = expert_w * shape.top_k / shape.experts  # each token routes to top_k of the experts
        moe_all, moe_tok = expert_w / bw, per_token / bw
    nic = n * cluster.nic_gbps_per_gpu * GB / 8.0 * sa.number("kv_transfer_efficiency")
    return Worker(
        tp=tp,
        pp=pp,
        weights_gb=weights / GB,
        kv_gb_per_token=kv_tok / GB,
        kv_capacity_tokens=float(kv_capacity),
        budget_tokens=budget,
        mem0_s=dense_w / bw,
        moe_all_s=moe_all,
        moe_tok_s=moe_tok,
        mem_b_s=kv_tok * ctx_decode / bw,
        cmp_b_s=(gemm_tok + score * ctx_decode / n) / rate,
        cmp_c_s=(gemm_tok + score * setup.prompt_len / 2.0 / n) / rate,  # causal: half the square
        k0_s=k0,
        k_tok_s=k_tok,
        kv_token_total_byte=kv_total,
        nic_byte_per_s=nic * cluster.factor("dp"),
        fits=bool(fits),
        refusal=refusal,
    )


def _fixed_point(alpha: Num, beta: Num) -> FloatArray:
    """Least T with T ≥ α + β·T: α / (1 − β), infinite when β ≥ 1 (the rate exceeds the capacity)."""
    alpha, beta = np.broadcast_arrays(np.asarray(alpha, float), np.asarray(beta, float))
    ok = beta < 1.0
    return np.where(ok, alpha / np.where(ok, 1.0 - beta, 1.0), np.inf)


@dataclass(frozen=True)
class Operating:
    """A worker at a steady request rate (arrays broadcast over the rates)."""

    rate_per_s: np.ndarray
    tpot_s: np.ndarray
    ttft_s: np.ndarray
    decode_batch: np.ndarray
    prefill_tokens_per_step: np.ndarray
    kv_tokens: np.ndarray
    feasible: np.ndarray
    limit: np.ndarray  # why infeasible: "", "compute", "token budget", "kv cache"
    latency_s: np.ndarray  # TTFT + (O − 1) · TPOT


def steady_state(
    w: Worker, setup: ServingSetup, rate_per_s: Num | Sequence[float], prefill: bool = True
) -> Operating:
    """Aggregated (prefill=True: chunked prefill mixed into decode steps) or decode-only worker at λ."""
    lam = np.atleast_1d(np.asarray(rate_per_s, dtype=np.float64))
    isl, osl = float(setup.prompt_len), float(setup.output_len)
    isl_c = isl if prefill else 0.0
    toks = osl + isl_c
    k0 = w.k0_s
    # all experts touched, or experts touched in proportion to the tokens: the smaller holds
    per_req = osl * (w.mem_b_s + w.cmp_b_s) + isl_c * w.cmp_c_s + toks * w.k_tok_s
    t_all = _fixed_point(w.mem0_s + w.moe_all_s + k0, lam * per_req)
    t_few = _fixed_point(w.mem0_s + k0, lam * (per_req + toks * w.moe_tok_s))
    tpot = np.minimum(t_all, t_few) if w.moe_all_s > 0 else t_all
    finite = np.isfinite(tpot)
    T = np.where(finite, tpot, 0.0)
    B = lam * osl * T
    C = lam * isl_c * T
    room = w.budget_tokens - B
    if prefill:
        chunk = np.minimum(isl, np.maximum(room, 1.0))
        chunks = np.ceil(isl / chunk)
        rho = np.divide(C, room, out=np.full_like(C, np.inf), where=room > 0)
        # the steps that carry this prompt's chunks are longer than the average step
        service = chunks * np.where(finite, w.step_s(B, np.maximum(chunk, C)), np.inf)
        with np.errstate(invalid="ignore"):
            wait = np.where(rho < 1, service * rho / (2.0 * np.maximum(1.0 - rho, 1e-12)), np.inf)
        ttft = service + wait
    else:
        rho = np.zeros_like(B)
        ttft = np.zeros_like(B)
    kv = B * (isl + osl / 2.0) + np.where(np.isfinite(ttft), lam * ttft * isl / 2.0, np.inf)
    limit = np.full(lam.shape, "", dtype=object)
    limit[kv > w.kv_capacity_tokens] = "kv cache"
    limit[(rho >= 1) | (room <= 0)] = "token budget"
    limit[~finite] = "compute"
    feasible = (limit == "") & w.fits
    ttft = np.where(feasible, ttft, np.inf)
    tpot = np.where(finite, tpot, np.inf)
    return Operating(
        rate_per_s=lam,
        tpot_s=tpot,
        ttft_s=ttft,
        decode_batch=B,
        prefill_tokens_per_step=C,
        kv_tokens=kv,
        feasible=feasible,
        limit=limit,
        latency_s=ttft + max(osl - 1.0, 0.0) * tpot,
    )


def prefill_service(w: Worker, setup: ServingSetup) -> tuple[float, float, float]:
    """A prefill-only worker: (seconds for one prompt alone, prompts/s at a full token budget, KV transfer s)."""
    isl = setup.prompt_len
    k = max(1, w.budget_tokens // isl)
    one = float(w.step_s(0.0, float(isl))) * math.ceil(isl / w.budget_tokens)
    full = float(w.step_s(0.0, float(k * isl))) * math.ceil(isl / w.budget_tokens)
    transfer = isl * w.kv_token_total_byte / w.nic_byte_per_s
    return one, k / full, transfer


def _meets(op: Operating, setup: ServingSetup, extra_ttft_s: float = 0.0) -> np.ndarray:
    ok = op.feasible.copy()
    if setup.ttft_s is not None:
        ok &= op.ttft_s + extra_ttft_s <= setup.ttft_s
    if setup.tpot_s is not None:
        ok &= op.tpot_s <= setup.tpot_s
    return ok


def _why(op: Operating, setup: ServingSetup, i: int, extra_ttft_s: float = 0.0) -> str:
    if op.limit[i]:
        return str(op.limit[i])
    if setup.tpot_s is not None and op.tpot_s[i] > setup.tpot_s:
        return "tpot"
    if setup.ttft_s is not None and op.ttft_s[i] + extra_ttft_s > setup.ttft_s:
        return "ttft"
    return ""


def max_rate(
    w: Worker, setup: ServingSetup, prefill: bool = True, extra_ttft_s: float = 0.0
) -> tuple[float, str]:
    """The largest steady request rate one worker sustains within the targets, and what binds next.

    TTFT, TPOT and KV use all grow with the rate, so the feasible rates are an interval from 0: three
    passes of a 256-point grid locate its end to 1/256³ of the capacity."""
    if not w.fits:
        return 0.0, "memory"
    isl, osl = float(setup.prompt_len), float(setup.output_len)
    isl_c = isl if prefill else 0.0
    toks = osl + isl_c
    b = osl * (w.mem_b_s + w.cmp_b_s) + isl_c * w.cmp_c_s + toks * w.k_tok_s
    hi = 1.0 / max(b, 1e-30)
    lo = 0.0
    why = "compute"
    for _ in range(3):
        grid = np.linspace(lo, hi, 257)[1:]
        op = steady_state(w, setup, grid, prefill)
        ok = _meets(op, setup, extra_ttft_s)
        bad = np.flatnonzero(~ok)
        if not len(bad):
            lo = grid[-1]
            break
        f = int(bad[0])
        why = _why(op, setup, f, extra_ttft_s) or why
        if f == 0 and lo == 0.0:
            op0 = steady_state(w, setup, [hi * 1e-9], prefill)
            if not _meets(op0, setup, extra_ttft_s)[0]:
                return 0.0, _why(op0, setup, 0, extra_ttft_s) or why
        lo, hi = (grid[f - 1] if f > 0 else lo), grid[f]
    return float(lo), why


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

    def to_json(self) -> dict[str, Any]:
        out = dataclasses.asdict(self)
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
            x = (setup.ttft_s - one - transfer) / full
            rho = 2.0 * x / (1.0 + 2.0 * x) if x > 0 else 0.0
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
        limited_by=why_p if n_p * lam_p <= n_d * lam_d else why_d,
    )
    if rate <= 0:
        return base
    rho = rate / n_p / mu
    ttft = one + rho * full / (2.0 * (1.0 - rho)) + transfer
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
    shape: ModelShape, cluster: ClusterSpec, setup: ServingSetup, a: Assumptions, sa: Assumptions
) -> list[Worker]:
    """Every layout worth trying: each TP in the node; PP across nodes only when the largest TP does not fit."""
    ws = [worker(shape, cluster, setup, t, 1, a, sa) for t in tp_candidates(shape, cluster)]
    if not any(w.fits for w in ws):
        top = max(tp_candidates(shape, cluster))
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
) -> ServingPlan:
    """With `rate_per_s` or `users`: the fewest GPUs that serve that load within the targets (and the
    layout). Otherwise: the capacity of `n_gpus` GPUs as drawn, with the layout that gives the most."""
    if mode not in MODES:
        raise ValidationError(
            f"unknown serving mode {mode!r}", field="mode", hint="aggregated, disaggregated or best"
        )
    a = a or load_assumptions()
    sa = serving_assumptions()
    ws = _workers(shape, cluster, setup, a, sa)
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
            weights_gb_per_gpu=w.weights_gb,
            limited_by="memory",
        )
    sizing = rate_per_s is not None or users is not None
    plans: list[ServingPlan] = []
    if mode in ("aggregated", "best"):
        for w in ok:
            one = _aggregated(w, setup, 1)
            if one.max_requests_per_s <= 0:
                plans.append(one)
                continue
            if sizing:
                per = one.max_requests_per_s if rate_per_s is not None else one.max_concurrent_users
                want = rate_per_s if rate_per_s is not None else users
                assert want is not None  # sizing: a rate or a user count is given
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
                    want = rate_per_s
                    if want is None:  # users → rate at the latency of a balanced pair at its capacity
                        assert users is not None  # sizing without a rate: users are given
                        pair = _disaggregated(
                            p, d, setup, max(1, round(lam_d / lam_p)), max(1, round(lam_p / lam_d))
                        )
                        lat = pair.max_concurrent_users / pair.max_requests_per_s
                        want = users / lat
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
    return max(served, key=lambda q: (q.max_requests_per_s, -q.gpus))


def at_concurrency(w: Worker, setup: ServingSetup, users: float, prefill: bool = True) -> Operating:
    """The steady state of one worker with `users` requests always in flight (closed loop, no think time:
    the load of a benchmark client at fixed concurrency). λ·latency(λ) grows with λ: bisection."""
    isl, osl = float(setup.prompt_len), float(setup.output_len)
    toks = osl + (isl if prefill else 0.0)
    b = osl * (w.mem_b_s + w.cmp_b_s) + (isl if prefill else 0.0) * w.cmp_c_s + toks * w.k_tok_s
    lo, hi = 0.0, 1.0 / max(b, 1e-30)
    for _ in range(60):
        mid = 0.5 * (lo + hi)
        op = steady_state(w, setup, [mid], prefill)
        n = mid * float(op.latency_s[0]) if np.isfinite(op.latency_s[0]) else np.inf
        lo, hi = (mid, hi) if n < users else (lo, mid)
    return steady_state(w, setup, [lo], prefill)
