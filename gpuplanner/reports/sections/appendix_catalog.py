"""The readable catalog appendix: per kind (GPU, server, switch, storage, NIC, transceiver, cable, rack, PDU,
cooling), the entries the plan uses side by side — one row per figure that matters for the plan, named in
words with its unit, "—" with the reason where the figure is unknown, an asterisk on estimates, and each
entry's source by title and date. No catalog ids, no file names, no URLs (the sources keep those).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from reportlab.lib.units import mm
from reportlab.platypus import CondPageBreak, Flowable, KeepTogether

from gpuplanner.catalog.names import local_name
from gpuplanner.reports import fmt, i18n
from gpuplanner.reports.context import ReportContext
from gpuplanner.reports.styles import MARGIN, PAGE

WIDTH = PAGE[0] - 2 * MARGIN
PER_TABLE = 3  # entries side by side
KINDS = ("gpu", "server", "switch", "storage", "nic", "transceiver", "cable", "rack", "pdu", "cooling")
_PORTS = "ports"  # pseudo-field: the port groups in words

# field → digits (None: text as it is, "pct": a fraction printed as a percentage)
FIELDS: dict[str, tuple[tuple[str, Any], ...]] = {
    "gpu": (
        ("architecture", None), ("form_factor", None), ("tdp_w", 0), ("power_idle_w", 0), ("mem_gb", 0),
        ("mem_type", None), ("mem_bw_tbyte_per_s", 2), ("bf16_dense_tflops", 0), ("fp8_dense_tflops", 0),
        ("fp4_dense_tflops", 0), ("scaleup_tech", None), ("scaleup_bw_gbyte_per_s", 0), ("released", "year"),
    ),
    "server": (
        ("gpu", "entry"), ("gpu_count", 0), ("cpu_model", None), ("cpu_count", 0), ("mem_gb", 0), ("ru", 0),
        ("power_idle_w", 0), ("power_typical_w", 0), ("power_max_w", 0), ("psu_count", 0), ("psu_rating_w", 0),
        ("psu_redundancy", None), ("liquid_share", "pct"), ("airflow_cfm", 0), ("weight_kg", 0), (_PORTS, None),
    ),
    "switch": (
        ("technology", None), ("asic", None), (_PORTS, None), ("switching_tbps_unidirectional", 1),
        ("latency_ns", 0), ("ru", 0), ("power_typical_w", 0), ("power_max_w", 0), ("psu_count", 0),
        ("psu_redundancy", None), ("weight_kg", 0),
    ),
    "storage": (
        ("system", None), ("read_gbyte_per_s", 0), ("write_gbyte_per_s", 0), ("capacity_tb", 0), ("ru", 0),
        ("power_idle_w", 0), ("power_typical_w", 0), ("power_max_w", 0), ("psu_count", 0), ("weight_kg", 0),
        (_PORTS, None),
    ),
    "nic": (
        ("technology", None), ("speed_gbps", 0), ("port_count", 0), ("port_type", None), ("pcie_gen", 0),
        ("pcie_lanes", 0), ("power_max_w", 1), ("form_factor", None),
    ),
    "transceiver": (
        ("form_factor", None), ("speed_gbps", 0), ("fiber", None), ("reach_max_m", 0), ("power_w", 1),
        ("connector", None),
    ),
    "cable": (
        ("medium", None), ("speed_gbps", 0), ("reach_max_m", 1), ("lengths_m", 1), ("power_w", 1),
        ("connector", None), ("breakout", 0),
    ),
    "rack": (
        ("ru", 0), ("width_mm", 0), ("depth_mm", 0), ("height_mm", 0), ("max_load_kg", 0),
        ("power_budget_kw", 1), ("pdu", "entry"), ("pdu_count", 0),
    ),
    "pdu": (
        ("form", None), ("phases", 0), ("voltage_v", 0), ("current_a", 0), ("capacity_kw", 1),
        ("outlet_count", 0),
    ),
    "cooling": (
        ("method", None), ("placement", None), ("max_kw_per_rack", 0), ("liquid_share", "pct"),
        ("pue_typical", 2), ("supply_temp_c", 0), ("delta_t_k", 0), ("unit_capacity_kw", 0),
        ("flow_l_per_min", 0),
    ),
}  # fmt: skip

# A zero that is a gap in the data, not a measurement: a powered device with 0 W idle or no PSUs.
ZERO_IS_UNKNOWN = frozenset({"power_idle_w", "power_typical_w", "psu_count", "psu_rating_w", "height_mm",
                             "max_load_kg", "outlet_count", "capacity_tb", "airflow_cfm"})  # fmt: skip
_URL = re.compile(r",?\s*https?://\S+")


def source_title(source: str) -> str:
    """The source as a person cites it: its title, without URLs and trailing separators."""
    s = _URL.sub("", " ".join(str(source).split())).strip(" ;,")
    return s or fmt.DASH


def entry_name(ctx: ReportContext, e: Any) -> str:
    """The entry's name as the bill of materials prints it (``catalog.names.local_name``)."""
    return local_name(e, ctx.project.catalog, ctx.lang)


def unknown(ctx: ReportContext, kind: str, name: str) -> str:
    """ "—" and why the figure is missing."""
    if kind == "gpu" and name == "power_idle_w":
        return ctx.t("why_idle_assumed")
    if name in ("fp8_dense_tflops", "fp4_dense_tflops"):
        return ctx.t("why_not_supported")
    return ctx.t("why_unpublished")


def _ports(ctx: ReportContext, e: Any) -> str:
    groups = getattr(e, "port_groups", ()) or ()
    sep = "；" if ctx.lang == "zh" else "; "
    return sep.join(
        ctx.t("port_group_words", n=pg.count, speed=fmt.value(pg.speed_gbps), type=pg.type) for pg in groups
    )


def value_text(ctx: ReportContext, kind: str, e: Any, name: str, digits: Any) -> str:
    if name == _PORTS:
        return _ports(ctx, e) or unknown(ctx, kind, name)
    v = getattr(e, name, None)
    if v is None or v == "" or v == () or (v == 0 and name in ZERO_IS_UNKNOWN):
        return unknown(ctx, kind, name)
    if digits == "entry":
        other = ctx.project.catalog.entries.get(v)
        return entry_name(ctx, other) if other is not None else str(v)
    if digits == "pct":
        return fmt.pct(v, 0)
    if digits == "year":
        return str(v)
    if isinstance(v, tuple):
        return ", ".join(fmt.num(x, digits) for x in v)
    if isinstance(v, bool):
        return ctx.t("yes") if v else ctx.t("no")
    if isinstance(v, int | float) and digits is not None:
        return fmt.num(v, digits)
    return slug_words(ctx, name, str(v))


def _estimated(e: Any, name: str) -> bool:
    """A figure is an estimate when its own source says so; an entry flagged as an estimate that names its
    estimated figures in ``field_sources`` has the datasheet's figures elsewhere (its ``estimate_note`` says so)."""
    if name == _PORTS:
        return False
    fs = (e.field_sources or {}).get(name)
    if fs:
        return bool(fs.get("estimate", False))
    if any(bool(v.get("estimate")) for v in (e.field_sources or {}).values()):
        return False
    return bool(e.estimate)


# vocabulary fields → the report's word tables (prefix), the rest of the slugs as the datasheets write them
WORDS = {"medium": "medium", "technology": "tech", "method": "cool", "fiber": "fiber", "placement": "place"}


def slug_words(ctx: ReportContext, name: str, v: str) -> str:
    prefix = WORDS.get(name)
    if prefix and i18n.has(f"{prefix}_{v}"):
        return i18n.tr(f"{prefix}_{v}", ctx.lang)
    if (
        name in ("form_factor", "connector", "port_type", "mem_type", "fiber")
        and " " not in v
        and len(v) <= 10
    ):
        return v.upper()  # osfp → OSFP, mpo-12 → MPO-12, rj45 → RJ45
    return v


def kind_tables(ctx: ReportContext, kind: str, entries: list[Any]) -> list[Flowable]:
    """The entries of one kind, ``PER_TABLE`` side by side per table."""
    out: list[Flowable] = []
    label_w = 52 * mm
    for start in range(0, len(entries), PER_TABLE):
        chunk = entries[start : start + PER_TABLE]
        col_w = (WIDTH - label_w) / len(chunk)
        rows: list[list[Any]] = []
        for name, digits in FIELDS[kind]:
            cells = []
            for e in chunk:
                s = value_text(ctx, kind, e, name, digits)
                cells.append(f"{s} *" if _estimated(e, name) and not s.startswith(fmt.DASH) else s)
            if all(c.startswith(fmt.DASH) for c in cells) and name not in ("power_idle_w", "psu_count"):
                continue  # a figure no entry of the table has says nothing (data gaps that matter stay)
            rows.append([ctx.t(f"fld_{name}"), *cells])
        rows.append(
            [
                ctx.t("fld_source"),
                *(ctx.t("source_dated", title=source_title(e.source), as_of=e.as_of) for e in chunk),
            ]
        )
        headers = [ctx.t("col_figure"), *(entry_name(ctx, e) for e in chunk)]
        out.append(
            ctx.table(
                headers,
                rows,
                [label_w, *[col_w] * len(chunk)],
                text_cols=tuple(range(len(chunk) + 1)),
                cell_limit=400,
            )
        )
    return out


def catalog_tables(ctx: ReportContext, ids: list[str]) -> list[Flowable]:
    """Every kind the plan uses, in ``KINDS`` order, each under its own sub-heading."""
    entries = [ctx.project.catalog.entries[i] for i in ids]
    out: list[Flowable] = [ctx.para(ctx.t("asm_catalog_intro"), "small")]
    for kind in KINDS:
        of_kind = sorted((e for e in entries if e.kind == kind), key=lambda e: e.name)
        if not of_kind:
            continue
        tables = kind_tables(ctx, kind, of_kind)
        # not in the contents (ten kinds would push it onto a second page): a heading kept with its table
        out += [
            CondPageBreak(72),
            KeepTogether([ctx.para(ctx.t(f"kind_{kind}"), "h2"), tables[0]]),
            *tables[1:],
        ]
    return out


def price_name(ctx: ReportContext) -> Callable[[str], str]:
    """Catalog id → the entry's name (for the price table)."""
    entries = ctx.project.catalog.entries
    return lambda eid: entry_name(ctx, entries[eid]) if eid in entries else eid
