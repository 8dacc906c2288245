"""What `gpuplanner analyze FILE` prints as text (cli/analyze_cmd.py, cli/analyze_out.py): the size of the
plan, one line or a short block per workload (training: layout, step, throughput, MFU, memory, days to
train; serving: layout, TTFT/TPOT, capacity, what limits it, the target and the GPUs it needs), power, cost,
the phase and rack tables, the findings. The serving lines quote `estimate --inference`'s (``perf.srv.*``,
text/cli_estimate.py), so both commands say the same thing the same way. ``col.*``: column headers."""

# id: (English, Chinese)
ANALYZE: dict[str, tuple[str, str]] = {
    # -- the plan ---------------------------------------------------------------------------------------
    "an.scenario": ("  [scenario: {name}]", "  [场景：{name}]"),
    "an.phase": ("  [at the end of phase: {name}]", "  [截至阶段“{name}”结束]"),
    "an.size": (
        "GPUs {gpus:,} in {servers:,} servers; switches {switches:,}; bisection {tbps:,.1f} Tb/s",
        "GPU {gpus:,} 块，分布于 {servers:,} 台服务器；交换机 {switches:,} 台；对分带宽 {tbps:,.1f} Tb/s",
    ),
    # -- workloads --------------------------------------------------------------------------------------
    "an.workload": (
        "{name} ({kind@workload_kind}, {gpus:,} {gpus|GPU|GPUs})",
        "{name}（{kind@workload_kind}，{gpus:,} 块 GPU）",
    ),
    "an.train": (
        "{head}: TP{tp} PP{pp} DP{dp} — step {step:.2f} s, {tps:,.0f} tokens/s, MFU {mfu:.1f}%, "
        "{gb:.1f} GB/GPU{ttt}",
        "{head}：TP{tp} PP{pp} DP{dp} — 训练步时间 {step:.2f} 秒，吞吐 {tps:,.0f} tokens/s，MFU {mfu:.1f}%，"
        "显存 {gb:.1f} GB/GPU{ttt}",
    ),
    "an.ttt": (", {days:.1f} days to train{range}", "，训练时长 {days:.1f} 天{range}"),
    "an.range": (" ({lo:.1f}–{hi:.1f})", "（{lo:.1f}–{hi:.1f}）"),
    "an.train_no_fit": (
        "{head}: TP{tp} PP{pp} DP{dp} — does not fit: {why}",
        "{head}：TP{tp} PP{pp} DP{dp} — 显存放不下：{why}",
    ),
    "an.not_evaluated": ("{head}: not evaluated — {why}", "{head}：无法评估 — {why}"),
    "an.workload_error": ("workload: {why}", "工作负载：{why}"),
    "an.serving": (
        "{head}: {mode@serving_mode} — {layout}{used}",
        "{head}：{mode@serving_mode} — {layout}{used}",
    ),
    "an.serving_used": (", {gpus:,} of them in use", "，其中 {gpus:,} 块在用"),
    "an.serving_no_fit": ("{head}: does not fit — {why}", "{head}：显存放不下 — {why}"),
    "an.serving_nothing": (
        "no request can be served within the targets (limited by {why@serving_limit})",
        "在目标以内无法服务任何请求（受限于 {why@serving_limit}）",
    ),
    # the stated load and latency targets of a serving workload
    "an.load_users": ("{users:,.0f} concurrent users", "服务 {users:,.0f} 个并发用户"),
    "an.load_rate": ("{rate:,.2f} requests/s", "服务 {rate:,.2f} 请求/秒"),
    "an.ttft_target": ("TTFT ≤ {s:g} s", "TTFT ≤ {s:g} 秒"),
    "an.tpot_target": ("TPOT ≤ {ms:g} ms", "TPOT ≤ {ms:g} 毫秒"),
    "an.within": (" within {targets}", "在 {targets} 下"),
    "an.target_met": (
        "target: {load}{within} — met; {needed:,} {needed|GPU|GPUs} needed, {gpus:,} in the partition",
        "目标：{within}{load} — 已满足；需要 {needed:,} 块 GPU，分区现有 {gpus:,} 块",
    ),
    "an.target_not_met": (
        "target: {load}{within} — NOT met; {needed:,} {needed|GPU|GPUs} needed, {gpus:,} in the partition",
        "目标：{within}{load} — 未满足；需要 {needed:,} 块 GPU，分区现有 {gpus:,} 块",
    ),
    "an.target_no_fit": (
        "target: {load}{within} — cannot be served: {why}",
        "目标：{within}{load} — 无法满足：{why}",
    ),
    "an.target_unreachable": (
        "target: {load}{within} — NOT met; no layout serves a request within the targets (limited by "
        "{why@serving_limit})",
        "目标：{within}{load} — 未满足；没有任何布局能在目标以内服务请求（受限于 {why@serving_limit}）",
    ),
    "an.targets_only": (
        "targets: {targets} (the capacity above is within them)",
        "目标：{targets}（以上服务能力均在目标以内）",
    ),
    # -- power and cost ---------------------------------------------------------------------------------
    "an.power": (
        "IT {it:,.1f} kW max ({load:,.1f} kW at load), PUE {pue:.2f}, facility {facility:,.1f} kW max, "
        "{mwh:,.0f} MWh/year",
        "IT 功率最高 {it:,.1f} kW（负载下 {load:,.1f} kW），PUE {pue:.2f}，设施功率最高 {facility:,.1f} kW，"
        "年用电 {mwh:,.0f} MWh",
    ),
    "an.cost": (
        "capex {capex}, opex {opex}/year, TCO {years} years {tco}",
        "资本支出 {capex}，年运营支出 {opex}，{years} 年总拥有成本 {tco}",
    ),
    "an.network_share": (
        "network share of GPU server cost {share:.0f}%",
        "网络成本占 GPU 服务器成本的 {share:.0f}%",
    ),
    # -- tables and findings ----------------------------------------------------------------------------
    "col.phase": ("phase", "阶段"),
    "col.it_kw": ("IT kW", "IT 功率 kW"),
    "col.facility_kw": ("facility kW", "设施功率 kW"),
    "col.pue": ("PUE", "PUE"),
    "col.capex_added": ("capex added", "新增资本支出"),
    "col.tco": ("TCO", "总拥有成本"),
    "col.scheduler": ("scheduler", "调度平台"),
    "col.rack": ("rack", "机柜"),
    "col.kw_max": ("kW max", "最大 kW"),
    "col.kw_budget": ("budget", "预算 kW"),
    "col.cooling": ("cooling", "散热方式"),
    "col.cfm": ("CFM", "风量 CFM"),
    "col.l_per_min": ("L/min", "冷却液 L/min"),
    "an.more_racks": (
        "… {n:,} more racks (--racks N, or --json)",
        "… 另有 {n:,} 个机柜未列出（用 --racks N 或 --json 查看）",
    ),
    "an.findings": ("{n:,} {n|finding|findings}:", "{n:,} 条检查结果："),
    "an.no_findings": ("no findings", "无检查结果"),
    # the rack's cooling method (catalogs/schema/cooling.json ``method``): the slug in English, as before
    "word.cooling.air": ("air", "风冷"),
    "word.cooling.air-contained": ("air-contained", "封闭通道风冷"),
    "word.cooling.rear-door": ("rear-door", "背板换热"),
    "word.cooling.cold-plate": ("cold-plate", "冷板式液冷"),
    "word.cooling.immersion": ("immersion", "浸没式液冷"),
    # a finding's severity, as the findings list marks it
    "word.severity.error": ("ERROR", "错误"),
    "word.severity.warning": ("warn", "警告"),
    "word.severity.info": ("info", "提示"),
}
