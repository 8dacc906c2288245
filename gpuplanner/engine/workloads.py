"""Every active workload of the project, each on the GPUs of its partition: training and fine-tuning (time to
train on the drawn fabric), serving (the capacity of the partition within the TTFT/TPOT targets, and the
GPUs the stated users or request rate need). No workload is dropped: one that cannot be evaluated keeps its
entry with the reason, and a finding says so."""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from gpuplanner import text
from gpuplanner.core.errors import PlannerError
from gpuplanner.engine.arrays import IntArray
from gpuplanner.engine.checks.findings import Finding
from gpuplanner.engine.compiled import Compiled
from gpuplanner.engine.fabric.fabric_graph import FabricGraph
from gpuplanner.engine.perf.request import default_kv_bytes, kv_precision_of
from gpuplanner.engine.perf.sentences import refusal_msg
from gpuplanner.engine.perf.serving import ServingPlan, ServingSetup, plan_serving
from gpuplanner.engine.workload import WorkloadResult, analyze_workload, cluster_of, shape_of
from gpuplanner.engine.workload_settings import workload_serving_settings
from gpuplanner.model.rows import Workload

if TYPE_CHECKING:  # for the hint only: the analysis hands the fabric result over
    from gpuplanner.engine.fabric.network import FabricResult

TRAINING_KINDS = ("training", "fine-tuning")


@dataclass
class WorkloadEntry:
    """One workload's result, as `analyze --json` prints it (`to_json`)."""

    id: str
    name: str
    kind: str
    partition: str
    gpus: int
    train: WorkloadResult | None = None
    serving: ServingPlan | None = None  # the partition's capacity as drawn
    needed: ServingPlan | None = None  # the GPUs the stated load needs
    error: str | text.Msg = ""  # why it was not evaluated: text.shown(error, lang) says it in a language
    extra: dict[str, Any] = field(default_factory=dict)

    def to_json(self, lang: str = "en") -> dict[str, Any]:
        out: dict[str, Any] = {
            "id": self.id,
            "name": self.name,
            "kind": self.kind,
            "partition": self.partition,
            "gpus": self.gpus,
            "error": text.shown(self.error, lang) or None,
        }
        if self.kind in TRAINING_KINDS:
            e = self.train.estimate if self.train is not None else None
            ok = e is not None and e.fits and e.time_to_train_s
            out["time_to_train_days"] = e.time_to_train_s / 86400.0 if e is not None and ok else None
            band = getattr(e, "time_to_train_days_range", None) if e is not None else None
            out["time_to_train_days_range"] = list(band) if band else None
            out["mfu"] = e.mfu if e is not None and e.fits else None
            out["tokens_per_s"] = e.tokens_per_s if e is not None and e.fits else None
            out["layout"] = (
                {k: getattr(self.train.config, k) for k in ("tp", "pp", "dp", "cp", "ep")}
                if self.train is not None
                else None
            )
        else:
            s = self.serving
            fin = s if s is not None and s.max_requests_per_s > 0 else None  # a plan that serves anything
            out.update(
                {
                    "ttft_s": fin.ttft_s if fin is not None else None,
                    "tpot_s": fin.tpot_s if fin is not None else None,
                    "max_requests_per_s": s.max_requests_per_s if s is not None else None,
                    "max_concurrent_users": s.max_concurrent_users if s is not None else None,
                    "per_user_tokens_per_s": fin.per_user_tokens_per_s if fin is not None else None,
                    "output_tokens_per_s": fin.output_tokens_per_s if fin is not None else None,
                    "serving": s.to_json() if s is not None else None,
                    "gpus_needed": (
                        self.needed.gpus
                        if self.needed is not None and self.needed.fits and self.needed.max_requests_per_s
                        else None  # no size meets the targets (`needed` says why)
                    ),
                    "needed": self.needed.to_json() if self.needed is not None else None,
                    **self.extra,
                }
            )
        return out


def _servers_of(c: Compiled, partition: str) -> IntArray | None:
    if not partition:
        return None
    rows = c.devices.partition_rows(partition)
    if not len(rows):
        raise PlannerError(
            text.Msg("error.partition_empty", {"partition": partition}), field="partition", value=partition
        )
    return rows


def serving_setup(w: Workload) -> ServingSetup:
    """What the inference workload serves, as estimate --inference would serve it: its prompt and output
    lengths, precision, targets (at their percentiles: 0 = in the mean) and serving settings (serving_stack,
    prompt_dataset, the stack's KV-cache share kv_fraction as --kv-fraction and its cap on sequences at once
    max_seqs as --max-seqs: 0 = the stack's default; the token budget per engine step max_batched_tokens as
    --max-batched-tokens: 0 = the engine's default; chunked_prefill False as --no-chunked-prefill,
    gemm_allreduce_fusion True as --gemm-allreduce-fusion).
    KV-cache bytes 0 (not stated) take estimate's default: 1 with fp8/fp4 weights, else 2
    (request.default_kv_bytes)."""
    kv_bytes = w.kv_bytes or default_kv_bytes(w.precision)
    return ServingSetup(
        prompt_len=w.prompt_len,
        output_len=w.output_len,
        precision=w.precision,
        kv_precision=kv_precision_of(kv_bytes),  # as estimate --inference and the advisor name it
        ttft_s=getattr(w, "ttft_target_s", 0.0) or None,
        tpot_s=getattr(w, "tpot_target_s", 0.0) or None,
        think_time_s=getattr(w, "think_time_s", 0.0) or 0.0,
        ttft_percentile=getattr(w, "ttft_percentile", 0.0) or None,  # 0 = in the mean
        tpot_percentile=getattr(w, "tpot_percentile", 0.0) or None,
        kv_fraction=getattr(w, "kv_fraction", 0.0) or None,  # 0 = the serving stack's default
        max_seqs=getattr(w, "max_seqs", 0) or None,  # 0 = the serving stack's default
        max_batched_tokens=getattr(w, "max_batched_tokens", 0) or None,  # 0 = the engine's default
        chunked_prefill=getattr(w, "chunked_prefill", True),  # False as --no-chunked-prefill
        gemm_allreduce_fusion=getattr(w, "gemm_allreduce_fusion", False),  # True as --gemm-allreduce-fusion
        **workload_serving_settings(w),
    )


def _serve(c: Compiled, fg: FabricGraph, w: Workload) -> WorkloadEntry:
    spec, n_gpus = cluster_of(c, c.inputs.catalog, fg, _servers_of(c, w.partition))
    shape = shape_of(w, c.inputs.catalog)
    setup = serving_setup(w)
    mode = getattr(w, "serving_mode", "best") or "best"
    users = getattr(w, "users", 0.0) or 0.0
    rate = getattr(w, "requests_per_s", 0.0) or 0.0
    # a load stated in users alone is judged in users: the capacity shown is the layout serving the most
    objective = "users" if users > 0 and rate <= 0 else "requests"
    cap = plan_serving(shape, spec, setup, n_gpus=n_gpus, mode=mode, objective=objective)
    needed = None
    if users > 0 or rate > 0:
        needed = plan_serving(
            shape, spec, setup, users=users or None, rate_per_s=None if users else rate, mode=mode
        )
    entry = WorkloadEntry(w.id, w.name, w.kind, w.partition, n_gpus, serving=cap, needed=needed)
    entry.extra = {
        "target_users": users or None,
        "target_requests_per_s": rate or None,
        "ttft_target_s": setup.ttft_s,
        "tpot_target_s": setup.tpot_s,
        "serving_stack": setup.serving_stack,
        "prompt_dataset": setup.prompt_dist.name if setup.prompt_dist is not None else None,
        "meets_target": (
            None
            if needed is None
            else bool(
                (cap.max_concurrent_users >= users * (1 - 1e-9))
                if users
                else (cap.max_requests_per_s >= rate * (1 - 1e-9))
            )
        ),
    }
    entry.extra.update(setup.stated())  # as estimate's JSON: the settings stated only
    if not cap.fits:
        entry.error = cap.refusal_msg or cap.refusal  # a Msg: said in the output's language
    return entry


def evaluate_workloads(
    c: Compiled, fabric: FabricResult, primary: WorkloadResult | None
) -> list[WorkloadEntry]:
    """All active workloads in table order. `primary` is the training result the pipeline already has."""
    out: list[WorkloadEntry] = []
    for w in c.inputs.workloads:
        if not w.active:
            continue
        try:
            if w.kind in TRAINING_KINDS:
                res = (
                    primary
                    if primary is not None and primary.workload_id == w.id
                    else analyze_workload(c, fabric.graph, fabric.router, w)
                )
                servers = _servers_of(c, w.partition)
                n = int(c.devices.gpu_count.sum() if servers is None else c.devices.gpu_count[servers].sum())
                e = WorkloadEntry(w.id, w.name, w.kind, w.partition, n, train=res)
                if not res.estimate.fits:
                    e.error = refusal_msg(res.estimate.memory)
                out.append(e)
            else:
                out.append(_serve(c, fabric.graph, w))
        except PlannerError as exc:
            out.append(WorkloadEntry(w.id, w.name, w.kind, w.partition, 0, error=text.error_msg(exc)))
    return out


def workload_entry_findings(
    entries: list[WorkloadEntry], reported: frozenset[str] = frozenset()
) -> list[Finding]:
    """`reported`: workloads whose refusal a design check already reports (the primary workload's
    model-does-not-fit, checks/network.py), so it is not said twice."""
    out = []
    params: dict[str, Any]
    for e in entries:
        if e.error and e.id in reported:
            continue
        if e.error:
            params = {
                "workload": e.name,
                "kind": e.kind,
                "reason": e.error,
            }
            out.append(Finding("error", "workload-not-evaluated", (e.id,), params))
            continue
        if e.kind in TRAINING_KINDS or e.needed is None or e.extra.get("meets_target") is not False:
            continue
        users = e.extra.get("target_users")
        cap = e.serving
        assert cap is not None  # a workload with a stated load (`needed`) has its capacity as drawn
        load = float(users or e.extra.get("target_requests_per_s") or 0.0)
        shown: float | int = int(load) if load.is_integer() else load  # "10 users", not "10.0"
        if not e.needed.fits or not e.needed.max_requests_per_s:
            # no number of GPUs meets the targets: the engine's smallest layout serves nothing within them
            params = {"workload": e.name, "target": shown, "unit": "users" if users else "requests"}
            out.append(Finding("warning", "serving-target-unreachable", (e.id,), params))
            continue
        params = {
            "workload": e.name,
            "partition": e.partition or "—",
            "gpus": e.gpus,
            # unrounded: the message rounds it once, as the text output and `estimate` do
            "capacity": cap.max_concurrent_users if users else cap.max_requests_per_s,
            "unit": "users" if users else "requests",  # word.serving_unit.*
            "target": shown,
            "needed": e.needed.gpus,
            "missing": max(e.needed.gpus - e.gpus, 0),
        }
        out.append(Finding("warning", "serving-target-not-met", (e.id,), params))
    return out


def finite(x: float | None) -> float | None:
    return x if x is not None and math.isfinite(x) else None
