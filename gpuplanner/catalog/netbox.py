"""Import NetBox device types (the community devicetype-library YAML) into a catalog folder.

NetBox carries size, weight, interfaces and PSU ratings; it does not carry the GPU model or a power profile,
so those are asked for (options, or a prompt when interactive). Interfaces become port groups by type.
"""

from __future__ import annotations

import re
import sys
from collections import OrderedDict
from datetime import date
from pathlib import Path
from typing import Any

import yaml

from gpuplanner.catalog.loader import _read_yaml, entry_from_dict
from gpuplanner.core.errors import CatalogError

_IB_SPEED = {
    "sdr": 10,
    "ddr": 20,
    "qdr": 40,
    "fdr10": 40,
    "fdr": 56,
    "edr": 100,
    "hdr": 200,
    "ndr": 400,
    "xdr": 800,
}


def speed_of_type(slug: str) -> float | None:
    """Gb/s of a NetBox interface type slug (``400gbase-x-osfp`` → 400, ``infiniband-ndr`` → 400)."""
    if slug.startswith("infiniband-"):
        return _IB_SPEED.get(slug.removeprefix("infiniband-"))
    m = re.match(r"^(\d+(?:\.\d+)?)(g|m)?base", slug)
    if m:  # "1000base-t", "100base-tx": Mb/s without a unit letter
        value = float(m.group(1))
        return value if m.group(2) == "g" else value / 1000.0
    return None


def _pattern(names: list[str]) -> str:
    """``prefix{n}`` when the names are exactly prefix1, prefix2 …; else "" (the names are kept as a list)."""
    m = re.match(r"^(.*?)1$", names[0]) if names else None
    if not m:
        return ""
    pattern = f"{m.group(1)}{{n}}"
    return pattern if names == [pattern.replace("{n}", str(i)) for i in range(1, len(names) + 1)] else ""


# Top-level keys of a NetBox device type (netbox dcim DeviceType + the devicetype-library component lists).
# Anything else is refused by name rather than dropped silently.
KNOWN_FIELDS = {
    "manufacturer", "model", "slug", "part_number", "u_height", "is_full_depth", "airflow", "weight",
    "weight_unit", "comments", "description", "subdevice_role", "front_image", "rear_image", "default_platform",
    "exclude_from_utilization", "console-ports", "console-server-ports", "power-ports", "power-outlets",
    "interfaces", "front-ports", "rear-ports", "module-bays", "device-bays", "inventory-items",
}  # fmt: skip
_GPU_TEXT = re.compile(r"\b(GPUs?|DGX|HGX|Ascend|Instinct|MI\d{3}X?)\b", re.I)
_IB_MODEL = re.compile(r"\b(M?QM\d{4}|Q\d{4}|Quantum)\b", re.I)


def infer_kind(data: dict[str, Any]) -> str:
    """server or switch, from what the file says: GPUs named in the model/part number/comments, device bays
    (a chassis), a tall box → server; many fast ports in 1–2 U → switch. (The library's DGX A100 file lists
    36 Ethernet ports copied from a switch; its GPUs in the comments still make it a server.)"""
    text = " ".join(str(data.get(k) or "") for k in ("model", "part_number", "comments", "description"))
    if _GPU_TEXT.search(text) or data.get("device-bays") or data.get("subdevice_role") == "parent":
        return "server"
    fast = [i for i in data.get("interfaces") or [] if (speed_of_type(str(i.get("type", ""))) or 0) >= 100]
    u = float(data.get("u_height") or 1)
    return "switch" if len(fast) >= 16 and u <= 2 else "server"


def port_groups_from_interfaces(interfaces: list[dict[str, Any]], *, kind: str) -> list[dict[str, Any]]:
    groups: OrderedDict[tuple[str, bool], list[str]] = OrderedDict()
    for itf in interfaces:
        slug = str(itf.get("type", ""))
        if speed_of_type(slug) is None:
            continue  # virtual, LAG, console…: not a cable end we plan
        groups.setdefault((slug, bool(itf.get("mgmt_only"))), []).append(str(itf.get("name", "")))
    out = []
    for (slug, mgmt), names in groups.items():
        speed = speed_of_type(slug) or 0
        if mgmt:
            role = "management"
        elif kind == "switch":
            role = "fabric"
        else:
            role = "compute" if speed >= 100 else "frontend"
        base = re.sub(r"[^a-z0-9]+", "-", slug).strip("-")
        group = {
            "name": f"{role}-{base}",
            "role": role,
            "count": len(names),
            "type": slug,
            "speed_gbps": speed,
            "pattern": _pattern(names) or f"{base}-{{n}}",
            "nic": None,
        }
        if not _pattern(names) and all(names):
            group["names"] = names  # as the vendor prints them (QM9700: P0.0 … P31.1)
        out.append(group)
    return out


def _ask(prompt: str, interactive: bool, cast: type) -> Any:
    if not interactive or not sys.stdin.isatty():
        return None
    text = input(prompt).strip()
    if not text:
        return None
    try:
        return cast(text)
    except ValueError:
        return None


def convert(
    data: dict[str, Any],
    origin: str,
    *,
    kind: str | None = None,
    gpu: str | None = None,
    gpu_count: int | None = None,
    power_max_w: float | None = None,
    power_typical_w: float | None = None,
    power_idle_w: float | None = None,
    interactive: bool = False,
) -> dict[str, Any]:
    for key in ("manufacturer", "model"):
        if not data.get(key):
            raise CatalogError("a NetBox device type needs this field", file=origin, field=key)
    for key in data:
        if key not in KNOWN_FIELDS:
            raise CatalogError(
                "not a NetBox device-type field GPU Planner can map", file=origin, field=str(key),
                hint="remove it or check the spelling",
            )  # fmt: skip
    interfaces = data.get("interfaces") or []
    if not isinstance(interfaces, list) or not all(isinstance(i, dict) for i in interfaces):
        raise CatalogError("expected a list of interfaces (name, type)", file=origin, field="interfaces")
    if kind is None:
        kind = infer_kind(data)
    slug = data.get("slug") or re.sub(
        r"[^a-z0-9]+", "-", f"{data['manufacturer']}-{data['model']}".lower()
    ).strip("-")
    psus = data.get("power-ports") or []
    psu_draws = [float(p.get("maximum_draw") or 0) for p in psus]
    notes = []
    if power_max_w is None and any(psu_draws):
        power_max_w = float(sum(psu_draws))
        notes.append("power_max_w = sum of the NetBox power ports' maximum_draw")
    if power_max_w is None:
        power_max_w = _ask(f"{slug}: maximum power in W: ", interactive, float)
    if power_max_w is None:
        raise CatalogError(
            "NetBox carries no maximum draw for this device; give --power-max-w",
            file=origin,
            field="power_max_w",
        )
    if kind == "server" and gpu is None:
        gpu = _ask(f"{slug}: GPU catalog id (empty for none): ", interactive, str)
    if kind == "server" and gpu and gpu_count is None:
        gpu_count = _ask(f"{slug}: GPUs per server: ", interactive, int)
    if power_typical_w is None:
        power_typical_w = round(0.75 * power_max_w)
        notes.append("power_typical_w = 75% of max (assumed; give --power-typical-w)")
    if power_idle_w is None:
        power_idle_w = round(0.3 * power_max_w)
        notes.append("power_idle_w = 30% of max (assumed; give --power-idle-w)")
    n_psu = len(psus)
    rating = max(psu_draws) if psu_draws and max(psu_draws) > 0 else power_max_w
    n_needed = max(1, min(n_psu or 1, int(-(-power_max_w // rating))))
    entry: dict[str, Any] = {
        "id": slug,
        "kind": kind,
        "vendor": str(data["manufacturer"]),
        "model": str(data["model"]),
        "name": f"{data['manufacturer']} {data['model']}",
        "source": f"NetBox devicetype-library: {Path(origin).name}",
        "as_of": date.today().isoformat(),
        "estimate": bool(notes),
        "ru": max(1, int(round(float(data.get("u_height") or 1)))),
        "power_idle_w": float(power_idle_w),
        "power_typical_w": float(power_typical_w),
        "power_max_w": float(power_max_w),
        "psu_count": n_psu,
        "psu_rating_w": float(rating),
        "psu_redundancy": f"{n_needed}+{max(0, n_psu - n_needed)}" if n_psu else "1+0",
        "port_groups": port_groups_from_interfaces(interfaces, kind=kind),
    }
    if notes:
        entry["estimate_note"] = "; ".join(notes)
    if data.get("weight"):
        w = float(data["weight"])
        entry["weight_kg"] = w * 0.45359237 if str(data.get("weight_unit", "kg")).startswith("lb") else w
    if kind == "server":
        entry["gpu"] = gpu or None
        entry["gpu_count"] = int(gpu_count or 0)
        entry["scaleup_domain_gpus"] = int(gpu_count or 0)
    else:
        # The library types InfiniBand switches' OSFP cages as 400gbase-x-osfp (QM9700); the model says
        # Quantum, so the technology follows the model where the interface types do not.
        ib = any(str(i.get("type", "")).startswith("infiniband") for i in interfaces)
        entry["technology"] = "infiniband" if ib or _IB_MODEL.search(str(data["model"])) else "ethernet"
        if not entry["port_groups"]:
            raise CatalogError("the switch has no interfaces we can plan", file=origin, field="interfaces")
    return entry


def import_netbox(path: Path, out_dir: Path, **options: Any) -> list[Path]:
    files = sorted(path.rglob("*.y*ml")) if path.is_dir() else [path]
    if not files:
        raise CatalogError("no YAML files found", file=str(path))
    written = []
    for f in files:
        data = _read_yaml(f)
        if not isinstance(data, dict):
            raise CatalogError("not a NetBox device type (expected a mapping)", file=str(f))
        entry = convert(data, str(f), **options)
        _, errors = entry_from_dict(entry, origin=str(f))
        if errors:
            raise errors[0]
        target = out_dir / entry["kind"] / f"{entry['id']}.yaml"
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(yaml.safe_dump(entry, sort_keys=False, allow_unicode=True), encoding="utf-8")
        written.append(target)
    return written
