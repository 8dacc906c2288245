"""What the window calls a row's fields and what its serving settings mean: labels with units in the UI language
(``label_of``, ``unit_of``; the English display forms in ``ENGLISH_LABELS``), errors and refusals in the window's
language with field names as labelled (``plain_error``, ``plain_line``), and the tooltips of the serving settings a
workload, a goal and the advisor form share. Split from ``ui.fields`` (the editors), which re-exports them."""

from __future__ import annotations

import re

from gpuplanner.text import Msg, error_line, shown
from gpuplanner.ui.i18n import current_language, translate

UNITS = (
    ("_usd_per_kwh", "USD/kWh"),
    ("_usd_per_gpu_hour", "USD/GPU·h"),
    ("_usd_per_gpu_year", "USD/GPU·yr"),
    ("_usd_per_year", "USD/yr"),
    ("_pct_per_year", "%/yr"),
    ("_usd_per_kw_month", "USD/kW·month"),
    ("_usd_per_mw", "USD/MW"),
    ("_pct", "%"),
    ("_fte", "FTE"),
    ("_min", "min"),
    ("_kw_available", "kW"),
    ("_usd", "USD"),
    ("_kw", "kW"),
    ("_w", "W"),
    ("_gbps", "Gb/s"),
    ("_gbyte_per_s", "GB/s"),
    ("_m", "m"),
    ("_c", "°C"),
    ("_years", "yr"),
)


def unit_of(name: str) -> str:
    """The unit a field's name ends in, in the UI language ("yr" → "年"; SI symbols stay)."""
    for suffix, unit in UNITS:
        if name.endswith(suffix):
            return translate("units", unit)
    return ""


def label_of(name: str) -> str:
    """ "power_budget_kw" → "power budget (kW)" (the words translatable, the unit from the suffix; the words
    are listed for lupdate in ``ui.vocabulary``)."""
    base, unit = name, ""
    for suffix, u in UNITS:
        if name.endswith(suffix) and len(name) > len(suffix):
            base, unit = name[: -len(suffix)], translate("units", u)
            break
    words = base.replace("_", " ")
    text = translate("fields", words)
    if text == words:  # no translation (the English UI): the English display form of the field's name
        text = ENGLISH_LABELS.get(base, words)
    return f"{text} ({unit})" if unit else text


_FIELD_REF = re.compile(r"(?:\b[a-z_]+ )?field '([a-z][a-z0-9_]*)'")
_FIELD_REF_ZH = re.compile(
    r"(?:[\u4e00-\u9fff]+的)?字段“([a-z][a-z0-9_]*)”"
)  # "机柜的字段“x”" (text/errors_model.py)


def plain_error(exc: BaseException) -> str:
    """An error's one line in the window's language (rendered now from its message id and values: an error
    keeps its English ``str`` for the CLI and the log), with field names as the UI labels them ("links field
    'b_group'" → "“port group B”"), so that a message names what the user sees, not the file's column."""
    return _plain(error_line(exc, current_language(), label=label_of))


def _plain(text: str) -> str:
    text = _FIELD_REF.sub(lambda m: "“" + label_of(m.group(1)) + "”", text)
    text = _FIELD_REF_ZH.sub(lambda m: "“" + label_of(m.group(1)) + "”", text)
    text = re.sub(r"(“[^”]+”)：\1", r"\1", text)  # "“x”：“x”应在 …" → "“x”应在 …"
    return re.sub(r"(“[^”]+”): \1 ", r"\1 ", text)  # "“x”: “x” must be …" → "“x” must be …"


def plain_line(line: str | Msg) -> str:
    """A refusal the engine keeps as data (a result's ``workload_error``, a workload entry's ``error``: an
    error's line as ``text.ErrorLine``, or English text when it was raised without a message id) in the
    window's language, field names as the UI labels them."""
    return _plain(shown(line, current_language(), label=label_of)) if line else ""


# English labels for fields whose name reads like code ("target pue", "type id"); the translations are keyed on
# the plain words (``ui.vocabulary``), so this table changes only what the English UI shows.
ENGLISH_LABELS = {
    "a_device": "device A",
    "b_device": "device B",
    "a_group": "port group A",
    "b_group": "port group B",
    "ambient_temp": "ambient temperature",
    "cable_id": "cable",
    "cooling_id": "cooling",
    "fabric_id": "fabric",
    "model_id": "model",
    "phase_id": "phase",
    "rack_id": "rack",
    "type_id": "model",
    "tp": "tensor parallel (TP)",
    "pp": "pipeline parallel (PP)",
    "dp": "data parallel (DP)",
    "cp": "context parallel (CP)",
    "ep": "expert parallel (EP)",
    "vpp": "virtual pipeline stages (VPP)",
    "ffn_hidden": "FFN hidden size",
    "hidden": "hidden size",
    "kv_heads": "KV heads",
    "kv_bytes": "KV-cache bytes per value",
    "kv_fraction": "KV-cache memory share",
    "max_seqs": "max sequences at once",
    "max_batched_tokens": "max tokens per engine step",
    "chunked_prefill": "prefill chunked into decode steps",
    "gemm_allreduce_fusion": "all-reduce fused into the GEMM",
    "top_k": "experts per token (top-k)",
    "seq_len": "sequence length (tokens)",
    "prompt_len": "prompt length (tokens)",
    "output_len": "output length (tokens)",
    "micro_batch": "micro batch (sequences)",
    "global_batch": "global batch (sequences)",
    "heads": "attention heads",
    "vocab": "vocabulary size",
    "placement_order": "rank placement order",
    # the workload's run settings and serving fields: their unit in the label, as the goal dialog's
    "stack": "software stack",
    "attention": "attention kernel",
    "sequence_parallel": "sequence parallelism",
    "optimizer_state": "optimizer state dtype",
    "param_gather_overlap": "parameter all-gather overlap",
    "balanced_pipeline": "balanced pipeline stages",
    "pipeline_layout": "pipeline stage layout",
    "users": "concurrent users",
    "requests_per_s": "request rate (requests/s)",
    "ttft_target_s": "time to first token target (s)",
    "ttft_percentile": "first-token target percentile",
    "tpot_target_s": "time per output token target (s)",
    "tpot_percentile": "per-token target percentile",
    "think_time_s": "think time (s)",
    "serving_mode": "serving mode (prefill/decode)",
    "infer_batch": "inference batch",
    "total_tokens": "training tokens",
    "tp_overlap": "TP communication overlap",
    "tp_comm_overlap": "TP comm overlap (userbuffers)",
    "pp_overlap": "PP send overlap",
    "dp_overlap": "DP gradient overlap",
    "ep_overlap": "EP all-to-all overlap",
    "grad_dtype": "gradient dtype",
    "zero3_regather_on_recompute": "ZeRO-3 regather on recompute",
    "zero3_nics_per_node": "ZeRO-3 NICs per node",
    "moe_dispatcher": "MoE dispatcher",
    "expert_tp": "experts split over TP",
    "fp8_params": "FP8 parameters",
    "recompute_norm_act": "recompute norm/activation",
    "mla_up_proj_recompute": "recompute MLA up-projections",
    "fp8_recipe": "FP8 recipe",
    "serving_stack": "serving stack (KV-cache rule)",
    "prompt_dataset": "prompt lengths as in",
    "zero_stage": "ZeRO stage",
    "measured_mfu": "measured MFU",
    "measured_busbw": "measured bus bandwidth",
    "gpu_guaranteed": "guaranteed GPUs",
    "gpu_burst": "burst GPUs",
    "largest_job_gpus": "largest job (GPUs)",
    "target_pue": "target PUE",
    "tco": "TCO period",
    "usd_exchange_rate": "units of the currency per US dollar",
    "utility": "utility feed available",
    "cloud": "cloud price",
    "colo": "colocation price",
    "build": "build cost",
    "staff_min": "minimum staff",
    "ups_runtime": "UPS runtime",
    "facility_model": "facility",
    "support_years_in_price": "support years in the price",
    "staff": "staff cost",
    "software": "software licences",
    "u_position": "U position",
    "logo_path": "logo file",
    "overrides_json": "overrides (JSON)",
    "params_json": "parameters (JSON)",
    "deadline_days": "deadline (days)",
    "ttft_s_max": "time to first token ≤ (s)",
    "tpot_s_max": "time per output token ≤ (s)",
    "facility_kw_max": "facility power ≤ (kW)",
    "rack_kw_max": "rack power ≤ (kW)",
    "racks_max": "racks ≤",
    "capex_usd_max": "capex budget ≤ (USD)",
    "tco_usd_max": "TCO budget ≤ (USD)",
    "oversubs": "oversubscriptions tried",
    "objective": "cost to minimise",
    "max_servers": "at most servers",
    "floor_x": "floor x",
    "floor_y": "floor y",
    "x": "canvas x",  # the position in the topology drawing, beside the floor x (m) of the floor plan
    "y": "canvas y",
}


def kv_fraction_tip() -> str:
    """What a KV-cache share is (the workload's and the goal's kv_fraction, estimate --kv-fraction)."""
    return translate(
        "fields",
        "The serving stack's KV-cache share as the deployment sets it (as estimate --kv-fraction): vLLM "
        "--gpu-memory-utilization, a share of the whole GPU's memory; TensorRT-LLM free_gpu_memory_fraction, a "
        "share of the memory the weights and workspace leave. The lowest value: the stack's default.",
    )


def max_seqs_tip() -> str:
    """What a cap on sequences at once is (the workload's and the goal's max_seqs, estimate --max-seqs)."""
    return translate(
        "fields",
        "The most sequences one replica runs at once, as the deployment caps it (as estimate --max-seqs): vLLM "
        "--max-num-seqs, TensorRT-LLM max_batch_size. The lowest value: the stack's default (vLLM 1024 on GPUs "
        "of 70 GiB or more, else 256; TensorRT-LLM uncapped).",
    )


def max_batched_tokens_tip() -> str:
    """What a token budget per engine step is (the workload's and the goal's max_batched_tokens, estimate
    --max-batched-tokens)."""
    return translate(
        "fields",
        "The most tokens one engine step carries, decode tokens plus prefill (chunk) tokens, as the deployment sets "
        "it (as estimate --max-batched-tokens): TensorRT-LLM max_num_tokens, vLLM --max-num-batched-tokens with "
        "chunked prefill on. The lowest value: the engine's default (8,192, vLLM V1's default on GPUs of 70 GiB or "
        "more).",
    )


def chunked_prefill_tip() -> str:
    """What chunked prefill is (the workload's and the goal's chunked_prefill, estimate --no-chunked-prefill)."""
    return translate(
        "fields",
        "Checked (the engine's default): prompts are chunked into the decode steps (vLLM V1, TensorRT-LLM chunked "
        "context). Unchecked: the engine runs whole prompts in their own prefill-only steps while the running "
        "decodes wait (vLLM V0 with enable_chunked_prefill False; as estimate --no-chunked-prefill).",
    )


def gemm_allreduce_fusion_tip() -> str:
    """What the fused GEMM + all-reduce is (the workload's and the goal's gemm_allreduce_fusion, estimate
    --gemm-allreduce-fusion)."""
    return translate(
        "fields",
        "Checked: each tensor-parallel all-reduce runs fused into the GEMM before it, overlapping the GEMM's "
        "compute, as the deployment builds it (TensorRT-LLM gemm_allreduce_plugin; as estimate "
        "--gemm-allreduce-fusion). Unchecked (the engine's default): a separate all-reduce after the GEMM.",
    )
