"""Report strings, part 4: the workloads (each on its own GPUs), the site's limits and budget, export rules.

Whole sentences with ``{name}`` placeholders, as in the other parts.
"""

PROJECT: dict[str, tuple[str, str]] = {
    "wl_train": (
        "{kind} “{name}” runs on the {gpus} GPUs of partition “{partition}” (TP {tp}, PP {pp}, DP {dp}): "
        "{days} days to train at {mfu} MFU.",
        "{kind}任务“{name}”运行在分区“{partition}”的 {gpus} 块 GPU 上（TP {tp}、PP {pp}、DP {dp}），"
        "预计训练 {days} 天，MFU {mfu}。",
    ),
    "wl_train_error": (
        "{kind} “{name}” on partition “{partition}” could not be evaluated: {error}",
        "{kind}任务“{name}”（分区“{partition}”）无法评估：{error}",
    ),
    "wl_serve": (
        "Serving “{name}” on the {gpus} GPUs of partition “{partition}” ({layout}) handles up to {users} "
        "concurrent users ({rate} requests/s): first token in {ttft} s, {tps} tokens/s per user.",
        "推理服务“{name}”运行在分区“{partition}”的 {gpus} 块 GPU 上（{layout}），最多可同时服务 {users} 个"
        "并发用户（每秒 {rate} 个请求）：首字时延 {ttft} 秒，每用户每秒 {tps} 个 token。",
    ),
    "wl_serve_target_ok": (
        "The {target} concurrent users asked for, with first token under {ttft_target} s, need {needed} GPUs: "
        "the partition serves them.",
        "要求的 {target} 个并发用户（首字时延低于 {ttft_target} 秒）需要 {needed} 块 GPU，该分区可以满足。",
    ),
    "wl_serve_target_short": (
        "The {target} concurrent users asked for, with first token under {ttft_target} s, need {needed} GPUs: "
        "the partition has {gpus}.",
        "要求的 {target} 个并发用户（首字时延低于 {ttft_target} 秒）需要 {needed} 块 GPU，而该分区只有 {gpus} 块。",
    ),
    "wl_serve_rate_ok": (
        "The {target} requests/s asked for need {needed} GPUs: the partition serves them.",
        "要求的每秒 {target} 个请求需要 {needed} 块 GPU，该分区可以满足。",
    ),
    "wl_serve_rate_short": (
        "The {target} requests/s asked for need {needed} GPUs: the partition has {gpus}.",
        "要求的每秒 {target} 个请求需要 {needed} 块 GPU，而该分区只有 {gpus} 块。",
    ),
    "wl_serve_error": (
        "Serving “{name}” on partition “{partition}” could not be evaluated: {error}",
        "推理服务“{name}”（分区“{partition}”）无法评估：{error}",
    ),
    "wl_layout_agg": ("{replicas} {replicas|replica|replicas} of TP {tp}", "{replicas} 个 TP {tp} 副本"),
    "wl_layout_disagg": (
        "{p} prefill workers of TP {ptp} and {d} decode workers of TP {dtp}",
        "{p} 个 TP {ptp} 预填充实例与 {d} 个 TP {dtp} 解码实例",
    ),
    "wl_band": (
        "The published runs the model was checked against put it between {lo} and {hi} days.",
        "依据用于校验模型的公开训练记录，训练时长区间为 {lo}–{hi} 天。",
    ),
    "wl_kind_training": ("Training", "预训练"),
    "wl_kind_fine-tuning": ("Fine-tuning", "微调"),
    "wl_all_gpus": ("all", "全部"),
    "lim_heading": ("Site limits and budget", "场地限制与预算"),
    "lim_it_power_kw": (
        "IT power: the plan needs {plan} kW ({it} kW at maximum plus a {margin} design margin) of the {limit} kW "
        "available — {verdict}.",
        "IT 功率：方案需要 {plan} kW（最大 {it} kW，另加 {margin} 设计余量），场地可提供 {limit} kW——{verdict}。",
    ),
    "lim_facility_power_kw": (
        "Utility feed: the plan needs {plan} kW of the {limit} kW available — {verdict}.",
        "市电容量：方案需要 {plan} kW，场地可提供 {limit} kW——{verdict}。",
    ),
    "lim_rack_positions": (
        "Rack positions: {plan} racks for {limit} positions ({detail}); {unplaced} without a suitable position — "
        "{verdict}.",
        "机柜位：{plan} 个机柜，{limit} 个机位（{detail}）；{unplaced} 个机柜没有合适机位——{verdict}。",
    ),
    "lim_position_group": (
        "{used} of {count} {cooling} positions at {kw} kW",
        "{kw} kW {cooling}机位 {count} 个中用 {used} 个",
    ),
    "lim_budget_capex": (
        "Capex: {plan} against a budget of {limit} — {verdict}.",
        "建设投资：{plan}，预算 {limit}——{verdict}。",
    ),
    "lim_budget_tco": (
        "{years}-year TCO: {plan} against a budget of {limit} — {verdict}.",
        "{years} 年总拥有成本：{plan}，预算 {limit}——{verdict}。",
    ),
    "lim_within": ("within the limit", "满足要求"),
    "lim_exceeded": ("exceeded", "超出限制"),
    "cool_pos_air": ("air-cooled", "风冷"),
    "cool_pos_rear-door": ("rear-door", "背板换热"),
    "cool_pos_liquid": ("liquid-cooled", "液冷"),
    "exp_parts": (
        "Export rules for {region}: {parts} may not be sold there; compliant alternatives in the catalog: "
        "{alternatives}.",
        "出口管制（{region}）：{parts} 不得销售至该地区；目录中的合规替代型号：{alternatives}。",
    ),
    "exp_none": (
        "Export rules for {region}: no part of the plan is listed as restricted there in the catalog.",
        "出口管制（{region}）：目录中未将本方案的任何设备列为该地区受限产品。",
    ),
    "ph_workload_gpus": ("GPUs of “{name}”", "“{name}” GPU 数"),
    # the performance section's serving workloads (reports/sections/serving.py)
    "sv_heading": ("Serving “{name}”", "推理服务“{name}”"),
    "sv_gpus": ("GPUs", "GPU"),
    "sv_gpus_value": ("{gpus} (partition “{partition}”)", "{gpus} 块（分区“{partition}”）"),
    "sv_layout": ("Serving mode and layout", "部署方式与布局"),
    "sv_layout_value": ("{mode}: {layout}", "{mode}：{layout}"),
    "sv_rate": ("Capacity (requests/s)", "服务能力（请求/秒）"),
    "sv_users": ("Concurrent users", "并发用户数"),
    "sv_ttft": ("Time to first token at that load (s)", "该负载下首字时延（秒）"),
    "sv_tpot": ("Time per output token at that load (ms)", "该负载下每输出 token 时延（毫秒）"),
    "sv_user_tps": ("Output tokens/s per user", "每用户输出 token/秒"),
    "sv_output_tps": ("Output tokens/s in all", "总输出 token/秒"),
    "sv_limited_by": ("Limited by", "限制因素"),
    "sv_limit_ttft": ("the time-to-first-token target", "首字时延目标"),
    "sv_limit_tpot": ("the time-per-output-token target", "每输出 token 时延目标"),
    # the serving settings a workload states (analyze's settings line; estimate's options), only when stated
    "sv_settings": ("Serving settings stated", "已声明的服务设置"),
    "sv_set_kv": ("KV-cache share {share}", "KV 缓存显存占比 {share}"),
    "sv_set_seqs": ("at most {n} sequences at once per replica", "每个副本最多同时运行 {n} 个序列"),
    "sv_set_tokens": ("at most {n} tokens per engine step", "每个引擎步最多 {n} 个 token"),
    "sv_set_unchunked": (
        "prefill not chunked (whole prompts in their own steps, the decodes wait)",
        "不分块预填充（整段提示词单独成步，解码等待）",
    ),
    "sv_set_fusion": (
        "each tensor-parallel all-reduce fused into the GEMM before it",
        "张量并行的每次全归约与其前面的 GEMM 融合执行",
    ),
    "sv_memory": ("Memory per GPU (GB)", "每 GPU 显存（GB）"),
    "sv_memory_value": ("weights {weights} + KV cache {kv}", "权重 {weights} + KV 缓存 {kv}"),
    "sv_target": ("Target asked for", "需求目标"),
    "sv_target_users": ("{users} concurrent users", "{users} 个并发用户"),
    "sv_target_rate": ("{rate} requests/s", "每秒 {rate} 个请求"),
    "sv_needed": ("GPUs needed for the target", "满足目标所需 GPU"),
    "sv_needed_value": ("{needed} of {gpus} — {verdict}", "{gpus} 块中需要 {needed} 块——{verdict}"),
    "sv_met": ("met", "满足"),
    "sv_not_met": ("not met", "不满足"),
}
