"""Exclusions and price validity: until when the proposal's prices hold, how old the catalog prices used are
(the oldest called out), and what the proposal does not include."""

from __future__ import annotations

from reportlab.lib.units import mm
from reportlab.platypus import Flowable, ListFlowable, ListItem, Spacer

from gpuplanner.reports.context import ReportContext
from gpuplanner.reports.sections.common import section
from gpuplanner.reports.sections.schedule import date, subheading
from gpuplanner.reports.sources import price_terms

MAX_STALE_LISTED = 6


def exclusions(ctx: ReportContext) -> list[str]:
    """The stated exclusions; those that depend on the plan only where they apply."""
    d = ctx.data
    keys = ["excl_taxes", "excl_shipping"]
    if ctx.project.site.region or any(
        getattr(ctx.project.catalog.entries.get(g), "export_control", None)
        for g in ctx.results.compiled.gpu_types
    ):
        keys.append("excl_export")
    model = (d.get("facility") or {}).get("model", ctx.project.site.facility_model)
    if model == "colocation":
        keys.append("excl_building")
    elif model == "none":
        keys.append("excl_building_none")
    if not d["capex_by_category"].get("software"):
        keys.append("excl_software")
    if not d["capex_by_category"].get("storage"):
        keys.append("excl_storage")
    keys += ["excl_services", "excl_spares"]
    return [ctx.t(k) for k in keys]


def build(ctx: ReportContext, n: int | str) -> list[Flowable]:
    terms = price_terms(ctx)
    out: list[Flowable] = [section(ctx, n, "sec_terms")]
    out.append(ctx.para(ctx.t("terms_validity", until=date(ctx, terms.valid_until), days=terms.days)))
    if terms.dates:
        out.append(
            ctx.para(
                ctx.t("terms_dates", n=len(terms.dates), oldest=terms.dates[0][0], newest=terms.dates[-1][0])
            )
        )
    else:
        out.append(ctx.para(ctx.t("terms_no_prices")))
    if terms.stale:
        listed = terms.stale[:MAX_STALE_LISTED]
        sep = "；" if ctx.lang == "zh" else "; "
        items = sep.join(f"{name} ({as_of})" for as_of, name in listed)
        if len(terms.stale) > len(listed):
            items += sep + "…"
        text = ctx.t("terms_stale", n=len(terms.stale), months=terms.stale_months, items=items)
        out.append(ctx.para(text, limit=2000))
    out += [Spacer(1, 2 * mm), *subheading(ctx, "terms_excl_title")]
    bullets = [ListItem(ctx.para(x), leftIndent=12, value="•") for x in exclusions(ctx)]
    out.append(
        ListFlowable(bullets, bulletType="bullet", start="•", bulletFontName=ctx.fonts.body, leftIndent=12)
    )
    return out
