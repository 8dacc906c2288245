"""One candidate, in full: the plan built by the same generator users run, the parallel layout chosen on an
ideal fabric, then the whole analysis (fabric, performance, power, cooling, cost, findings) and every limit
of the goal checked against it. Top-level functions taking plain data, so that a process pool or a Dask
worker can run them."""

from __future__ import annotations

import dataclasses
import math
from functools import cache, lru_cache
from typing import Any

from gpuplanner.advisor.goal import Candidate, Goal, goal_row
from gpuplanner.advisor.space import cluster_spec, model_shape
from gpuplanner.catalog.loader import default_catalog
from gpuplanner.core.errors import PlannerError
from gpuplanner.engine.analysis import analyze_project
from gpuplanner.engine.perf.request import cluster_of, default_kv_bytes, kv_precision_of
from gpuplanner.engine.perf.serving import ServingPlan, ServingSetup, plan_serving
from gpuplanner.engine.perf.sweep import sweep
from gpuplanner.engine.summary import results_json
from gpuplanner.engine.workload import analyze_workload
from gpuplanner.model import Project
from gpuplanner.model.rows import Workload
from gpuplanner.topology.generators import generate_into
from gpuplanner.topology.options import GenerateOptions

SU_SIZE = 32


@cache
def catalog():
    return default_catalog()


# -- the ideal-fabric stage (cheap: numbers only) -------------------------------------------------------
# The ideal fabric's fastest layouts a design whose drawn fabric slowed the fastest one re-times on that
# fabric (evaluate → faster_on_drawn_fabric): each costs one routing of its flows, and none can beat a
# drawn time below its own ideal time, so the list is cut there anyway.
LAYOUTS_ON_DRAWN_FABRIC = 8


def _layout(cfg) -> dict[str, Any]:
    return {
        "tp": cfg.tp,
        "pp": cfg.pp,
        "dp": cfg.dp,
        "cp": cfg.cp,
        "ep": cfg.ep,
        "vpp": cfg.vpp,
        "micro_batch": cfg.micro_batch,
        "recompute": cfg.recompute,
    }


def ideal_layouts(cat, goal: Goal, srv, gpus: int, shape, k: int = 1) -> list[tuple[float, dict[str, Any]]]:
    """The ``k`` fastest distinct layouts on an ideal fabric (days to train, layout), fastest first; empty
    when no layout fits."""
    spec = cluster_spec(cat, srv)
    try:
        res = sweep(
            shape,
            spec,
            gpus,
            goal.global_batch,
            precision=goal.precision,
            total_tokens=goal.total_tokens,
        )
    except PlannerError:
        return []
    out: list[tuple[float, dict[str, Any]]] = []
    for i in range(len(res)):
        lay = _layout(res.config(i))
        if lay in (x[1] for x in out):  # rows that differ only in a setting the workload row does not hold
            continue
        est = res.estimate(i)
        out.append((est.time_to_train_s / 86400.0 if est.time_to_train_s else math.inf, lay))
        if len(out) >= k:
            break
    return out


def ideal_training(cat, goal: Goal, srv, gpus: int, shape) -> tuple[float, dict[str, Any] | None]:
    """Days to train with the best layout on an ideal fabric (inf when no layout fits), and that layout."""
    best = ideal_layouts(cat, goal, srv, gpus, shape)
    return best[0] if best else (math.inf, None)


@lru_cache(maxsize=256)
def _ideal_layouts_cached(
    server_id: str, gpus: int, model_id: str, global_batch: int, precision: str, total_tokens: float, k: int
) -> tuple:
    """``ideal_layouts`` per process for the default catalog, keyed by what the sweep reads of the goal."""
    cat = catalog()
    goal = Goal(model_id=model_id, global_batch=global_batch, precision=precision, total_tokens=total_tokens)
    return tuple(ideal_layouts(cat, goal, cat.get(server_id), gpus, model_shape(cat, model_id), k))


def faster_on_drawn_fabric(goal: Goal, cand: Candidate, res, cat) -> dict[str, Any] | None:
    """A layout that trains faster than the analysed one on the design's drawn fabric, or None.

    The layout comes from the ideal fabric; a drawn fabric that slows it (an oversubscribed spine under the
    DP or expert all-to-all traffic) may favour another. The ideal fabric's next-fastest layouts are re-timed
    on the drawn fabric (the analysis's own placement, routing and performance model: engine/workload.py
    analyze_workload), stopping at the first whose ideal time is not below the best drawn time (the drawn
    fabric only slows a layout, so no later one can win)."""
    w = res.workload
    if w is None or not (w.estimate.fits and w.estimate.time_to_train_s):
        return None
    best_s = w.estimate.time_to_train_s
    srv = cat.get(cand.server)
    if cat is catalog():
        key = (goal.model_id, goal.global_batch, goal.precision, goal.total_tokens)
        layouts = list(_ideal_layouts_cached(cand.server, cand.gpus, *key, LAYOUTS_ON_DRAWN_FABRIC))
    else:
        layouts = ideal_layouts(
            cat, goal, srv, cand.gpus, model_shape(cat, goal.model_id), LAYOUTS_ON_DRAWN_FABRIC
        )
    if not layouts or best_s <= layouts[0][0] * 86400.0 * (1 + 1e-9):
        return None  # the drawn fabric did not slow the ideal fabric's fastest layout
    wl = next(x for x in res.compiled.inputs.workloads if x.id == w.workload_id)
    best = None
    for days, lay in layouts[1:]:
        if days * 86400.0 >= best_s:
            break
        try:
            r = analyze_workload(
                res.compiled, res.fabric.graph, res.fabric.router, dataclasses.replace(wl, **lay)
            )
        except PlannerError:
            continue
        e = r.estimate
        if e.fits and e.time_to_train_s and e.time_to_train_s < best_s * (1 - 1e-9):
            best_s, best = e.time_to_train_s, dict(lay)  # a copy: the cached list is shared
    return best


# the serving mode a goal that states none is sized with (estimate --inference --serving aggregated)
SERVING_MODE = "aggregated"


def serving_setup(goal: Goal) -> ServingSetup:
    """What `estimate --inference` is told for the goal: its prompt and output lengths, its precision with the
    same default KV cache (1 byte with fp8/fp4, else 2: request.default_kv_bytes), its TTFT and TPOT targets at
    the goal's percentiles (0 = in the mean: --ttft/--tpot without --ttft-percentile/--tpot-percentile), the
    prompt lengths of its dataset (--prompt-dataset; none = every prompt of the goal's length), its users' think
    time (--think-time), its serving stack (--serving-stack) and that stack's KV-cache share when the goal states
    one (--kv-fraction; 0 = the stack's default)."""
    dist = None
    if goal.prompt_dataset:
        from gpuplanner.engine.perf.serving_prompts import prompt_lengths

        dist = prompt_lengths(goal.prompt_dataset)
    return ServingSetup(
        prompt_len=goal.prompt_len,
        output_len=goal.output_len,
        precision=goal.precision,
        kv_precision=kv_precision_of(default_kv_bytes(goal.precision)),
        ttft_s=goal.ttft_s_max,
        tpot_s=goal.tpot_s_max,
        ttft_percentile=goal.ttft_percentile or None,
        tpot_percentile=goal.tpot_percentile or None,
        think_time_s=goal.think_time_s,
        prompt_dist=dist,
        serving_stack=goal.serving_stack,
        kv_fraction=goal.kv_fraction or None,
        max_seqs=goal.max_seqs or None,  # 0 = the serving stack's default
        max_batched_tokens=goal.max_batched_tokens or None,  # 0 = the engine's default
        chunked_prefill=goal.chunked_prefill,  # False as --no-chunked-prefill
        gemm_allreduce_fusion=goal.gemm_allreduce_fusion,  # True as --gemm-allreduce-fusion
    )


def headroom(goal: Goal, cap: dict[str, Any]) -> float:
    """How many times over the plan serves the goal's load: its request rate, its concurrent users, or the
    smaller of the two when the goal states both (≥ 1: served within the targets)."""
    out = math.inf
    if goal.requests_per_s > 0:
        out = min(out, cap["requests_per_s"] / goal.requests_per_s)
    if goal.users > 0:
        out = min(out, cap["users"] / goal.users)
    return out if math.isfinite(out) else 0.0


def _capacity(
    cat, setup: ServingSetup, srv, gpus: int, shape, mode: str = SERVING_MODE, objective: str = "requests"
) -> dict[str, Any]:
    cluster = cluster_of({"server": srv.id}, cat)  # as `estimate --server` builds it (oversubscription 1)
    refusal = ""
    try:
        plan = plan_serving(shape, cluster, setup, n_gpus=gpus, mode=mode, objective=objective)
    except (
        PlannerError
    ) as exc:  # e.g. fp4 on a GPU without FP4 tensor cores (space.server_types leaves it out)
        plan, refusal = ServingPlan(mode=mode, gpus=gpus, fits=False), exc.one_line()
    out = {
        "requests_per_s": plan.max_requests_per_s,
        "users": plan.max_concurrent_users,  # at that rate, with the goal's think time (estimate's)
        "mode": plan.mode,
        "tp": plan.tp,
        "pp": plan.pp,
        "replicas": plan.replicas,
        # a disaggregated plan's workers (0 when aggregated), as estimate --inference's JSON names them
        "prefill_tp": plan.prefill_tp,
        "prefill_workers": plan.prefill_workers,
        "decode_tp": plan.decode_tp,
        "decode_workers": plan.decode_workers,
        "kv_transfer_s": plan.kv_transfer_s,
        "batch": plan.decode_batch,  # mean running sequences per replica at that rate
        "ttft_s": plan.ttft_s,
        "tpot_s": plan.tpot_s,
        "weights_gb": plan.weights_gb_per_gpu,  # per GPU, at this TP × PP
        "kv_cache_gb": plan.kv_cache_gb_per_gpu,
        "output_tokens_per_s": plan.output_tokens_per_s,
        "limited_by": plan.limited_by,
        "kv_precision": setup.kv_precision,
        "serving_stack": setup.serving_stack,
        "targets_at": _targets_at(setup),
        "prompt_dataset": setup.prompt_dist.name if setup.prompt_dist is not None else None,
        "fits": plan.fits,
        "refusal": refusal or plan.refusal,
    }
    out.update(setup.stated())  # the settings stated, as estimate's JSON names them
    return out


def _targets_at(setup: ServingSetup) -> str:
    """ "mean", or the percentiles the TTFT and TPOT targets hold at, e.g. "ttft p99, tpot p99"."""
    if setup.ttft_percentile is None and setup.tpot_percentile is None:
        return "mean"
    return ", ".join(
        f"{name} " + (f"p{p:g}" if p is not None else "mean")
        for name, p in (("ttft", setup.ttft_percentile), ("tpot", setup.tpot_percentile))
    )


@lru_cache(maxsize=4096)
def _capacity_cached(
    server_id: str,
    gpus: int,
    model_id: str,
    setup: ServingSetup,
    mode: str = SERVING_MODE,
    objective: str = "requests",
) -> dict[str, Any]:
    cat = catalog()
    return _capacity(cat, setup, cat.get(server_id), gpus, model_shape(cat, model_id), mode, objective)


def capacity_objective(goal: Goal) -> str:
    """What a design's capacity is judged by: "users" for a goal that states only concurrent users (the layout
    serving the most users, as `analyze` judges a workload that states only users), else "requests"."""
    return "users" if goal.users > 0 and goal.requests_per_s <= 0 else "requests"


def serving_capacity(cat, goal: Goal, srv, gpus: int, shape=None) -> dict[str, Any]:
    """The largest request rate the GPUs serve within the goal's TTFT and TPOT targets: the serving model of
    `estimate --inference` (engine/perf/serving.py plan_serving: continuous batching with chunked prefill,
    the prefill queue, the best TP per replica, replicas = GPUs ÷ (TP × PP)) in capacity mode on these GPUs,
    in the goal's serving mode (aggregated unless it says otherwise), with the setup of ``serving_setup``. The
    same as ``gpuplanner estimate --inference --server SERVER --gpus GPUS --model M --precision P --prompt L
    --output O --ttft T --tpot P --serving MODE``
    gives as ``serving.max_requests_per_s`` (for a goal stated in users alone, the layout that serves the most
    users: ``capacity_objective``, i.e. ``--capacity-in users``).

    It depends only on the server type, the GPU count, the model and the serving setup (not on the fabric):
    cached per process for the default catalog, so the bound stage and each worker plan one such key once."""
    setup = serving_setup(goal)
    objective = capacity_objective(goal)
    if cat is catalog():
        return dict(_capacity_cached(srv.id, gpus, goal.model_id, setup, goal.serving_mode, objective))
    shape = shape if shape is not None else model_shape(cat, goal.model_id)
    return _capacity(cat, setup, srv, gpus, shape, goal.serving_mode, objective)


# -- the full stage ---------------------------------------------------------------------------------------
def options_for(cand: Candidate) -> GenerateOptions:
    return GenerateOptions(
        template=cand.template,
        server=cand.server,
        servers=cand.servers,
        leaf_switch=cand.switch,
        oversub=cand.oversub,
        su_size=min(SU_SIZE, cand.servers),
        rack_budget_kw=cand.rack_budget_kw,
        name=f"{cand.servers} × {cand.server}",
    )


def build_project(
    goal: Goal, cand: Candidate, layout: dict[str, Any] | None, cat=None, *, serving_workload: bool = True
) -> Project:
    """The candidate as a project: the generated plan, the goal, and the goal's workload: a training goal's at
    the chosen layout, a serving goal's as an inference workload (``serving_workload_row``; the search's own
    analysis passes ``serving_workload=False``: it takes the capacity from ``serving_capacity``)."""
    from gpuplanner.commands import AddRows, ReplaceRows

    p = Project(cat or catalog())
    generate_into(p, options_for(cand))
    ReplaceRows("goal", [goal_row(goal)]).apply(p)  # the design carries the goal it was found for
    if cand.cooling_id:
        racks = [dataclasses.replace(r, cooling_id=cand.cooling_id) for r in p.racks.values()]
        ReplaceRows("racks", racks).apply(p)
    if goal.kind == "training" and layout is not None:
        wl = Workload(
            id=p.new_id("workloads"),
            name=f"{goal.model_id} ({goal.total_tokens:.3g} tokens)",
            model_id=goal.model_id,
            # the sequence the layout was chosen for (ideal_training: the catalog model's): the table's
            # default (8,192) would train a 32k-sequence MoE model at a quarter of its sequence
            seq_len=model_shape(p.catalog, goal.model_id).seq_len,
            global_batch=goal.global_batch,
            precision=goal.precision,
            total_tokens=goal.total_tokens,
            **layout,
        )
        AddRows("workloads", [wl]).apply(p)
    elif goal.kind == "inference" and serving_workload:
        AddRows("workloads", [serving_workload_row(goal, p.new_id("workloads"), p.catalog)]).apply(p)
    return p


def serving_workload_row(goal: Goal, wid: str, cat=None) -> Workload:
    """The serving goal as the design's inference workload: what `analyze` then sizes with the same serving
    model and setup as ``serving_capacity`` (its model, prompt and output lengths, precision with the default
    KV cache bytes, TTFT/TPOT targets at the goal's percentiles, the goal's request rate, users and think time,
    serving mode, stack, its KV-cache share and prompt dataset), so the workload's capacity on the design's GPUs is the advisor's
    requests/s (and users)."""
    shape = model_shape(cat or catalog(), goal.model_id)
    return Workload(
        id=wid,
        name=f"{goal.model_id} ({load_text(goal)})",
        kind="inference",
        model_id=goal.model_id,
        seq_len=shape.seq_len,
        precision=goal.precision,
        prompt_len=goal.prompt_len,
        output_len=goal.output_len,
        kv_bytes=default_kv_bytes(goal.precision),
        requests_per_s=goal.requests_per_s,
        users=goal.users,
        think_time_s=goal.think_time_s,
        ttft_target_s=goal.ttft_s_max,
        tpot_target_s=goal.tpot_s_max,
        serving_mode=goal.serving_mode,
        serving_stack=goal.serving_stack,
        prompt_dataset=goal.prompt_dataset,
        ttft_percentile=goal.ttft_percentile,
        tpot_percentile=goal.tpot_percentile,
        kv_fraction=goal.kv_fraction,
        max_seqs=goal.max_seqs,
        max_batched_tokens=goal.max_batched_tokens,
        chunked_prefill=goal.chunked_prefill,
        gemm_allreduce_fusion=goal.gemm_allreduce_fusion,
    )


def load_text(goal: Goal) -> str:
    """The goal's load in a few words: "20 req/s", "500 users" or "20 req/s, 500 users"."""
    parts = []
    if goal.requests_per_s > 0:
        parts.append(f"{goal.requests_per_s:g} req/s")
    if goal.users > 0:
        parts.append(f"{goal.users:g} users")
    return ", ".join(parts)


def evaluate(goal: Goal, cand: Candidate, layout: dict[str, Any] | None) -> dict[str, Any]:
    """The design's figures and whether it holds every limit (``feasible``), or ``error`` when it cannot be
    planned or analysed. A training design that holds every limit a layout cannot change (power, racks,
    capex, cooling) and whose drawn fabric slows the ideal fabric's layout is analysed again with the faster
    layout ``faster_on_drawn_fabric`` finds; ``ideal_fabric_layout`` then keeps the one it replaced."""
    out: dict[str, Any] = {"candidate": dataclasses.asdict(cand), "layout": layout}
    cat = catalog()
    try:
        p = build_project(goal, cand, layout, cat, serving_workload=False)
        res = analyze_project(p)
        data = results_json(p, res)
    except PlannerError as exc:
        out["error"] = exc.one_line()
        out["feasible"] = False
        return out
    _figures(goal, cand, data, cat, out)
    if goal.kind == "training" and "error" not in out and _layout_may_decide(out["limits"]):
        faster = faster_on_drawn_fabric(goal, cand, res, cat)
        if faster is not None:
            try:
                p = build_project(goal, cand, faster, cat, serving_workload=False)
                data = results_json(p, analyze_project(p))
            except PlannerError:  # not expected (the layout was analysed on this plan): keep the first
                return out
            out["ideal_fabric_layout"] = layout
            out["layout"] = faster
            _figures(goal, cand, data, cat, out)
    return out


# limits a training layout cannot change: a design breaking one of them stays infeasible whatever its layout
_LAYOUT_FREE = ("facility_kw", "rack_kw", "racks", "capex_usd", "cooling")


def _layout_may_decide(lims: list[dict[str, Any]]) -> bool:
    return all(lim["within"] for lim in lims if lim["name"] in _LAYOUT_FREE)


def _figures(goal: Goal, cand: Candidate, data: dict[str, Any], cat, out: dict[str, Any]) -> None:
    """The analysis's figures (``results_json``), the limits against them and the binding one, into ``out``."""
    perf = data.get("performance") or {}
    racks = data.get("racks") or []
    out.update(
        gpus=data["gpus"],
        servers=cand.servers,
        server=cand.server,
        fabric=cand.template,
        oversub=cand.oversub,
        rack_budget_kw=cand.rack_budget_kw,
        switch=cand.switch,
        cooling_id=cand.cooling_id,
        capex_usd=float(data["capex_usd"]),
        tco_usd=float(data["tco_usd"]),
        tco_years=data["tco_years"],
        facility_kw_max=float(data["facility_kw_max"]),
        it_kw_max=float(data["it_kw_max"]),
        pue=float(data["pue"]),
        racks=len(racks),
        rack_kw_max=max((r["kw_max"] or 0.0 for r in racks), default=0.0),
        cooling=sorted({r["cooling"] for r in racks}),
        findings_errors=sum(1 for f in data["findings"] if f["severity"] == "error"),
        findings_warnings=sum(1 for f in data["findings"] if f["severity"] == "warning"),
    )
    if goal.kind == "training":
        out["time_to_train_days"] = perf.get("time_to_train_days")
        out["step_time_s"] = perf.get("step_time_s")
        out["mfu"] = perf.get("mfu")
        for key in ("step_time_s_range", "time_to_train_days_range"):
            out.pop(key, None)  # a second analysis (a faster layout) replaces the first's
            if key in perf:
                out[key] = perf[key]
        if out["time_to_train_days"] is None:
            out["error"] = data.get("workload_error") or "the workload could not be evaluated"
    else:
        srv = cat.get(cand.server)
        cap = serving_capacity(cat, goal, srv, data["gpus"])
        out["serving"] = cap
        out["requests_per_s_max"] = cap["requests_per_s"]
        out["users_max"] = cap["users"]
        out["headroom"] = headroom(goal, cap)
    out["limits"] = limits(goal, out)
    out["feasible"] = "error" not in out and all(lim["within"] for lim in out["limits"])
    out["binding"] = binding(out["limits"])


def limits(goal: Goal, d: dict[str, Any]) -> list[dict[str, Any]]:
    """Each limit of the goal against the plan: ``{name, limit, plan, within}``."""
    rows: list[tuple[str, float | None, float, bool]] = [
        ("facility_kw", goal.facility_kw_max, d["facility_kw_max"], False),
        ("rack_kw", goal.rack_kw_max, d["rack_kw_max"], False),
        ("racks", goal.racks_max, d["racks"], False),
        ("capex_usd", goal.capex_usd_max, d["capex_usd"], False),
        ("tco_usd", goal.tco_usd_max, d["tco_usd"], False),
    ]
    if goal.kind == "training":
        t = d.get("time_to_train_days")
        rows.append(("deadline_days", goal.deadline_days, math.inf if t is None else t, False))
    else:
        if goal.requests_per_s > 0:
            rows.append(("requests_per_s", goal.requests_per_s, d.get("requests_per_s_max", 0.0), True))
        if goal.users > 0:
            rows.append(("users", goal.users, d.get("users_max", 0.0), True))
    out = []
    for name, lim, plan, at_least in rows:
        if lim is None:
            continue
        within = plan >= lim if at_least else plan <= lim * (1 + 1e-9)
        out.append({"name": name, "limit": lim, "plan": plan, "within": bool(within), "at_least": at_least})
    if goal.cooling:
        bad = [c for c in d["cooling"] if c not in goal.cooling]
        out.append({"name": "cooling", "limit": list(goal.cooling), "plan": d["cooling"], "within": not bad})
    return out


def binding(lims: list[dict[str, Any]]) -> str:
    """The limit closest to (or furthest past) its bound: the one that decides the design."""
    best, name = -math.inf, ""
    for lim in lims:
        if not isinstance(lim["limit"], int | float) or not lim["limit"]:
            continue
        plan = lim["plan"]
        use = lim["limit"] / plan if lim.get("at_least") and plan else plan / lim["limit"]
        if use > best:
            best, name = use, lim["name"]
    return name
