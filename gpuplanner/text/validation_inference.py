"""Sentences of `gpuplanner validate --inference`: why a published inference row is not counted, the errors of
its data file, the explanation of the inference error bands, and the command's headings."""

# id: (English, Chinese)
VALIDATION_INFERENCE: dict[str, tuple[str, str]] = {
    "perf.valinf_excluded.isl_unknown": (
        "the mean input length of the benchmark's dataset could not be found in a primary source, and the "
        "predicted throughput depends on it (the KV cache binds)",
        "未能在一手资料中找到该基准数据集的平均输入长度，而预测吞吐量取决于它（受 KV 缓存容量限制）",
    ),
    "error.valinf_not_a_map": ("a row must be a map of fields", "每一行必须是字段映射"),
    "error.valinf_missing": ("missing {fields}", "缺少 {fields}"),
    "error.valinf_positive_int": (
        "{name} must be a whole number of at least 1",
        "{name} 必须是不小于 1 的整数",
    ),
    "error.valinf_positive": ("{name} must be a number above 0", "{name} 必须是大于 0 的数"),
    "error.valinf_kv_fraction_source": (
        "a row that states kv_fraction quotes where its source sets it (kv_fraction_source)",
        "给出 kv_fraction 的行须以 kv_fraction_source 引用其来源中的设置",
    ),
    "error.valinf_max_batched_tokens_source": (
        "a row that states max_batched_tokens quotes where its source sets it (max_batched_tokens_source)",
        "给出 max_batched_tokens 的行须以 max_batched_tokens_source 引用其来源中的设置",
    ),
    "error.valinf_chunked_prefill_source": (
        "a row that states chunked_prefill quotes where its source sets it (chunked_prefill_source)",
        "给出 chunked_prefill 的行须以 chunked_prefill_source 引用其来源中的设置",
    ),
    "error.valinf_gemm_allreduce_fusion_source": (
        "a row that states gemm_allreduce_fusion quotes where its source sets it (gemm_allreduce_fusion_source)",
        "给出 gemm_allreduce_fusion 的行须以 gemm_allreduce_fusion_source 引用其来源中的设置",
    ),
    "error.valinf_max_seqs_source": (
        "a row that states max_seqs quotes where its source sets it (max_seqs_source)",
        "给出 max_seqs 的行须以 max_seqs_source 引用其来源中的设置",
    ),
    "error.valinf_metric": (
        "unknown metric {value!r} (known: {known})",
        "未知的指标 {value!r}（可用：{known}）",
    ),
    "error.valinf_excluded": (
        "unknown reason {value!r} for leaving a row out (known: {known})",
        "未知的排除原因 {value!r}（可用：{known}）",
    ),
    "error.valinf_no_runs": ("the file lists no runs", "文件中没有列出任何实测"),
    "error.valinf_duplicate": ("rows listed twice: {ids}", "重复列出的行：{ids}"),
    "perf.valinf_band_explanation": (
        "the range of measured/predicted output tokens/s ({lo:.2f}–{hi:.2f}) over the {runs} published "
        "inference results of group '{group}' (of {total} counted; `gpuplanner validate --inference` lists them)",
        "实测/预测输出 token/s 之比在 {lo:.2f}–{hi:.2f} 之间，依据“{group}”组 {runs} 个已发表的推理实测"
        "（共计入 {total} 个；`gpuplanner validate --inference` 可列出）",
    ),
    "perf.valinf_bands_note": (
        "Error bands of `estimate --inference` (output tokens/s and request rate), derived from the bundled "
        "published inference results by `python -m gpuplanner.engine.perf.bands_inference`; do not edit by hand.",
        "`estimate --inference` 的误差区间（输出 token/s 与请求速率），由 "
        "`python -m gpuplanner.engine.perf.bands_inference` 根据收录的已发表推理实测生成；请勿手工编辑。",
    ),
    "perf.valinf_bands_written": (
        "wrote the inference error bands of {runs} results (leave-one-out coverage {coverage:.0%}; groups: {groups})",
        "已写入 {runs} 个推理实测的误差区间（留一法覆盖率 {coverage:.0%}；分组：{groups}）",
    ),
    "perf.valinf_no_bands": ("no inference error bands: {reason}", "没有推理误差区间：{reason}"),
    "perf.valinf_heading_excluded": (
        "listed but not counted (refused, or outside what the engine models; each says why):",
        "列出但不计入统计（被拒绝，或超出引擎的建模范围；逐条说明原因）：",
    ),
    "perf.valinf_footer": (
        "error = predicted/measured − 1 in output tokens/s. Offline: the largest sustainable rate; Server: the "
        "largest rate within the scenario's TTFT/TPOT limits (both at the 99th percentile over requests; the engine "
        "from its queue wait and from the Poisson number of sequences decoding). The MLPerf rows' prompt "
        "lengths are their datasets' means (catalogs/validation/inference_runs.yaml says where from). Error bands "
        "of `estimate --inference`: measured/predicted range per group (scenario, dense/MoE), leave-one-out "
        "coverage {coverage:.0%} of {runs} results.",
        "误差 = 预测/实测 − 1（输出 token/s）。Offline：可持续的最大速率；Server：满足该场景 TTFT/TPOT 上限的最大速率"
        "（两者均取各请求的第 99 百分位；引擎由排队等待时间与解码中序列数的泊松分布推算）。"
        "MLPerf 各行的输入长度取其数据集的平均值（出处见 catalogs/validation/inference_runs.yaml）。"
        "`estimate --inference` 的误差区间：按组（场景、稠密/MoE）取实测/预测"
        "之比的范围，留一法覆盖率 {coverage:.0%}，共 {runs} 个实测。",
    ),
    "perf.valinf_heading_peer": (
        "peer tool: NVIDIA aiconfigurator (measured-kernel database) at a fixed concurrency, aggregated serving; "
        "its figures as recorded in {source}, ours recomputed now:",
        "同类工具：NVIDIA aiconfigurator（基于实测算子数据库），固定并发、聚合式服务；其数值取自 {source}，"
        "本工具的数值为当场重新计算：",
    ),
}
