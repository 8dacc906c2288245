"""What `gpuplanner validate` and `validate --inference` print as text (cli/validate_cmd.py,
cli/validate_inference_out.py, cli/validate_print.py): the tables' headers, the headings, the summary lines.
The sentences of `validate --inference` that its data file and the bands share are in validation_inference.py
(``perf.valinf_*``)."""

# id: (English, Chinese)
VALIDATE: dict[str, tuple[str, str]] = {
    # -- column headers and cell words ------------------------------------------------------------------
    "col.run": ("run", "编号"),
    "col.source": ("source", "来源"),
    "col.gpus": ("GPUs", "GPU"),
    "col.metric": ("metric", "指标"),
    "col.measured": ("measured", "实测"),
    "col.predicted": ("predicted", "预测"),
    "col.error": ("error", "误差"),
    "col.refused": ("refused", "拒绝估算"),
    "col.family": ("family", "系列"),
    "col.runs": ("runs", "运行数"),
    "col.rows": ("rows", "行数"),
    "col.refused_count": ("refused", "拒绝数"),
    "col.mean_abs_error": ("mean |error|", "平均 |误差|"),
    "col.worst_abs_error": ("worst |error|", "最大 |误差|"),
    "col.mean_error": ("mean error", "平均误差"),
    "col.group": ("group", "通信组"),
    "col.size": ("size", "消息大小"),
    "col.measured_us": ("measured µs", "实测（微秒）"),
    "col.predicted_us": ("predicted µs", "预测（微秒）"),
    "col.expert_gemm_us": ("expert GEMM µs", "专家 GEMM（微秒）"),
    "col.gpu_time_bound": ("GPU-time bound", "GPU 时间上限"),
    "col.bound_holds": ("bound holds", "上限成立"),
    "col.bound_fails": ("NO", "否"),
    "col.system": ("system", "系统"),
    "col.model_scenario": ("model / scenario", "模型 / 场景"),
    "col.settings": ("settings", "设置"),
    "col.measured_tokens": ("measured tok/s", "实测 tok/s"),
    "col.band_group": ("band group", "误差带分组"),
    "col.band_low": ("measured/predicted low", "实测/预测 下限"),
    "col.band_high": ("high", "上限"),
    "col.model": ("model", "模型"),
    "col.gpu": ("GPU", "GPU"),
    "col.tp": ("TP", "TP"),
    "col.concurrency": ("conc.", "并发"),
    "col.isl_osl": ("ISL/OSL", "ISL/OSL"),
    "col.precision": ("prec", "精度"),
    "col.peer_prefill": ("one prefill aic / ours ms", "单次预填充 aic / 本工具（毫秒）"),
    "col.peer_tpot": ("TPOT aic / ours ms", "TPOT aic / 本工具（毫秒）"),
    "col.peer_tokens": ("tok/s/GPU aic / ours", "每GPU tok/s aic / 本工具"),
    "col.list_separator": (", ", "、"),
    # -- training runs ----------------------------------------------------------------------------------
    "perf.val.all_runs": ("all runs", "全部训练运行"),
    "perf.val.all_rows": ("all rows", "全部推理结果"),
    "perf.val.collectives": (
        "small collectives between nodes (latency-bound; nccl-tests all-reduce, not in the error bands):",
        "节点间的小消息集合通信（受延迟限制；nccl-tests all-reduce 实测，不计入误差区间）：",
    ),
    "perf.val.ranks_on_nodes": ("{ranks} ranks on {nodes} nodes", "{nodes} 个节点共 {ranks} 个 rank"),
    "perf.val.host_paced": (
        "host-paced fine-grained MoE (one expert's GEMM under launch_sensitive_kernel_s, decided from the "
        "prediction; not counted above: the GPU-time throughput is an upper bound, checked as one):",
        "受主机节奏限制的细粒度 MoE（单个专家的 GEMM 短于 launch_sensitive_kernel_s，依据预测判定；不计入上表："
        "按 GPU 时间算出的吞吐只是上限，按上限检验）：",
    ),
    "perf.val.host_paced_summary": (
        "host-paced: {runs} runs, bound holds for {holds}, over-prediction mean {mean}, largest {worst}; "
        "expert GEMM {lo:.0f}–{hi:.0f} µs",
        "受主机节奏限制：{runs} 个运行，上限成立 {holds} 个，平均高估 {mean}，最大高估 {worst}；"
        "专家 GEMM {lo:.0f}–{hi:.0f} 微秒",
    ),
    "perf.val.excluded_error": (" (error {error})", "（误差 {error}）"),
    "perf.val.excluded_line": ("  {run}{error}: {reason}", "  {run}{error}：{reason}"),
    "perf.val.footer": (
        "error = predicted/measured − 1 in throughput ({metrics}; a step time is inverted). Sources: "
        "`gpuplanner validate --json`. Error bands of `estimate`: measured/predicted range per group (GPU "
        "generation, dense/MoE, scale), leave-one-out coverage {coverage:.0%} of {runs} runs{host_paced}.",
        "误差 = 预测/实测 − 1，按吞吐计（{metrics}；单步时间取倒数）。出处见 `gpuplanner validate --json`。"
        "`estimate` 的误差区间：按组（GPU 代次、稠密/MoE、规模）取实测/预测之比的范围，留一法覆盖率 "
        "{coverage:.0%}，共 {runs} 个运行{host_paced}。",
    ),
    "perf.val.footer_host_paced": (
        "; host-paced runs: their own band {low:.2f}–{high:.2f} over {runs} runs, leave-one-out coverage "
        "{coverage:.0%}",
        "；受主机节奏限制的运行单独成带：{low:.2f}–{high:.2f}，共 {runs} 个运行，留一法覆盖率 {coverage:.0%}",
    ),
    # -- inference rows -----------------------------------------------------------------------------------
    "perf.valinf.settings": (
        "{precision} (KV {kv}), in {prompt} / out {output}",
        "{precision}（KV {kv}），输入 {prompt} / 输出 {output}",
    ),
    "perf.valinf.targets": (
        ", {percentile}TTFT≤{ttft:g} s TPOT≤{tpot_ms:g} ms",
        "，{percentile}TTFT≤{ttft:g} 秒 TPOT≤{tpot_ms:g} 毫秒",
    ),
    "perf.valinf.excluded_line": ("  {cite}, {family}: {reason}", "  {cite}，{family}：{reason}"),
}
