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
}
