"""Performance: the workload and its layout, the predicted step time, throughput, MFU, memory and time to
train, the step-time breakdown (compute, exposed communication, pipeline bubble) and the scaling curve."""

from __future__ import annotations

from typing import Any

import numpy as np
from reportlab.lib.units import mm
from reportlab.platypus import Flowable, Spacer

from gpuplanner.core.errors import PlannerError
from gpuplanner.engine.perf.scaling import dp_scaling
from gpuplanner.reports import fmt, i18n
from gpuplanner.reports.context import ReportContext
from gpuplanner.reports.drawings.charts import line_chart, stacked_bar
from gpuplanner.reports.sections import serving
from gpuplanner.reports.sections.common import section, sub
from gpuplanner.reports.sections.summary import BREAKDOWN_GROUPS
from gpuplanner.reports.styles import MARGIN, PAGE

WIDTH = PAGE[0] - 2 * MARGIN


def config_rows(ctx: ReportContext, perf: dict[str, Any]) -> list[tuple[str, str]]:
    w = ctx.results.workload
    s, c = w.shape, w.config
    par = " × ".join(str(perf[k]) for k in ("tp", "pp", "dp", "cp", "ep"))
    return [
        (ctx.t("p_workload"), perf["workload"]),
        (ctx.t("p_gpu"), w.cluster.gpu_name),
        (
            ctx.t("p_model"),
            ctx.t("p_model_value", layers=s.layers, hidden=fmt.integer(s.hidden), heads=s.heads),
        ),
        (ctx.t("p_parallel"), par),
        (ctx.t("p_batch"), f"{fmt.integer(c.global_batch)} × {fmt.integer(c.seq_len)}"),
        (ctx.t("p_precision"), str(c.precision).upper()),
        (ctx.t("p_tokens"), fmt.compact(c.total_tokens, ctx.lang)),
    ]


def result_rows(ctx: ReportContext, perf: dict[str, Any]) -> list[tuple[str, str]]:
    rows = [
        (ctx.t("p_step"), fmt.seconds(perf["step_time_s"])),
        (ctx.t("t_tokens"), fmt.num(perf["tokens_per_s"])),
        (ctx.t("p_tflops"), fmt.num(perf["tflops_per_gpu"], 1)),
        (ctx.t("t_mfu"), fmt.pct(perf["mfu"])),
        (ctx.t("p_memory"), fmt.num(perf["memory_per_gpu_gb"], 1)),
        (ctx.t("p_fits"), ctx.t("yes") if perf["fits"] else ctx.t("no")),
        (ctx.t("p_bubble"), fmt.pct(perf["bubble_fraction"])),
        (ctx.t("t_ttt"), fmt.days(perf["time_to_train_days"])),
    ]
    for kind, f in sorted((perf.get("net_factor") or {}).items()):
        rows.append((ctx.t("p_net_factor", kind=kind.upper()), fmt.pct(f, 0)))
    return rows


MEMORY_PARTS = ("weights_gb", "grads_gb", "optimizer_gb", "activations_gb")


def memory_fit(ctx: ReportContext, perf: dict[str, Any]) -> list[Flowable]:
    """What each GPU holds (weights, gradients, optimizer state, activations) against the memory usable."""
    mem = perf.get("memory") or {}
    total, usable = mem.get("total_gb"), mem.get("usable_gb")
    if total is None or usable is None:
        return []
    share = (lambda gb: fmt.pct(gb / usable)) if usable else (lambda gb: fmt.DASH)
    rows = [[ctx.t(f"mem_{k}"), fmt.num(mem[k], 1), share(mem[k])] for k in MEMORY_PARTS if k in mem]
    rows.append([ctx.t("mem_total_gb"), fmt.num(total, 1), share(total)])
    headers = [ctx.t("col_mem_part"), ctx.t("col_gb"), ctx.t("col_of_usable")]
    key = "mem_fits" if perf.get("fits") else "mem_too_big"
    text = ctx.t(
        key, total=fmt.num(total, 1), usable=fmt.num(usable, 1), spare=fmt.num(abs(usable - total), 1)
    )
    table = ctx.table(headers, rows, [WIDTH * 0.62, WIDTH * 0.19, WIDTH * 0.19], numeric_from=1, total_rows=1)
    return [ctx.para(text), table]


def breakdown(ctx: ReportContext, perf: dict[str, Any]) -> list[Flowable]:
    bd, step = perf.get("breakdown") or {}, perf.get("step_time_s") or 0.0
    groups = [(ctx.t(g), sum(bd.get(k, 0.0) for k in keys)) for g, keys in BREAKDOWN_GROUPS.items()]
    rows = []
    for g, keys in BREAKDOWN_GROUPS.items():
        for k in keys:
            if bd.get(k, 0.0) > 0:
                share = bd[k] / step if step > 0 else float("nan")
                rows.append([i18n.label("bd", k, ctx.lang), ctx.t(g), fmt.seconds(bd[k]), fmt.pct(share)])
    rows.append([ctx.t("step_total"), "", fmt.seconds(step), fmt.pct(1.0)])
    headers = [ctx.t(k) for k in ("col_part", "col_group", "col_seconds", "col_share")]
    table = ctx.table(
        headers,
        rows,
        [WIDTH * 0.46, WIDTH * 0.26, WIDTH * 0.14, WIDTH * 0.14],
        numeric_from=2,
        text_cols=(0, 1),
        total_rows=1,
    )
    return [stacked_bar(groups, WIDTH, ctx.fonts), Spacer(1, 3 * mm), table]


def scaling(ctx: ReportContext) -> list[Flowable]:
    w = ctx.results.workload
    c = w.config
    n_max = int(c.tp * c.pp * c.dp * c.cp)
    try:
        curve = dp_scaling(w.shape, c, w.cluster, n_max)
    except (PlannerError, ValueError, ZeroDivisionError, FloatingPointError) as exc:
        return [ctx.para(ctx.t("scaling_error", error=str(exc)), "muted")]
    sizes = curve["n_gpus"].astype(int)
    eff = np.asarray(curve["efficiency"], dtype=float) * 100.0
    ok = np.isfinite(eff)
    out: list[Flowable] = [
        ctx.para(ctx.t("scaling_intro", first=fmt.integer(sizes[0]), last=fmt.integer(sizes[-1])), "small")
    ]
    if ok.sum() >= 2:
        xs = np.log2(sizes[ok])
        pts = list(zip(xs.tolist(), eff[ok].tolist(), strict=True))
        labels = {float(x): fmt.integer(n) for x, n in zip(xs.tolist(), sizes[ok].tolist(), strict=True)}
        out.append(
            line_chart(
                [(ctx.t("col_efficiency"), pts)],
                WIDTH,
                170,
                ctx.fonts,
                x_title=ctx.t("axis_gpus"),
                y_title=ctx.t("axis_efficiency"),
                x_labels=labels,
            )
        )
    rows = [
        [fmt.integer(n), fmt.num(tps), fmt.pct(e / 100.0), fmt.seconds(st), fmt.pct(m)]
        for n, tps, e, st, m in zip(
            sizes, curve["tokens_per_s"], eff, curve["step_time_s"], curve["mfu"], strict=True
        )
    ]
    headers = [ctx.t(k) for k in ("col_gpus", "col_tokens", "col_efficiency", "col_step", "col_mfu")]
    out.append(ctx.table(headers, rows, [WIDTH / 5] * 5, numeric_from=0, text_cols=()))
    return out


def build(ctx: ReportContext, n: int) -> list[Flowable]:
    out: list[Flowable] = [section(ctx, n, "sec_performance")]
    perf = ctx.data.get("performance")
    if not perf or ctx.results.workload is None:
        err = ctx.data.get("workload_error")
        if not err and serving.serving_workloads(ctx):  # a serving plan: its workloads, no training to add
            return [*out, *serving.build(ctx)]
        return [
            *out,
            ctx.para(ctx.t("perf_error", error=err) if err else ctx.t("perf_none")),
            *serving.build(ctx),
        ]
    half = (WIDTH * 0.62, WIDTH * 0.38)
    out += [*sub(ctx, "perf_config"), ctx.key_values(config_rows(ctx, perf), half)]
    out += [*sub(ctx, "perf_results"), ctx.key_values(result_rows(ctx, perf), half)]
    if perf.get("bottleneck"):  # what limits the speed, in the engine's words (as `analyze` prints it)
        out += [Spacer(1, 2 * mm), ctx.para(ctx.t("perf_limit", bottleneck=perf["bottleneck"]))]
    out += [*sub(ctx, "breakdown", need=160), *breakdown(ctx, perf)]
    memory = memory_fit(ctx, perf)
    if memory:
        out += [*sub(ctx, "perf_memory", need=130), *memory]
    out += [*sub(ctx, "scaling", need=250), *scaling(ctx)]
    return [*out, *serving.build(ctx)]
