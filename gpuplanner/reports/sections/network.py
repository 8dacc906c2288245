"""Network topology: the drawing on a landscape page, then the fabric's figures (switches, cables by tier and
medium, bisection, oversubscription, path length, utilisation)."""

from __future__ import annotations

from reportlab.lib.units import mm
from reportlab.platypus import Flowable, NextPageTemplate, PageBreak, Spacer

from gpuplanner.reports import fmt, i18n
from gpuplanner.reports.context import ReportContext
from gpuplanner.reports.drawings.topology import topology_drawing
from gpuplanner.reports.drawings.topology_model import build_topology_model
from gpuplanner.reports.sections.common import section, sub
from gpuplanner.reports.styles import BOTTOM, MARGIN, PAGE, PAGE_LANDSCAPE, TOP

DRAWING_RESERVE = 88.0  # heading, intro and notes above and below the drawing (points)


def _notes(ctx: ReportContext, model) -> list[Flowable]:
    out = []
    if model.aggregated:
        out.append(
            ctx.t(
                "net_aggregated",
                devices=fmt.integer(model.devices_drawn),
                blocks=fmt.integer(len(model.blocks)),
                links=fmt.integer(model.links_drawn),
                bundles=fmt.integer(len(model.bundle_a)),
            )
        )
    if model.omitted_switches or model.omitted_cables:
        out.append(
            ctx.t(
                "net_mgmt_omitted",
                switches=fmt.integer(model.omitted_switches),
                cables=fmt.integer(model.omitted_cables),
            )
        )
    return [ctx.para(s, "muted") for s in out]


def fabric_rows(ctx: ReportContext) -> list[tuple[str, str]]:
    fab, d = ctx.data["fabric"], ctx.data
    rows = [
        (ctx.t("t_switches"), fmt.integer(fab["switches"])),
        (ctx.t("t_endpoints"), fmt.integer(fab["endpoints"])),
        (ctx.t("t_bisection"), fmt.num(fab["bisection_gbps"] / 1000.0, 1)),
        (ctx.t("t_max_hops"), fmt.integer(fab["max_hops"])),
        (ctx.t("t_cables"), fmt.integer(sum(fab["cables_by_tier"].values()))),
        (ctx.t("t_transceivers"), fmt.integer(fab["transceiver_count"])),
        (ctx.t("t_ports"), f"{fmt.integer(fab['ports_used'])} / {fmt.integer(fab['ports_free'])}"),
        (ctx.t("t_util_max"), fmt.pct(d["link_utilization"]["max"])),
        (ctx.t("t_too_long"), fmt.integer(len(fab["links_too_long"]))),
    ]
    for role, ratio in fab["oversubscription_by_tier"].items():
        rows.append((ctx.t("t_oversub", tier=i18n.label("role", role, ctx.lang)), f"{ratio:.2f} : 1"))
    if d.get("network_share_of_gpu_server_capex") is not None:
        rows.append((ctx.t("t_network_share"), fmt.pct(d["network_share_of_gpu_server_capex"])))
    return rows


def build(ctx: ReportContext, n: int) -> list[Flowable]:
    lw, lh = PAGE_LANDSCAPE
    out: list[Flowable] = [NextPageTemplate("landscape"), PageBreak(), section(ctx, n, "sec_network")]
    out.append(ctx.para(ctx.t("net_intro"), "small"))
    model = build_topology_model(ctx.project, ctx.results)
    if not model.blocks:
        out.append(ctx.para(ctx.t("net_empty")))
    else:
        width, height = lw - 2 * MARGIN, lh - TOP - BOTTOM - DRAWING_RESERVE
        out.append(topology_drawing(model, width, height, ctx.fonts, ctx.lang))
        out += _notes(ctx, model)
    out += [NextPageTemplate("portrait"), PageBreak()]
    width = PAGE[0] - 2 * MARGIN
    out += [*sub(ctx, "net_fabric"), ctx.key_values(fabric_rows(ctx), (width * 0.62, width * 0.38))]
    fab = ctx.data["fabric"]
    tiers = [[i18n.label("tier", k, ctx.lang), fmt.integer(v)] for k, v in fab["cables_by_tier"].items()]
    media = [[i18n.label("medium", k, ctx.lang), fmt.integer(v)] for k, v in fab["cables_by_medium"].items()]
    if tiers:
        out += [
            *sub(ctx, "net_cables"),
            ctx.table(
                [ctx.t("col_tier"), ctx.t("col_cables")], tiers, [width * 0.62, width * 0.38], numeric_from=1
            ),
        ]
    if media:
        out += [
            *sub(ctx, "net_media"),
            ctx.table(
                [ctx.t("col_medium"), ctx.t("col_cables")],
                media,
                [width * 0.62, width * 0.38],
                numeric_from=1,
            ),
        ]
    out.append(Spacer(1, 4 * mm))
    return out
