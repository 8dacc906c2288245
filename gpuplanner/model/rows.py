"""Row types of the project tables. Frozen: an edit replaces a row. Field names carry their units.

These names are also the column names of the project file (``gpuplanner.storage``), so renaming a field
needs a migration there.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any

DEVICE_ROLES = ("compute", "leaf", "spine", "core", "storage", "storage-switch", "management", "other")
FABRIC_KINDS = ("compute", "storage", "management")
COOLING_AUTO = ""  # a rack with this cooling lets the engine choose


@dataclass(frozen=True, slots=True)
class ProjectInfo:
    id: str = "project"
    name: str = "Untitled"
    customer: str = ""
    consultant: str = ""
    currency: str = "USD"
    usd_exchange_rate: float = 1.0  # units of `currency` per US dollar
    language: str = "en"
    notes: str = ""
    logo_path: str = ""
    created: str = ""
    modified: str = ""


@dataclass(frozen=True, slots=True)
class Site:
    id: str = "site"
    electricity_usd_per_kwh: float = 0.10
    ambient_temp_c: float = 25.0
    climate: str = "temperate"  # cold | temperate | hot
    utility_kw_available: float = 0.0  # 0 = not stated
    target_pue: float = 1.3
    feed_headroom: float = 0.2
    rack_pitch_m: float = 0.6
    row_pitch_m: float = 3.0
    cable_slack_m: float = 2.0
    tray_height_m: float = 0.5  # overhead tray above the rack top
    load_factor: float = 0.8  # GPU utilisation used for power until a workload prediction exists
    tco_years: int = 5
    maintenance_pct_per_year: float = 8.0
    staff_usd_per_year: float = 150000.0
    nodes_per_staff: int = 64
    software_usd_per_gpu_year: float = 0.0
    cloud_usd_per_gpu_hour: float = 2.5
    expected_utilization: float = 0.7
    hall_width_m: float = 0.0  # 0 = sized to fit the racks
    hall_depth_m: float = 0.0
    # Facility, finance and electrical settings (cost, cloud, electrical stages). 0 for a rate = the sourced
    # value in catalogs/assumptions/cost.yaml.
    facility_model: str = "colocation"  # colocation | build | none
    colo_usd_per_kw_month: float = 0.0  # per kW of contracted IT power; 0 = cost.yaml
    build_usd_per_mw: float = 0.0  # owned build per MW of critical IT; 0 = cost.yaml
    staff_min_fte: float = 2.0
    support_years_in_price: int = 3  # vendor support in the catalog price; maintenance after these years
    insurance_pct_per_year: float = 0.0
    depreciation_years: int = 5  # IT equipment, straight line
    discount_rate_pct: float = 8.0  # for the NPV
    cloud_price_source: str = "list"  # list = catalogs/assumptions/cloud.yaml per GPU type | site
    cloud_term: str = "on_demand"  # on_demand | reserved_1y | reserved_3y
    redundancy: str = "2N"  # N | N+1 | 2N: UPS and generator redundancy
    ups_runtime_min: float = 10.0
    # site limits and budget (issue 22): 0 / "" = not stated
    it_kw_available: float = 0.0  # IT power the hall takes; checked: IT max × (1 + feed_headroom)
    positions_json: str = "[]"  # floor slots: [{"count": 24, "cooling": "air", "kw": 40}, …] (data only)
    budget_capex: float = 0.0  # in the project currency
    budget_tco: float = 0.0  # in the project currency, over tco_years
    region: str = ""  # the customer's country (ISO 3166-1 alpha-2), for export rules


@dataclass(frozen=True, slots=True)
class Rack:
    id: str
    name: str
    type_id: str
    row: str = "A"
    position: int = 1
    cooling_id: str = COOLING_AUTO
    power_budget_kw: float | None = None  # None = the rack type's budget
    x: float = 0.0
    y: float = 0.0
    phase_id: str = ""  # "" = the first phase
    floor_x_m: float | None = None  # None = from row and position (site rack and row pitch)
    floor_y_m: float | None = None


@dataclass(frozen=True, slots=True)
class Device:
    id: str
    name: str
    type_id: str
    role: str = "compute"
    rack_id: str | None = None
    u_position: int | None = None  # lowest U occupied, 1-based
    x: float = 0.0
    y: float = 0.0
    fabric_id: str | None = None  # for switches: the fabric they belong to
    price_usd: float | None = None  # per-project price override
    group: str = ""  # scalable unit / pod / plane label, for layout and reports
    phase_id: str = ""  # "" = the first phase
    partition: str = ""  # scheduler partition / node group ("" = the default one)


@dataclass(frozen=True, slots=True)
class Link:
    id: str
    a_device: str
    a_group: str  # port group name on the a-side device
    b_device: str
    b_group: str
    multiplicity: int = 1  # parallel cables
    speed_gbps: float = 0.0  # per cable; 0 = the slower of the two port groups
    medium: str = ""  # "" = auto (chosen from length and speed)
    cable_id: str = ""  # "" = auto
    length_m: float | None = None  # None = from rack positions
    fabric_id: str | None = None
    phase_id: str = ""  # "" = the first phase


@dataclass(frozen=True, slots=True)
class Fabric:
    id: str
    name: str
    kind: str = "compute"
    technology: str = "infiniband"
    topology: str = ""
    params_json: str = "{}"  # the generator inputs, as JSON text (data only)


@dataclass(frozen=True, slots=True)
class Workload:
    id: str
    name: str
    kind: str = "training"  # training | fine-tuning | inference
    model_id: str = ""  # catalog model id; "" = the shape fields below
    architecture: str = "dense"
    layers: int = 32
    hidden: int = 4096
    heads: int = 32
    kv_heads: int = 8
    ffn_hidden: int = 14336
    vocab: int = 128256
    seq_len: int = 8192
    experts: int = 1
    top_k: int = 1
    tp: int = 1
    pp: int = 1
    dp: int = 0  # 0 = all remaining GPUs
    cp: int = 1
    ep: int = 1
    vpp: int = 1
    micro_batch: int = 1
    global_batch: int = 1024  # sequences
    precision: str = "bf16"
    zero_stage: int = 1
    recompute: str = "selective"
    total_tokens: float = 1.0e12
    placement_order: str = "tp-cp-dp-pp"
    infer_batch: int = 32
    prompt_len: int = 2048
    output_len: int = 512
    kv_bytes: int = 0  # KV-cache bytes per value; 0 = as estimate --inference: 1 with fp8/fp4 weights, else 2
    measured_mfu: float | None = None
    measured_busbw_gbyte_per_s: float | None = None
    active: bool = True
    partition: str = ""  # run on the GPU servers of this partition ("" = all)
    # run settings (engine/perf/settings.py); "" = not stated: the stack's value, then the default.
    # With a stack, precision / zero_stage / recompute left at their defaults above count as not stated.
    stack: str = ""  # megatron-2021 | megatron-2022 | megatron-core-2024 | nemo-2024 | deepspeed-zero3 | ...
    attention: str = ""  # flash | unfused | triton
    sequence_parallel: str = ""  # on | off
    tp_comm_overlap: str = ""  # on | off: TP collectives pipelined with the GEMMs (TE userbuffers)
    pp_overlap: str = ""  # on | off: interleaved pipeline sends overlap compute
    dp_overlap: str = ""  # on | off: gradient reduce-scatter/all-reduce overlapped with the backward
    param_gather_overlap: str = ""  # on | off: distributed-optimizer parameter all-gather under the forward
    ep_overlap: str = ""  # on | off: expert all-to-all overlapped (DualPipe / DeepEP)
    grad_dtype: str = ""  # fp32 | bf16 | fp16 gradient buffers
    # serving (kind "inference"): the load to serve and its targets; 0 = not stated
    users: float = 0.0  # concurrent users (closed loop: each waits for its answer, then thinks)
    requests_per_s: float = 0.0
    ttft_target_s: float = 0.0
    tpot_target_s: float = 0.0
    think_time_s: float = 0.0
    serving_mode: str = "best"  # aggregated | disaggregated | best
    # more run settings (engine/perf/settings.py SETTINGS), "" = not stated as above (appended: older files
    # lack the columns and read "")
    tp_overlap: str = ""  # on | off: TP communication overlapped with compute at all
    balanced_pipeline: str = ""  # on | off: layers spread so the stages are even (embedding/head counted)
    zero3_regather_on_recompute: str = ""  # on | off: ZeRO-3 gathers the parameters again for recomputation
    zero3_nics_per_node: str = ""  # 0 | 1 | 2 | 4 | 8: NICs a ZeRO-3 node's parameter gathers use (0 = all)
    optimizer: str = ""  # fused | unfused
    optimizer_state: str = ""  # fp32 | fp32-remainder | bf16 | fp32-bf16-moments
    moe_dispatcher: str = ""  # alltoall | deepep
    expert_tp: str = ""  # on | off: experts split over the TP ranks
    fp8_params: str = ""  # on | off: FP8 parameter copies (no BF16 weights kept)
    recompute_norm_act: str = ""  # on | off: norm and activation outputs recomputed
    mla_up_proj_recompute: str = ""  # on | off: MLA up-projections recomputed
    pipeline_layout: str = ""  # Megatron-Core pipeline_model_parallel_layout, e.g. "Et*3|(tt|)*29m|L"
    fp8_recipe: str = ""  # delayed | current | mxfp8
    # serving run settings (kind "inference"), "" = not stated (appended: older files lack the columns and read "")
    serving_stack: str = ""  # vllm | trtllm: how the KV cache is sized ("" = vllm, as estimate --inference)
    prompt_dataset: str = (
        ""  # prompt lengths vary as in this dataset (inference_datasets.yaml); its mean = prompt_len
    )
    # the percentiles of requests the TTFT / TPOT targets hold at (estimate --ttft-percentile/--tpot-percentile);
    # 0 = in the mean (appended: older files lack the columns and read 0)
    ttft_percentile: float = 0.0
    tpot_percentile: float = 0.0
    # the share of the serving stack's KV-cache rule as the deployment sets it (estimate --kv-fraction: vLLM
    # --gpu-memory-utilization, TensorRT-LLM free_gpu_memory_fraction), in (0, 1]; 0 = not stated (the stack's
    # default). Appended: older files lack the column and read 0
    kv_fraction: float = 0.0
    # the most sequences one replica runs at once as the deployment caps it (estimate --max-seqs: vLLM
    # --max-num-seqs, TensorRT-LLM max_batch_size); 0 = not stated (the stack's default). Appended: older files
    # lack the column and read 0
    max_seqs: int = 0
    # the most tokens one engine step carries, decode plus prefill, as the deployment sets it (estimate
    # --max-batched-tokens: TensorRT-LLM max_num_tokens, vLLM --max-num-batched-tokens); 0 = not stated (the
    # engine's default). Appended: older files lack the column and read 0
    max_batched_tokens: int = 0
    # whether prompts are chunked into the decode steps (estimate --no-chunked-prefill when False: vLLM V0 with
    # enable_chunked_prefill False runs whole prompts in their own steps while the decodes wait); True = the
    # engine's default (vLLM V1, TensorRT-LLM chunked context). Appended: older files lack the column and read True
    chunked_prefill: bool = True
    # each tensor-parallel all-reduce fused into the GEMM before it (estimate --gemm-allreduce-fusion:
    # TensorRT-LLM gemm_allreduce_plugin); False = a separate all-reduce (the engine's default). Appended: older
    # files lack the column and read False
    gemm_allreduce_fusion: bool = False


@dataclass(frozen=True, slots=True)
class Scenario:
    id: str
    name: str
    description: str = ""
    overrides_json: str = "{}"  # {"site.electricity_usd_per_kwh": 0.08, "racks.cooling_id": "…"}: data only


@dataclass(frozen=True, slots=True)
class Phase:
    """A build-out phase: it adds the racks, devices and links that name it to the phases before it."""

    id: str
    name: str
    order: int = 1
    description: str = ""
    scheduler: str = ""  # "" = advised by the checks; slurm | kubernetes | volcano | slurm+kubernetes


@dataclass(frozen=True, slots=True)
class Team:
    id: str
    name: str
    partition: str = ""  # "" = the whole cluster
    gpu_guaranteed: int = 0
    gpu_burst: int = 0  # may borrow up to this many GPUs when idle
    priority: int = 1  # higher wins
    largest_job_gpus: int = 0


@dataclass(frozen=True, slots=True)
class AisleRow:
    """A row of racks on the floor: its label matches Rack.row."""

    id: str  # the row label
    aisle: str = "cold"  # the aisle the rack fronts face: cold | hot
    contained: bool = False
    y_m: float | None = None  # None = from the row order × site.row_pitch_m


@dataclass(frozen=True, slots=True)
class FloorItem:
    """Cooling and power equipment on the floor plan, with its capacity."""

    id: str
    name: str
    kind: str = "crah"  # crah | in-row | rear-door | cdu | immersion-tank | pdu | busway | utility-feed
    x_m: float = 0.0
    y_m: float = 0.0
    width_m: float = 0.6
    depth_m: float = 1.2
    capacity_kw: float = 0.0
    row: str = ""  # serves the racks of this row ("" = the whole hall)
    phase_id: str = ""


@dataclass(frozen=True, slots=True)
class DesignGoal:
    """What the customer wants and the site's limits, for the design advisor (``gpuplanner advise``): one row,
    ``kind`` "" while no goal is set. Limits of 0 mean "no limit"; lists are comma-separated text ("" = any).
    Money is in USD (the advisor's unit). Checked by ``model/goal.py``."""

    id: str = "goal"
    kind: str = ""  # "" (no goal set) | training | inference
    model_id: str = "llama3-70b"  # catalog model
    # training: the tokens to train on, by when, and the run's batch (sequences per step)
    total_tokens: float = 15e12
    deadline_days: float = 60.0
    global_batch: int = 1024
    precision: str = "bf16"
    # inference: the request rate to serve and the latency targets
    requests_per_s: float = 0.0
    prompt_len: int = 2048
    output_len: int = 256
    ttft_s_max: float = 1.0
    tpot_s_max: float = 0.05
    # the site's limits and the budget: 0 = no limit
    facility_kw_max: float = 0.0
    rack_kw_max: float = 0.0
    racks_max: int = 0
    capex_usd_max: float = 0.0
    tco_usd_max: float = 0.0
    region: str = ""  # ISO 3166-1 code of the customer: parts export-restricted there are left out
    # what may be bought and built (comma-separated; "" = any)
    servers: str = ""  # catalog server ids
    vendors: str = ""  # GPU vendors, e.g. "Huawei"
    cooling: str = ""  # cooling methods: air, air-contained, rear-door, cold-plate, immersion
    templates: str = "rail-leaf-spine,fat-tree-3tier"  # fabric templates
    oversubs: str = "1,2"  # leaf oversubscription ratios tried
    objective: str = "tco"  # the front's cost axis: tco | capex
    max_servers: int = 4096  # the search's own ceiling
    # serving: how the GPUs serve (appended: older files lack the column and read the default)
    serving_mode: str = "aggregated"  # aggregated | disaggregated | best (as estimate --inference --serving)
    # serving, as estimate --inference states it (appended: older files lack the columns and read the defaults)
    serving_stack: str = "vllm"  # vllm | trtllm: how the KV cache is sized (--serving-stack)
    ttft_percentile: float = 0.0  # the TTFT target holds at this percentile of requests; 0 = in the mean
    tpot_percentile: float = 0.0  # the TPOT target holds for this percentile of requests; 0 = in the mean
    prompt_dataset: str = (
        ""  # prompt lengths vary as in this dataset (inference_datasets.yaml); mean = prompt_len
    )
    users: float = 0.0  # concurrent users to serve (closed loop); 0 = not stated (the request rate alone)
    think_time_s: float = 0.0  # seconds a user waits between an answer and the next request
    # the serving stack's KV-cache share as deployed (--kv-fraction), in (0, 1]; 0 = not stated (the stack's rule).
    # Appended: older files lack the column and read 0
    kv_fraction: float = 0.0
    # the most sequences one replica runs at once (--max-seqs); 0 = not stated (the stack's default). Appended
    max_seqs: int = 0
    # the most tokens one engine step carries (--max-batched-tokens); 0 = not stated (the engine's default).
    # Appended
    max_batched_tokens: int = 0
    # prompts chunked into the decode steps (False: --no-chunked-prefill); True = the engine's default. Appended
    chunked_prefill: bool = True
    # each tensor-parallel all-reduce fused into the GEMM before it (--gemm-allreduce-fusion). Appended
    gemm_allreduce_fusion: bool = False


ROW_TYPES: dict[str, type] = {
    "project": ProjectInfo,
    "site": Site,
    "racks": Rack,
    "devices": Device,
    "links": Link,
    "fabrics": Fabric,
    "workloads": Workload,
    "scenarios": Scenario,
    "phases": Phase,
    "teams": Team,
    "aisle_rows": AisleRow,
    "floor_items": FloorItem,
    "goal": DesignGoal,
}
TABLE_OF: dict[type, str] = {cls: table for table, cls in ROW_TYPES.items()}  # row class → its table
SINGLETON_TABLES = ("project", "site", "goal")
ID_PREFIX = {
    "racks": "r",
    "devices": "d",
    "links": "l",
    "fabrics": "f",
    "workloads": "w",
    "scenarios": "s",
    "phases": "ph",
    "teams": "t",
    "floor_items": "fi",
}
FLOOR_ITEM_KINDS = ("crah", "in-row", "rear-door", "cdu", "immersion-tank", "pdu", "busway", "utility-feed")


def row_to_dict(row: Any) -> dict[str, Any]:
    return {f.name: getattr(row, f.name) for f in dataclasses.fields(row)}
