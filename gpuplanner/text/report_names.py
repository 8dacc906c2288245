"""Report strings, part 8: the words naming a catalog entry's kind in the bill of materials and the appendix
("GPU 服务器", "InfiniBand 交换机", "光模块"), and the labels that put a model name and its key figures
together. The model name (a proper noun) is kept; the kind words and figures are in the report's language.
"""

# key: (English, Chinese)
NAMES: dict[str, tuple[str, str]] = {
    "kindword_gpu": ("GPU", "GPU 加速卡"),
    "kindword_server": ("GPU server", "GPU 服务器"),
    "kindword_server_cpu": ("server", "服务器"),
    "kindword_switch": ("switch", "交换机"),
    "kindword_switch_infiniband": ("InfiniBand switch", "InfiniBand 交换机"),
    "kindword_switch_ethernet": ("Ethernet switch", "以太网交换机"),
    "kindword_storage": ("storage system", "存储系统"),
    "kindword_nic": ("network adapter", "网卡"),
    "kindword_transceiver": ("optical transceiver", "光模块"),
    "kindword_cable": ("cable", "线缆"),
    "kindword_cable_dac": ("direct-attach copper cable (DAC)", "直连铜缆（DAC）"),
    "kindword_cable_acc": ("active copper cable (ACC)", "有源铜缆（ACC）"),
    "kindword_cable_aoc": ("active optical cable (AOC)", "有源光缆（AOC）"),
    "kindword_cable_fiber-mmf": ("multimode fiber patch cord", "多模光纤跳线"),
    "kindword_cable_fiber-smf": ("single-mode fiber patch cord", "单模光纤跳线"),
    "kindword_cable_utp": ("twisted-pair patch cord", "双绞线跳线"),
    "kindword_rack": ("rack", "机柜"),
    "kindword_pdu": ("power distribution unit", "配电单元"),
    "kindword_pdu_rack-pdu": ("rack PDU", "机柜 PDU"),
    "kindword_pdu_busway": ("busway", "母线槽"),
    "kindword_pdu_power-shelf": ("power shelf", "电源架"),
    "kindword_cooling": ("cooling equipment", "冷却设备"),
    # the cooling method (catalogs/schema/cooling.json ``method``) says what a cooling entry is
    "kindword_cooling_air": ("open-aisle air cooling", "开放式风冷"),
    "kindword_cooling_air-contained": ("contained-aisle air cooling", "封闭通道风冷"),
    "kindword_cooling_rear-door": ("rear-door heat exchanger", "背板换热器"),
    "kindword_cooling_cold-plate": ("cold-plate liquid cooling", "冷板式液冷"),
    "kindword_cooling_immersion": ("immersion cooling", "浸没式液冷"),
    "entry_label": ("{kind} {model} ({figures})", "{kind} {model}（{figures}）"),
    "entry_label_plain": ("{kind} {model}", "{kind} {model}"),
    "entry_label_generic": ("{kind} ({figures})", "{kind}（{figures}）"),
    "fig_count_of": ("{n} × {what}", "{n} × {what}"),
    "fig_gbps": ("{speed}G", "{speed}G"),
    "fig_gbps_form": ("{speed}G {form}", "{speed}G {form}"),
    "fig_mem": ("{gb} GB {mem}", "{gb} GB {mem}"),
    "fig_tb": ("{tb} TB", "{tb} TB"),
    "fig_read": ("read {gbs} GB/s", "读带宽 {gbs} GB/s"),
    "fig_rack": ("{ru}U, {w} × {d} mm", "{ru}U，{w} × {d} mm"),
    "fig_pdu": ("{phases}-phase {v} V {a} A", "{phases} 相 {v} V {a} A"),
    "fig_kw_per_rack": ("up to {kw} kW per rack", "每柜最高 {kw} kW"),
    "fig_join": ("{a}, {b}", "{a}，{b}"),
    # an entry's name with its id, where the reader may type the id (a price list, a command line)
    "entry_name_id": ("{name} ({id})", "{name}（{id}）"),
}
