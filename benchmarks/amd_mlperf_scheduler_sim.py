"""Discrete-event simulation of vLLM V0 with AMD's MLPerf Inference v5.1 scheduler patch, at the step times the
serving engine assumes for a validation row (docs/notes/s12-amdsched.md). Nothing here is read by the engine or
the tests.

    python benchmarks/amd_mlperf_scheduler_sim.py            # the v5.1 MI300X llama2-70b Server and Offline rows

The rule (closed/AMD/setup/vllm_patches/scheduler-change-to-have-prefill-and-decode-reach-go.patch and
add-MIN_REQUIRE_PREFILL_QUERY-condition.patch of mlcommons/inference_results_v5.1, applied to ROCm/vllm @ 71faa18,
the vLLM of rocm/vllm-dev:nightly_0610_rc2_0610_rc2_20250605), at each scheduler call:
- prefill allowed iff len(running) < MAX and free GPU blocks > MIN_REQUIRE_PREFILL_GPU_BLOCK and
  (len(waiting) >= MIN_REQUIRE_PREFILL_QUERY or the previous call was not allowed to prefill); the flag for the
  next call is `not allowed`;
- an allowed call with prompts waiting is a prefill-only step of whole prompts (stock V0 `_schedule_default`:
  within max_num_batched_tokens and max_num_seqs, no decodes beside them);
- otherwise a decode call of the first `target` sequences of the running queue: target = MAX if running >= MAX,
  (running // STEP) * STEP if MIN <= running < MAX, else all; the decoded ones go back to the queue's front
  (`extendleft`), so the others wait until sequences finish;
- multi-step (num_scheduler_steps k): a decode call is k steps of the frozen batch; a sequence that finishes inside
  it holds its slot to the end (prefills run one step).
KV-cache block checks are not simulated (MIN_REQUIRE_PREFILL_GPU_BLOCK taken as met). Steps are timed by
Worker.step_s (prompts' own attention beyond the mean not added); outputs uniform O/2 … 3O/2.
"""

from __future__ import annotations

from collections import deque
from typing import Any

import numpy as np

ROW_SERVER = "mlperf-v51-amd-8xmi300x-2xepyc-9575f-llama2-70b-server"
ROW_OFFLINE = "mlperf-v51-amd-8xmi300x-2xepyc-9575f-llama2-70b-offline"
# server_mi300x.yaml / offline_mi300x.yaml (vllm_env_config; MIN_REQUIRE_PREFILL_QUERY unset = the patch's 10)
SERVER = {"MAX": 608, "MIN": 352, "STEP": 16, "Q": 8, "k": 9, "cap": 650}
OFFLINE = {"MAX": 1536, "MIN": 1280, "STEP": 256, "Q": 10, "k": 11, "cap": 1792}


def build(row_id: str) -> tuple[Any, Any]:
    """(worker, prompt lengths) of a validation row, as `validate --inference` builds them (TP of the row)."""
    from gpuplanner.catalog.loader import default_catalog
    from gpuplanner.engine.perf import validation_inference as vi
    from gpuplanner.engine.perf.request import cluster_of, kv_precision_of, shape_of
    from gpuplanner.engine.perf.serving import worker
    from gpuplanner.engine.perf.serving_prompts import prompt_lengths
    from gpuplanner.engine.perf.serving_setup import ServingSetup, serving_assumptions

    req = next(r for r in vi.load_runs() if r.id == row_id).request
    cat = default_catalog()
    dist = prompt_lengths(req["prompt_dataset"])
    setup = ServingSetup(
        prompt_len=int(req["prompt"]),
        output_len=int(req["output"]),
        precision=req["precision"],
        kv_precision=kv_precision_of(req["kv_bytes"]),
        prompt_dist=dist,
        kv_fraction=req.get("kv_fraction"),
        max_seqs=req.get("max_seqs"),
        max_batched_tokens=req.get("max_batched_tokens"),
        chunked_prefill=False,
    )
    w = worker(shape_of(req, cat), cluster_of(req, cat), setup, req["tp"], 1, None, serving_assumptions())
    return w, dist


class Scaled:
    """A worker whose steps take f times as long (a diagnostic, not a model)."""

    def __init__(self, w: Any, f: float):
        self.w, self.f, self.budget_tokens = w, f, w.budget_tokens

    def step_s(self, b: float, p: float) -> float:
        return self.f * float(self.w.step_s(b, p))


def simulate(
    w: Any,
    dist: Any,
    out: int,
    rate: float | None,
    n: int,
    seed: int,
    cap: int,
    k: int,
    amd: dict[str, int] | None,
) -> tuple[np.ndarray, np.ndarray, float]:
    """(TTFT, TPOT per request in the window, Offline requests per second or nan); rate None: all queued at 0;
    amd None: stock V0."""
    rng = np.random.default_rng(seed)
    arrive = np.cumsum(rng.exponential(1.0 / rate, n)) if rate else np.zeros(n)
    outs = rng.integers(out // 2, 3 * out // 2 + 1, n)
    lengths = rng.choice(dist.p, size=n, p=dist.w)
    ttft, first, tpot = np.full(n, np.nan), np.zeros(n), np.full(n, np.nan)
    left = np.zeros(n, dtype=int)
    running: deque[int] = deque()
    t, head, queued, allowed_before = 0.0, 0, 0, True
    while head < n or running:
        while queued < n and arrive[queued] <= t:
            queued += 1
        allowed = True
        if amd:
            allowed = len(running) < amd["MAX"] and (queued - head >= amd["Q"] or allowed_before)
            allowed_before = not allowed
        if allowed and head < queued and len(running) < cap:
            take, tokens = [], 0.0
            while (
                head < queued and tokens + lengths[head] <= w.budget_tokens and len(running) + len(take) < cap
            ):
                take.append(head)
                tokens += lengths[head]
                head += 1
            t += float(w.step_s(0.0, tokens))
            for i in take:
                ttft[i], first[i], left[i] = t - arrive[i], t, outs[i] - 1
                running.append(i)
            continue
        if running:
            r = len(running)
            target = r
            if amd and r >= amd["MAX"]:
                target = amd["MAX"]
            elif amd and r >= amd["MIN"]:
                target = (r // amd["STEP"]) * amd["STEP"]
            batch = [running.popleft() for _ in range(min(target, r))]
            dt = float(w.step_s(float(len(batch)), 0.0))
            for _ in range(k):
                t += dt
                for i in batch:
                    if left[i] > 0:
                        left[i] -= 1
                        if left[i] == 0:
                            tpot[i] = (t - first[i]) / (outs[i] - 1)
            running.extendleft([i for i in batch if left[i] > 0])
            continue
        t = max(t, float(arrive[queued]))
    s = slice(n // 10, n - n // 5)
    rate_done = float("nan")
    if not rate:
        done = np.sort(first + tpot * (outs - 1))
        rate_done = (n - n // 5 - n // 10) / float(done[n - n // 5] - done[n // 10])
    return ttft[s], tpot[s], rate_done


def main() -> None:
    w, dist = build(ROW_SERVER)
    c = SERVER
    print("v5.1 MI300X llama2-70b Server (8 GPUs, TP1; 301 output tokens; limits p99 TTFT 2 s, TPOT 200 ms)")
    for rate in (10.21, 11.5, 12.07, 12.5, 13.0):
        for k, amd in ((1, None), (c["k"], c)):
            ttft, tpot, _ = simulate(w, dist, 301, rate, 12000, 1, c["cap"], k, amd)
            print(
                f"  {rate:5.2f} req/s/GPU = {rate * 301 * 8:6,.0f} tok/s, {'AMD rule, k=9' if amd else 'stock V0, k=1'}:"
                f" p99 TTFT {np.quantile(ttft, 0.99):6.2f} s, p99 TPOT {1e3 * np.quantile(tpot, 0.99):4.0f} ms"
            )
    for f in (1.15, 1.25, 1.35):
        ttft, tpot, _ = simulate(Scaled(w, f), dist, 301, 10.21, 12000, 1, c["cap"], c["k"], c)
        print(
            f"  steps x{f}, AMD rule, the measured 10.21 req/s/GPU: p99 TTFT {np.quantile(ttft, 0.99):.2f} s,"
            f" p99 TPOT {1e3 * np.quantile(tpot, 0.99):.0f} ms (measured 1.91 s / 193 ms)"
        )
    w, dist = build(ROW_OFFLINE)
    c = OFFLINE
    print("v5.1 MI300X llama2-70b Offline (302 output tokens)")
    for k, amd in ((1, None), (c["k"], c)):
        _, _, r = simulate(w, dist, 302, None, 8 * c["cap"], 1, c["cap"], k, amd)
        print(f"  {'AMD rule, k=11' if amd else 'stock V0, k=1'}: {r * 302 * 8:,.0f} tok/s")


if __name__ == "__main__":
    main()
