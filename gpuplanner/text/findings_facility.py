"""Finding sentences of the facility checks: devices without a network, electrical chain, racks, power and
cooling, floor, site limits (budgets, export control). ``finding.<rule>`` is what is wrong, ``fix.<rule>``
what to do; the engine's ``Finding`` carries the rule and the values, never the sentence."""

# id: (English, Chinese)
FINDINGS_FACILITY: dict[str, tuple[str, str]] = {
    # engine/checks/devices.py
    "finding.device-not-networked": (
        "{n} devices have no network link at all, e.g. {name} ({kind}).",
        "有 {n} 台设备没有任何网络连接，例如 {name}（{kind@device_kind}）。",
    ),
    "fix.device-not-networked": (
        "Connect them to a fabric (a storage system to the storage fabric) or remove them.",
        "将其接入相应网络（存储设备接入存储网络），或从方案中删除。",
    ),
    # engine/checks/electrical.py
    "finding.rack-needs-several-circuits": (
        "{count} {count|rack|racks} ({count||e.g. }{rack}) {count|draws|draw} up to {kw_max} kW: each side "
        "(A or B) carries {current_a} A, which needs {circuits} feeds of {feed_a} A at 80 % continuous load; "
        "{count|the rack has|the racks have} {pdus_per_side} rack {pdus_per_side|PDU|PDUs} per side.",
        "{count} 个机柜（如 {rack}）最大功耗 {kw_max} kW：每一路（A 或 B）电流 {current_a} A，按 80% "
        "持续负载需要 {circuits} 条 {feed_a} A 回路，而这些机柜每路只有 {pdus_per_side} 个机柜 PDU。",
    ),
    "fix.rack-needs-several-circuits": (
        "Provide {circuits} circuits per side (with as many PDUs per side), or feed the rack from a "
        "busway tap-off rated for it.",
        "每一路配置 {circuits} 条回路（每路相应数量的 PDU），或从额定容量足够的母线槽插接箱取电。",
    ),
    "finding.row-busway-over-rating": (
        "Row {row} draws up to {kw_max} kW: each side carries {current_a} A, more than the largest "
        "busway ({busway_a} A) takes at 80 % continuous load.",
        "第 {row} 列最大功耗 {kw_max} kW：每一路电流 {current_a} A，超过最大规格母线槽（{busway_a} A）"
        "在 80% 持续负载下的能力。",
    ),
    "fix.row-busway-over-rating": (
        "Run {count} busways per side over this row, or split its racks over more rows.",
        "该列每一路敷设 {count} 条母线槽，或将机柜分到更多列。",
    ),
    "finding.switch-ports-unused": (
        "{free} of the {ports} fabric switch ports ({pct} %) are unused on {switches} switches.",
        "{switches} 台交换机的 {ports} 个网络端口中有 {free} 个（{pct}%）未使用。",
    ),
    "fix.switch-ports-unused": (
        "Use fewer or smaller switches (e.g. more rails per leaf), or keep the ports on purpose for "
        "planned growth and say so in the proposal.",
        "减少交换机数量或选用更小的交换机（例如每台叶交换机承载多个轨道）；若为规划中的扩容预留，请在"
        "方案中说明。",
    ),
    "finding.rack-budget-above-rating": (
        "{count} {count|rack|racks} ({count||e.g. }{rack}) {count|has|have} a power budget of {budget_kw} kW, "
        "above the {rated_kw} kW the rack type {type} is rated for.",
        "{count} 个机柜（如 {rack}）的功率预算为 {budget_kw} kW，高于{type}的额定 {rated_kw} kW。",
    ),
    "fix.rack-budget-above-rating": (
        "Confirm the rack, its PDUs and the room can take the raised budget, or keep the rated one.",
        "请确认机柜、PDU 和机房能承受提高后的预算，否则保持额定值。",
    ),
    "finding.rack-liquid-over-cdu": (
        "Rack {rack} sends {liquid_kw} kW to liquid, more than one CDU ({cdu_kw} kW) removes.",
        "机柜 {rack} 液冷散热 {liquid_kw} kW，超过单台 CDU 的能力（{cdu_kw} kW）。",
    ),
    "fix.rack-liquid-over-cdu": (
        "Feed the rack from two CDUs on a shared manifold, or choose a larger CDU.",
        "通过共用分水器由两台 CDU 为该机柜供液，或选用更大容量的 CDU。",
    ),
    # engine/checks/facility.py
    "finding.rack-over-power-budget": (
        "Rack {rack} draws {kw_load} kW at the predicted load ({kw_max} kW at maximum), over its "
        "power budget of {budget_kw} kW.",
        "机柜 {rack} 在预测负载下功耗 {kw_load} kW（最大 {kw_max} kW），超出其 {budget_kw} kW 的功率预算。",
    ),
    "fix.rack-over-power-budget": (
        "Move some devices to another rack, or raise the rack's power budget if the room allows it.",
        "将部分设备移到其他机柜；若机房条件允许，也可提高该机柜的功率预算。",
    ),
    "finding.rack-over-u-budget": (
        "Rack {rack} cannot hold its devices: {ru_used} U used of {ru} U; above the top: {beyond}; "
        "overlapping: {overlap}.",
        "机柜 {rack} 放不下其中的设备：共 {ru} U，已占用 {ru_used} U；超出顶部：{beyond}；U 位重叠：{overlap}。",
    ),
    "fix.rack-over-u-budget": (
        "Change the devices' U positions, or move some devices to another rack.",
        "调整设备的 U 位，或将部分设备移到其他机柜。",
    ),
    # {cooling}, {suggestion}, {chosen}: the catalog entry's name in the sentence's language (catalog.names)
    "finding.cooling-cannot-take-load": (
        "Rack {rack} draws up to {kw_max} kW, more than its cooling removes per rack ({cooling}: "
        "{cooling_kw} kW).",
        "机柜 {rack} 最大功耗 {kw_max} kW，超出其{cooling}的单柜散热能力（{cooling_kw} kW）。",
    ),
    "fix.cooling-cannot-take-load": (
        "Change the rack's cooling to {suggestion}, which removes up to {suggestion_kw} kW per rack, or "
        "spread the devices over more racks.",
        "改用{suggestion}（单柜最高 {suggestion_kw} kW），或将设备分散到更多机柜。",
    ),
    "finding.cooling-not-in-catalog": (
        "Rack {rack} names the cooling '{cooling}', which is not in the catalog; {chosen} was chosen "
        "automatically instead.",
        "机柜 {rack} 指定的散热方式“{cooling}”不在目录中，已自动改用{chosen}。",
    ),
    "fix.cooling-not-in-catalog": (
        "Pick a cooling from the catalog, or set the rack's cooling to automatic.",
        "从目录中选择一种散热方式，或将该机柜的散热设为自动。",
    ),
    "finding.psu-redundancy-not-met": (
        "{count} × {type}: the {n} PSUs that must carry the load give {capacity_w} W, less than the "
        "maximum draw of {max_w} W, so the PSU redundancy is not met.",
        "{count} 台 {type}：承担负载的 {n} 个电源合计 {capacity_w} W，低于最大功耗 {max_w} W，电源冗"
        "余不成立。",
    ),
    "fix.psu-redundancy-not-met": (
        "Fit higher-rated PSUs, or use a PSU configuration with more PSUs sharing the load.",
        "选用额定功率更高的电源，或改用更多电源共同承担负载的配置。",
    ),
    "finding.feed-redundancy-not-met": (
        "Rack {rack} draws up to {kw_max} kW, but after losing one feed its remaining PDUs supply "
        "only {feed_kw} kW: the A/B feeds are not redundant.",
        "机柜 {rack} 最大功耗 {kw_max} kW，但失去一路供电后剩余 PDU 只能提供 {feed_kw} kW，A/B 双路供"
        "电起不到冗余作用。",
    ),
    "fix.feed-redundancy-not-met": (
        "Use PDUs of at least {need_kw} kW on each feed, add PDUs, or move devices out of the rack.",
        "每路改用容量不低于 {need_kw} kW 的 PDU，或增加 PDU，或将部分设备移出该机柜。",
    ),
    "finding.facility-feed-exceeded": (
        "The site needs a utility feed of {needed_kw} kW ({facility_kw_max} kW facility load at "
        "maximum plus {headroom_pct} % headroom), more than the {available_kw} kW available.",
        "站点需要 {needed_kw} kW 的市电容量（最大负载时设施功耗 {facility_kw_max} kW，另加 {headroom_pct}"
        "% 余量），超过可用的 {available_kw} kW。",
    ),
    "fix.facility-feed-exceeded": (
        "Lower the load (fewer or lower-power servers, cooling with a lower PUE), or ask the utility "
        "for more capacity.",
        "降低负载（减少服务器、选用功耗更低的机型，或采用 PUE 更低的散热方式），或向供电部门申请扩容。",
    ),
    "finding.pue-above-target": (
        "The site PUE of {pue} is above the target of {target}.",
        "站点 PUE 为 {pue}，高于目标值 {target}。",
    ),
    "fix.pue-above-target": (
        "Cool the densest racks more efficiently (rear-door, cold-plate or immersion liquid cooling), "
        "or revisit the target.",
        "为高密度机柜改用更高效的散热方式（背板、冷板或浸没式液冷），或重新评估目标值。",
    ),
    "finding.prices-missing": (
        "Catalog items without a price, counted as 0 in the cost ({count}): {parts}.",
        "以下 {count} 个目录条目没有价格，在成本中按 0 计算：{parts}。",
    ),
    "fix.prices-missing": (
        "Enter a price for these devices in the project, or add them to a price list.",
        "在项目中为这些设备填写价格，或将其加入价格表。",
    ),
    # engine/checks/floor.py
    "finding.floor-unit-overloaded": (
        "{name} ({kind}) carries {load} kW but is rated {capacity} kW.",
        "{name}（{kind}）承载 {load} kW，而额定容量只有 {capacity} kW。",
    ),
    "fix.floor-unit-overloaded": (
        "Add a unit to the row, move racks to another row, or choose a larger unit.",
        "为该列增加设备、把部分机柜移到其他列，或选用更大容量的设备。",
    ),
    "finding.outside-hall": (
        "{n} racks or floor units stand outside the {width} × {depth} m hall (e.g. {name}).",
        "有 {n} 个机柜或设备位于 {width} × {depth} m 的机房之外（例如 {name}）。",
    ),
    "fix.outside-hall": (
        "Move them inside on the floor plan, or enter the hall's real size under Site and costs.",
        "在机房平面图中把它们移入机房，或在“场地与成本”中填写机房的实际尺寸。",
    ),
    # engine/checks/limits.py
    "finding.it-power-exceeded": (
        "IT power: the plan needs {plan_kw} kW ({it_kw} kW at maximum + {margin_pct}% design margin); "
        "the site offers {limit_kw} kW.",
        "IT 功率：方案需要 {plan_kw} kW（最大 {it_kw} kW，另加 {margin_pct}% 设计余量），而场地仅能提"
        "供 {limit_kw} kW。",
    ),
    "fix.it-power-exceeded": (
        "Remove servers or move them to a later phase, or lower the design margin if the site allows.",
        "减少服务器或将其移至后续阶段；如场地条件允许，可降低设计余量。",
    ),
    "finding.rack-positions-exceeded": (
        "Rack positions: {unplaced} of {racks} racks find no floor position able to take them ({positions}).",
        "机柜位：{racks} 个机柜中有 {unplaced} 个找不到能承载其功率和散热方式的机位（现有机位：{positions}）。",
    ),
    "fix.rack-positions-exceeded": (
        "Spread the servers over more racks within the positions' kW, or add liquid-cooled positions.",
        "在机位功率限制内把服务器分散到更多机柜，或增加液冷机位。",
    ),
    "finding.budget-exceeded": (
        "{what@budget}: {plan} {currency} against a budget of {limit} {currency} ({over_pct}% over).",
        "{what@budget}：{plan} {currency}，超出预算 {limit} {currency}（超出 {over_pct}%）。",
    ),
    "fix.budget-exceeded": (
        "Phase the build-out, choose less expensive parts, or raise the budget.",
        "分期建设、选用更经济的设备，或提高预算。",
    ),
    "finding.part-not-available-in-region": (
        "{part} ({classification}) may not be sold to {region} under the export rules ({source}, "
        "{as_of}); the plan uses {count}.",
        "根据出口管制规定（{source}，{as_of}），{part}属于 {classification} 管制物项，不得销售至 {region}；"
        "方案中使用了 {count} 台。",
    ),
    "fix.part-not-available-in-region": (
        "Compliant alternatives in the catalog: {alternatives}.",
        "目录中的合规替代型号：{alternatives}。",
    ),
}
