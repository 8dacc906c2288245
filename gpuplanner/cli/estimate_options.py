"""The options of `gpuplanner estimate`: the model's shape, the cluster, the layout, the run settings and the
serving options (cli/serving_out.py). Split from cli/estimate_cmd.py, which runs the command and prints it."""

from __future__ import annotations

import argparse

from gpuplanner.cli.common import MAX_COUNT, MAX_GPUS, add_lang_argument, float_in, int_in


def add_estimate_arguments(p: argparse.ArgumentParser) -> None:
    add_shape_options(p)
    p.add_argument("--gpu", help="GPU catalog id")
    p.add_argument("--gpus", type=int_in(1, MAX_GPUS), help="number of GPUs")
    p.add_argument("--server", help="server catalog id (GPUs per node and NICs)")
    p.add_argument("--gpus-per-node", type=int_in(1, 1024))
    p.add_argument("--nic-gbps", type=float_in(0, 12_800, lo_open=True), help="speed of one compute NIC")
    p.add_argument("--nics-per-node", type=int_in(1, 1024))
    p.add_argument(
        "--scaleup-gbyte-per-s",
        type=float_in(0, 100_000, lo_open=True),
        help="scale-up (NVLink) bandwidth per GPU, both directions (default: the GPU's datasheet; H800: 400)",
    )
    p.add_argument(
        "--oversub", type=float_in(1, 64), default=1.0, help="fabric oversubscription for inter-node traffic"
    )
    p.add_argument(
        "--switch-latency-ns",
        type=float_in(0, 100_000),
        help="port-to-port latency of one fabric switch (default 130 ns; a drawn fabric uses its catalog figure)",
    )
    p.add_argument(
        "--sharp",
        action="store_true",
        default=None,
        help="the fabric's switches reduce all-reduces in the network (InfiniBand SHARP with NCCL's plugin)",
    )
    p.add_argument("--fabric", help="a project file: use its GPUs and its drawn fabric")
    for name in ("tp", "pp", "dp", "cp", "ep"):
        p.add_argument(
            f"--{name}",
            type=int_in(1, MAX_GPUS),
            help="searched when tp/pp are not given" if name != "dp" else None,
        )
    p.add_argument("--vpp", type=int_in(1, 1024), help="interleave depth (virtual pipeline stages per rank)")
    p.add_argument("--micro-batch", type=int_in(1, MAX_COUNT), help="sequences per micro-batch")
    p.add_argument("--global-batch", type=int_in(1, 100 * MAX_COUNT), default=1024, help="sequences per step")
    add_settings_options(p)
    p.add_argument(
        "--tokens", type=float_in(0, 1e18), default=0.0, help="training tokens (for time-to-train)"
    )
    p.add_argument(
        "--measured-mfu", type=float_in(0, 1, lo_open=True), help="calibration: a measured MFU (0–1)"
    )
    p.add_argument(
        "--measured-busbw",
        type=float_in(0, 100_000, lo_open=True),
        help="calibration: measured nccl-tests all-reduce bus bandwidth, GB/s",
    )
    p.add_argument("--top", type=int_in(1, 1000), default=5, help="layouts shown by a search")
    p.add_argument("--inference", action="store_true")
    p.add_argument("--batch", type=int_in(1, MAX_COUNT), default=32)
    p.add_argument("--prompt", type=int_in(1, 10 * MAX_COUNT), default=2048)
    p.add_argument("--output", type=int_in(1, 10 * MAX_COUNT), default=512)
    p.add_argument(
        "--kv-bytes", type=int_in(1, 8), help="KV cache bytes per value (default: 1 with fp8 or fp4, else 2)"
    )
    p.add_argument("--json", action="store_true")
    add_lang_argument(p)
    from gpuplanner.cli.serving_out import add_arguments

    add_arguments(p)


def add_shape_options(p: argparse.ArgumentParser) -> None:
    p.add_argument("--model", help="model catalog id (see `catalog list model`)")
    for name in ("layers", "hidden", "heads", "kv-heads", "ffn"):
        p.add_argument(f"--{name}", type=int_in(1, MAX_COUNT))
    p.add_argument(
        "--head-dim",
        type=int_in(1, MAX_COUNT),
        help="width of one attention head when heads × head-dim ≠ hidden (Qwen3, GPT-OSS; default hidden / heads)",
    )
    p.add_argument(
        "--mtp-layers",
        type=int_in(0, 16),
        help="multi-token-prediction modules trained with a catalog model (DeepSeek-V3: 1; 0 for a run without MTP)",
    )
    p.add_argument(
        "--vocab",
        type=int_in(1, 10 * MAX_COUNT),
        default=None,
        help="vocabulary (default 51200 for a shape given by numbers)",
    )
    p.add_argument("--seq", type=int_in(1, 10 * MAX_COUNT), help="sequence length")
    p.add_argument("--tied-embeddings", action=argparse.BooleanOptionalAction, default=None)
    p.add_argument(
        "--dropout", action=argparse.BooleanOptionalAction, default=None, help="the model trains with dropout"
    )
    p.add_argument(
        "--gated-mlp", action=argparse.BooleanOptionalAction, default=None, help="SwiGLU/GeGLU MLP"
    )


def add_settings_options(p: argparse.ArgumentParser) -> None:
    """Run settings: unstated ones (None) take the --stack's value, then the Megatron-Core-like default."""
    from argparse import BooleanOptionalAction as Bool

    p.add_argument(
        "--stack",
        help="software generation whose defaults to use: megatron-2021, megatron-core-2024, nemo-2024, nemo-2025, "
        "deepspeed-zero3, torchtitan-fsdp2, llm-foundry-2023, llama3-meta-2024, megatron-2022 (catalogs/assumptions/stacks.yaml)",
    )
    p.add_argument(
        "--precision",
        choices=["bf16", "fp16", "fp8", "fp4"],
        help="fp4: NVFP4 weights and activations, --inference only, on GPUs with FP4 tensor cores (Blackwell)",
    )
    p.add_argument(
        "--attention",
        choices=["flash", "unfused", "triton"],
        help="attention kernel: FlashAttention-2 class, unfused, or the 2023 FlashAttention in Triton",
    )
    p.add_argument("--sequence-parallel", "--sp", dest="sequence_parallel", action=Bool, default=None)
    p.add_argument("--recompute", choices=["none", "selective", "full"])
    p.add_argument("--zero", dest="zero_stage", type=int, choices=[0, 1, 2, 3], help="ZeRO / FSDP stage")
    p.add_argument("--grad-reduce-overlap", dest="dp_overlap", action=Bool, default=None)
    p.add_argument("--param-gather-overlap", action=Bool, default=None)
    p.add_argument(
        "--tp-overlap",
        action=Bool,
        default=None,
        help="backward TP all-reduce under the weight-gradient GEMM",
    )
    p.add_argument(
        "--tp-comm-overlap",
        action=Bool,
        default=None,
        help="TP communication pipelined with the GEMMs (Transformer Engine userbuffers, NeMo's FP8 recipes)",
    )
    p.add_argument(
        "--pp-overlap", action=Bool, default=None, help="interleaved pipeline sends overlap compute"
    )
    p.add_argument(
        "--blocking-pp-sends", action="store_true", help="same as --no-pp-overlap (Megatron 2021–2022 runs)"
    )
    p.add_argument(
        "--ep-overlap", action=Bool, default=None, help="expert all-to-all overlapped (DualPipe/DeepEP)"
    )
    p.add_argument(
        "--mla-up-proj-recompute",
        action=Bool,
        default=None,
        help="recompute the MLA Q/K/V up projections in the backward (Megatron-Core recompute module mla_up_proj)",
    )
    p.add_argument(
        "--pipeline-layout",
        default=None,
        help="Megatron-Core pipeline_model_parallel_layout, e.g. 'Et|(tt|)*30mL' (E embedding, t layer, m MTP, L head)",
    )
    p.add_argument(
        "--grad-dtype",
        choices=["fp32", "bf16", "fp16"],
        help="gradient buffer type (default: fp32 main grads as Megatron-LM; bf16 as NeMo's FP8 recipes)",
    )
    p.add_argument(
        "--balanced-pipeline",
        action=Bool,
        default=None,
        help="embedding and loss each take a layer's slot in the pipeline split (Llama 3)",
    )
    p.add_argument("--zero3-regather", dest="zero3_regather_on_recompute", action=Bool, default=None)
    p.add_argument("--zero3-nics-per-node", dest="zero3_nics_per_node", type=int, choices=[0, 1, 2, 4, 8])
    p.add_argument(
        "--optimizer",
        choices=["fused", "unfused"],
        help="Adam as one fused kernel (Megatron, DeepSpeed) or per-tensor passes (torch foreach, Composer)",
    )
    p.add_argument(
        "--optimizer-state",
        choices=["fp32", "fp32-remainder", "bf16", "fp32-bf16-moments"],
        help="Adam state per parameter: fp32 master + moments (12 B, default); fp32-remainder: the master as 16 "
        "remainder bits beside the bf16 weight (10 B, NeMo distributed_fused_adam); bf16: bf16 moments, no "
        "master copy (4 B, NeMo optim dtype bf16); fp32-bf16-moments: fp32 master, bf16 moments (8 B, "
        "Megatron-Core use_precision_aware_optimizer)",
    )
    p.add_argument(
        "--moe-dispatcher",
        choices=["alltoall", "deepep"],
        help="MoE token dispatch: one message per expert copy (all-to-all, default) or once per destination "
        "node with NVLink fan-out (DeepEP/HybridEP), where node-limited routing caps the network bytes",
    )
    p.add_argument(
        "--expert-tp",
        action=Bool,
        default=None,
        help="experts split over the TP ranks (default, Megatron etp = tp); --no-expert-tp: etp 1 "
        "(MoE parallel folding, as Megatron-Bridge's MoE recipes)",
    )
    p.add_argument(
        "--fp8-params",
        action=Bool,
        default=None,
        help="FP8 primary weights with --precision fp8 (Megatron --fp8-param-gather): 1-byte GEMM weights, "
        "gathered in 1 byte by the distributed optimizer",
    )
    p.add_argument(
        "--recompute-norm-act",
        action=Bool,
        default=None,
        help="recompute the MoE layer's pre-MLP norm and the experts' activation in the backward "
        "(Megatron-Core recompute_modules layernorm, moe_act; Megatron-Bridge's MoE recipes)",
    )
    p.add_argument(
        "--fp8-recipe",
        choices=["delayed", "current", "mxfp8"],
        help="FP8 scaling with --precision fp8 (Transformer Engine): delayed (amax history, casts fused), "
        "current (per-tensor amax of this step: an extra pass over every cast tensor), mxfp8 (Blackwell "
        "1x32 blocks, both orientations quantized)",
    )
