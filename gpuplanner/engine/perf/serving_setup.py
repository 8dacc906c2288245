"""What is served (ServingSetup: prompt and output lengths, precisions, targets and the settings a deployment
states), checked when it is made, and the serving constants (precisions' bytes, stacks, modes). The cost of
serving it is serving_worker.py's; serving.py re-exports both.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from gpuplanner import text
from gpuplanner.core.errors import ValidationError
from gpuplanner.engine.perf.assumptions import Assumptions, load_assumptions
from gpuplanner.engine.perf.serving_prompts import PromptLengths, check_mean

GB = 1e9
# bytes per weight (and per KV value). fp4 is NVFP4: 4-bit E2M1 values, one FP8 (E4M3) scale per 16-element block
# and one FP32 scale per tensor (NVIDIA, "Introducing NVFP4 for Efficient and Accurate Low-Precision Inference",
# NVIDIA Technical Blog, 2025-06; TensorRT Model Optimizer NVFP4_DEFAULT_CFG: block_sizes {-1: 16, scale_bits
# (4, 3)}): 0.5 + 1/16 bytes per parameter, the per-tensor scale (4 bytes per weight matrix) left out. On a GPU
# whose FP4 is MXFP4 (AMD CDNA 4: one E8M0 scale per 32) a worker takes 0.5 + 1/32 (weight_bytes)
PRECISION_BYTES = {"bf16": 2.0, "fp16": 2.0, "fp8": 1.0, "fp4": 0.5 + 1.0 / 16.0}
# what the KV cache may be held in (an NVFP4 KV cache is not modelled)
KV_PRECISIONS = ("bf16", "fp16", "fp8")
MODES = ("aggregated", "disaggregated", "best")
# how the serving stack sizes its KV cache (serving.yaml): vllm — a fraction of the device's memory holds the
# weights, the workspace and the KV cache (--gpu-memory-utilization); trtllm — the KV cache takes a fraction of
# the memory still free once the weights and the workspace are in (KvCacheConfig.free_gpu_memory_fraction)
SERVING_STACKS = ("vllm", "trtllm")


def serving_assumptions() -> Assumptions:
    from gpuplanner.catalog.loader import bundled_catalog_dir

    return load_assumptions(bundled_catalog_dir() / "assumptions" / "serving.yaml")


@dataclass(frozen=True)
class ServingSetup:
    """What is served and the service targets. `kv_precision` None = the weights' precision."""

    prompt_len: int
    output_len: int
    precision: str = "bf16"
    kv_precision: str | None = None
    ttft_s: float | None = None
    tpot_s: float | None = None
    think_time_s: float = 0.0
    # the most tokens one engine step carries, decode tokens plus prefill (chunk) tokens, as a deployment sets it
    # (TensorRT-LLM max_num_tokens, vLLM --max-num-batched-tokens); None = the engine default (serving.yaml)
    max_batched_tokens: int | None = None
    # the TTFT / TPOT targets hold at these percentiles of requests (MLPerf: 99); None = in the mean
    ttft_percentile: float | None = None
    tpot_percentile: float | None = None
    # the prompt lengths requests draw from (a dataset's histogram, mean = prompt_len); None = every prompt
    # is prompt_len. Used for the TTFT: own prefill of each length and the M/G/1 wait (serving_prompts.py)
    prompt_dist: PromptLengths | None = None
    # the serving stack whose KV-cache sizing rule applies (SERVING_STACKS)
    serving_stack: str = "vllm"
    # the share of that rule as a deployment set it (vllm: --gpu-memory-utilization; trtllm:
    # free_gpu_memory_fraction), in (0, 1]; None = the stack's default (serving.yaml)
    kv_fraction: float | None = None
    # the most sequences one replica (or decode worker) runs at once, as a deployment caps it (vLLM
    # --max-num-seqs, TensorRT-LLM max_batch_size, an MLPerf config's gpu_batch_size); None = the stack's
    # default (serving.yaml: vLLM's by GPU memory; TensorRT-LLM's is not sourced, so uncapped)
    max_seqs: int | None = None
    # whether the engine chunks prompts into steps beside the decodes (vLLM V1, TensorRT-LLM chunked context; the
    # default) or runs whole prompts in prefill-only steps while the decodes wait (vLLM V0 with
    # enable_chunked_prefill False: serving_unchunked.py)
    chunked_prefill: bool = True
    # the deployment fuses each TP all-reduce into the GEMM before it (TensorRT-LLM trtllm-build
    # --gemm_allreduce_plugin: the row-parallel GEMM reduces its output tiles through NVLink SHARP multicast memory
    # while it computes the next ones); False = a separate all-reduce after the GEMM
    gemm_allreduce_fusion: bool = False

    def __post_init__(self) -> None:
        if self.serving_stack not in SERVING_STACKS:
            raise ValidationError(
                text.Msg(
                    "error.unknown_setting_value", {"name": "serving_stack", "value": self.serving_stack}
                ),
                field="serving_stack",
                value=self.serving_stack,
                hint=text.Msg("error.serving_stack.hint", {"known": ", ".join(SERVING_STACKS)}),
            )
        for name in ("prompt_len", "output_len"):
            if getattr(self, name) < 1:
                raise ValidationError(
                    text.Msg("error.at_least_one", {"name": name}), field=name, value=getattr(self, name)
                )
        for name in ("precision", "kv_precision"):
            v = getattr(self, name)
            if v is not None and v not in (PRECISION_BYTES if name == "precision" else KV_PRECISIONS):
                raise ValidationError(
                    text.Msg("error.unknown_setting_value", {"name": name, "value": v}),
                    field=name,
                    value=v,
                    hint=text.Msg("error.serving_precision.hint"),
                )
        for name in ("ttft_s", "tpot_s"):
            v = getattr(self, name)
            if v is not None and not v > 0:
                raise ValidationError(text.Msg("error.positive", {"name": name}), field=name, value=v)
        for name in ("ttft_percentile", "tpot_percentile"):
            v = getattr(self, name)
            if v is not None and not 0 < v < 100:
                raise ValidationError(text.Msg("error.percentile", {"name": name}), field=name, value=v)
        if self.kv_fraction is not None and not 0.0 < self.kv_fraction <= 1.0:
            raise ValidationError(
                text.Msg("error.kv_fraction", {"value": self.kv_fraction}),
                field="kv_fraction",
                value=self.kv_fraction,
            )
        for name, msg_id in (
            ("max_seqs", "error.max_seqs"),
            ("max_batched_tokens", "error.max_batched_tokens"),
        ):
            v = getattr(self, name)  # a count a deployment states: a whole number >= 1, or None (the default)
            if v is not None and (isinstance(v, bool) or not isinstance(v, int) or v < 1):
                raise ValidationError(text.Msg(msg_id, {"value": v}), field=name, value=v)
        for name in ("chunked_prefill", "gemm_allreduce_fusion"):
            v = getattr(self, name)  # a yes/no a deployment states
            if not isinstance(v, bool):
                raise ValidationError(text.Msg(f"error.{name}", {"value": v}), field=name, value=v)
        if not self.chunked_prefill and self.max_batched_tokens is not None:
            longest = max(self.prompt_dist.lengths) if self.prompt_dist is not None else self.prompt_len
            if self.max_batched_tokens < longest:  # vLLM never schedules a prompt above the budget unchunked
                raise ValidationError(
                    text.Msg("error.unchunked_budget", {"value": self.max_batched_tokens, "prompt": longest}),
                    field="max_batched_tokens",
                    value=self.max_batched_tokens,
                )
        if self.think_time_s < 0:
            raise ValidationError(text.Msg("error.think_time_negative"), field="think_time_s")
        if self.prompt_dist is not None:
            check_mean(self.prompt_dist, self.prompt_len)

    def stated(self) -> dict[str, Any]:
        """The deployment settings this setup states, as estimate's JSON names them (and analyze's and the
        advisor's): a count or share when set, a yes/no when not the default; the defaults are left out."""
        out: dict[str, Any] = {
            name: getattr(self, name)
            for name in ("kv_fraction", "max_seqs", "max_batched_tokens")
            if getattr(self, name) is not None
        }
        if not self.chunked_prefill:  # --no-chunked-prefill
            out["chunked_prefill"] = False
        if self.gemm_allreduce_fusion:  # --gemm-allreduce-fusion
            out["gemm_allreduce_fusion"] = True
        return out

    @property
    def weight_bytes(self) -> float:
        return PRECISION_BYTES[self.precision]

    @property
    def kv_bytes(self) -> float:
        """The KV cache's bytes per value: its stated precision, else the weights' (FP4 weights: bf16)."""
        kv = self.kv_precision or ("bf16" if self.precision == "fp4" else self.precision)
        return PRECISION_BYTES[kv]
