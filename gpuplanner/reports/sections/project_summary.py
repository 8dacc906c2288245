"""The executive summary's account of the whole request: each workload on its own GPUs, each site limit and
the budget against the plan, and the parts the export rules keep from the customer's region."""

from __future__ import annotations

from typing import Any

from gpuplanner import text
from gpuplanner.reports import fmt
from gpuplanner.reports.context import ReportContext


def _serve_layout(ctx: ReportContext, s: dict[str, Any]) -> str:
    if s.get("mode") == "disaggregated":
        return ctx.t(
            "wl_layout_disagg",
            p=s["prefill_workers"],
            ptp=s["prefill_tp"],
            d=s["decode_workers"],
            dtp=s["decode_tp"],
        )
    return ctx.t("wl_layout_agg", replicas=s.get("replicas", 0), tp=s.get("tp", 0))


def workload_sentences(ctx: ReportContext) -> list[str]:
    out = []
    for w in ctx.data.get("workloads") or []:
        part = w["partition"] or ctx.t("wl_all_gpus")
        if w["kind"] in ("training", "fine-tuning"):
            kind = ctx.t(f"wl_kind_{w['kind']}")
            if w.get("error") or w.get("time_to_train_days") is None:
                out.append(
                    ctx.t(
                        "wl_train_error",
                        kind=kind,
                        name=w["name"],
                        partition=part,
                        error=w.get("error") or "—",
                    )
                )
                continue
            lay = w.get("layout") or {}
            out.append(
                ctx.t(
                    "wl_train",
                    kind=kind,
                    name=w["name"],
                    partition=part,
                    gpus=fmt.integer(w["gpus"]),
                    tp=lay.get("tp"),
                    pp=lay.get("pp"),
                    dp=lay.get("dp"),
                    days=fmt.days(w["time_to_train_days"]),
                    mfu=fmt.pct(w.get("mfu")),
                )
            )
            band = w.get("time_to_train_days_range")
            if band and len(band) == 2:
                out.append(ctx.t("wl_band", lo=fmt.days(band[0]), hi=fmt.days(band[1])))
            continue
        s = w.get("serving") or {}
        if w.get("error") or not w.get("max_requests_per_s"):
            out.append(ctx.t("wl_serve_error", name=w["name"], partition=part, error=w.get("error") or "—"))
            continue
        out.append(
            ctx.t(
                "wl_serve",
                name=w["name"],
                partition=part,
                gpus=fmt.integer(w["gpus"]),
                layout=_serve_layout(ctx, s),
                users=fmt.integer(w["max_concurrent_users"]),
                rate=fmt.num(w["max_requests_per_s"], 1),
                ttft=fmt.seconds(w.get("ttft_s")),
                tps=fmt.num(w.get("per_user_tokens_per_s"), 1),
            )
        )
        if w.get("gpus_needed") is not None:
            ok = bool(w.get("meets_target"))
            users = w.get("target_users")
            key = ("wl_serve_target_" if users else "wl_serve_rate_") + ("ok" if ok else "short")
            out.append(
                ctx.t(
                    key,
                    target=fmt.integer(users) if users else fmt.num(w.get("target_requests_per_s"), 1),
                    ttft_target=fmt.num(w.get("ttft_target_s"), 1) if w.get("ttft_target_s") else "—",
                    needed=fmt.integer(w["gpus_needed"]),
                    gpus=fmt.integer(w["gpus"]),
                )
            )
    return out


def _money(ctx: ReportContext, x: float) -> str:
    if ctx.lang == "zh":
        return fmt.money_words(x, ctx.currency, ctx.lang)
    return fmt.money_cur(x, ctx.currency)


def limit_sentences(ctx: ReportContext) -> list[str]:
    limits = ctx.data.get("limits") or []
    groups = [x for x in limits if x["name"].startswith("positions_")]
    out = []
    for x in limits:
        verdict = ctx.t("lim_within" if x["within"] else "lim_exceeded")
        name = x["name"]
        if name == "it_power_kw":
            out.append(
                ctx.t(
                    "lim_it_power_kw",
                    plan=fmt.kw(x["plan"]),
                    it=fmt.kw(x.get("it_kw_max")),
                    margin=fmt.pct(x.get("margin", 0.0), 0),
                    limit=fmt.kw(x["limit"]),
                    verdict=verdict,
                )
            )
        elif name == "facility_power_kw":
            out.append(
                ctx.t(
                    "lim_facility_power_kw", plan=fmt.kw(x["plan"]), limit=fmt.kw(x["limit"]), verdict=verdict
                )
            )
        elif name == "rack_positions":
            detail = ("；" if ctx.lang == "zh" else "; ").join(
                ctx.t(
                    "lim_position_group",
                    used=fmt.integer(g["plan"]),
                    count=fmt.integer(g["limit"]),
                    cooling=ctx.t(f"cool_pos_{g['cooling']}"),
                    kw=fmt.num(g["kw"]),
                )
                for g in groups
            )
            out.append(
                ctx.t(
                    "lim_rack_positions",
                    plan=fmt.integer(x["plan"]),
                    limit=fmt.integer(x["limit"]),
                    detail=detail,
                    unplaced=fmt.integer(x.get("unplaced", 0)),
                    verdict=verdict,
                )
            )
        elif name in ("budget_capex", "budget_tco"):
            out.append(
                ctx.t(
                    f"lim_{name}",
                    plan=_money(ctx, x["plan"]),
                    limit=_money(ctx, x["limit"]),
                    years=ctx.data.get("tco_years"),
                    verdict=verdict,
                )
            )
    return out


def export_sentences(ctx: ReportContext) -> list[str]:
    region = (ctx.project.site.region or "").upper() if hasattr(ctx.project.site, "region") else ""
    if not region:
        return []
    found = [f for f in ctx.data.get("findings") or [] if f["rule"] == "part-not-available-in-region"]
    if not found:
        return [ctx.t("exp_none", region=region)]
    sep = text.render("col.list_separator", ctx.lang)  # "a, b" / "甲、乙"
    parts = sep.join(f"{f['params']['part']} × {f['params']['count']}" for f in found)
    alts: list[str] = []
    for f in found:
        alts += [a for a in f["params"].get("alternatives") or [] if a not in alts and a != "—"]
    return [ctx.t("exp_parts", region=region, parts=parts, alternatives=sep.join(alts) or "—")]
