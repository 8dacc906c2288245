"""Sources: every datasheet, price list, published training run and delivery assumption the proposal uses,
numbered, each listed once with its date(s) and what it was used for."""

from __future__ import annotations

from reportlab.platypus import Flowable, Spacer

from gpuplanner.reports.context import ReportContext
from gpuplanner.reports.sections.common import section
from gpuplanner.reports.sources import bibliography

MAX_USED_FOR = 6
MAX_SOURCE = 600


def build(ctx: ReportContext, n: int | str) -> list[Flowable]:
    out: list[Flowable] = [section(ctx, n, "sec_sources"), ctx.para(ctx.t("src_intro"), "muted")]
    sep = "；" if ctx.lang == "zh" else "; "
    for s in bibliography(ctx).items:
        item = ctx.t("src_item", n=s.n, source=s.text, as_of=s.as_of or "—", star=" *" if s.estimate else "")
        used = s.used_for[:MAX_USED_FOR] + (["…"] if len(s.used_for) > MAX_USED_FOR else [])
        out.append(ctx.para(item, "small", limit=MAX_SOURCE + 40))
        out.append(ctx.para(ctx.t("src_used_for", items=sep.join(used)), "muted", limit=MAX_SOURCE))
        out.append(Spacer(1, 3))
    return out
