"""Appendix: every catalog entry the plan uses with each figure's source and date, the prices, the project's
own inputs and the model's assumptions (facility, cost, network, performance), each with its source."""

from __future__ import annotations

import dataclasses
import re
from typing import Any

from reportlab.lib.units import mm
from reportlab.platypus import Flowable

from gpuplanner.core.errors import CatalogError
from gpuplanner.engine.assumptions import load_assumptions
from gpuplanner.reports import fmt, i18n
from gpuplanner.reports.context import ReportContext
from gpuplanner.reports.sections.appendix_catalog import catalog_tables, price_name
from gpuplanner.reports.sections.common import section, sub
from gpuplanner.reports.styles import MARGIN, PAGE

WIDTH = PAGE[0] - 2 * MARGIN
WIDTHS = [46 * mm, 40 * mm, WIDTH - 104 * mm, 18 * mm]
MAX_SOURCE = 600  # sources are printed whole (URLs included) up to this length
AREAS = ("facility", "cost", "network", "performance")


def area_entries(area: str) -> dict[str, dict[str, Any]]:
    """name → {value, source, as_of, estimate} of ``catalogs/assumptions/<area>.yaml`` (read by the
    engine's loader, which the stages use too)."""
    return load_assumptions(area).entries


def used_ids(ctx: ReportContext) -> list[str]:
    r = ctx.results
    ids = set(ctx.project.used_type_ids())
    ids |= set(r.fabric.cables.bom_cables) | set(r.fabric.cables.bom_transceivers)
    ids |= {r.thermal.table.ids[j] for j in set(r.thermal.rack_cooling.tolist())}
    ids |= set(r.compiled.gpu_types)
    return sorted(i for i in ids if i in ctx.project.catalog.entries)


def _date(as_of: Any, estimate: bool) -> str:
    return f"{as_of} *" if estimate else str(as_of)


def _headers(ctx: ReportContext) -> list[str]:
    return [ctx.t(k) for k in ("col_entry", "col_value", "col_source", "col_as_of")]


def price_table(ctx: ReportContext, ids: list[str]) -> Flowable | None:
    rows = []
    name_of = price_name(ctx)
    for eid in ids:
        p = ctx.project.catalog.prices.get(eid)
        if p is None:
            continue
        unit = ctx.t(f"price_{p.unit}") if p.unit in ("each", "per_m", "per_kw") else p.unit
        rows.append(
            [
                name_of(eid),
                ctx.t("price_value", price=fmt.unit_price(p.price_usd), unit=unit),
                p.source,
                _date(p.as_of, p.estimate),
            ]
        )
    return (
        ctx.table(_headers(ctx), rows, WIDTHS, text_cols=(0, 1, 2), cell_limit=MAX_SOURCE) if rows else None
    )


def words(v: Any, lang: str = "en") -> str:
    """A value as a reader sees it: ``fmt.value`` with the keys and slugs of nested values in words
    ("norm residual fwd: 22", "on demand", "expected utilization"), never an identifier; yes/no in ``lang``,
    and in ``lang`` each key or slug the text has a word for (``aval_<slug>``: "max kW per rack", 每柜最高 kW);
    an empty list or text is a dash."""
    if isinstance(v, bool):
        return i18n.tr("yes" if v else "no", lang)
    if isinstance(v, dict):
        if any(
            isinstance(x, dict) for x in v.values()
        ):  # one group per key: "open air (max kW per rack: 10, …); …"
            return "; ".join(f"{words(k, lang)} ({words(x, lang)})" for k, x in v.items())
        return ", ".join(f"{words(k, lang)}: {words(x, lang)}" for k, x in v.items()) or fmt.DASH
    if isinstance(v, list | tuple):
        return ", ".join(words(x, lang) for x in v) or fmt.DASH
    if isinstance(v, str):
        if v.strip() in ("", "[]", "{}"):
            return fmt.DASH
        slug = v.removeprefix("site.")
        key = "aval_" + re.sub(r"[^\w-]+", "_", slug).strip("_")  # "at load" → aval_at_load
        return i18n.tr(key, lang) if i18n.has(key) else slug.replace("_", " ")
    return fmt.value(v)


def site_table(ctx: ReportContext) -> Flowable:
    site = ctx.project.site
    rows = [
        [ctx.t(f"inp_{f.name}"), words(getattr(site, f.name), ctx.lang), ctx.t("project_input"), ""]
        for f in dataclasses.fields(site)
        if f.name != "id"
    ]
    return ctx.table(_headers(ctx), rows, WIDTHS, text_cols=(0, 1, 2))


def assumed_value(ctx: ReportContext, name: str, value: Any) -> str:
    """An assumption's value as the appendix shows it: an assumption that suggests a project input (a site field
    of the same name, such as insurance_pct_per_year) says, when the project entered another value, that it is a
    suggestion the plan does not apply, and the project's value beside it."""
    site = ctx.project.site
    shown = words(value, ctx.lang)
    if name == "id" or not hasattr(site, name) or getattr(site, name) == value:
        return shown
    return ctx.t("asm_suggested", value=shown, project=words(getattr(site, name), ctx.lang))


def area_table(ctx: ReportContext, entries: dict[str, dict[str, Any]]) -> Flowable:
    rows = [
        [
            ctx.t(f"aname_{name}") if i18n.has(f"aname_{name}") else name.replace("_", " "),
            assumed_value(ctx, name, e.get("value")),
            str(e.get("source", "")),
            _date(e.get("as_of", ""), bool(e.get("estimate"))),
        ]
        for name, e in entries.items()
    ]
    return ctx.table(_headers(ctx), rows, WIDTHS, text_cols=(0, 1, 2), cell_limit=MAX_SOURCE)


def build(ctx: ReportContext, n: int | str) -> list[Flowable]:
    out: list[Flowable] = [section(ctx, n, "sec_assumptions"), ctx.para(ctx.t("asm_intro"))]
    ids = used_ids(ctx)
    out += [*sub(ctx, "asm_catalog"), *catalog_tables(ctx, ids)]
    prices = price_table(ctx, ids)
    if prices is not None:
        out += [*sub(ctx, "asm_prices"), prices]
    out += [*sub(ctx, "asm_site"), site_table(ctx)]
    for area in AREAS:
        try:
            entries = area_entries(area)
        except CatalogError as exc:
            ctx.warn(exc.one_line())
            continue
        out += [*sub(ctx, "asm_area", area=ctx.t(f"area_{area}")), area_table(ctx, entries)]
    return out
