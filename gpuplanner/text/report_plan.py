"""Report strings, part 3: phased build-out, teams and quotas, the scheduler advice and the floor plan.

Each entry is a whole sentence or label with ``{name}`` placeholders, never a fragment to be joined to others.
"""

# key: (English, Chinese)
PLAN: dict[str, tuple[str, str]] = {
    # phased build-out
    "sec_phases": ("Phased build-out", "分期建设"),
    "ph_intro": (
        "Each phase adds its racks, servers and links to the phases before it and is analysed as the cluster "
        "it makes. Money in {cur}; capex and the {years}-year total cost of ownership are cumulative.",
        "每一期在前几期的基础上增加机柜、服务器和链路，并按该期建成后的集群完整分析。金额单位为 {cur}；"
        "资本支出和 {years} 年总拥有成本均为累计值。",
    ),
    "ph_comparison": ("Phases side by side", "各期对比"),
    "ph_figure": ("Figure", "指标"),
    "ph_description": ("Description", "说明"),
    "ph_gpus": ("GPUs added / cumulative", "新增 / 累计 GPU"),
    "ph_gpus_value": ("{added} / {total}", "{added} / {total}"),
    "ph_servers": ("Servers, cumulative", "服务器（累计）"),
    "ph_switches": ("Switches, cumulative", "交换机（累计）"),
    "ph_tokens": ("Training throughput (tokens/s)", "训练吞吐量（token/秒）"),
    "ph_step": ("Step time (s)", "单步时间（秒）"),
    "ph_mfu": ("Model FLOPs utilisation (MFU)", "模型算力利用率 (MFU)"),
    "ph_it_kw": ("IT power, maximum (kW)", "IT 功率，最大值 (kW)"),
    "ph_fac_kw": ("Facility power, maximum (kW)", "设施功率，最大值 (kW)"),
    "ph_pue": ("PUE", "PUE"),
    "ph_cooling": ("IT power cooled by {method} (kW)", "{method}散热的 IT 功率 (kW)"),
    "ph_capex_added": ("Capex added ({cur})", "新增资本支出 ({cur})"),
    "ph_capex": ("Capex, cumulative ({cur})", "累计资本支出 ({cur})"),
    "ph_tco": (
        "Total cost of ownership, {years} years, cumulative ({cur})",
        "累计 {years} 年总拥有成本 ({cur})",
    ),
    "ph_scheduler": ("Scheduler", "调度平台"),
    "ph_ports_free": ("Switch ports free", "交换机空闲端口"),
    "ph_rack_headroom": ("Rack power headroom (kW)", "机柜功率余量 (kW)"),
    "ph_feed_needed": ("Utility feed needed (kW)", "所需市电容量 (kW)"),
    "ph_feed_available": ("Utility feed available (kW)", "可用市电容量 (kW)"),
    "ph_grows": ("Grows into the next phase without replacing equipment", "可不更换设备扩展到下一期"),
    "ph_grows_no": ("no: {n} {n|finding|findings}", "否：{n} 项问题"),
    "ph_no_workload": (
        "A dash (—) for throughput means that no training workload runs on that phase's GPUs.",
        "吞吐量为“—”表示该期的 GPU 上没有运行训练负载。",
    ),
    "ph_growth": ("Growth checks", "扩展检查"),
    "ph_growth_intro": (
        "Whether each phase can grow into the next without replacing equipment bought earlier: the switch "
        "ports left, the rack power and U space, and the utility feed of the earlier phase must carry the "
        "larger cluster.",
        "检查每一期能否在不更换前期已购设备的情况下扩展到下一期：前期剩余的交换机端口、机柜功率与 U 位空间"
        "以及市电容量必须能承载更大的集群。",
    ),
    "ph_growth_ok": (
        "{before} → {phase}: no equipment of the earlier phase needs replacing.",
        "{before} → {phase}：前期设备无需更换。",
    ),
    "ph_growth_bad": (
        "{before} → {phase}: {n} {n|finding|findings}.",
        "{before} → {phase}：{n} 项问题。",
    ),
    "sched_kubernetes": ("Kubernetes + GPU Operator", "Kubernetes + GPU Operator"),
    "sched_slurm+kubernetes": ("Slurm + Kubernetes", "Slurm + Kubernetes 双栈"),
    "sched_slurm": ("Slurm", "Slurm"),
    "sched_volcano": ("Kubernetes + Volcano", "Kubernetes + Volcano"),
    # teams and quotas
    "sec_teams": ("Teams and quotas", "团队与配额"),
    "teams_intro": (
        "The teams sharing the cluster: their scheduler partition and its GPUs, the GPUs guaranteed to each "
        "team and the GPUs it may borrow when they are idle (burst), its priority (higher wins) and its "
        "largest job.",
        "共享集群的各团队：所属调度分区及其 GPU 数量、保障 GPU 配额、空闲时可借用的 GPU（burst）、优先级"
        "（数值越大越优先）以及最大作业规模。",
    ),
    "col_team": ("Team", "团队"),
    "col_partition": ("Partition", "分区"),
    "col_partition_gpus": ("Partition GPUs", "分区 GPU"),
    "col_guaranteed": ("Guaranteed", "保障配额"),
    "col_burst": ("Burst", "可借用"),
    "col_priority": ("Priority", "优先级"),
    "col_largest_job": ("Largest job (GPUs)", "最大作业 (GPU)"),
    "col_fits": ("Fits", "是否满足"),
    "partition_all": ("all GPUs", "全部 GPU"),
    "partition_total": ("Guaranteed in total", "保障配额合计"),
    "teams_checks": ("Quota and partition checks", "配额与分区检查"),
    "teams_ok": (
        "Every team's guarantee and largest job fit its partition.",
        "各团队的保障配额和最大作业均在其分区容量之内。",
    ),
    "teams_sched": ("Scheduler advice", "调度平台建议"),
    "sched_advice": ("{advice} Why: {why}.", "{advice}理由：{why}。"),
    "sched_planned": (
        "For {gpus} GPUs the sources advise {advised}; the plan names {planned} for phase “{phase}”.",
        "按 {gpus} 块 GPU 的规模，参考资料建议采用 {advised}；方案为“{phase}”阶段指定的是 {planned}。",
    ),
    # floor plan
    "sec_floor": ("Floor plan", "机房平面图"),
    "floor_intro": (
        "The hall seen from above: racks at their floor positions, coloured by their maximum power; each row "
        "with the aisle its fronts (dark edge) face; cooling and power units with their load at maximum IT "
        "power against their capacity. The numbers refer to the table of floor units.",
        "机房俯视图：机柜按其在地面上的位置绘制，颜色表示最大功率；每列机柜正面（深色边）所朝的冷/热通道；"
        "散热与供电设备标出最大 IT 功率下的负载与额定容量。编号与设备表对应。",
    ),
    "floor_units": ("Floor units: load against capacity", "机房设备：负载与容量"),
    "floor_none": ("The plan has no cooling or power units on the floor.", "方案中没有放置散热或供电设备。"),
    "floor_over": (
        "{n} {n|unit carries|units carry} more than {n|its|their} capacity (marked red in the plan).",
        "有 {n} 台设备的负载超过额定容量（图中以红色标出）。",
    ),
    "floor_dense": (
        "Rack names are left out at this scale; the rows are labelled.",
        "在此比例下不标注机柜名称，仅标注列号。",
    ),
    "col_no": ("No.", "编号"),
    "col_unit_name": ("Unit", "设备"),
    "col_kind": ("Kind", "类型"),
    "col_serves": ("Serves", "服务范围"),
    "col_load_kw": ("Load kW", "负载 kW"),
    "col_capacity_kw": ("Capacity kW", "容量 kW"),
    "col_use": ("Use", "负载率"),
    "serves_row": ("row {row}", "{row} 列"),
    "serves_hall": ("whole hall", "整个机房"),
    "legend_density": ("Rack power, max.", "机柜最大功率"),
    "density_0": ("up to 10 kW", "不超过 10 kW"),
    "density_1": ("10–25 kW", "10–25 kW"),
    "density_2": ("25–45 kW", "25–45 kW"),
    "density_3": ("45–75 kW", "45–75 kW"),
    "density_4": ("above 75 kW", "高于 75 kW"),
    "legend_cold": ("Cold aisle", "冷通道"),
    "legend_hot": ("Hot aisle", "热通道"),
    "legend_contained": ("Contained aisle", "封闭通道"),
    "legend_cooling_unit": ("Cooling unit", "散热设备"),
    "legend_power_unit": ("Power unit", "供电设备"),
    "legend_overloaded": ("Overloaded", "过载"),
    "scale_m": ("{m} m", "{m} 米"),
    "fk_crah": ("Computer-room air handler", "机房精密空调 (CRAH)"),
    "fk_in-row": ("In-row cooler", "列间空调"),
    "fk_rear-door": ("Rear-door heat exchangers", "背板换热器"),
    "fk_cdu": ("Coolant distribution unit", "冷却液分配单元 (CDU)"),
    "fk_immersion-tank": ("Immersion tank", "浸没式液冷槽"),
    "fk_pdu": ("Power distribution unit", "配电单元 (PDU)"),
    "fk_busway": ("Busway", "母线槽"),
    "fk_utility-feed": ("Utility feed", "市电进线"),
}
