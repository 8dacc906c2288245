"""Messages of a topology generator refusing an impossible request (New from template, Add from template,
presets, the CLI's generate): the window shows them in its language; ``str(err)`` stays English."""

# id: (English, Chinese)
# {server}, {storage}, {switch}, {leaf}: the catalog entry's name in the message's language, with its id where the
# reader chose it by id (--server, --leaf-switch, …); a Chinese name says its kind ("GPU 服务器 …", "… 交换机")
ERRORS_TOPOLOGY: dict[str, tuple[str, str]] = {
    "error.gen.leaf_cannot_take_device": (
        "{dev}: one {switch} cannot take even one of its ports and uplinks",
        "{dev}：一台 {switch} 连它的一个端口加上行链路都容纳不下",
    ),
    "error.gen.no_storage_system": (
        "a storage fabric needs a storage system and the catalog has none",
        "存储网络需要存储系统，但设备目录中没有",
    ),
    "error.gen.server_no_storage_ports": (
        "the server {server} has no storage or front-end ports for a storage fabric",
        "{server}没有可接入存储网络的存储端口或前端端口",
    ),
    "error.gen.storage_no_data_ports": (
        "the storage system {storage} has no data ports",
        "{storage}没有数据端口",
    ),
    "error.gen.storage_technology_mismatch": (
        "the storage system {storage} has {storage_tech} data ports but the storage switch {switch} is"
        " {switch_tech}: choose a storage system or switch of the same technology",
        "{storage}的数据端口是 {storage_tech}，而用作存储交换机的{switch}是 {switch_tech}：请选择同一技术的"
        "存储系统或交换机",
    ),
    "error.gen.no_free_positions": (
        "the site states no free rack positions to fill",
        "场地没有列出可供填充的空闲机柜位",
    ),
    "error.gen.no_free_positions.hint": (
        "set them first: gpuplanner set FILE positions=24x40kW-air,8x120kW-liquid",
        "请先设置：gpuplanner set FILE positions=24x40kW-air,8x120kW-liquid",
    ),
    "error.gen.partition_name": (
        "a partition name is 1-32 letters, digits, '-', '_' or '.'",
        "分区名称须为 1–32 个字母、数字、“-”、“_”或“.”",
    ),
    "error.gen.pod_names_taken": (
        "the project already has devices named like this pod's ({name} …)",
        "项目中已有与该 Pod 同名的设备（{name} …）",
    ),
    "error.gen.pod_names_taken.hint": (
        "give the pod another --partition name",
        "请用 --partition 给该 Pod 另起一个名称",
    ),
    "error.gen.dragonfly_radix": (
        "switch radix {k} is too small for a dragonfly",
        "交换机端口数 {k} 太少，无法组成 dragonfly 拓扑",
    ),
    "error.gen.dragonfly_groups": (
        "a balanced dragonfly of radix-{k} switches holds at most {groups} groups ({servers} servers)",
        "由 {k} 端口交换机组成的均衡 dragonfly 最多容纳 {groups} 个组（{servers} 台服务器）",
    ),
    "error.gen.dragonfly_groups.hint": (
        "use a fat tree or a higher radix",
        "请改用胖树拓扑，或选用端口更多的交换机",
    ),
    "error.gen.server_no_compute_ports": (
        "the server {server} has no compute-fabric ports",
        "{server}没有计算网络端口",
    ),
    "error.gen.leaf_too_small": (
        "a leaf of {k} ports cannot take {down} downlinks at {oversub:g}:1 (needs {ports} ports)",
        "{k} 端口的叶交换机在 {oversub:g}:1 收敛比下接不下 {down} 条下行链路（需要 {ports} 个端口）",
    ),
    "error.gen.leaf_too_small.hint": (
        "smaller scalable units, more oversubscription or a higher-radix switch",
        "请缩小可扩展单元、提高收敛比，或选用端口更多的交换机",
    ),
    "error.gen.uplinks_uneven": (
        "{uplinks} uplinks do not spread evenly over {switches} switches",
        "{uplinks} 条上行链路无法均匀分到 {switches} 台交换机上",
    ),
    "error.gen.two_tier_full": (
        "a 2-tier fabric of {k}-port spines holds at most {k} leaves (≈ {endpoints:,} endpoints at 1:1);"
        " this plan needs {leaves} leaves",
        "由 {k} 端口脊交换机组成的两层网络最多容纳 {k} 台叶交换机（1:1 时约 {endpoints:,} 个端点）；"
        "本方案需要 {leaves} 台叶交换机",
    ),
    "error.gen.two_tier_full.hint": (
        "choose 3 tiers (fat-tree-3tier), more planes or a higher-radix switch",
        "请改用三层网络（fat-tree-3tier）、增加平面数，或选用端口更多的交换机",
    ),
    "error.gen.pod_spines_too_small": (
        "a pod of {leaves} leaves needs spines of ≥ {ports} ports",
        "含 {leaves} 台叶交换机的 Pod 需要至少 {ports} 端口的脊交换机",
    ),
    "error.gen.three_tier_full": (
        "a 3-tier fabric of {k}-port cores holds at most {k} pods (≈ {endpoints:,} endpoints); this plan needs"
        " {pods}",
        "由 {k} 端口核心交换机组成的三层网络最多容纳 {k} 个 Pod（约 {endpoints:,} 个端点）；本方案需要 {pods} 个",
    ),
    "error.gen.three_tier_full.hint": (
        "use two or more planes, or a higher-radix switch",
        "请使用两个或更多平面，或选用端口更多的交换机",
    ),
    "error.gen.unknown_template": ("unknown template '{name}'", "没有名为“{name}”的模板"),
    "error.gen.unknown_preset": ("unknown preset '{name}'", "没有名为“{name}”的预设方案"),
    "error.gen.one_of": ("one of {options}", "可选：{options}"),
    "error.gen.at_least_one_server": ("at least one server is needed", "至少需要一台服务器"),
    "error.gen.too_many_servers": (
        "at most {max:,} servers can be generated",
        "最多只能生成 {max:,} 台服务器",
    ),
    "error.gen.oversub_below_one": (
        "oversubscription must be ≥ 1 (1 = non-blocking)",
        "收敛比必须 ≥ 1（1 表示无阻塞）",
    ),
    "error.gen.planes_below_one": ("planes must be ≥ 1", "平面数必须 ≥ 1"),
    "error.gen.no_phase": ("no phase '{phase}' in the project", "项目中没有建设阶段“{phase}”"),
    "error.gen.no_port_group": (
        "the server {server} has no port group '{group}' (it has: {names})",
        "{server}没有端口组“{group}”（现有：{names}）",
    ),
    "error.gen.server_no_network_ports": (
        "the server {server} has no network ports to connect",
        "{server}没有可连接的网络端口",
    ),
    "error.gen.single_switch_full": (
        "one {switch} offers {have} ports of {speed:g} Gb/s; {servers} servers need {need}",
        "一台 {switch} 只有 {have} 个 {speed:g} Gb/s 端口；{servers} 台服务器需要 {need} 个",
    ),
    "error.gen.single_switch_full.hint": (
        "use leaf-spine for more servers",
        "服务器更多时请改用叶脊拓扑",
    ),
    "error.gen.leaf_no_speed": (
        "the leaf switch {leaf} has no ports of {speed:g} Gb/s",
        "用作叶交换机的{leaf}没有 {speed:g} Gb/s 端口",
    ),
    "error.gen.planes_split": (
        "{rails} NIC ports per server do not split into {planes} planes",
        "每台服务器的 {rails} 个网卡端口无法平均分到 {planes} 个平面",
    ),
    "error.gen.leaf_cannot_take_server": (
        "a leaf of {k} ports cannot take one server's {ports} NIC ports",
        "{k} 端口的叶交换机接不下一台服务器的 {ports} 个网卡端口",
    ),
    "error.gen.not_a_rack": ("'{name}' is not a rack type", "“{name}”不是机柜型号"),
    "error.gen.device_too_tall": (
        "a {ru}U device does not fit a {rack_ru}U rack",
        "{ru}U 的设备放不进 {rack_ru}U 的机柜",
    ),
    "error.gen.switch_too_slow": (
        "the switch {switch} has no ports of {speed:g} Gb/s or faster",
        "{switch}没有 {speed:g} Gb/s 或更快的端口",
    ),
    "error.gen.switch_too_slow.hint": (
        "choose a switch model with ports at the servers' NIC speed",
        "请选择端口速率与服务器网卡相同的交换机型号",
    ),
    "error.gen.port_group_full": (
        "{dev}: port group '{group}' would need {need} ports, it has {have}",
        "{dev}：端口组“{group}”需要 {need} 个端口，但只有 {have} 个",
    ),
    "error.gen.port_group_full.hint": (
        "fewer servers per switch, a higher radix, or more oversubscription",
        "请减少每台交换机所接的服务器、选用端口更多的交换机，或提高收敛比",
    ),
    "error.gen.wrong_kind": (
        "'{name}' is a {kind@catalog_kind}, not a {what@catalog_kind}",
        "“{name}”是{kind@catalog_kind}，不是{what@catalog_kind}",
    ),
    # the kinds of catalog entries, as the sentence above names them
    "word.catalog_kind.gpu": ("gpu", "GPU"),
    "word.catalog_kind.server": ("server", "服务器"),
    "word.catalog_kind.switch": ("switch", "交换机"),
    "word.catalog_kind.storage": ("storage system", "存储系统"),
    "word.catalog_kind.nic": ("nic", "网卡"),
    "word.catalog_kind.cable": ("cable", "线缆"),
    "word.catalog_kind.transceiver": ("transceiver", "光模块"),
    "word.catalog_kind.rack": ("rack", "机柜"),
    "word.catalog_kind.pdu": ("pdu", "PDU"),
    "word.catalog_kind.cooling": ("cooling", "制冷设备"),
    "word.catalog_kind.model": ("model", "模型"),
}
