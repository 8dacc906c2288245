"""Report strings, part 5: the decision summary, risks and mitigations, schedule, exclusions and price validity,
and the sources (``sections/exec_summary.py``, ``risks.py``, ``schedule.py``, ``terms.py``, ``bibliography.py``).

Each entry is a whole sentence or label with ``{name}`` placeholders; English plural choices ``{n|one|other}``;
Chinese counts carry their measure word (台 servers and switches, 块 GPUs, 个 racks, 条 cables).
"""

# key: (English, Chinese)
PROPOSAL: dict[str, tuple[str, str]] = {
    # decision summary
    "sec_decision": ("Decision summary", "决策摘要"),
    "ps_intro": (
        "What is proposed, how fast it trains, what it costs, what it needs from the site and the main risks, on "
        "one page. Each figure is the same as in the sections that follow.",
        "本页概述方案内容、训练速度、成本、对机房的要求及主要风险；各项数字与后续章节一致。",
    ),
    "ps_what": ("What is proposed", "方案内容"),
    "ps_fast": ("How fast", "训练速度"),
    "ps_much": ("How much", "投资与成本"),
    "ps_site": ("What it needs from the site", "对机房的要求"),
    "ps_top_risks": ("Top risks", "主要风险"),
    "ps_gpus": ("GPUs", "GPU"),
    "ps_gpus_value": ("{n} × {name}", "{n} 块 {name}"),
    "ps_servers": ("Servers", "服务器"),
    "ps_servers_value": ("{n} × {name}", "{n} 台 {name}"),
    "ps_network": ("Network", "网络"),
    "ps_network_value": (
        "{n} {n|switch|switches} ({tiers}), bisection {bisection} Tb/s",
        "{n} 台交换机（{tiers}），对分带宽 {bisection} Tb/s",
    ),
    "ps_tier_count": ("{n} {tier}", "{tier} {n} 台"),
    "tiername_leaf": ("leaf", "叶交换机"),
    "tiername_spine": ("spine", "脊交换机"),
    "tiername_core": ("core", "核心交换机"),
    "tiername_storage-switch": ("storage", "存储交换机"),
    "tiername_management": ("management", "管理交换机"),
    "ps_storage": ("Storage", "存储"),
    "ps_storage_value": ("{n} × {name}", "{n} 台 {name}"),
    "ps_racks": ("Racks", "机柜"),
    "ps_racks_value": (
        "{n} {n|rack|racks} in {rows} {rows|row|rows}",
        "{n} 个机柜，分 {rows} 排",
    ),
    "ps_tokens": ("Training throughput", "训练吞吐量"),
    "ps_tokens_value": (
        "{tokens} tokens/s (expected {low}–{high})",
        "{tokens} token/秒（预期 {low}–{high}）",
    ),
    "ps_tokens_plain": ("{tokens} tokens/s", "{tokens} token/秒"),
    "ps_ttt": ("Time to train {workload}", "{workload} 训练时长"),
    "ps_ttt_value": ("{days} days (expected {low}–{high})", "{days} 天（预期 {low}–{high} 天）"),
    "ps_ttt_plain": ("{days} days", "{days} 天"),
    "ps_band_note": (
        "The expected range is the spread of measured over predicted throughput of {runs} published training "
        "runs on comparable GPUs (listed in the sources).",
        "预期范围取自 {runs} 个同类 GPU 上已发表训练实测值与预测值之比的分布（见参考文献）。",
    ),
    "ps_unfit_note": (
        "This layout does not fit in GPU memory ({need} GB per GPU, {usable} GB usable): the speed is what it would "
        "run at, not a plan; change the layout (see the top risks).",
        "该并行布局放不进 GPU 显存（每卡需 {need} GB，可用 {usable} GB）：所示速度仅为假设能运行时的速度，并非可行方案；"
        "请调整并行布局（见主要风险）。",
    ),
    "ps_host_paced_note": (
        "Each expert's GEMM takes about {us} µs, under the {limit} µs at which GPU kernels are launch-bound: "
        "host work paces this fine-grained MoE, so the predicted speed is an upper bound and the range is that "
        "of the published host-paced runs.",
        "每个专家的 GEMM 约需 {us} µs，低于 GPU 内核受启动开销限制的 {limit} µs：此细粒度 MoE 的速度由主机端"
        "工作决定，预测速度只是上限，预期范围取自已发表的受主机节奏限制的实测。",
    ),
    "ps_no_workload": (
        "No training job is defined; power and cost assume {load} GPU load.",
        "未定义训练任务；功耗与成本按 GPU 负载 {load} 计算。",
    ),
    "ps_mfu": ("Model FLOPs utilisation", "模型算力利用率 (MFU)"),
    "ps_serving": ("Serving “{name}”", "推理服务“{name}”"),
    "ps_serving_value": (
        "{users} concurrent users ({rate} requests/s), first token in {ttft} s",
        "{users} 个并发用户（每秒 {rate} 个请求），首字时延 {ttft} 秒",
    ),
    "ps_it_kw": ("IT power, maximum", "IT 功率（最大）"),
    "ps_fac_kw": ("Facility power, maximum (PUE {pue})", "设施功率（最大，PUE {pue}）"),
    "ps_feed_kw": ("Utility feed needed", "所需市电容量"),
    "ps_feed_value": ("{need} kW (site offers {avail} kW)", "{need} kW（机房可提供 {avail} kW）"),
    "ps_feed_value_unknown": ("{need} kW (site capacity not stated)", "{need} kW（机房容量未说明）"),
    "ps_cooling": ("Cooling", "散热"),
    "ps_cooling_value": (
        "{method}; {liquid} kW to liquid, {cdus} {cdus|CDU|CDUs}",
        "{method}；液冷 {liquid} kW，{cdus} 台 CDU",
    ),
    "ps_rack_kw": ("Densest rack", "最高机柜功率"),
    "ps_rack_kw_value": ("{kw} kW (budget {budget} kW)", "{kw} kW（预算 {budget} kW）"),
    "ps_floor": ("Floor", "机房面积"),
    "ps_floor_value": ("about {m2} m² for {n} {n|rack|racks} with aisles", "含通道约 {m2} m²，{n} 个机柜"),
    "ps_no_risks": ("No risks were found.", "未发现风险。"),
    # risks
    "sec_risks": ("Risks and mitigations", "风险与应对措施"),
    "risks_intro": (
        "Delivery risks derived from the plan (lead times, power availability, single points of failure) and "
        "the design findings of error or warning severity, most severe first. {infos} {infos|note|notes} of "
        "the design checks {infos|is|are} listed with the findings only.",
        "由方案推导的交付风险（交货周期、供电可用性、单点故障）以及严重程度为错误或警告的设计检查结果，"
        "按严重程度排列。另有 {infos} 条提示仅列于设计检查结果中。",
    ),
    "col_risk_sev": ("Severity", "严重程度"),
    "col_risk_area": ("Area", "类别"),
    "col_risk": ("Risk", "风险"),
    "col_mitigation": ("Mitigation", "应对措施"),
    "risk_high": ("High", "高"),
    "risk_medium": ("Medium", "中"),
    "risk_low": ("Low", "低"),
    "area_delivery": ("Delivery", "交付"),
    "area_power": ("Power", "供电"),
    "area_redundancy": ("Redundancy", "冗余"),
    "area_design": ("Design", "设计"),
    "ps_risk_lead": (
        "{category}: about {weeks} weeks from order to delivery; a longer wait moves the handover.",
        "{category}：从下单到交货约 {weeks} 周，交货延迟将推迟验收交付。",
    ),
    "ps_fix_lead": (
        "Place this order first or reserve the vendor's allocation before the contract; have the lead time "
        "confirmed in the quote.",
        "优先下达该项订单，或在签约前锁定厂商配额；在报价中确认交货周期。",
    ),
    "ps_risk_power_unknown": (
        "The power the site can supply is not stated; the plan needs {need} kW at the utility feed (facility "
        "maximum {fac} kW plus {headroom} headroom).",
        "机房可提供的电力未说明；方案需要市电容量 {need} kW（设施最大功率 {fac} kW，另加 {headroom} 余量）。",
    ),
    "ps_fix_power_unknown": (
        "Obtain the landlord's or utility's written confirmation of {need} kW before ordering.",
        "下单前取得机房业主或供电部门对 {need} kW 容量的书面确认。",
    ),
    "ps_risk_power_short": (
        "The site offers {avail} kW but the plan needs {need} kW at the utility feed.",
        "机房可提供 {avail} kW，而方案需要市电容量 {need} kW。",
    ),
    "ps_fix_power_short": (
        "Reduce or phase the plan, or contract more utility capacity early (transformers take years to deliver).",
        "缩减或分期建设，或尽早申请增容（变压器交货周期以年计）。",
    ),
    "ps_risk_power_ok": (
        "The site offers {avail} kW; the plan needs {need} kW at the utility feed ({spare} kW spare).",
        "机房可提供 {avail} kW；方案需要市电容量 {need} kW（余量 {spare} kW）。",
    ),
    "ps_fix_power_ok": ("Reserve the capacity in the hosting contract.", "在托管合同中锁定该容量。"),
    "ps_spof_spine": (
        "One spine switch carries all traffic between leaf switches: its failure splits the fabric.",
        "仅有一台脊交换机承载所有叶交换机之间的流量：其故障将使网络分裂。",
    ),
    "ps_fix_spof_spine": (
        "Add a second spine switch and spread each leaf's uplinks over both.",
        "增加第二台脊交换机，并将每台叶交换机的上行链路分布到两台脊交换机上。",
    ),
    "ps_spof_leaf": (
        "All {n} servers hang off one switch: its failure stops the cluster.",
        "全部 {n} 台服务器连接在同一台交换机上：其故障将导致整个集群停机。",
    ),
    "ps_fix_spof_leaf": (
        "Use two switches with every server connected to both, or accept the outage risk for a pilot.",
        "采用两台交换机并将每台服务器双归接入，或在试点阶段接受该停机风险。",
    ),
    "ps_spof_mgmt": (
        "One management switch: losing it cuts out-of-band access to every device.",
        "仅有一台管理交换机：其故障将中断所有设备的带外管理。",
    ),
    "ps_fix_spof_mgmt": (
        "Add a second management switch or keep a serial-console path to the key devices.",
        "增加第二台管理交换机，或为关键设备保留串口控制台通道。",
    ),
    "ps_spof_ups": (
        "UPS and generators are sized N (no spare unit): a unit failure or maintenance drops the load.",
        "UPS 与发电机按 N 配置（无备用单元）：任一单元故障或检修都将导致断电。",
    ),
    "ps_fix_spof_ups": (
        "Choose N+1 or 2N redundancy for the UPS and generators.",
        "UPS 与发电机改为 N+1 或 2N 冗余。",
    ),
    "ps_spof_feed": (
        "{n} {n|rack has|racks have} a single power feed (one PDU): a feed or PDU failure stops {n|it|them}.",
        "{n} 个机柜仅有单路供电（一条 PDU）：供电回路或 PDU 故障将使其停机。",
    ),
    "ps_fix_spof_feed": (
        "Use racks with A/B PDUs on separate feeds.",
        "采用 A/B 双路 PDU 并接入不同供电回路的机柜。",
    ),
    "ps_spof_cdu": (
        "Row {row} has one CDU for {kw} kW of liquid heat: its failure or service stops the row's cooling.",
        "第 {row} 排仅有一台 CDU 承担 {kw} kW 液冷热负荷：其故障或检修将中断该排散热。",
    ),
    "ps_fix_spof_cdu": (
        "Install a spare CDU per row (N+1) on the same secondary loop.",
        "每排在同一二次侧回路上增设一台备用 CDU（N+1）。",
    ),
    "ps_spof_storage": (
        "One storage system holds all the data: its failure stops training and checkpointing.",
        "仅有一台存储系统保存全部数据：其故障将中断训练与检查点保存。",
    ),
    "ps_fix_spof_storage": (
        "Add a second storage unit or keep checkpoints on a separate system.",
        "增加第二台存储设备，或将检查点保存到另一套系统。",
    ),
    # schedule
    "sec_schedule": ("Schedule", "实施进度"),
    "sched_intro": (
        "Dates assume the order is placed on {date}; each phase is ordered when the one before it is handed "
        "over. A phase's delivery waits for its longest lead time; installation takes {per_week} racks a week "
        "and acceptance {accept} weeks of burn-in and tests.",
        "日期以 {date} 下单为前提；每一期在上一期验收交付后下单。各期到货时间取其最长交货周期；"
        "安装按每周 {per_week} 个机柜计，验收（老化与测试）需 {accept} 周。",
    ),
    # {mon}: the month's short name in English, its number in Chinese
    "ps_date": ("{day} {mon} {year}", "{year}年{mon}月{day}日"),
    "ps_month": ("{mon} {year}", "{year}年{mon}月"),
    "ps_whole_plan": ("Whole plan", "整体建设"),
    "sched_phases": ("Phases", "分期计划"),
    "col_phase": ("Phase", "阶段"),
    "col_order": ("Order", "下单"),
    "col_delivered": ("Delivered", "到货"),
    "col_installed": ("Installed", "安装完成"),
    "col_handover": ("Handover", "验收交付"),
    "col_weeks": ("Weeks", "周数"),
    "col_critical": ("Longest lead", "最长交货项"),
    "gantt_procure": ("Order to delivery", "下单至到货"),
    "gantt_install": ("Installation", "安装"),
    "gantt_accept": ("Acceptance", "验收"),
    "sched_leads": ("Lead times by category", "各类设备交货周期"),
    "col_lead_weeks": ("Weeks", "周数"),
    "col_ref": ("Source", "来源"),
    "sched_bom": ("What each phase buys", "各期采购内容"),
    "col_ps_item": ("Item", "项目"),
    "ps_gpus_added": ("GPUs added", "新增 GPU（块）"),
    "ps_servers_added": ("Servers added", "新增服务器（台）"),
    "ps_switches_added": ("Switches added", "新增交换机（台）"),
    "ps_racks_added": ("Racks added", "新增机柜（个）"),
    "ps_cables_added": ("Cables added", "新增线缆（条）"),
    "ps_capex_cat": ("{category} ({cur})", "{category}（{cur}）"),
    "ps_capex_phase": ("Capex of the phase ({cur})", "本期资本支出（{cur}）"),
    # exclusions and price validity
    "sec_terms": ("Exclusions and price validity", "除外事项与价格有效期"),
    "terms_validity": (
        "Prices are indicative catalog figures, not a vendor's quote. They are held until {until} ({days} days "
        "from this proposal's date); after that date, and before any order, they must be re-quoted.",
        "价格为指示性目录价格，并非厂商报价，有效期至 {until}（自本方案日期起 {days} 天）；"
        "逾期或下单前须重新询价。",
    ),
    "terms_dates": (
        "The {n} {n|price|prices} used date from {oldest} to {newest}.",
        "所用 {n} 项价格的日期为 {oldest} 至 {newest}。",
    ),
    "terms_stale": (
        "{n} {n|price is|prices are} older than {months} months and may have moved most: {items}.",
        "{n} 项价格早于 {months} 个月前，变动可能最大：{items}。",
    ),
    "terms_no_prices": ("No catalog prices are used.", "未使用目录价格。"),
    "terms_excl_title": ("Not included in this proposal", "本方案不包含以下内容"),
    "excl_taxes": (
        "Taxes, import duties, customs clearance and currency hedging.",
        "税费、进口关税、清关及汇率对冲。",
    ),
    "excl_shipping": ("Freight, insurance in transit and site logistics.", "运输、运输保险及现场物流。"),
    "excl_export": (
        "Export licences and their lead time, where the hardware needs one.",
        "如硬件需要出口许可，其许可证及办理时间。",
    ),
    "excl_building": (
        "Building works, utility connection, transformers, UPS and generators (supplied by the hosting "
        "provider under the colocation model).",
        "土建、市电接入、变压器、UPS 与发电机（托管模式下由托管服务商提供）。",
    ),
    "excl_building_none": (
        "The data hall, its electrical plant and its running cost (not costed in this plan).",
        "机房及其配电设施与运行费用（本方案未计）。",
    ),
    "excl_software": (
        "Software licences and subscriptions (none are priced in this plan).",
        "软件许可与订阅（本方案未计价）。",
    ),
    "excl_storage": ("Storage systems (none are part of this plan).", "存储系统（不在本方案范围内）。"),
    "excl_services": (
        "Professional services beyond cabling: design reviews, software installation, model porting, training of "
        "staff and data migration.",
        "布线以外的专业服务：设计评审、软件安装、模型迁移、人员培训及数据迁移。",
    ),
    "excl_spares": (
        "Spare parts beyond the vendors' support contracts.",
        "厂商支持合同以外的备品备件。",
    ),
    # bibliography
    "sec_sources": ("Sources", "参考文献"),
    "src_intro": (
        "Every datasheet, price list, published measurement and assumption this proposal uses, each listed "
        "once with its date; an entry marked * holds figures derived from it (estimates).",
        "本方案使用的全部数据手册、价格表、已发表测量结果与假设，每项只列一次并注明日期；"
        "标 * 者含由其推算的数值（估计值）。",
    ),
    "src_item": ("[{n}] {source} ({as_of}{star})", "[{n}] {source}（{as_of}{star}）"),
    "src_used_for": ("used for: {items}", "用于：{items}"),
    "src_runs": ("published training run {id}", "已发表训练实测 {id}"),
    "src_lead": ("lead time: {category}", "交货周期：{category}"),
    "src_price": ("price: {name}", "价格：{name}"),
    "src_assumption": ("assumption: {name}", "假设：{name}"),
    # scenarios: difference column
    "scen_diff": ("Δ {name}", "{name} 差值"),
    "scen_diff_intro": (
        "Each scenario beside the base ({base}); the Δ column is the scenario minus the base (= where equal).",
        "各场景与基准（{base}）并列；“差值”列为该场景减基准（相同处记为 =）。",
    ),
}
