"""The range of every numeric field of the model's rows, in one place.

Model validation enforces these for every edit, the file loader, the CLI and the generators alike (they all
go through ``validate_row``); the inspector's spin boxes take their limits from here. A bound is inclusive.
The upper bounds are far beyond any real cluster but small enough that nothing downstream overflows or tries
to build something enormous: U positions fit the engine's int16 arrays, a link bundle stays a handful of
cables, money and years stay finite and printable.

A field with no entry gets ``DEFAULT_INT`` / ``DEFAULT_FLOAT`` (a test lists the fields that lack an explicit
range, so that a new field is given one on purpose).
"""

from __future__ import annotations

MAX_RACK_U = 100  # the tallest rack in any catalog is 58 U; a U position is also checked against its rack
MAX_MULTIPLICITY = 1024  # parallel cables in one link (a 144-port switch pair needs at most 144)
MAX_COORD = 1.0e7  # canvas coordinates (scene units)
MAX_FLOOR_M = 10_000.0  # floor plan coordinates and sizes: a 10 km hall is already absurd
MAX_USD = 1.0e12  # any amount of money
MAX_GPUS = 10_000_000  # GPU counts in teams and jobs
# Generators refuse more servers than this before building anything: 65,536 eight-GPU servers is 4× the
# largest cluster the benchmarks time (131k GPUs); a billion would try to allocate tens of GiB first.
MAX_SERVERS = 65_536

DEFAULT_INT = (0, 2**31 - 1)  # not negative, as every field without a range has been
DEFAULT_FLOAT = (0.0, 1.0e15)

BOUNDS: dict[tuple[str, str], tuple[float, float]] = {
    # project
    ("project", "usd_exchange_rate"): (1.0e-6, 1.0e6),
    # site
    ("site", "electricity_usd_per_kwh"): (0.0, 100.0),
    # facility and finance (issue 15): rates 0 = the sourced default
    ("site", "colo_usd_per_kw_month"): (0.0, 100_000.0),
    ("site", "build_usd_per_mw"): (0.0, MAX_USD),
    ("site", "staff_min_fte"): (0.0, 100_000.0),
    ("site", "support_years_in_price"): (0, 100),
    ("site", "insurance_pct_per_year"): (0.0, 100.0),
    ("site", "depreciation_years"): (1, 100),
    ("site", "discount_rate_pct"): (0.0, 100.0),
    ("site", "ups_runtime_min"): (0.0, 10_000.0),
    # site limits and budget (issue 22): 0 = not stated
    ("site", "it_kw_available"): (0.0, 1.0e8),
    ("site", "budget_capex"): (0.0, MAX_USD),
    ("site", "budget_tco"): (0.0, MAX_USD),
    # serving load and targets (issue 22): 0 = not stated
    ("workloads", "users"): (0.0, 1.0e9),
    ("workloads", "requests_per_s"): (0.0, 1.0e9),
    ("workloads", "ttft_target_s"): (0.0, 3600.0),
    ("workloads", "tpot_target_s"): (0.0, 3600.0),
    ("workloads", "think_time_s"): (0.0, 86_400.0),
    ("workloads", "ttft_percentile"): (
        0.0,
        100.0,
    ),  # 0 = in the mean; 100 itself is refused (model/validate.py)
    ("workloads", "tpot_percentile"): (0.0, 100.0),
    ("workloads", "kv_fraction"): (0.0, 1.0),  # 0 = not stated (the serving stack's default), else (0, 1]
    ("workloads", "max_seqs"): (0, 10_000_000),  # 0 = not stated (the serving stack's default), else ≥ 1
    ("workloads", "max_batched_tokens"): (0, 10_000_000),  # 0 = not stated (the engine's default), else ≥ 1
    ("site", "ambient_temp_c"): (-60.0, 60.0),
    ("site", "utility_kw_available"): (0.0, 1.0e8),
    ("site", "target_pue"): (0.0, 10.0),
    ("site", "feed_headroom"): (0.0, 10.0),
    ("site", "rack_pitch_m"): (0.0, 100.0),
    ("site", "row_pitch_m"): (0.0, 100.0),
    ("site", "cable_slack_m"): (0.0, 1000.0),
    ("site", "tray_height_m"): (0.0, 100.0),
    ("site", "load_factor"): (0.0, 1.0),
    ("site", "tco_years"): (1, 100),
    ("site", "maintenance_pct_per_year"): (0.0, 1000.0),
    ("site", "staff_usd_per_year"): (0.0, MAX_USD),
    ("site", "nodes_per_staff"): (0, 1_000_000),
    ("site", "software_usd_per_gpu_year"): (0.0, MAX_USD),
    ("site", "cloud_usd_per_gpu_hour"): (0.0, 1.0e6),
    ("site", "expected_utilization"): (0.0, 1.0),
    ("site", "hall_width_m"): (0.0, MAX_FLOOR_M),
    ("site", "hall_depth_m"): (0.0, MAX_FLOOR_M),
    # the design goal (gpuplanner advise): limits of 0 = no limit
    ("goal", "total_tokens"): (1.0, 1.0e18),
    ("goal", "deadline_days"): (0.01, 36_500.0),
    ("goal", "global_batch"): (1, 1_000_000_000),
    ("goal", "requests_per_s"): (0.0, 1.0e9),
    ("goal", "prompt_len"): (1, 10_000_000),
    ("goal", "output_len"): (1, 10_000_000),
    ("goal", "ttft_s_max"): (1.0e-4, 3600.0),
    ("goal", "tpot_s_max"): (1.0e-5, 3600.0),
    ("goal", "facility_kw_max"): (0.0, 1.0e8),
    ("goal", "rack_kw_max"): (0.0, 100_000.0),
    ("goal", "racks_max"): (0, 1_000_000),
    ("goal", "capex_usd_max"): (0.0, MAX_USD),
    ("goal", "tco_usd_max"): (0.0, MAX_USD),
    ("goal", "max_servers"): (1, MAX_SERVERS),
    ("goal", "ttft_percentile"): (0.0, 100.0),  # 0 = in the mean; 100 itself is refused (model/goal.py)
    ("goal", "tpot_percentile"): (0.0, 100.0),
    ("goal", "users"): (0.0, 1.0e9),
    ("goal", "think_time_s"): (0.0, 86_400.0),
    ("goal", "kv_fraction"): (0.0, 1.0),  # 0 = not stated (the serving stack's default), else (0, 1]
    ("goal", "max_seqs"): (0, 10_000_000),  # 0 = not stated (the serving stack's default), else ≥ 1
    ("goal", "max_batched_tokens"): (0, 10_000_000),  # 0 = not stated (the engine's default), else ≥ 1
    # racks
    ("racks", "position"): (1, 100_000),
    ("racks", "power_budget_kw"): (0.0, 100_000.0),
    ("racks", "x"): (-MAX_COORD, MAX_COORD),
    ("racks", "y"): (-MAX_COORD, MAX_COORD),
    ("racks", "floor_x_m"): (-MAX_FLOOR_M, MAX_FLOOR_M),
    ("racks", "floor_y_m"): (-MAX_FLOOR_M, MAX_FLOOR_M),
    # devices
    ("devices", "u_position"): (1, MAX_RACK_U),
    ("devices", "x"): (-MAX_COORD, MAX_COORD),
    ("devices", "y"): (-MAX_COORD, MAX_COORD),
    ("devices", "price_usd"): (0.0, MAX_USD),
    # links
    ("links", "multiplicity"): (1, MAX_MULTIPLICITY),
    ("links", "speed_gbps"): (0.0, 100_000.0),
    ("links", "length_m"): (0.0, 100_000.0),  # 100 km: a link between sites
    # workloads
    ("workloads", "layers"): (1, 100_000),
    ("workloads", "hidden"): (1, 10_000_000),
    ("workloads", "heads"): (1, 100_000),
    ("workloads", "kv_heads"): (0, 100_000),
    ("workloads", "ffn_hidden"): (0, 100_000_000),
    ("workloads", "vocab"): (0, 100_000_000),
    ("workloads", "seq_len"): (1, 1_000_000_000),
    ("workloads", "experts"): (0, 1_000_000),
    ("workloads", "top_k"): (0, 1_000_000),
    ("workloads", "tp"): (1, MAX_GPUS),
    ("workloads", "pp"): (1, MAX_GPUS),
    ("workloads", "dp"): (0, MAX_GPUS),
    ("workloads", "cp"): (1, MAX_GPUS),
    ("workloads", "ep"): (1, MAX_GPUS),
    ("workloads", "vpp"): (1, 100_000),
    ("workloads", "micro_batch"): (1, 1_000_000_000),
    ("workloads", "global_batch"): (1, 1_000_000_000),
    ("workloads", "zero_stage"): (0, 3),
    ("workloads", "total_tokens"): (0.0, 1.0e18),
    ("workloads", "infer_batch"): (0, 1_000_000_000),
    ("workloads", "prompt_len"): (0, 1_000_000_000),
    ("workloads", "output_len"): (0, 1_000_000_000),
    ("workloads", "kv_bytes"): (0, 16),
    ("workloads", "measured_mfu"): (0.0, 1.0),
    ("workloads", "measured_busbw_gbyte_per_s"): (0.0, 1.0e6),
    # phases, teams
    ("phases", "order"): (1, 100_000),
    ("teams", "gpu_guaranteed"): (0, MAX_GPUS),
    ("teams", "gpu_burst"): (0, MAX_GPUS),
    ("teams", "priority"): (1, 1_000_000),
    ("teams", "largest_job_gpus"): (0, MAX_GPUS),
    # floor
    ("aisle_rows", "y_m"): (-MAX_FLOOR_M, MAX_FLOOR_M),
    ("floor_items", "x_m"): (-MAX_FLOOR_M, MAX_FLOOR_M),
    ("floor_items", "y_m"): (-MAX_FLOOR_M, MAX_FLOOR_M),
    ("floor_items", "width_m"): (0.0, MAX_FLOOR_M),
    ("floor_items", "depth_m"): (0.0, MAX_FLOOR_M),
    ("floor_items", "capacity_kw"): (0.0, 1.0e8),
}


def bounds(table: str, name: str, kind: type = float) -> tuple[float, float]:
    """(lowest, highest) allowed value of a numeric field, inclusive."""
    found = BOUNDS.get((table, name))
    if found is not None:
        return found
    return DEFAULT_INT if kind is int else DEFAULT_FLOAT


def has_explicit_bounds(table: str, name: str) -> bool:
    return (table, name) in BOUNDS


def format_bound(v: float) -> str:
    return f"{v:,.0f}" if float(v).is_integer() and abs(v) >= 1000 else f"{v:g}"
