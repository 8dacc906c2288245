"""Messages of edits the model refuses when a command is applied (the window shows them in its language;
``str(err)`` stays English)."""

# id: (English, Chinese)
ERRORS_EDIT: dict[str, tuple[str, str]] = {
    "error.edit.no_field": ("{table} has no field '{name}'", "表“{table}”没有字段“{name}”"),
    "error.edit.unknown_type": (
        "device '{name}' has an unknown catalog type",
        "设备“{name}”的型号不在目录中",
    ),
    "error.edit.no_group_for_links": (
        "the {model} has no port group of the same kind for links {links}{more}; delete or move those links"
        " first",
        "{model}没有同类端口组来承接链路 {links}{more}；请先删除或移走这些链路",
    ),
    "error.edit.and_more": (" and {n} more", " 以及另外 {n} 条"),
    # `gpuplanner set FILE KEY=VALUE` (cli/set_cmd.py) and `catalog list KIND`, `advise --model` (the CLI's
    # look-ups of a name the user typed)
    "error.set.unknown_key": ("unknown key '{key}'", "没有名为“{key}”的设置项"),
    "error.set.fields": ("fields: {names}", "可设字段：{names}"),
    "error.set.partition_keys": (
        "partition.NAME.servers or partition.NAME.phase",
        "partition.NAME.servers 或 partition.NAME.phase",
    ),
    "error.set.see_help": ("see `gpuplanner set --help`", "见 `gpuplanner set --help`"),
    # what `set` prints: a name it did not find is a new row (a typo shows here)
    "cli.set.applied": ("{file}: {n} {n|setting|settings} applied", "{file}：已应用 {n} 项设置"),
    "cli.set.created_workload": ("created workload '{name}'", "已新建工作负载“{name}”"),
    "cli.set.created_phase": ("created phase '{name}'", "已新建阶段“{name}”"),
    "error.catalog.unknown_kind": ("unknown kind '{kind}'", "没有名为“{kind}”的目录类别"),
    "error.set.not_number": ("{key}: '{text}' is not a number", "{key}：“{text}”不是数字"),
    "error.set.not_whole": ("{key}: '{text}' is not a whole number", "{key}：“{text}”不是整数"),
    "error.catalog.not_folder": ("not a folder", "不是文件夹"),
    "error.goal.no_file": ("{path}: no such goal file", "{path}：目标文件不存在"),
    "error.report.no_designs": (
        "no such file (the designs.json of `gpuplanner advise -o DIR`)",
        "文件不存在（应为 `gpuplanner advise -o DIR` 写出的 designs.json）",
    ),
    "error.advise.no_model": ("no model '{model_id}' in the catalog", "目录中没有模型“{model_id}”"),
    "error.advise.no_model.hint": ("gpuplanner catalog list model", "见 gpuplanner catalog list model"),
}
