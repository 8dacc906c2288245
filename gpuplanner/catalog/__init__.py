"""The hardware catalog: bundled YAML files plus a user folder, validated, as frozen typed entries."""

from gpuplanner.catalog.loader import Catalog, bundled_catalog_dir, load_catalog, user_catalog_dir
from gpuplanner.catalog.types import (
    KIND_TYPES,
    CableType,
    CatalogEntry,
    CoolingType,
    GpuType,
    ModelType,
    NicType,
    PduType,
    PortGroup,
    Price,
    RackType,
    ServerType,
    StorageType,
    SwitchType,
    TransceiverType,
)

__all__ = [
    "KIND_TYPES",
    "CableType",
    "Catalog",
    "CatalogEntry",
    "CoolingType",
    "GpuType",
    "ModelType",
    "NicType",
    "PduType",
    "PortGroup",
    "Price",
    "RackType",
    "ServerType",
    "StorageType",
    "SwitchType",
    "TransceiverType",
    "bundled_catalog_dir",
    "load_catalog",
    "user_catalog_dir",
]
