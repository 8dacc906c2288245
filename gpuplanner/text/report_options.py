"""Report strings, the options considered (the design advisor's Pareto front, ``sections/options.py``).

Whole sentences with ``{name}`` placeholders, as in the other parts.
"""

OPTIONS: dict[str, tuple[str, str]] = {
    "sec_options": ("Options considered", "备选方案"),
    # why the design advisor leaves a GPU server out of a goal (advisor/space.py; the advisor window, `advise`)
    "advisor.left_out.not_listed": ("not in the goal's server list", "不在目标的服务器列表中"),
    "advisor.left_out.vendor": ("GPU vendor {vendor} not allowed", "不允许 GPU 厂商 {vendor}"),
    "advisor.left_out.export": ("export-restricted for {region}", "对 {region} 受出口管制"),
    "advisor.left_out.no_fp4": (
        "its GPU ({gpu}) has no FP4 tensor cores: an fp4 goal ranks only GPUs that have them",
        "其 {gpu}没有 FP4 张量核心：fp4 目标只比较具备 FP4 张量核心的 GPU",
    ),
    "advisor.left_out.no_compute_ports": ("no compute ports", "没有计算网络端口"),
    "advisor.left_out.no_price": (
        "no price for it or its GPU in the catalog (add one in catalogs/prices or a user catalog)",
        "目录中没有该服务器或其 GPU 的价格（请在 catalogs/prices 或用户目录中添加）",
    ),
    "advisor.left_out.no_switch": (
        "no switch in the catalog takes its compute ports",
        "目录中没有能接入其计算网络端口的交换机",
    ),
    "advisor.left_out.line": ("Left out {servers}: {why}.", "未纳入 {servers}：{why}。"),
    "opt_goal_train": (
        "The goal: train {model} on {tokens} tokens within {days} days.",
        "目标：在 {days} 天内用 {tokens} 个 token 训练 {model}。",
    ),
    "opt_goal_serve": (
        "The goal: serve {model} at {rate} requests/s, first token within {ttft} s and each further token "
        "within {tpot} ms.",
        "目标：以每秒 {rate} 个请求提供 {model} 推理服务，首 token 时延不超过 {ttft} 秒，后续每个 token "
        "不超过 {tpot} 毫秒。",
    ),
    "opt_limits": ("The limits: {limits}.", "限制条件：{limits}。"),
    "opt_no_limits": ("The goal states no site limit or budget.", "目标未设场地限制或预算。"),
    "opt_lim_facility_kw": ("facility power ≤ {v} kW", "设施功率 ≤ {v} kW"),
    "opt_lim_rack_kw": ("rack power ≤ {v} kW", "单柜功率 ≤ {v} kW"),
    "opt_lim_racks": ("at most {v} racks", "机柜不超过 {v} 个"),
    "opt_lim_capex_usd": ("capex ≤ {v}", "资本支出 ≤ {v}"),
    "opt_lim_tco_usd": ("TCO ≤ {v}", "总拥有成本 ≤ {v}"),
    "opt_lim_region": ("only parts that may be sold in {v}", "仅限可在 {v} 销售的部件"),
    "opt_lim_vendors": ("GPUs from {v}", "GPU 厂商限于 {v}"),
    "opt_search": (
        "The design advisor considered {cands} candidate designs (server type and count, fabric, "
        "oversubscription, rack density and cooling). {pruned} were ruled out by closed-form bounds before a "
        "plan was drawn, {evaluated} were planned and analysed in full, and {front} are on the Pareto front: "
        "for each of them, no other design is at once cheaper, {faster} and lower in facility power.",
        "设计顾问共考虑了 {cands} 个候选方案（服务器型号与数量、网络拓扑、收敛比、机柜功率密度与冷却方式）。"
        "其中 {pruned} 个在绘制方案前即被解析下界排除，{evaluated} 个经过完整规划与分析，{front} 个位于帕累托"
        "前沿：对其中每一个方案，都没有另一个方案能同时在成本、{faster}和设施功率上更优。",
    ),
    "opt_faster_train": ("faster to train", "训练时间"),
    "opt_faster_serve": ("higher in serving headroom", "服务余量"),
    "opt_col_option": ("Option", "方案"),
    "opt_col_servers": ("Servers", "服务器"),
    "opt_col_gpus": ("GPUs", "GPU 数"),
    "opt_col_fabric": ("Fabric", "网络"),
    "opt_col_cooling": ("Cooling", "冷却"),
    "opt_col_days": ("Time to train (days)", "训练天数"),
    "opt_col_rate": ("Requests/s served", "请求数/秒"),
    "opt_col_fac_kw": ("Facility kW", "设施 kW"),
    "opt_col_capex": ("Capex ({cur})", "资本支出（{cur}）"),
    "opt_col_tco": ("TCO {years} y ({cur})", "{years} 年总拥有成本（{cur}）"),
    "opt_col_binding": ("Binding constraint", "起决定作用的约束"),
    "opt_bind_facility_kw": ("facility power", "设施功率"),
    "opt_bind_rack_kw": ("rack power", "单柜功率"),
    "opt_bind_racks": ("rack count", "机柜数"),
    "opt_bind_capex_usd": ("capex budget", "资本支出预算"),
    "opt_bind_tco_usd": ("TCO budget", "总拥有成本预算"),
    "opt_bind_deadline_days": ("deadline", "期限"),
    "opt_bind_requests_per_s": ("request rate", "请求速率"),
    "opt_bind_cooling": ("cooling", "冷却"),
    "opt_this": ("{n} (this proposal)", "{n}（本方案）"),
    "opt_cost_tco": ("total cost of ownership", "总拥有成本"),
    "opt_cost_capex": ("capital cost", "资本支出"),
    "opt_why_cheapest": (
        "This proposal is option {n}: of the {front} designs on the front it has the lowest {cost_name} "
        "({cost}) and it meets every limit of the goal. The limit it comes closest to is the {binding}.",
        "本方案即方案 {n}：在前沿上的 {front} 个方案中，它的{cost_name}最低（{cost}），并满足目标的全部限制条件。"
        "最接近其上限的约束是{binding}。",
    ),
    "opt_why_faster": (
        "This proposal is option {n}: it costs {extra} more in {cost_name} than option {cheapest} and in "
        "return trains {days} days sooner; it meets every limit of the goal. The limit it comes closest to "
        "is the {binding}.",
        "本方案即方案 {n}：其{cost_name}比方案 {cheapest} 高 {extra}，换来训练时间缩短 {days} 天；它满足目标的"
        "全部限制条件。最接近其上限的约束是{binding}。",
    ),
    "opt_why_headroom": (
        "This proposal is option {n}: it costs {extra} more in {cost_name} than option {cheapest} and in "
        "return serves {rate} more requests per second; it meets every limit of the goal. The limit it comes "
        "closest to is the {binding}.",
        "本方案即方案 {n}：其{cost_name}比方案 {cheapest} 高 {extra}，换来每秒多服务 {rate} 个请求；它满足目标"
        "的全部限制条件。最接近其上限的约束是{binding}。",
    ),
    "opt_why_power": (
        "This proposal is option {n}: it costs {extra} more in {cost_name} than option {cheapest} and in "
        "return needs {kw} kW less facility power; it meets every limit of the goal. The limit it comes "
        "closest to is the {binding}.",
        "本方案即方案 {n}：其{cost_name}比方案 {cheapest} 高 {extra}，换来设施功率降低 {kw} kW；它满足目标的"
        "全部限制条件。最接近其上限的约束是{binding}。",
    ),
    "opt_fastest": (
        "The fastest option, {m}, would train in {days} days for {extra} more.",
        "最快的方案 {m} 可在 {days} 天内完成训练，但需多花 {extra}。",
    ),
    "opt_not_on_front": (
        "This proposal is not one of the designs on the front; option {n}, the one with the lowest "
        "{cost_name} ({cost}), meets every limit of the goal.",
        "本方案不在前沿的方案之中；{cost_name}最低的方案 {n}（{cost}）满足目标的全部限制条件。",
    ),
    "opt_empty": (
        "No design met every limit of the goal: relax a limit and search again.",
        "没有方案能满足目标的全部限制条件：请放宽某一限制后重新搜索。",
    ),
    "opt_other_goal": (
        "These options were searched for a goal other than the one stored in this project.",
        "这些备选方案是按另一个目标搜索的，与本项目中保存的目标不同。",
    ),
}
