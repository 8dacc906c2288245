"""Sentences of a training estimate: which part of the step dominates, and why a layout does not fit."""

from __future__ import annotations

BOTTLENECK_LABELS: dict[str, dict[str, str | tuple[str, str]]] = {
    "en": {
        "compute_s": "GEMM and attention compute",
        "recompute_s": "Activation recomputation",
        "tp_comm_s": ("TP all-reduce over NVLink", "TP all-reduce across nodes"),
        "cp_comm_s": "CP ring-attention exchange",
        "pp_comm_s": "Pipeline point-to-point sends",
        "pp_bubble_s": "Pipeline bubble",
        "dp_comm_s": ("DP gradient reduction over NVLink", "DP all-reduce over the inter-node fabric"),
        "ep_comm_s": "Expert all-to-all",
        "optimizer_s": "Optimizer step",
    },
    "zh": {
        "compute_s": "GEMM 与注意力计算",
        "recompute_s": "激活重计算",
        "tp_comm_s": ("经 NVLink 的张量并行 all-reduce", "跨节点的张量并行 all-reduce"),
        "cp_comm_s": "上下文并行环形注意力交换",
        "pp_comm_s": "流水线点对点发送",
        "pp_bubble_s": "流水线气泡",
        "dp_comm_s": ("经 NVLink 的数据并行梯度归约", "跨节点网络上的数据并行 all-reduce"),
        "ep_comm_s": "专家并行 all-to-all",
        "optimizer_s": "优化器更新",
    },
}
BOTTLENECK_SENTENCE = {
    "en": ("{top}: {share:.0%} of step time", "; largest overhead: {next} ({next_share:.0%})"),
    "zh": ("{top}：占单步时间的 {share:.0%}", "；最大开销：{next}（{next_share:.0%}）"),
}


def bottleneck_sentence(
    breakdown: dict[str, float], tp_intra: bool = True, dp_intra: bool = False, lang: str = "en"
) -> str:
    table = BOTTLENECK_LABELS.get(lang, BOTTLENECK_LABELS["en"])
    first, more = BOTTLENECK_SENTENCE.get(lang, BOTTLENECK_SENTENCE["en"])

    def label(key: str) -> str:
        v = table[key]
        if isinstance(v, tuple):
            return v[0] if (tp_intra if key == "tp_comm_s" else dp_intra) else v[1]
        return v

    total = sum(breakdown.values()) or 1.0
    ranked = sorted(breakdown, key=lambda k: breakdown[k], reverse=True)
    top = ranked[0]
    text = first.format(top=label(top), share=breakdown[top] / total)
    if top == "compute_s" and len(ranked) > 1 and breakdown[ranked[1]] > 0:
        nxt = ranked[1]
        text += more.format(next=label(nxt), next_share=breakdown[nxt] / total)
    return text


def refusal_sentence(memory: dict[str, float]) -> str:
    return (
        f"needs {memory['total_gb']:.1f} GB per GPU but only {memory['usable_gb']:.1f} GB is usable "
        f"(weights {memory['weights_gb']:.1f} GB, gradients {memory['grads_gb']:.1f} GB, optimizer "
        f"{memory['optimizer_gb']:.1f} GB, activations {memory['activations_gb']:.1f} GB)"
    )
