"""Messages of errors writing the proposal and its files (``reports/``): the window shows them in its language,
``str(err)`` stays English (the CLI and the log)."""

# id: (English, Chinese)
ERRORS_REPORT: dict[str, tuple[str, str]] = {
    "error.report.no_language": (
        "no report language '{lang}' (choose {choices})",
        "没有报告语言“{lang}”（可选：{choices}）",
    ),
    "error.report.phases_failed": (
        "the phases cannot be analysed ({reason})",
        "无法分析各建设阶段（{reason}）",
    ),
    "error.report.analysis_failed": (
        "the project cannot be analysed ({reason})",
        "无法分析该项目（{reason}）",
    ),
    "error.report.cannot_write_report": (
        "cannot write the report: {reason}",
        "无法写入报告：{reason}",
    ),
    "error.report.cannot_write": ("cannot write: {reason}", "无法写入：{reason}"),
    "error.report.no_rack": ("no rack '{rack}' in the project", "项目中没有机柜“{rack}”"),
    "error.report.no_format": (
        "no file format '{format}' here (choose {choices})",
        "此处没有文件格式“{format}”（可选：{choices}）",
    ),
    "error.report.font_env_missing": ("{env} names a missing file", "{env} 指向的文件不存在"),
    "error.report.font_env_missing.hint": ("unset it or fix the path", "请取消该设置或改正路径"),
    "error.report.font_missing": (
        "the bundled font {file} is missing",
        "随附的字体 {file} 缺失",
    ),
    "error.report.font_missing.hint": (
        "reinstall GPU Planner or set {env}",
        "请重新安装 GPU Planner，或设置 {env}",
    ),
    "error.report.cjk_font_unreadable": ("cannot read the CJK font: {reason}", "无法读取中文字体：{reason}"),
    "error.report.font_unreadable": ("cannot read the font: {reason}", "无法读取字体：{reason}"),
}
