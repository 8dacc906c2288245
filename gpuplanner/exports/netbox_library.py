"""Names of the NetBox community devicetype-library for the catalog entries it has, so an export imports into a
NetBox that already loaded the library without duplicate manufacturers or device types, and interfaces carry
the names the vendor's OS prints (NVIDIA Onyx/Cumulus ``swpN``, ``eth0``; Quantum-2 ``P<cage>.<port>``).

Checked against github.com/netbox-community/devicetype-library, ``device-types/Nvidia/{QM9700,SN5600,SN2201,
SN3420}.yaml`` (2025): manufacturer ``Nvidia``, models and slugs below. Only these names are kept here.
(The library's QM9700 file lists P22.0 then P23.1 — P22.1 and P23.0 are missing there; ours has all 64.)
"""

from __future__ import annotations

from collections.abc import Callable

# Catalog vendor → the library's manufacturer name (its slug is ``names.slug`` of it: "nvidia").
MANUFACTURERS = {"NVIDIA": "Nvidia"}


def _qm9700(n: int) -> str:
    """Quantum-2: 32 OSFP cages of 2 NDR ports, printed P<cage>.<port> from P0.0 to P31.1."""
    return f"P{(n - 1) // 2}.{(n - 1) % 2}"


# Catalog id → (library model, library slug, {port group: 1-based index → interface name}).
DEVICE_TYPES: dict[str, tuple[str, str, dict[str, Callable[[int], str]]]] = {
    "nvidia-quantum-2-qm9700": ("QM9700", "nvidia-qm9700", {"ndr": _qm9700}),
    "nvidia-spectrum-4-sn5600": ("SN5600", "nvidia-sn5600", {"osfp800": "swp{}".format, "mgmt": lambda n: f"eth{n - 1}"}),
    "nvidia-spectrum-sn2201": (
        "SN2201", "nvidia-sn2201",
        {"rj45": "swp{}".format, "qsfp28": lambda n: f"swp{48 + n}", "mgmt": lambda n: f"eth{n - 1}"},
    ),
    "nvidia-spectrum-2-sn3420": (
        "SN3420", "nvidia-sn3420",
        {"sfp28": "swp{}".format, "qsfp28": lambda n: f"swp{48 + n}", "mgmt": lambda n: f"eth{n - 1}"},
    ),
}  # fmt: skip


def vendor_port_name(type_id: str, group: str, index: int) -> str | None:
    """The library's name of a port, or None where the library has no entry for it."""
    entry = DEVICE_TYPES.get(type_id)
    fn = entry[2].get(group) if entry else None
    return fn(index) if fn else None


def manufacturer(vendor: str) -> str:
    return MANUFACTURERS.get(vendor, vendor)


def model_and_slug(type_id: str) -> tuple[str, str] | None:
    entry = DEVICE_TYPES.get(type_id)
    return (entry[0], entry[1]) if entry else None
