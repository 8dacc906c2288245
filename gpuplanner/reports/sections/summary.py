"""Executive summary: the plan in five figures and three sentences, then the key figures table."""

from __future__ import annotations

from typing import Any

from reportlab.lib.styles import ParagraphStyle
from reportlab.lib.units import mm
from reportlab.platypus import Flowable, Paragraph, Spacer, Table, TableStyle

from gpuplanner.reports import fmt, i18n
from gpuplanner.reports.context import ReportContext
from gpuplanner.reports.doc import text_width
from gpuplanner.reports.sections.common import section
from gpuplanner.reports.sections.project_summary import export_sentences, limit_sentences, workload_sentences
from gpuplanner.reports.styles import ACCENT, ACCENT_LIGHT, MARGIN, PAGE

BREAKDOWN_GROUPS = {
    "grp_compute": ("compute_s", "recompute_s"),
    "grp_comm": ("tp_comm_s", "cp_comm_s", "pp_comm_s", "dp_comm_s", "ep_comm_s"),
    "grp_bubble": ("pp_bubble_s",),
    "grp_optimizer": ("optimizer_s",),
}


def main_cooling(ctx: ReportContext, data: dict[str, Any]) -> str:
    mix = data.get("cooling_mix_kw") or {}
    if not mix or max(mix.values()) <= 0:
        racks = data.get("racks") or []
        return i18n.label("cool", racks[0]["cooling"], ctx.lang) if racks else "—"
    return i18n.label("cool", max(mix, key=lambda k: mix[k]), ctx.lang)


def gpu_name(ctx: ReportContext) -> str:
    """The GPU model's name for a sentence: the catalog name without its description after a dash ("NVIDIA
    GB200 — one Blackwell GPU of the superchip" → "NVIDIA GB200"), so the description is not spliced into the
    sentence."""
    gpus = ctx.results.compiled.gpu_types
    if not gpus:
        return "—"
    names = [g.name.split(" — ")[0].split(" - ")[0].strip() or g.name for g in gpus.values()]
    return ", ".join(dict.fromkeys(names))


def _figure(ctx: ReportContext, value: str, room: float) -> Paragraph:
    """A tile's figure, in a smaller size (down to 11 pt) when it would not fit on one line. Two figures
    ("capex / TCO") that do not fit one line go on two lines, each whole: the line never breaks inside an
    amount or its currency word ("9,106.3 万美" / "元")."""
    style = ctx.styles.figure
    parts = value.split(" / ")
    lines = [value]
    size = style.fontSize
    while size > 11 and text_width(value, ctx.fonts, style.fontName, size) > room:
        size -= 1
    if text_width(value, ctx.fonts, style.fontName, size) > room and len(parts) > 1:
        lines = [f"{p} /" for p in parts[:-1]] + [parts[-1]]
        size = style.fontSize
        while size > 9 and max(text_width(x, ctx.fonts, style.fontName, size) for x in lines) > room:
            size -= 1
    if size != style.fontSize:
        style = ParagraphStyle(f"figure{size}", parent=style, fontSize=size, leading=size * 1.2)
    # no-break spaces inside each line: CJK wrapping may break between any two characters, so it is off here
    style = ParagraphStyle(f"{style.name}-nowrap", parent=style, wordWrap=None)
    return Paragraph("<br/>".join(ctx.markup(x.replace(" ", "\u00a0"), 80) for x in lines), style)


def _speed_tiles(ctx: ReportContext) -> list[tuple[str, str]]:
    """Training throughput and time to train; for a plan that only serves, the first serving workload's
    capacity and time to first token instead of two dashes."""
    perf = ctx.data.get("performance")
    served = [
        w
        for w in ctx.data.get("workloads") or []
        if w.get("kind") == "inference" and w.get("max_requests_per_s")
    ]
    if not perf and served:
        w = served[0]
        users = w.get("max_concurrent_users")
        capacity = (
            ctx.t("kf_users_value", users=fmt.compact(users, ctx.lang))
            if users
            else ctx.t("kf_rate_value", rate=fmt.compact(w["max_requests_per_s"], ctx.lang))
        )
        return [
            (ctx.t("kf_serving", name=w["name"]), capacity),
            (ctx.t("kf_ttft"), ctx.t("kf_seconds_value", s=fmt.seconds(w.get("ttft_s")))),
        ]
    return [
        (
            ctx.t("kf_throughput"),
            ctx.t("kf_tokens_value", tokens=fmt.compact(perf["tokens_per_s"], ctx.lang)) if perf else "—",
        ),
        (ctx.t("kf_ttt"), ctx.t("kf_days_value", days=fmt.days(perf["time_to_train_days"])) if perf else "—"),
    ]


def _tiles(ctx: ReportContext) -> Table:
    d = ctx.data
    tiles = [
        (ctx.t("kf_gpus"), fmt.integer(d["gpus"])),
        *_speed_tiles(ctx),
        (
            ctx.t("kf_power"),
            ctx.t("kf_power_value", it=fmt.num(d["it_kw_max"]), fac=fmt.num(d["facility_kw_max"])),
        ),
        (ctx.t("kf_cooling"), main_cooling(ctx, d)),
        (
            ctx.t("kf_cost", years=d["tco_years"]),
            ctx.t(
                "kf_cost_value",
                # as the app's results panel shows them: "61.05 M / 90.63 M USD", "8,008.0 万元 / 1.24 亿元"
                capex=fmt.money_words(d["capex"], ctx.currency, ctx.lang, with_currency=False),
                tco=fmt.money_words(d["tco"], ctx.currency, ctx.lang),
            ),
        ),
    ]
    width = (PAGE[0] - 2 * MARGIN) / 3
    cells = [[_figure(ctx, v, width - 14), ctx.para(k, "figure_label", 80)] for k, v in tiles]
    grid = [[cells[i], cells[i + 1], cells[i + 2]] for i in (0, 3)]
    t = Table(grid, colWidths=[width] * 3)
    t.setStyle(
        TableStyle(
            [
                ("FONTNAME", (0, 0), (-1, -1), ctx.fonts.body),
                ("BACKGROUND", (0, 0), (-1, -1), ACCENT_LIGHT),
                ("LINEABOVE", (0, 0), (-1, 0), 1.2, ACCENT),
                ("LINEBELOW", (0, 0), (-1, 0), 3, "white"),
                ("VALIGN", (0, 0), (-1, -1), "TOP"),
                ("TOPPADDING", (0, 0), (-1, -1), 7),
                ("BOTTOMPADDING", (0, 0), (-1, -1), 7),
                ("LINEAFTER", (0, 0), (1, -1), 3, "white"),
            ]
        )
    )
    return t


def largest_part(perf: dict[str, Any]) -> tuple[str, float]:
    bd = perf.get("breakdown") or {}
    step = perf.get("step_time_s") or 0.0
    if not bd or step <= 0:
        return "", 0.0
    key = max(bd, key=lambda k: bd[k])
    return key, bd[key] / step


def money_text(ctx: ReportContext, amount: float) -> str:
    """An amount in running text: exact in English ("61,045,212 USD"); in Chinese in 万/亿 as Chinese
    proposals write it ("6,104.5 万美元") — the exact figure is in the key figures table below."""
    if ctx.lang == "zh":
        return fmt.money_words(amount, ctx.currency, ctx.lang)
    return fmt.money_cur(amount, ctx.currency)


def sentences(ctx: ReportContext) -> list[str]:
    d, perf = ctx.data, ctx.data.get("performance")
    fab = d["fabric"]
    out = [
        ctx.t(
            "sum_plan",
            gpus=fmt.integer(d["gpus"]),
            gpu=gpu_name(ctx),
            servers=fmt.integer(d["servers"]),
            racks=fmt.integer(len(d["racks"])),
            switches=fmt.integer(fab["switches"]),
            bisection=fmt.num(fab["bisection_gbps"] / 1000.0, 1),
        )
    ]
    if perf:
        ttt = perf.get("time_to_train_days")
        key = "sum_perf" if ttt else "sum_perf_no_ttt"
        params = dict(
            workload=perf["workload"], tokens=fmt.num(perf["tokens_per_s"]), mfu=fmt.pct(perf["mfu"])
        )
        out.append(ctx.t(key, days=fmt.days(ttt), **params))
        part, share = largest_part(perf)
        if part:
            out.append(ctx.t("sum_limit", part=i18n.label("bd", part, ctx.lang), share=fmt.pct(share, 0)))
    elif d.get("workload_error"):
        out.append(ctx.t("sum_perf_error", error=d["workload_error"]))
    else:
        out.append(ctx.t("sum_no_perf", load=fmt.pct(d["gpu_utilization"], 0)))
    out.append(
        ctx.t(
            "sum_power_cost",
            it=fmt.kw(d["it_kw_max"]),
            fac=fmt.kw(d["facility_kw_max"]),
            pue=fmt.pue(d["pue"]),
            cooling=main_cooling(ctx, d),
            capex=money_text(ctx, d["capex"]),
            tco=money_text(ctx, d["tco"]),
            years=d["tco_years"],
        )
    )
    return out


def key_figures(ctx: ReportContext) -> list[tuple[str, str]]:
    d, perf, cur, years = ctx.data, ctx.data.get("performance"), ctx.cur_label, ctx.data["tco_years"]
    sev = [f["severity"] for f in d["findings"]]
    rows = [
        (ctx.t("t_gpus"), fmt.integer(d["gpus"])),
        (ctx.t("t_servers"), fmt.integer(d["servers"])),
        (ctx.t("t_switches"), fmt.integer(d["fabric"]["switches"])),
        (ctx.t("t_racks"), fmt.integer(len(d["racks"]))),
    ]
    if perf:
        rows += [
            (ctx.t("t_tokens"), fmt.num(perf["tokens_per_s"])),
            (ctx.t("t_mfu"), fmt.pct(perf["mfu"])),
            (ctx.t("t_ttt"), fmt.days(perf["time_to_train_days"])),
        ]
    rows += [
        (ctx.t("t_it_kw_max"), fmt.kw(d["it_kw_max"])),
        (ctx.t("t_it_kw_load"), fmt.kw(d["it_kw_load"])),
        (ctx.t("t_pue"), fmt.pue(d["pue"])),
        (ctx.t("t_fac_kw_max"), fmt.kw(d["facility_kw_max"])),
        (ctx.t("t_fac_kw"), fmt.kw(d["facility_kw"])),
        (ctx.t("t_annual_mwh"), fmt.num(d["annual_mwh"])),
        (ctx.t("t_capex", cur=cur), fmt.money(d["capex"])),
        (ctx.t("t_opex", cur=cur), fmt.money(d["opex_per_year"])),
        (ctx.t("t_tco", years=years, cur=cur), fmt.money(d["tco"])),
        (ctx.t("t_gpu_hour", cur=cur), fmt.num(d["cost_per_gpu_hour"], 2)),
        (ctx.t("t_findings"), f"{sev.count('error')} / {sev.count('warning')}"),
    ]
    return rows


def build(ctx: ReportContext, n: int) -> list[Flowable]:
    width = PAGE[0] - 2 * MARGIN
    out: list[Flowable] = [section(ctx, n, "sec_summary"), _tiles(ctx), Spacer(1, 6 * mm)]
    out += [ctx.para(s) for s in sentences(ctx)]
    extra = workload_sentences(ctx) + limit_sentences(ctx) + export_sentences(ctx)
    if extra:  # the whole request: each workload on its own GPUs, each limit against the plan
        out.append(Spacer(1, 2 * mm))
        out += [ctx.para(s) for s in extra]
    out.append(Spacer(1, 3 * mm))
    out.append(ctx.para(ctx.t("key_figures"), "h2"))
    out.append(ctx.key_values(key_figures(ctx), (width * 0.62, width * 0.38)))
    return out
