"""What `gpuplanner estimate` prints as text (cli/estimate_cmd.py, cli/serving_out.py for ``--inference``):
the layout, step time, throughput and MFU with their error ranges, memory, time to train, the step's parts,
the next layouts; the static batch and the serving plan. ``col.*``: column headers and short cell words."""

# id: (English, Chinese)
ESTIMATE: dict[str, tuple[str, str]] = {
    # -- training ---------------------------------------------------------------------------------------
    "perf.est.stack": ("stack {stack} set: {settings}", "软件栈 {stack} 设定了：{settings}"),
    "perf.est.stack_nothing": ("nothing (all stated)", "无（均已显式指定）"),
    "perf.est.searched": (
        "searched: tp, pp, cp, interleave depth, micro-batch and recompute (best by tokens/s that fits)",
        "已搜索 TP、PP、CP、交错深度、微批次与重计算（取显存放得下且 tokens/s 最高的布局）",
    ),
    "perf.est.layout": (
        "{gpu} × {gpus}: TP{tp} PP{pp} DP{dp} CP{cp} EP{ep} VPP{vpp} micro-batch {mb}, recompute "
        "{recompute@recompute}{norm}, {precision}, {attention@attention} attention, SP {sp@on_off}, ZeRO {zero}",
        "{gpu} × {gpus}：TP{tp} PP{pp} DP{dp} CP{cp} EP{ep} VPP{vpp}，微批次 {mb}，{recompute@recompute}"
        "{norm}，{precision}，注意力内核 {attention@attention}，序列并行 {sp@on_off}，ZeRO {zero}",
    ),
    "perf.est.norm_act": (" + norm/activation", "，另重计算归一化与激活"),
    "perf.est.step": (
        "step {step:.3f} s{step_range}, {tps:,.0f} tokens/s{tps_range}, {tflops:.0f} TFLOP/s per GPU, "
        "MFU {mfu:.1f}% of the {peak} peak{mfu_range}",
        "训练步时间 {step:.3f} 秒{step_range}，吞吐 {tps:,.0f} tokens/s{tps_range}，每 GPU {tflops:.0f} TFLOP/s，"
        "模型FLOPs利用率（MFU）{mfu:.1f}%{mfu_range}，以 {peak} 峰值计",
    ),
    "perf.est.range": (" ({lo}–{hi})", "（{lo}–{hi}）"),
    "perf.est.range_s": (" ({lo}–{hi} s)", "（{lo}–{hi} 秒）"),
    "perf.est.range_pct": (" ({lo}–{hi}%)", "（{lo}–{hi}%）"),
    "perf.est.ranges": ("ranges: {explanation}", "误差区间：{explanation}"),
    "perf.est.memory_fits": (
        "memory {total:.1f} GB/GPU of {usable:.1f} usable (fits)",
        "显存 {total:.1f} GB/GPU，可用 {usable:.1f} GB（放得下）",
    ),
    "perf.est.memory_no_fit": (
        "memory {total:.1f} GB/GPU of {usable:.1f} usable (does NOT fit)",
        "显存 {total:.1f} GB/GPU，可用 {usable:.1f} GB（放不下）",
    ),
    "perf.est.time_to_train": (
        "time to train: {real:.1f} days with interruptions{real_range}, {ideal:.1f} days without "
        "(goodput {goodput:.0f}%: {why})",
        "训练时长：计入中断 {real:.1f} 天{real_range}，不计中断 {ideal:.1f} 天（有效训练时间占比 goodput "
        "{goodput:.0f}%：{why}）",
    ),
    "perf.est.bottleneck": ("bottleneck: {sentence}", "瓶颈：{sentence}"),
    "perf.est.next_best": ("next best layouts:", "其余较优的并行布局："),
    "col.layout_row": (
        "TP{tp} PP{pp} DP{dp} CP{cp} VPP{vpp} mb{mb} {recompute@recompute}",
        "TP{tp} PP{pp} DP{dp} CP{cp} VPP{vpp} mb{mb} {recompute@recompute}",
    ),
    "col.term": ("term", "时间项"),
    "col.step_part": ("part of the step", "训练步环节"),
    "col.seconds": ("seconds", "秒"),
    "col.layout": ("layout", "并行布局"),
    "col.tokens_per_s": ("tokens/s", "tokens/s"),
    "col.mfu": ("MFU", "MFU"),
    # -- inference: the static batch ------------------------------------------------------------------
    "perf.inf.static": (
        "static batch of {batch} ({precision}, TP{tp}):",
        "静态批次 {batch} 条请求（{precision}，TP{tp}）：",
    ),
    "perf.inf.static_searched": (
        "static batch of {batch} ({precision}, TP{tp}, the smallest tensor-parallel size that holds it):",
        "静态批次 {batch} 条请求（{precision}，TP{tp}，能放下它的最小张量并行规模）：",
    ),
    "perf.inf.static_none": (
        "static batch of {batch} ({precision}): no tensor-parallel size up to TP{tp} holds it; at TP{tp}:",
        "静态批次 {batch} 条请求（{precision}）：张量并行规模直到 TP{tp} 都放不下；TP{tp} 时：",
    ),
    "perf.inf.decode_tokens_per_s": ("decode tokens/s, one replica", "单副本解码吞吐（tokens/s）"),
    "perf.inf.decode_step_s": ("decode step", "解码步时间"),
    "perf.inf.ttft_s": ("time to first token (TTFT)", "首token延迟（TTFT）"),
    "perf.inf.cluster_tokens_per_s": ("decode tokens/s, all replicas", "全部副本解码吞吐（tokens/s）"),
    "perf.inf.replicas": ("replicas", "副本数"),
    "perf.inf.memory": ("memory per GPU", "每 GPU 显存"),
    "perf.inf.memory_value": (
        "weights {weights:.1f} GB + KV cache {kv:.1f} GB + workspace {workspace:.1f} GB = {total:.1f} GB of "
        "{usable:.1f} GB usable",
        "权重 {weights:.1f} GB + KV 缓存 {kv:.1f} GB + 工作区 {workspace:.1f} GB = {total:.1f} GB，可用 "
        "{usable:.1f} GB",
    ),
    "perf.inf.fits": ("fits in memory", "显存是否放得下"),
    "perf.inf.bound": ("bound by", "受限于"),
    "perf.inf.refusal": ("why it does not fit", "放不下的原因"),
    "perf.inf.seconds": ("{s:.3f} s", "{s:.3f} 秒"),
    "perf.inf.ms": ("{ms:.2f} ms", "{ms:.2f} 毫秒"),
    "col.yes": ("yes", "是"),
    "col.no": ("no", "否"),
    # -- inference: the serving plan -------------------------------------------------------------------
    "perf.srv.settings": (
        "serving stack: {stack@serving_stack}",
        "推理软件栈：{stack@serving_stack}",
    ),
    "perf.srv.settings_dataset": (
        "serving stack: {stack@serving_stack}; prompt lengths as in {dataset} (mean {mean:,.1f} tokens)",
        "推理软件栈：{stack@serving_stack}；提示词长度分布同 {dataset}（均值 {mean:,.1f} 个 token）",
    ),
    # a stated KV-cache share (estimate --kv-fraction, a workload's kv_fraction), after the settings above
    "perf.srv.kv_fraction": ("; KV-cache share {share:g}", "；KV 缓存显存占比 {share:g}"),
    # a stated cap on sequences at once (estimate --max-seqs, a workload's max_seqs), after the KV-cache share
    "perf.srv.max_seqs": (
        "; at most {n:,} sequences at once per replica",
        "；每个副本最多同时运行 {n:,} 个序列",
    ),
    # a stated token budget per engine step (estimate --max-batched-tokens), after the cap on sequences
    "perf.srv.max_batched_tokens": (
        "; at most {n:,} tokens per engine step (decode plus prefill)",
        "；每个引擎步最多 {n:,} 个 token（解码与预填充合计）",
    ),
    # estimate --no-chunked-prefill, after the token budget
    "perf.srv.unchunked": (
        "; prefill not chunked (whole prompts in their own steps, the decodes wait)",
        "；不分块预填充（整段提示词单独成步，解码等待）",
    ),
    # a stated fused GEMM + all-reduce (estimate --gemm-allreduce-fusion), after the token budget
    "perf.srv.gemm_allreduce_fusion": (
        "; each tensor-parallel all-reduce fused into the GEMM before it",
        "；张量并行的每次全归约与其前面的 GEMM 融合执行",
    ),
    "perf.srv.no_fit": ("serving: does not fit — {why}", "推理服务：显存放不下 — {why}"),
    "perf.srv.capacity": (
        "serving ({mode@serving_mode}): capacity of {gpus} GPUs — {layout}",
        "推理服务（{mode@serving_mode}）：{gpus} 块 GPU 的服务能力 — {layout}",
    ),
    "perf.srv.needed": (
        "serving ({mode@serving_mode}): GPUs needed {gpus} GPUs — {layout}",
        "推理服务（{mode@serving_mode}）：需要 {gpus} 块 GPU — {layout}",
    ),
    "perf.srv.replicas": (
        "{replicas} {replicas|replica|replicas} of TP{tp}{pp}",
        "{replicas} 个 TP{tp}{pp} 副本",
    ),
    "perf.srv.workers": (
        "{prefill} prefill {prefill|worker|workers} of TP{prefill_tp} + {decode} decode {decode|worker|workers} of "
        "TP{decode_tp}, "
        "KV transfer {kv_ms:.1f} ms",
        "{prefill} 个 TP{prefill_tp} 预填充实例 + {decode} 个 TP{decode_tp} 解码实例，KV 传输 {kv_ms:.1f} 毫秒",
    ),
    "perf.srv.rate": (
        "up to {rate:,.2f} requests/s, {users:,.0f} concurrent users (limited by {why@serving_limit})",
        "最高 {rate:,.2f} 请求/秒，{users:,.0f} 个并发用户（受限于 {why@serving_limit}）",
    ),
    "perf.srv.at_load": (
        "at that load: TTFT {ttft:.3f} s, TPOT {tpot_ms:.1f} ms ({per_user:,.1f} tokens/s per user), "
        "{output:,.0f} output tokens/s in all, decode batch {batch:,.0f} per replica",
        "该负载下：首token延迟（TTFT）{ttft:.3f} 秒，每输出token时间（TPOT）{tpot_ms:.1f} 毫秒（每用户 "
        "{per_user:,.1f} tokens/s），总输出 {output:,.0f} tokens/s，每副本解码批大小 {batch:,.0f}",
    ),
    "perf.srv.range": (
        "output tokens/s range {lo:,.0f}–{hi:,.0f}: {explanation}",
        "输出 tokens/s 区间 {lo:,.0f}–{hi:,.0f}：{explanation}",
    ),
    # -- refusals of the command line ------------------------------------------------------------------
    "error.kv_bytes": (
        "--kv-bytes must be 1 (fp8) or 2 (bf16/fp16)",
        "--kv-bytes 必须为 1（fp8）或 2（bf16/fp16）",
    ),
    "error.serving_tp_heads": (
        "--tp {tp} does not split {heads} attention heads / {kv} KV heads evenly",
        "--tp {tp} 无法均分 {heads} 个注意力头 / {kv} 个 KV 头",
    ),
}
