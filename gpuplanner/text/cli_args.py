"""The command line's own refusals (argparse's messages and the CLI's argument types, ``cli/argerrors.py``) in
Chinese. The English line is argparse's as printed; these templates repeat it so that the Chinese one has the
same parts."""

# id: (English, Chinese)
ARGS: dict[str, tuple[str, str]] = {
    "error.args.see_help": ("{line} (see `{prog} --help`)", "{line}（见 `{prog} --help`）"),
    "error.args.name_command": ("name a command (see `gpuplanner --help`)", "请指定一个命令（见 `gpuplanner --help`）"),
    "error.args.invalid_choice": (
        "argument {arg}: invalid choice: {value} (choose from {choices})",
        "参数 {arg}：无效的取值 {value}（可选：{choices}）",
    ),
    "error.args.not_int": ("argument {arg}: '{value}' is not a whole number", "参数 {arg}：“{value}”不是整数"),
    "error.args.not_number": ("argument {arg}: '{value}' is not a number", "参数 {arg}：“{value}”不是数字"),
    "error.args.not_finite": ("argument {arg}: '{value}' is not a finite number", "参数 {arg}：“{value}”不是有限的数"),
    "error.args.out_of_range": (
        "argument {arg}: {value} is out of range: {lo} to {hi}{why}",
        "参数 {arg}：{value} 超出范围（{lo} 至 {hi}）{why}",
    ),
    "error.args.more_than": ("more than {lo}", "大于 {lo}"),
    "error.args.why_max": (
        " (GPU Planner plans up to {gpus} GPUs in {servers} servers at once)",
        "（GPU Planner 一次最多规划 {servers} 台服务器、{gpus} 块 GPU）",
    ),
    "error.args.required": ("the following arguments are required: {args}", "缺少必需的参数：{args}"),
    "error.args.unrecognized": ("unrecognized arguments: {args}", "无法识别的参数：{args}"),
    "error.args.expected_one": ("argument {arg}: expected one argument", "参数 {arg}：需要一个取值"),
    "error.args.invalid_value": ("argument {arg}: invalid {kind} value: {value}", "参数 {arg}：无效的 {kind} 取值 {value}"),
    "error.args.not_allowed_with": (
        "argument {arg}: not allowed with argument {other}",
        "参数 {arg}：不能与参数 {other} 同时使用",
    ),
    "error.args.no_display": (
        "no display to open the window on (neither DISPLAY nor WAYLAND_DISPLAY is set); every command works "
        "without one (see `gpuplanner --help`)",
        "没有可打开窗口的显示（未设置 DISPLAY 或 WAYLAND_DISPLAY）；所有命令无需显示即可使用（见 `gpuplanner --help`）",
    ),
}  # fmt: skip
