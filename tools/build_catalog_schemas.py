"""Writes catalogs/schema/<kind>.json from the compact field table below.

The JSON files are the contract (they are committed and read by the loader); this script exists so that the
twelve schemas share one definition of the common fields and of port groups. Run it after editing the table:
    python tools/build_catalog_schemas.py
"""

from __future__ import annotations

import json
from pathlib import Path

NUM = {"type": "number", "minimum": 0}
NUM_OR_NULL = {"type": ["number", "null"], "minimum": 0}
INT = {"type": "integer", "minimum": 0}
POS_INT = {"type": "integer", "minimum": 1}
STR = {"type": "string", "minLength": 1}
STR_OR_NULL = {"type": ["string", "null"]}
SHARE = {"type": "number", "minimum": 0, "maximum": 1}
BOOL = {"type": "boolean"}
REDUNDANCY = {"type": "string", "pattern": r"^[0-9]+\+[0-9]+$"}
TECH = {"enum": ["infiniband", "ethernet", "vpi", "any"]}

PORT_GROUP = {
    "type": "object",
    "additionalProperties": False,
    "required": ["name", "role", "count", "type", "speed_gbps"],
    "properties": {
        "name": STR,
        "role": {
            "enum": ["compute", "storage", "management", "frontend", "fabric", "uplink", "downlink", "inband"]
        },
        "count": POS_INT,
        "type": {"type": "string", "pattern": r"^[a-z0-9][a-z0-9-]*$"},
        "speed_gbps": {"type": "number", "exclusiveMinimum": 0},
        "pattern": STR,
        "nic": STR_OR_NULL,
        "names": {
            "type": "array",
            "items": {"type": "string", "minLength": 1},
            "minItems": 1,
            "description": "the ports' names as the vendor prints them, when no {n} pattern fits "
            "(e.g. P0.0 … P31.1); as many as count",
        },
        "ports_per_cage": {
            "type": "integer",
            "minimum": 1,
            "maximum": 8,
            "description": "logical ports sharing one physical cage (2 for a twin-port OSFP cage): "
            "transceivers are counted per cage",
        },
    },
}

SOURCE_ITEM = {
    "type": "object",
    "additionalProperties": False,
    "required": ["source", "as_of"],
    "properties": {"source": STR, "as_of": STR, "estimate": BOOL, "note": STR},
}

EXPORT_CONTROL = {
    "type": "object",
    "additionalProperties": False,
    "required": ["classification", "restricted_regions", "source", "as_of"],
    "properties": {
        "classification": STR,
        "restricted_regions": {
            "type": "array",
            "items": {"type": "string", "pattern": "^[A-Z]{2}$"},
            "uniqueItems": True,
        },
        "licence_required_since": {"type": "string", "pattern": r"^(19|20)[0-9]{2}-[01][0-9](-[0-3][0-9])?$"},
        "note": STR,
        "source": STR,
        "as_of": {"type": "string", "pattern": r"^(19|20)[0-9]{2}(-[01][0-9](-[0-3][0-9])?)?$"},
    },
}

COMMON = {
    "id": {"type": "string", "pattern": r"^[a-z0-9][a-z0-9-]*$"},
    "kind": STR,
    "vendor": STR,
    "model": STR,
    "name": STR,
    "name_zh": STR,
    "description": {
        "type": "object",
        "additionalProperties": False,
        "properties": {"en": {"type": "string"}, "zh": {"type": "string"}},
    },
    "source": STR,
    "as_of": {"type": "string", "pattern": r"^(19|20)[0-9]{2}(-[01][0-9](-[0-3][0-9])?)?$"},
    "estimate": BOOL,
    "estimate_note": STR,
    "field_sources": {"type": "object", "additionalProperties": SOURCE_ITEM},
}
COMMON_REQUIRED = ["id", "kind", "vendor", "model", "name", "source", "as_of"]

KINDS: dict[str, tuple[dict, list[str]]] = {
    "gpu": (
        {
            "architecture": STR,
            "form_factor": {"enum": ["sxm", "pcie", "oam", "superchip", "nvl", "card"]},
            "tdp_w": {"type": "number", "exclusiveMinimum": 0},
            "power_idle_w": NUM,
            "mem_gb": {"type": "number", "exclusiveMinimum": 0},
            "mem_type": STR,
            "mem_bw_tbyte_per_s": {"type": "number", "exclusiveMinimum": 0},
            "bf16_dense_tflops": {"type": "number", "exclusiveMinimum": 0},
            "fp16_dense_tflops": {"type": "number", "exclusiveMinimum": 0},
            "fp8_dense_tflops": NUM_OR_NULL,
            "fp4_dense_tflops": NUM_OR_NULL,
            "tf32_dense_tflops": NUM_OR_NULL,
            "fp32_tflops": NUM_OR_NULL,
            "int8_dense_tops": NUM_OR_NULL,
            "scaleup_tech": {
                "enum": ["nvlink3", "nvlink4", "nvlink5", "hccs", "infinity-fabric", "pcie", "none"]
            },
            "scaleup_bw_gbyte_per_s": NUM,
            "pcie_gen": {"type": "integer", "minimum": 3, "maximum": 6},
            "released": {"type": "integer", "minimum": 2010, "maximum": 2035},
            "export_control": EXPORT_CONTROL,
        },
        [
            "tdp_w",
            "mem_gb",
            "mem_bw_tbyte_per_s",
            "bf16_dense_tflops",
            "fp8_dense_tflops",
            "scaleup_tech",
            "scaleup_bw_gbyte_per_s",
            "pcie_gen",
        ],
    ),
    "server": (
        {
            "ru": POS_INT,
            "gpu": STR_OR_NULL,
            "gpu_count": INT,
            "scaleup_domain_gpus": INT,
            "cpu_model": STR,
            "cpu_count": INT,
            "cpu_cores_per_socket": {"type": "integer", "minimum": 1},
            "cpu_threads_per_core": {"type": "integer", "minimum": 1, "maximum": 8},
            "mem_gb": NUM,
            "local_nvme_tb": NUM,
            "power_idle_w": NUM,
            "power_typical_w": NUM,
            "power_max_w": {"type": "number", "exclusiveMinimum": 0},
            "psu_count": INT,
            "psu_rating_w": NUM,
            "psu_redundancy": REDUNDANCY,
            "weight_kg": NUM_OR_NULL,
            "liquid_share": SHARE,
            "airflow_cfm": NUM_OR_NULL,
            "rack_scale": BOOL,
            "port_groups": {"type": "array", "items": PORT_GROUP},
            "export_control": EXPORT_CONTROL,
            "ref_nic_gbps_per_gpu": {
                "type": "number",
                "exclusiveMinimum": 0,
                "description": "compute-fabric NIC bandwidth per GPU in the platform's reference architecture "
                "(Gb/s); its source goes in field_sources",
            },
        },
        [
            "ru",
            "gpu",
            "gpu_count",
            "power_idle_w",
            "power_typical_w",
            "power_max_w",
            "psu_count",
            "psu_rating_w",
            "psu_redundancy",
            "port_groups",
        ],
    ),
    "switch": (
        {
            "ru": POS_INT,
            "technology": TECH,
            "asic": STR,
            "switching_tbps_unidirectional": NUM,
            "latency_ns": NUM_OR_NULL,
            "power_idle_w": NUM,
            "power_typical_w": NUM,
            "power_max_w": {"type": "number", "exclusiveMinimum": 0},
            "psu_count": INT,
            "psu_rating_w": NUM,
            "psu_redundancy": REDUNDANCY,
            "weight_kg": NUM_OR_NULL,
            "liquid_share": SHARE,
            "tiers": {"type": "array", "items": {"enum": ["leaf", "spine", "core", "access", "management"]}},
            "port_groups": {"type": "array", "items": PORT_GROUP, "minItems": 1},
        },
        [
            "ru",
            "technology",
            "power_typical_w",
            "power_max_w",
            "psu_count",
            "psu_rating_w",
            "psu_redundancy",
            "port_groups",
        ],
    ),
    "nic": (
        {
            "technology": TECH,
            "speed_gbps": {"type": "number", "exclusiveMinimum": 0},
            "port_count": POS_INT,
            "port_type": STR,
            "pcie_gen": {"type": "integer", "minimum": 3, "maximum": 6},
            "pcie_lanes": POS_INT,
            "power_max_w": NUM,
            "form_factor": STR,
        },
        ["technology", "speed_gbps", "port_count", "power_max_w"],
    ),
    "cable": (
        {
            "medium": {"enum": ["dac", "acc", "aec", "aoc", "utp", "fiber-mmf", "fiber-smf"]},
            "technology": TECH,
            "speed_gbps": {"type": "number", "exclusiveMinimum": 0},
            "reach_max_m": {"type": "number", "exclusiveMinimum": 0},
            "lengths_m": {"type": "array", "items": {"type": "number", "exclusiveMinimum": 0}},
            "power_w": NUM,
            "connector": STR,
            "breakout": POS_INT,
        },
        ["medium", "technology", "speed_gbps", "reach_max_m"],
    ),
    "transceiver": (
        {
            "technology": TECH,
            "speed_gbps": {"type": "number", "exclusiveMinimum": 0},
            "form_factor": STR,
            "fiber": {"enum": ["mmf", "smf"]},
            "reach_max_m": {"type": "number", "exclusiveMinimum": 0},
            "power_w": NUM,
            "connector": STR,
            "ports": POS_INT,
        },
        ["technology", "speed_gbps", "form_factor", "fiber", "reach_max_m", "power_w"],
    ),
    "rack": (
        {
            "ru": POS_INT,
            "width_mm": NUM,
            "depth_mm": NUM,
            "height_mm": NUM,
            "max_load_kg": NUM,
            "power_budget_kw": {"type": "number", "exclusiveMinimum": 0},
            "pdu": STR_OR_NULL,
            "pdu_count": INT,
        },
        ["ru", "power_budget_kw"],
    ),
    "pdu": (
        {
            "phases": {"enum": [1, 3]},
            "voltage_v": {"type": "number", "exclusiveMinimum": 0},
            "current_a": {"type": "number", "exclusiveMinimum": 0},
            "capacity_kw": {"type": "number", "exclusiveMinimum": 0},
            "outlet_count": INT,
            "ru": INT,
            "form": {"enum": ["rack-pdu", "busway", "power-shelf"]},
        },
        ["phases", "voltage_v", "current_a", "capacity_kw"],
    ),
    "cooling": (
        {
            "method": {"enum": ["air", "air-contained", "rear-door", "cold-plate", "immersion"]},
            "max_kw_per_rack": {"type": "number", "exclusiveMinimum": 0},
            "liquid_share": SHARE,
            "pue_typical": {"type": "number", "minimum": 1},
            "pue_min": {"type": "number", "minimum": 1},
            "pue_max": {"type": "number", "minimum": 1},
            "supply_temp_c": NUM_OR_NULL,
            "delta_t_k": {"type": "number", "exclusiveMinimum": 0},
            "ashrae_class": STR_OR_NULL,
            "placement": {"enum": ["room", "in-row", "in-rack", "rear-door", "tank", "facility"]},
            "unit_capacity_kw": {"type": "number", "exclusiveMinimum": 0},
            "flow_l_per_min": {"type": "number", "exclusiveMinimum": 0},
        },
        ["method", "max_kw_per_rack", "liquid_share", "pue_typical", "delta_t_k"],
    ),
    "storage": (
        {
            "system": {"enum": ["nfs", "beegfs", "lustre", "gpfs", "weka", "vast", "ceph", "other"]},
            "ru": POS_INT,
            "read_gbyte_per_s": {"type": "number", "exclusiveMinimum": 0},
            "write_gbyte_per_s": {"type": "number", "exclusiveMinimum": 0},
            "capacity_tb": NUM,
            "power_typical_w": NUM,
            "power_max_w": {"type": "number", "exclusiveMinimum": 0},
            "port_groups": {"type": "array", "items": PORT_GROUP},
        },
        ["system", "ru", "read_gbyte_per_s", "write_gbyte_per_s", "capacity_tb", "power_max_w"],
    ),
    "model": (
        {
            "architecture": {"enum": ["dense", "moe", "vit", "dit"]},
            "params_b": {"type": "number", "exclusiveMinimum": 0},
            "layers": POS_INT,
            "hidden": POS_INT,
            "heads": POS_INT,
            "kv_heads": POS_INT,
            "ffn_hidden": POS_INT,
            "vocab": INT,
            "seq_len": POS_INT,
            "experts": POS_INT,
            "top_k": POS_INT,
            "shared_experts": INT,
            "moe_ffn_hidden": {"type": ["integer", "null"], "minimum": 1},
            "dense_layers": INT,
            "gated_mlp": BOOL,
            "head_dim": POS_INT,
            "router_groups": POS_INT,
            "router_group_topk": POS_INT,
            "sliding_window": POS_INT,
            "sliding_window_layers": POS_INT,
            "q_lora_rank": INT,
            "kv_lora_rank": INT,
            "qk_nope_head_dim": INT,
            "qk_rope_head_dim": INT,
            "v_head_dim": INT,
            "mtp_layers": INT,
        },
        ["architecture", "params_b", "layers", "hidden", "heads", "ffn_hidden", "seq_len"],
    ),
}

PRICES = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "title": "GPU Planner indicative prices",
    "type": "object",
    "additionalProperties": False,
    "required": ["kind", "currency", "entries"],
    "properties": {
        "kind": {"const": "prices"},
        "currency": {"type": "string", "pattern": "^[A-Z]{3}$"},
        "entries": {
            "type": "array",
            "items": {
                "type": "object",
                "additionalProperties": False,
                "required": ["id", "price_usd", "source", "as_of"],
                "properties": {
                    "id": COMMON["id"],
                    "price_usd": NUM,
                    "unit": {"enum": ["each", "per_kw", "per_m"]},
                    "source": STR,
                    "as_of": COMMON["as_of"],
                    "estimate": BOOL,
                    "note": STR,
                },
            },
        },
    },
}


def schema_for(kind: str) -> dict:
    props, required = KINDS[kind]
    properties = dict(COMMON)
    properties["kind"] = {"const": kind}
    properties.update(props)
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": f"GPU Planner catalog entry: {kind}",
        "type": "object",
        "additionalProperties": False,
        "required": COMMON_REQUIRED + required,
        "properties": properties,
        "if": {"properties": {"estimate": {"const": True}}, "required": ["estimate"]},
        "then": {"required": ["estimate_note"]},
    }


def main() -> None:
    out = Path(__file__).resolve().parent.parent / "catalogs" / "schema"
    out.mkdir(parents=True, exist_ok=True)
    for kind in KINDS:
        (out / f"{kind}.json").write_text(json.dumps(schema_for(kind), indent=2, ensure_ascii=False) + "\n")
    (out / "prices.json").write_text(json.dumps(PRICES, indent=2) + "\n")


if __name__ == "__main__":
    main()
