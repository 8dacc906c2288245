"""Messages of values the model refuses (``model/validate.py``, ``model/goal.py``, ``model/site_limits.py``,
``model/project.py``): an inspector edit, a command or a file's row. Each names the table, row, field and
value; the window shows them in its language and ``str(err)`` stays English (the CLI and the log)."""

# id: (English, Chinese)
ERRORS_MODEL: dict[str, tuple[str, str]] = {
    # a field's value (model/validate.py)
    "error.model.type": (
        "{table} field '{name}' must be {types@value_type}, got {value!r}",
        "{table@table}的字段“{name}”应为{types@value_type}，现为 {value!r}",
    ),
    "error.model.not_finite": (
        "{table} field '{name}' is not a finite number",
        "{table@table}的字段“{name}”不是有限的数值",
    ),
    "error.model.range": (
        "{table} field '{name}' must be between {lo} and {hi}, got {value!r}",
        "{table@table}的字段“{name}”应在 {lo} 到 {hi} 之间，现为 {value!r}",
    ),
    "error.model.choice": (
        "{table} field '{name}' must be one of {choices}",
        "{table@table}的字段“{name}”应为以下之一：{choices}",
    ),
    "error.model.in_row": (
        "table '{table}', row '{row}': {message}",
        "表“{table@table}”第“{row}”行：{message}",
    ),
    "error.model.stored_under": (
        "{table}: row stored under '{row}' has id {id!r}",
        "{table@table}：存放在“{row}”下的行的 id 却是 {id!r}",
    ),
    "error.model.not_saved": (
        "not saved, the project would not reopen: {message}",
        "未保存：项目保存后将无法重新打开：{message}",
    ),
    "error.model.not_saved.hint": (
        "undo the last edit, or correct the value named, then save again",
        "请撤销上一次编辑，或改正所指出的值，然后再保存",
    ),
    # references between rows and to the catalog (model/validate.py, model/refs.py)
    "error.model.missing_ref": (
        "{kind} '{name}' refers to a missing {target}",
        "{kind@row_kind}“{name}”引用的{target@row_kind}不存在",
    ),
    "error.model.no_port_group": (
        "link '{link}': device '{device}' ({type}) has no port group '{group}'",  # {type}: the model's name
        "链路“{link}”：设备“{device}”（{type}）没有端口组“{group}”",
    ),
    "error.model.self_link": (
        "link '{link}' joins a device to itself",
        "链路“{link}”把设备连到了它自己",
    ),
    "error.model.goal_model": (
        "the goal's model '{model}' is not a model in the catalog",
        "设计目标的模型“{model}”不是目录中的模型",
    ),
    "error.model.goal_model.hint": (
        "see `gpuplanner catalog list model`",
        "可用 `gpuplanner catalog list model` 查看",
    ),
    "error.model.rack_unknown_type": (
        "rack '{name}' has an unknown catalog type",
        "机柜“{name}”的型号不在目录中",
    ),
    "error.model.role_kind": (
        "device '{name}' is a {role} device: its model must be a {kinds@device_kind}, not the"
        " {kind@device_kind} {model}",
        "设备“{name}”的角色是{role@device_role}：其型号应为{kinds@device_kind}，而所选的{model}是{kind@device_kind}",
    ),
    "error.model.above_rack": (
        "device '{name}' at U{u} is above the top of rack '{rack}' ({rack_u} U)",
        "设备“{name}”位于 U{u}，高于机柜“{rack}”的顶部（共 {rack_u} U）",
    ),
    "error.model.no_group_for_links": (
        "device '{name}': the {model} has no port group for its links {links}{more}",
        "设备“{name}”：{model}没有可承接其链路 {links}{more} 的端口组",
    ),
    "error.model.rack_too_small": (
        "rack '{name}': the {model} has {rack_u} U, below devices {devices}; move them first",
        "机柜“{name}”：{model}只有 {rack_u} U，低于设备 {devices} 所在的位置；请先移走这些设备",
    ),
    # the goal's lists and rules (model/goal.py)
    "error.model.goal_list_text": (
        "the goal's {name} must be comma-separated text",
        "设计目标的{name@goal_list}应为以逗号分隔的文字",
    ),
    "error.model.goal_list_long": (
        "the goal's {name} list has more than {max} items",
        "设计目标的{name@goal_list}列表超过 {max} 项",
    ),
    "error.model.goal_oversub": (
        "the goal's oversubscription '{item}' is not between 1 (non-blocking) and 8",
        "设计目标的超分比“{item}”不在 1（无阻塞）到 8 之间",
    ),
    "error.model.goal_not_a_name": (
        "the goal's {name} list: '{item}' is not a name",
        "设计目标的{name@goal_list}列表：“{item}”不是一个名称",
    ),
    "error.model.goal_not_one_of": (
        "the goal's {what@goal_list} '{item}' is not one of {allowed}",
        "设计目标的{what@goal_list}“{item}”不在可选值 {allowed} 之中",
    ),
    "error.model.goal_no_template": (
        "the goal needs at least one fabric template",
        "设计目标至少需要一个网络模板",
    ),
    "error.model.goal_no_oversub": (
        "the goal needs at least one oversubscription",
        "设计目标至少需要一个超分比",
    ),
    # site positions and region (model/site_limits.py)
    "error.model.positions_json": (
        "site positions are not valid JSON ({reason})",
        "场地机位不是有效的 JSON（{reason}）",
    ),
    "error.model.positions_list": (
        "site positions must be a list",
        "场地机位应为一个列表",
    ),
    "error.model.position_map": (
        "site position group {n} is not a mapping",
        "场地机位第 {n} 组不是键值映射",
    ),
    "error.model.position_count": (
        "site position group {n}: count must be a whole number ≥ 1",
        "场地机位第 {n} 组：数量应为不小于 1 的整数",
    ),
    "error.model.position_cooling": (
        "site position group {n}: cooling must be one of {choices}",
        "场地机位第 {n} 组：冷却方式应为以下之一：{choices}",
    ),
    "error.model.position_kw": (
        "site position group {n}: kw must be a positive number",
        "场地机位第 {n} 组：功率（kW）应为正数",
    ),
    "error.model.rack_positions": (
        "cannot read rack positions '{text}'",
        "无法读取机柜位置“{text}”",
    ),
    "error.model.rack_positions.hint": (
        "write COUNTxKWkW-COOLING, e.g. 24x40kW-air,8x120kW-liquid",
        "请写成 数量x功率kW-冷却方式，例如 24x40kW-air,8x120kW-liquid",
    ),
    "error.model.region": (
        "region must be a two-letter ISO 3166-1 country code in capitals (CN, US, DE …)",
        "地区应为两个大写字母的 ISO 3166-1 国家代码（CN、US、DE 等）",
    ),
    "error.model.serving_rate": (
        "a serving goal needs a request rate (requests_per_s) or a number of concurrent users (users) above 0",
        "推理服务目标需要大于 0 的请求速率（requests_per_s）或并发用户数（users）",
    ),
    "error.model.percentile": (
        "{table} field '{name}' = {value}: a percentile below 100 (e.g. 99, MLPerf), or 0 for the target in the mean",
        "{table} 字段“{name}” = {value}：百分位须小于 100（如 MLPerf 的 99），0 表示目标按平均值计",
    ),
    "error.model.goal_fp4_training": (
        "the goal's precision fp4 is modelled for serving goals only (kind inference); training in FP4 is not "
        "modelled: use bf16, fp16 or fp8",
        "设计目标的精度 fp4 仅用于推理服务目标（kind 为 inference）；不对 FP4 训练建模：请改用 bf16、fp16 或 fp8",
    ),
    # rows of the project (model/project.py)
    "error.model.no_row": ("no row '{row}' in {table}", "{table@table}中没有“{row}”这一行"),
    "error.model.singleton": (
        "{table} has exactly one row; replace it instead",
        "{table@table}只有一行；请改为替换它",
    ),
    "error.model.id_exists": (
        "id '{row}' already exists in {table}",
        "{table@table}中已有 id 为“{row}”的行",
    ),
    "error.model.cannot_delete": ("{table} cannot be deleted", "{table@table}不能删除"),
    "error.model.still_referred": (
        "{table} row '{row}' is still referred to by {who}{more}",
        "{table@table}中的“{row}”仍被 {who}{more} 引用",
    ),
    "error.model.and_more": (" and {n} more", " 等另外 {n} 项"),
    # words the messages above look up
    "word.table.project": ("project", "项目信息"),
    "word.table.site": ("site", "场地"),
    "word.table.racks": ("racks", "机柜"),
    "word.table.devices": ("devices", "设备"),
    "word.table.links": ("links", "链路"),
    "word.table.fabrics": ("fabrics", "网络"),
    "word.table.workloads": ("workloads", "工作负载"),
    "word.table.scenarios": ("scenarios", "方案"),
    "word.table.phases": ("phases", "阶段"),
    "word.table.teams": ("teams", "团队"),
    "word.table.aisle_rows": ("aisle rows", "机柜列"),
    "word.table.floor_items": ("floor items", "机房设施"),
    "word.table.goal": ("goal", "设计目标"),
    "word.row_kind.racks": ("rack", "机柜"),
    "word.row_kind.devices": ("device", "设备"),
    "word.row_kind.links": ("link", "链路"),
    "word.row_kind.phases": ("phase", "阶段"),
    "word.row_kind.fabrics": ("fabric", "网络"),
    "word.row_kind.floor_items": ("floor item", "机房设施"),
    "word.value_type.int": ("a whole number", "整数"),
    "word.value_type.float": ("a number", "数值"),
    "word.value_type.str": ("text", "文字"),
    "word.value_type.bool": ("yes or no", "“是”或“否”"),
    "word.value_type.int_or_empty": ("a whole number or empty", "整数或留空"),
    "word.value_type.float_or_empty": ("a number or empty", "数值或留空"),
    "word.value_type.str_or_empty": ("text or empty", "文字或留空"),
    "word.value_type.bool_or_empty": ("yes, no or empty", "“是”“否”或留空"),
    "word.device_role.compute": ("compute", "计算节点"),
    "word.device_role.leaf": ("leaf", "叶交换机"),
    "word.device_role.spine": ("spine", "脊交换机"),
    "word.device_role.core": ("core", "核心交换机"),
    "word.device_role.storage": ("storage", "存储"),
    "word.device_role.storage-switch": ("storage switch", "存储交换机"),
    "word.device_role.management": ("management", "管理交换机"),
    "word.device_role.other": ("other", "其他"),
    "word.goal_list.templates": ("fabric template", "网络模板"),
    "word.goal_list.cooling": ("cooling method", "冷却方式"),
    "word.goal_list.servers": ("servers", "服务器型号"),
    "word.goal_list.vendors": ("vendors", "厂商"),
    "word.goal_list.oversubs": ("oversubscriptions", "超分比"),
}
