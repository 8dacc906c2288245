"""Sentences of the performance estimates: what dominates a training step, why a layout does not fit in
memory, the interruptions behind the goodput, and what an error band is."""

# id: (English, Chinese)
PERF: dict[str, tuple[str, str]] = {
    "perf.bottleneck": ("{top}: {share:.0%} of step time", "{top}：占单步时间的 {share:.0%}"),
    "perf.bottleneck_next": (
        "{top}: {share:.0%} of step time; largest overhead: {next} ({next_share:.0%})",
        "{top}：占单步时间的 {share:.0%}；最大开销：{next}（{next_share:.0%}）",
    ),
    "perf.training_refusal": (
        "needs {total_gb:.1f} GB per GPU but only {usable_gb:.1f} GB is usable (weights {weights_gb:.1f} GB, "
        "gradients {grads_gb:.1f} GB, optimizer {optimizer_gb:.1f} GB, activations {activations_gb:.1f} GB)",
        "每块 GPU 需要 {total_gb:.1f} GB，但仅有 {usable_gb:.1f} GB 可用（权重 {weights_gb:.1f} GB，梯度 "
        "{grads_gb:.1f} GB，优化器状态 {optimizer_gb:.1f} GB，激活 {activations_gb:.1f} GB）",
    ),
}
