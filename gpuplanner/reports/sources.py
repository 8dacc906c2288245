"""The proposal's sources as a bibliography and its price terms: every catalog entry, figure source, price,
published training run and delivery assumption the plan uses, deduplicated by source text and numbered; and
the dates of the prices used (validity and the prices old enough to call out).

Plain data, no reportlab: the bibliography, the schedule's lead-time table and the tests read the same list.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field
from typing import Any

from gpuplanner.catalog.names import local_name
from gpuplanner.reports.delivery import assumptions as delivery_assumptions
from gpuplanner.reports.delivery import lead_table, schedule


@dataclass
class Source:
    n: int
    text: str
    dates: list[str] = field(default_factory=list)
    estimate: bool = False
    used_for: list[str] = field(default_factory=list)

    @property
    def as_of(self) -> str:
        return ", ".join(sorted(set(self.dates)))


class Bibliography:
    """Sources in the order first used; ``ref(text)`` is a source's number."""

    def __init__(self) -> None:
        self.items: list[Source] = []
        self._by_text: dict[str, Source] = {}

    def add(self, text: Any, as_of: Any, estimate: bool, used_for: str) -> int:
        key = " ".join(str(text or "").split())
        if not key:
            return 0
        s = self._by_text.get(key)
        if s is None:
            s = Source(len(self.items) + 1, key)
            self.items.append(s)
            self._by_text[key] = s
        if as_of not in (None, ""):
            s.dates.append(str(as_of))
        s.estimate = s.estimate or estimate
        if used_for and used_for not in s.used_for:
            s.used_for.append(used_for)
        return s.n

    def ref(self, text: Any) -> int:
        s = self._by_text.get(" ".join(str(text or "").split()))
        return s.n if s else 0


def used_entry_ids(ctx: Any) -> list[str]:
    from gpuplanner.reports.sections.assumptions import used_ids

    return used_ids(ctx)


def entry_name(ctx: Any, eid: str) -> str:
    """The entry's name in the report's language, as the bill of materials prints it."""
    e = ctx.project.catalog.entries.get(eid)
    if e is None:
        return eid
    return local_name(e, ctx.project.catalog, ctx.lang)


def published_runs(ctx: Any) -> list[Any]:
    """The published runs behind the performance band (its group's runs, as ``gpuplanner validate`` checks
    them)."""
    perf = ctx.data.get("performance") or {}
    group = (perf.get("band") or {}).get("group")
    if not group:
        return []
    from gpuplanner.engine.perf.bands import HOST_PACED_GROUP, group_keys
    from gpuplanner.engine.perf.validation import check_all

    if group == HOST_PACED_GROUP:  # a host-paced estimate's band is that of the host-paced runs
        return [c for c in check_all() if c.error is not None and c.host_paced and not c.run.excluded]
    return [
        c
        for c in check_all()
        if c.error is not None and c.counted and group in group_keys(c.moe, c.gpu, c.n_gpus)
    ]


def runs_as_of() -> str:
    import yaml

    from gpuplanner.engine.perf.validation import runs_path

    try:
        doc = yaml.safe_load(runs_path().read_text(encoding="utf-8")) or {}
    except (OSError, yaml.YAMLError):
        return ""
    return str(doc.get("as_of", ""))


def bibliography(ctx: Any) -> Bibliography:
    b = Bibliography()
    cat = ctx.project.catalog
    ids = used_entry_ids(ctx)
    for eid in ids:
        e = cat.entries[eid]
        name = entry_name(ctx, eid)
        b.add(e.source, e.as_of, e.estimate, name)
        for fname, fs in (e.field_sources or {}).items():
            b.add(fs.get("source"), fs.get("as_of"), bool(fs.get("estimate")), f"{name}: {fname}")
    for eid in ids:
        p = cat.prices.get(eid)
        if p is not None:
            b.add(p.source, p.as_of, p.estimate, ctx.t("src_price", name=entry_name(ctx, eid)))
    date = runs_as_of()
    for c in published_runs(ctx):
        b.add(c.run.source, date, False, ctx.t("src_runs", id=c.run.cite or c.run.id))
    a = delivery_assumptions()
    for k, _, entry in lead_table(schedule(ctx, a), a):
        b.add(
            entry["source"],
            entry["as_of"],
            bool(entry.get("estimate")),
            ctx.t("src_lead", category=ctx.t(f"cat_{k}")),
        )
    for k in ("install_racks_per_week", "acceptance_weeks", "price_validity_days", "price_stale_months"):
        e = a.entries[k]
        b.add(e["source"], e["as_of"], bool(e.get("estimate")), ctx.t("src_assumption", name=k))
    return b


# -- prices ----------------------------------------------------------------------------------------------
def _as_date(as_of: str) -> dt.date | None:
    parts = str(as_of).split("-")
    try:
        y, m = int(parts[0]), int(parts[1]) if len(parts) > 1 else 1
        day = int(parts[2]) if len(parts) > 2 else 1
        return dt.date(y, m, day)
    except (ValueError, IndexError):
        return None


@dataclass(frozen=True)
class PriceTerms:
    valid_until: dt.date
    days: int
    dates: list[tuple[str, str]]  # (as_of, entry name) of every price used, oldest first
    stale: list[tuple[str, str]]  # the ones older than ``stale_months``
    stale_months: int


def price_terms(ctx: Any) -> PriceTerms:
    a = delivery_assumptions()
    days = int(a.number("price_validity_days"))
    months = int(a.number("price_stale_months"))
    cat = ctx.project.catalog
    dates = sorted(
        (str(cat.prices[eid].as_of), entry_name(ctx, eid)) for eid in used_entry_ids(ctx) if eid in cat.prices
    )
    y, m = divmod(ctx.today.year * 12 + ctx.today.month - 1 - months, 12)
    cutoff = dt.date(y, m + 1, 1)
    stale = [(d, n) for d, n in dates if (_as_date(d) or ctx.today) < cutoff]
    return PriceTerms(ctx.today + dt.timedelta(days=days), days, dates, stale, months)
