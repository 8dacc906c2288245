"""Report strings, part 5: the electrical design (one-line diagram, per-row and hall rollups with CDUs), the
sensitivity tornado, the readable catalog appendix and the BOM's subtotals and Chinese measure words.

Each entry is a whole sentence or label with ``{name}`` placeholders, never a fragment to be joined to others.
"""

# key: (English, Chinese)
LAYOUT: dict[str, tuple[str, str]] = {
    # electrical design
    "sec_electrical": ("Electrical design", "供配电设计"),
    "el_intro": (
        "The power path from the utility to the racks, sized for the IT load at its maximum draw with "
        "{red} redundancy of transformers, generators and UPS. Every rack is fed from two sides (A and B); "
        "each side's busway carries the whole row when the other side is lost.",
        "从市电到机柜的供电路径，按 IT 负载最大功耗设计，变压器、发电机与 UPS 采用 {red} 冗余。每个机柜"
        "由 A、B 两路供电；一路失电时，另一路母线槽承担整排负载。",
    ),
    "el_one_line": ("One-line diagram", "单线图"),
    "el_rollup": ("Power and cooling per row and for the hall", "各排及机房的供电与散热汇总"),
    "el_rollup_intro": (
        "Rows as the rack names give them. kW max: the rows' racks at full draw; CDU load: the liquid heat "
        "over the capacity of the CDUs without the spare ({spare} per row).",
        "排按机柜名称划分。最大 kW：该排机柜满载功耗；CDU 负载率：液冷热负荷占 CDU 容量（不含每排 {spare} "
        "台备用）的比例。",
    ),
    "el_hall": ("Hall (all rows)", "机房（全部各排）"),
    "el_no_chain": ("The plan has no racks to power yet.", "方案中尚无需供电的机柜。"),
    "col_row": ("Row", "排"),
    "col_racks": ("Racks", "机柜数"),
    "col_kw_max_short": ("kW max", "最大 kW"),
    "col_kw_load_short": ("kW at load", "负载 kW"),
    "col_cooling_kind": ("Cooling", "冷却方式"),
    "col_liquid_kw": ("Liquid kW", "液冷 kW"),
    "col_busway": ("Busway per side", "每路母线槽"),
    "col_cdus": ("CDUs", "CDU 数"),
    "col_cdu_load": ("CDU load", "CDU 负载率"),
    "busway_value": ("{n} × {a} A", "{n} × {a} A"),
    # one-line labels (short: they are fitted into the drawing)
    "ol_utility": ("Utility", "市电"),
    "ol_utility_kw": ("{kw} kW at maximum draw", "最大需求 {kw} kW"),
    "ol_utility_available": ("{kw} kW available", "可用 {kw} kW"),
    "ol_transformer": ("Transformers {n} × {kva} kVA ({red})", "变压器 {n} × {kva} kVA（{red}）"),
    "ol_generator": ("Generators {n} × {kva} kVA ({red})", "发电机 {n} × {kva} kVA（{red}）"),
    "ol_load_kva": ("load {kva} kVA", "负载 {kva} kVA"),
    "ol_switchboard": ("LV switchboard {v} V", "低压配电柜 {v} V"),
    "ol_ups": ("UPS {n} × {kva} kVA ({red})", "UPS {n} × {kva} kVA（{red}）"),
    "ol_battery": ("battery {kwh} kWh, {min} min", "电池 {kwh} kWh，{min} 分钟"),
    "ol_busway": ("busway {a} A", "母线槽 {a} A"),
    "ol_per_side": ("{n} per side (A+B)", "每路 {n} 条（A+B）"),
    "ol_racks": ("{n} {n|rack|racks}", "{n} 个机柜"),
    "ol_kw": ("{kw} kW max", "最大 {kw} kW"),
    "ol_cdus": ("CDU × {n}", "CDU × {n}"),
    "ol_air": ("air cooled", "风冷"),
    "ol_more_rows": ("{n} more rows", "其余 {n} 排"),
    "ol_leg_liquid": (
        "rack with liquid cooling (share of the row's heat)",
        "液冷机柜（按该排液冷热负荷占比）",
    ),
    "ol_leg_air": ("air-cooled rack", "风冷机柜"),
    "ol_leg_abbrev": (
        "UPS: uninterruptible power supply · ATS: automatic transfer switch · G: standby generator · "
        "CDU: coolant distribution unit",
        "UPS：不间断电源 · ATS：自动转换开关 · G：备用发电机 · CDU：冷却液分配单元",
    ),
    "ol_leg_ab": (
        "A, B: the two independent feeds of every rack; each is sized for the whole load.",
        "A、B：每个机柜的两路独立供电，每路均按全部负载设计。",
    ),
    "ol_caption": (
        "{rows} {rows|row|rows}, {racks} {racks|rack|racks}; {more}",
        "共 {rows} 排、{racks} 个机柜；{more}",
    ),
    "ol_all_rows": ("every row is drawn.", "每排均已画出。"),
    "ol_some_rows": (
        "the first {shown} rows are drawn and the other {rest} are summed in the last branch; the table "
        "lists every row.",
        "图中画出前 {shown} 排，其余 {rest} 排合并为最后一支；下表列出每一排。",
    ),
    # tornado
    "tornado_title_hour": (
        "Cost per GPU-hour ({cur}/GPU-h), base {base}",
        "每 GPU 小时成本（{cur}/GPU·时），基准 {base}",
    ),
    "tornado_title_tco": (
        "{years}-year TCO ({unit}), base {base}",
        "{years} 年总拥有成本（{unit}），基准 {base}",
    ),
    "tornado_intro": (
        "Each input moved down and up by its range with all others held; bars are sorted by how far they move "
        "the figure. Blue: the input lowered; orange: the input raised.",
        "每项输入按其变动范围分别下调和上调，其余输入保持不变；条形按对结果影响的大小排序。蓝色：输入下调；"
        "橙色：输入上调。",
    ),
    "tornado_no_effect": ("no effect", "无影响"),
    "tornado_low": ("input lowered", "输入下调"),
    "tornado_high": ("input raised", "输入上调"),
    "tornado_bar": ("{input}: {range}", "{input}：{range}"),
    # BOM measure words (Chinese: the quantity carries its measure word, "8 台", "512 根")
    "unit_device": ("each", "台"),
    "unit_cable_piece": ("each", "根"),
    "unit_piece": ("each", "个"),
    "qty_with_unit": ("{n} {unit}", "{n} {unit}"),
    # per-rack table: a subtotal per row
    "power_row_subtotal": ("Subtotal row {row} ({n} {n|rack|racks})", "{row} 排小计（{n} 个机柜）"),
}
