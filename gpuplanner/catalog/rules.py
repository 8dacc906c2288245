"""Semantic rules a JSON Schema cannot say: references between entries and figures that must agree."""

from __future__ import annotations

from collections.abc import Mapping

from gpuplanner.catalog.types import CatalogEntry, CoolingType, GpuType, ServerType, SwitchType, _Powered
from gpuplanner.core.errors import CatalogError

# The largest shipping scale-up domain: Huawei's CloudMatrix 384 / Atlas 900 A3 SuperPoD (384 NPUs on one
# Unified Bus); NVIDIA's largest is NVL72. A bigger figure is taken for a typo.
MAX_SCALEUP_DOMAIN_GPUS = 384


def check_entry(entry: CatalogEntry) -> list[CatalogError]:
    """Rules that need only the entry itself."""
    errors: list[CatalogError] = []

    def err(field: str, message: str, value: object = None) -> None:
        errors.append(CatalogError(message, file=entry.origin, entry=entry.id, field=field, value=value))

    if isinstance(entry, _Powered):
        if not entry.power_idle_w <= entry.power_typical_w <= entry.power_max_w and entry.power_typical_w:
            err(
                "power_typical_w",
                f"power figures out of order: idle {entry.power_idle_w} W ≤ typical "
                f"{entry.power_typical_w} W ≤ max {entry.power_max_w} W must hold",
            )
        if entry.psu_count:
            n, m = entry.psu_n_m()
            if n + m != entry.psu_count:
                err(
                    "psu_redundancy", f"{entry.psu_redundancy} does not add up to psu_count {entry.psu_count}"
                )
            if n * entry.psu_rating_w < entry.power_max_w:
                err(
                    "psu_rating_w",
                    f"{n} × {entry.psu_rating_w} W of non-redundant PSUs cannot carry power_max_w "
                    f"{entry.power_max_w} W",
                )
        names = [pg.name for pg in entry.port_groups]
        dup = {n for n in names if names.count(n) > 1}
        if dup:
            err("port_groups", f"port group names repeat: {sorted(dup)}")
    if isinstance(entry, GpuType):
        if entry.fp8_dense_tflops is not None and entry.fp8_dense_tflops < entry.bf16_dense_tflops:
            err("fp8_dense_tflops", "FP8 dense throughput below BF16 dense: is one of them a sparse figure?")
        if entry.power_idle_w is not None and entry.power_idle_w > entry.tdp_w:
            err("power_idle_w", "idle power above TDP")
    if (
        isinstance(entry, ServerType)
        and entry.gpu_count
        and entry.scaleup_domain_gpus > max(entry.gpu_count, MAX_SCALEUP_DOMAIN_GPUS)
    ):
        err("scaleup_domain_gpus", "scale-up domain larger than any known system")
    if isinstance(entry, SwitchType) and entry.switching_tbps_unidirectional:
        ports_tbps = sum(pg.count * pg.speed_gbps for pg in entry.fabric_ports()) / 1000.0
        if entry.switching_tbps_unidirectional > 1.02 * ports_tbps:
            err(
                "switching_tbps_unidirectional",
                f"{entry.switching_tbps_unidirectional} Tb/s is more than the ports carry in one direction "
                f"({ports_tbps:g} Tb/s): is it the vendor's both-directions figure? Store half of it",
                entry.switching_tbps_unidirectional,
            )
    if isinstance(entry, CoolingType):
        lo = entry.pue_min if entry.pue_min is not None else entry.pue_typical
        hi = entry.pue_max if entry.pue_max is not None else entry.pue_typical
        if not lo <= entry.pue_typical <= hi:
            err("pue_typical", f"PUE figures out of order: min {lo} ≤ typical {entry.pue_typical} ≤ max {hi}")
    return errors


def check_references(entries: Mapping[str, CatalogEntry]) -> list[CatalogError]:
    """Rules across entries: a server's GPU and NICs, a rack's PDU must exist."""
    errors: list[CatalogError] = []
    for e in entries.values():
        refs: list[tuple[str, str | None, str]] = []
        if isinstance(e, ServerType) and e.gpu_count:
            refs.append(("gpu", e.gpu, "gpu"))
        if isinstance(e, ServerType | SwitchType):
            refs.extend(("port_groups", pg.nic, "nic") for pg in e.port_groups if pg.nic)
        pdu = e.raw.get("pdu") if e.kind == "rack" else None
        if pdu:
            refs.append(("pdu", pdu, "pdu"))
        for field, ref, kind in refs:
            target = entries.get(ref) if ref else None
            if target is None or target.kind != kind:
                errors.append(
                    CatalogError(
                        f"refers to {kind} '{ref}', which is not in the catalog",
                        file=e.origin,
                        entry=e.id,
                        field=field,
                        value=ref,
                    )
                )
    return errors
