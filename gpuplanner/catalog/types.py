"""Frozen catalog types, one per kind. Built from validated YAML dicts; the raw dict is kept for export."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, ClassVar


@dataclass(frozen=True, slots=True)
class PortGroup:
    name: str
    role: str
    count: int
    type: str
    speed_gbps: float
    pattern: str = ""
    nic: str | None = None
    ports_per_cage: int = 1  # 2 = twin-port OSFP cages: one transceiver serves two ports
    names: tuple[str, ...] = ()  # optional: the vendor's printed names where no {n} pattern fits

    def __post_init__(self) -> None:
        if not isinstance(self.names, tuple):
            object.__setattr__(self, "names", tuple(self.names or ()))

    def port_name(self, index: int) -> str:
        """Name of the 1-based ``index``-th port of the group."""
        if 0 < index <= len(self.names):
            return self.names[index - 1]
        if self.pattern and "{n}" in self.pattern:
            return self.pattern.replace("{n}", str(index))
        return f"{self.name}{index}"


@dataclass(frozen=True, kw_only=True)
class CatalogEntry:
    kind_name: ClassVar[str] = ""
    id: str
    kind: str
    vendor: str
    model: str
    name: str
    source: str
    as_of: str
    name_zh: str = ""
    estimate: bool = False
    estimate_note: str = ""
    description: Any = field(default_factory=lambda: MappingProxyType({}))
    field_sources: Any = field(default_factory=lambda: MappingProxyType({}))
    origin: str = ""
    raw: Any = field(default_factory=lambda: MappingProxyType({}), repr=False, compare=False)

    def describe(self, lang: str = "en") -> str:
        desc = self.description or {}
        return desc.get(lang) or desc.get("en") or ""

    def figure_source(self, name: str) -> tuple[str, str, bool]:
        """(source, as_of, estimate) of one figure: its own source if it has one, else the entry's."""
        fs = (self.field_sources or {}).get(name)
        if fs:
            return fs["source"], str(fs["as_of"]), bool(fs.get("estimate", False))
        return self.source, self.as_of, self.estimate

    def figures(self) -> dict[str, Any]:
        """The kind-specific figures (what the JSON listing prints)."""
        base = {f.name for f in dataclasses.fields(CatalogEntry)}
        return {
            f.name: getattr(self, f.name)
            for f in dataclasses.fields(self)
            if f.name not in base and f.name != "port_groups"
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any], origin: str = "") -> CatalogEntry:
        kwargs: dict[str, Any] = {}
        for f in dataclasses.fields(cls):
            if f.name in ("origin", "raw"):
                continue
            if f.name in data:
                value = data[f.name]
                if f.name == "port_groups":
                    value = tuple(PortGroup(**pg) for pg in value or ())
                elif f.name in ("description", "field_sources"):
                    value = MappingProxyType(dict(value or {}))
                elif f.name == "export_control":
                    value = _export_control(value)
                elif isinstance(value, list):
                    value = tuple(value)
                kwargs[f.name] = value
        return cls(origin=origin, raw=MappingProxyType(dict(data)), **kwargs)


@dataclass(frozen=True, kw_only=True)
class GpuType(CatalogEntry):
    kind_name: ClassVar[str] = "gpu"
    architecture: str = ""
    form_factor: str = ""
    tdp_w: float
    power_idle_w: float | None = None
    mem_gb: float
    mem_type: str = ""
    mem_bw_tbyte_per_s: float
    bf16_dense_tflops: float
    fp16_dense_tflops: float | None = None
    fp8_dense_tflops: float | None = None
    fp4_dense_tflops: float | None = None
    tf32_dense_tflops: float | None = None
    fp32_tflops: float | None = None
    int8_dense_tops: float | None = None
    scaleup_tech: str = "none"
    scaleup_bw_gbyte_per_s: float = 0.0
    pcie_gen: int = 4
    released: int | None = None
    # {classification, restricted_regions (ISO 3166 alpha-2), source, as_of[, licence_required_since, note]}
    export_control: dict[str, Any] | None = None

    def idle_w(self) -> float:
        return self.power_idle_w if self.power_idle_w is not None else 0.1 * self.tdp_w


@dataclass(frozen=True, kw_only=True)
class _Powered(CatalogEntry):
    ru: int = 1
    power_idle_w: float = 0.0
    power_typical_w: float = 0.0
    power_max_w: float
    psu_count: int = 0
    psu_rating_w: float = 0.0
    psu_redundancy: str = "1+0"
    weight_kg: float | None = None
    liquid_share: float = 0.0
    port_groups: tuple[PortGroup, ...] = ()

    def psu_n_m(self) -> tuple[int, int]:
        n, m = self.psu_redundancy.split("+")
        return int(n), int(m)

    def ports(self, role: str | None = None) -> tuple[PortGroup, ...]:
        return tuple(pg for pg in self.port_groups if role is None or pg.role == role)

    def port_group(self, name: str) -> PortGroup | None:
        return next((pg for pg in self.port_groups if pg.name == name), None)


PoweredType = _Powered  # the public name: a device model with power figures, PSUs and port groups


@dataclass(frozen=True, kw_only=True)
class ServerType(_Powered):
    kind_name: ClassVar[str] = "server"
    gpu: str | None = None
    gpu_count: int = 0
    scaleup_domain_gpus: int = 0
    cpu_model: str = ""
    cpu_count: int = 0  # sockets
    cpu_cores_per_socket: int | None = None  # optional: Slurm's CoresPerSocket
    cpu_threads_per_core: int | None = None  # optional: 2 with SMT/Hyper-Threading on
    mem_gb: float = 0.0
    local_nvme_tb: float = 0.0
    airflow_cfm: float | None = None
    rack_scale: bool = False
    ref_nic_gbps_per_gpu: float | None = None  # compute-fabric NIC Gb/s per GPU in the reference design
    # The server's own rule, or (after ``Catalog.finish``) its GPU's with ``inherited_from`` = the GPU id.
    export_control: dict[str, Any] | None = None


@dataclass(frozen=True, kw_only=True)
class SwitchType(_Powered):
    kind_name: ClassVar[str] = "switch"
    technology: str = "ethernet"
    asic: str = ""
    # Sum of the fabric ports' rates in ONE direction (64 × 800G = 51.2). NVIDIA prints InfiniBand switches
    # both ways added (QM9700: 51.2 for 64 × 400G); ``switching_tbps_bidirectional`` gives that figure.
    switching_tbps_unidirectional: float = 0.0
    latency_ns: float | None = None
    tiers: tuple[str, ...] = ()

    @property
    def switching_tbps_bidirectional(self) -> float:
        return 2.0 * self.switching_tbps_unidirectional

    def fabric_ports(self) -> tuple[PortGroup, ...]:
        return tuple(pg for pg in self.port_groups if pg.role != "management")

    def radix(self) -> int:
        return sum(pg.count for pg in self.fabric_ports())


@dataclass(frozen=True, kw_only=True)
class StorageType(_Powered):
    kind_name: ClassVar[str] = "storage"
    system: str = "other"
    read_gbyte_per_s: float
    write_gbyte_per_s: float
    capacity_tb: float = 0.0


@dataclass(frozen=True, kw_only=True)
class NicType(CatalogEntry):
    kind_name: ClassVar[str] = "nic"
    technology: str = "ethernet"
    speed_gbps: float
    port_count: int = 1
    port_type: str = ""
    pcie_gen: int | None = None
    pcie_lanes: int | None = None
    power_max_w: float = 0.0
    form_factor: str = ""


@dataclass(frozen=True, kw_only=True)
class CableType(CatalogEntry):
    kind_name: ClassVar[str] = "cable"
    medium: str
    technology: str = "any"
    speed_gbps: float
    reach_max_m: float
    lengths_m: tuple[float, ...] = ()
    power_w: float = 0.0
    connector: str = ""
    breakout: int = 1


@dataclass(frozen=True, kw_only=True)
class TransceiverType(CatalogEntry):
    kind_name: ClassVar[str] = "transceiver"
    technology: str = "any"
    speed_gbps: float
    form_factor: str
    fiber: str
    reach_max_m: float
    power_w: float
    connector: str = ""
    ports: int = 1


@dataclass(frozen=True, kw_only=True)
class RackType(CatalogEntry):
    kind_name: ClassVar[str] = "rack"
    ru: int
    width_mm: float = 600.0
    depth_mm: float = 1200.0
    height_mm: float = 0.0
    max_load_kg: float = 0.0
    power_budget_kw: float
    pdu: str | None = None
    pdu_count: int = 2


@dataclass(frozen=True, kw_only=True)
class PduType(CatalogEntry):
    kind_name: ClassVar[str] = "pdu"
    phases: int = 3
    voltage_v: float
    current_a: float
    capacity_kw: float
    outlet_count: int = 0
    ru: int = 0
    form: str = "rack-pdu"  # rack-pdu | busway (tap-off feeds many racks) | power-shelf


@dataclass(frozen=True, kw_only=True)
class CoolingType(CatalogEntry):
    kind_name: ClassVar[str] = "cooling"
    method: str
    max_kw_per_rack: float
    liquid_share: float
    pue_typical: float
    pue_min: float | None = None
    pue_max: float | None = None
    supply_temp_c: float | None = None
    delta_t_k: float
    ashrae_class: str | None = None
    # A named product (a CDU, rear door, tank): where it sits, what one unit removes, and its coolant flow.
    placement: str | None = None  # room | in-row | in-rack | rear-door | tank | facility
    unit_capacity_kw: float | None = None
    flow_l_per_min: float | None = None


@dataclass(frozen=True, kw_only=True)
class ModelType(CatalogEntry):
    kind_name: ClassVar[str] = "model"
    architecture: str = "dense"
    params_b: float
    layers: int
    hidden: int
    heads: int
    kv_heads: int | None = None
    ffn_hidden: int
    vocab: int = 0
    seq_len: int
    experts: int = 1
    top_k: int = 1
    shared_experts: int = 0
    moe_ffn_hidden: int | None = None
    dense_layers: int = 0
    gated_mlp: bool | None = None
    head_dim: int | None = None  # width of one attention head when heads × head_dim ≠ hidden (Qwen3, GPT-OSS)
    router_groups: int | None = None  # MoE experts in this many groups (DeepSeek-V3 n_group)
    router_group_topk: int | None = None  # a token's experts come from at most this many groups (topk_group)
    sliding_window: int | None = None  # tokens a windowed layer attends over (GPT-OSS 128)
    sliding_window_layers: int | None = None  # how many layers use the window (GPT-OSS 18 of 36)
    attention_sinks: bool | None = None  # a learned sink logit per head in the softmax (GPT-OSS)
    linear_bias: bool | None = None  # biases on every linear layer (GPT-OSS add_bias_linear)
    swiglu_clamp: float | None = None  # clamp limit of the gated activation's inputs (GPT-OSS 7.0)
    # Multi-head Latent Attention (DeepSeek-V3 config.json names; engine/perf/mla.py) and multi-token prediction
    q_lora_rank: int | None = None
    kv_lora_rank: int | None = None
    qk_nope_head_dim: int | None = None
    qk_rope_head_dim: int | None = None
    v_head_dim: int | None = None
    mtp_layers: int | None = None  # num_nextn_predict_layers


def _export_control(value: Any) -> dict[str, Any] | None:
    if not value:
        return None
    out = dict(value)
    out["restricted_regions"] = list(out.get("restricted_regions") or [])
    return out


def restricted_in(entry: CatalogEntry, region: str) -> bool:
    """True when ``entry`` carries an export rule naming ``region`` (ISO 3166 alpha-2, e.g. 'CN')."""
    ec = getattr(entry, "export_control", None)
    return bool(ec) and region.upper() in (ec or {}).get("restricted_regions", ())


@dataclass(frozen=True, slots=True)
class Price:
    id: str
    price_usd: float
    unit: str
    source: str
    as_of: str
    estimate: bool
    note: str = ""
    origin: str = ""


KIND_TYPES: dict[str, type[CatalogEntry]] = {
    t.kind_name: t
    for t in (
        GpuType,
        ServerType,
        SwitchType,
        StorageType,
        NicType,
        CableType,
        TransceiverType,
        RackType,
        PduType,
        CoolingType,
        ModelType,
    )
}
# Folder name under catalogs/ for each kind (models live in "models").
KIND_DIRS: dict[str, str] = {k: ("models" if k == "model" else k) for k in KIND_TYPES}
