"""Performance of the serving workloads: for each inference workload, its serving layout, the capacity of its
GPUs (requests/s, concurrent users), the latencies at that load, what limits it, the memory per GPU and the
target asked for against the GPUs it needs — the figures `gpuplanner analyze` prints for it."""

from __future__ import annotations

from typing import Any

from reportlab.platypus import Flowable

from gpuplanner import text
from gpuplanner.reports import fmt
from gpuplanner.reports.context import ReportContext
from gpuplanner.reports.sections.common import sub
from gpuplanner.reports.sections.project_summary import _serve_layout
from gpuplanner.reports.styles import MARGIN, PAGE

HALF = ((PAGE[0] - 2 * MARGIN) * 0.62, (PAGE[0] - 2 * MARGIN) * 0.38)


def serving_workloads(ctx: ReportContext) -> list[dict[str, Any]]:
    return [w for w in ctx.data.get("workloads") or [] if w.get("kind") == "inference"]


def _limit(ctx: ReportContext, why: str) -> str:
    key = f"sv_limit_{why.replace(' ', '_')}"
    return ctx.t(key) if text.has(key) else text.word("serving_limit", why, ctx.lang)


def serving_rows(ctx: ReportContext, w: dict[str, Any]) -> list[tuple[str, str]]:
    s = w.get("serving") or {}
    mode = text.word("serving_mode", s.get("mode", ""), ctx.lang)
    rows = [
        (ctx.t("sv_gpus"), ctx.t("sv_gpus_value", gpus=fmt.integer(w["gpus"]),
                                  partition=w["partition"] or ctx.t("wl_all_gpus"))),
        (ctx.t("sv_layout"), ctx.t("sv_layout_value", mode=mode, layout=_serve_layout(ctx, s))),
        (ctx.t("sv_rate"), fmt.num(w["max_requests_per_s"], 1)),
        (ctx.t("sv_users"), fmt.integer(w.get("max_concurrent_users"))),
        (ctx.t("sv_ttft"), fmt.seconds(w.get("ttft_s"))),
        (ctx.t("sv_tpot"), fmt.num((w.get("tpot_s") or 0) * 1000, 1) if w.get("tpot_s") else fmt.DASH),
        (ctx.t("sv_user_tps"), fmt.num(w.get("per_user_tokens_per_s"), 1)),
        (ctx.t("sv_output_tps"), fmt.integer(w.get("output_tokens_per_s"))),
    ]  # fmt: skip
    if s.get("limited_by"):
        rows.append((ctx.t("sv_limited_by"), _limit(ctx, str(s["limited_by"]))))
    stated = settings_stated(ctx, w)
    if stated:
        rows.append((ctx.t("sv_settings"), ("; " if ctx.lang == "en" else "；").join(stated)))
    if s.get("weights_gb_per_gpu") is not None:
        rows.append(
            (
                ctx.t("sv_memory"),
                ctx.t(
                    "sv_memory_value",
                    weights=fmt.num(s["weights_gb_per_gpu"], 1),
                    kv=fmt.num(s.get("kv_cache_gb_per_gpu"), 1),
                ),
            )
        )
    if w.get("gpus_needed") is not None:
        users = w.get("target_users")
        target = (
            ctx.t("sv_target_users", users=fmt.integer(users))
            if users
            else ctx.t("sv_target_rate", rate=fmt.num(w.get("target_requests_per_s"), 1))
        )
        rows.append((ctx.t("sv_target"), target))
        verdict = ctx.t("sv_met" if w.get("meets_target") else "sv_not_met")
        rows.append(
            (
                ctx.t("sv_needed"),
                ctx.t("sv_needed_value", needed=fmt.integer(w["gpus_needed"]), gpus=fmt.integer(w["gpus"]),
                      verdict=verdict),
            )
        )  # fmt: skip
    return rows


def settings_stated(ctx: ReportContext, w: dict[str, Any]) -> list[str]:
    """The serving settings the workload states (analyze's JSON names them only then), in the report's language:
    its KV-cache share, cap on sequences, token budget per step, prefill not chunked, fused GEMM + all-reduce."""
    out = []
    if w.get("kv_fraction") is not None:
        out.append(ctx.t("sv_set_kv", share=f"{w['kv_fraction']:g}"))
    if w.get("max_seqs") is not None:
        out.append(ctx.t("sv_set_seqs", n=fmt.integer(w["max_seqs"])))
    if w.get("max_batched_tokens") is not None:
        out.append(ctx.t("sv_set_tokens", n=fmt.integer(w["max_batched_tokens"])))
    if w.get("chunked_prefill") is False:
        out.append(ctx.t("sv_set_unchunked"))
    if w.get("gemm_allreduce_fusion"):
        out.append(ctx.t("sv_set_fusion"))
    return out


def build(ctx: ReportContext) -> list[Flowable]:
    """A sub-section per serving workload (nothing when the plan has none)."""
    out: list[Flowable] = []
    for w in serving_workloads(ctx):
        out += sub(ctx, "sv_heading", need=200, name=w["name"])
        if w.get("error") or not w.get("max_requests_per_s"):
            part = w["partition"] or ctx.t("wl_all_gpus")
            out.append(
                ctx.para(ctx.t("wl_serve_error", name=w["name"], partition=part, error=w.get("error") or "—"))
            )
            continue
        out.append(ctx.key_values(serving_rows(ctx, w), HALF))
    return out
