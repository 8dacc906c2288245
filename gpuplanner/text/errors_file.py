"""Messages of errors the desktop user sees when a project file, a save or an import is refused. Storage
and imports raise them with the message id and its values; the window renders them in its language and
``str(err)`` stays English (the CLI and the log)."""

# id: (English, Chinese)
ERRORS_FILE: dict[str, tuple[str, str]] = {
    # where an error happened, and its one-line form (``text.error_line``)
    "error.where.entry": ("entry '{entry}'", "条目“{entry}”"),
    "error.where.field": ("field '{field}'", "字段“{field}”"),
    "error.where.separator": (", ", "，"),
    "error.where.line": ("{where}: {message}", "{where}：{message}"),
    "error.where.hint": ("{text} ({hint})", "{text}（{hint}）"),
    # opening a project file
    "error.file.not_found": ("no such file", "文件不存在"),
    "error.file.not_regular": (
        "{reason}; a project is a .gpuplan file",
        "{reason}；项目应是一个 .gpuplan 文件",
    ),
    # what the path is instead of a file (core/safeio.NotRegularFileError.what), the reason of not_regular
    "error.file.kind.a folder": ("is a folder, not a regular file", "是文件夹，不是普通文件"),
    "error.file.kind.a named pipe (FIFO)": (
        "is a named pipe (FIFO), not a regular file",
        "是命名管道（FIFO），不是普通文件",
    ),
    "error.file.kind.a socket": ("is a socket, not a regular file", "是套接字，不是普通文件"),
    "error.file.kind.a device": ("is a device, not a regular file", "是设备文件，不是普通文件"),
    "error.file.kind.not a regular file": ("is not a regular file", "不是普通文件"),
    "error.file.cannot_read": ("cannot read: {reason}", "无法读取：{reason}"),
    # a catalog look-up (catalog/loader.Catalog.get): a mistyped --server, --gpu, --model or type id
    "error.catalog.no_entry": ("no catalog entry '{entry_id}'", "目录中没有条目“{entry_id}”"),
    "error.catalog.no_entry.hint": ("see `gpuplanner catalog list`", "见 `gpuplanner catalog list`"),
    # an output the CLI is asked to write (cli/common.check_output), refused before any work
    "error.out.no_folder": (
        "cannot write here: the folder '{folder}' does not exist",
        "无法写入：文件夹“{folder}”不存在",
    ),
    "error.out.not_folder": (
        "cannot write here: the folder '{folder}' is not a folder",
        "无法写入：“{folder}”不是文件夹",
    ),
    "error.out.read_only": (
        "cannot write here: the folder '{folder}' is read-only",
        "无法写入：文件夹“{folder}”是只读的",
    ),
    "error.out.is_folder": ("is a folder; give a file name", "这是一个文件夹，请给出文件名"),
    "error.file.not_project": (
        "not a GPU Planner project (the file holds something else)",
        "这不是 GPU Planner 项目（文件里是别的内容）",
    ),
    "error.file.not_project.hint": (
        "open a .gpuplan file saved by GPU Planner",
        "请打开由 GPU Planner 保存的 .gpuplan 文件",
    ),
    "error.file.in_use": (
        "the file is in use by another program (it holds a write lock)",
        "文件正被另一个程序使用（该程序持有写锁）",
    ),
    "error.file.in_use.hint": (
        "close it there, or wait, and try again",
        "请在那个程序中关闭它，或稍等片刻再试",
    ),
    "error.file.damaged_or_truncated": (
        "damaged or truncated project file ({reason})",
        "项目文件已损坏或不完整（{reason}）",
    ),
    "error.file.damaged": ("damaged project file ({reason})", "项目文件已损坏（{reason}）"),
    "error.file.other_database": (
        "not a GPU Planner project (a database of another program)",
        "这不是 GPU Planner 项目（而是其他程序的数据库）",
    ),
    "error.file.newer": (
        "made by a newer GPU Planner (file format {version}; this version reads up to {max_version})",
        "该文件由更新版本的 GPU Planner 创建（文件格式 {version}；本版本最高只能读取格式 {max_version}）",
    ),
    "error.file.newer.hint": ("update GPU Planner to open it", "请升级 GPU Planner 后再打开"),
    "error.file.unknown_version": (
        "damaged project file: unknown file format version {version} "
        "(GPU Planner files are versions 1 to {max_version})",
        "项目文件已损坏：未知的文件格式版本 {version}（GPU Planner 文件的格式版本为 1 至 {max_version}）",
    ),
    "error.file.bad_row": ("bad row in table '{table}': {reason}", "表“{table}”中有一行无法读取：{reason}"),
    "error.file.bad_value": (
        "bad value in table '{table}', row '{row}': {reason}",
        "表“{table}”第“{row}”行的取值有误：{reason}",
    ),
    "error.file.bad_reference": (
        "bad reference in table '{table}', row '{row}': {reason}",
        "表“{table}”第“{row}”行的引用有误：{reason}",
    ),
    "error.file.not_json_text": ("{what}: not JSON text", "{what}：不是 JSON 文本"),
    "error.file.bad_json": ("{what}: not valid JSON ({reason})", "{what}：不是有效的 JSON（{reason}）"),
    "error.file.not_object": ("{what}: not an object", "{what}：应为一个对象（键值映射）"),
    "error.file.with_reason": ("{what}: {reason}", "{what}：{reason}"),
    "error.file.catalog_copy": ("bad catalog copy for '{entry}'", "项目中“{entry}”的目录副本有误"),
    "error.file.price_copy": ("bad price copy for '{entry}'", "项目中“{entry}”的价格副本有误"),
    "error.file.price_not_number": ("{what}: price_usd is not a number", "{what}：价格不是数字"),
    "error.file.price_range": (
        "{what}: price_usd must be between 0 and {max_usd}",
        "{what}：价格必须在 0 到 {max_usd} 美元之间",
    ),
    "error.file.not_text": ("{what}: {name} is not text", "{what}：{name} 不是文本"),
    "error.file.estimate_not_bool": (
        "{what}: estimate is not true/false",
        "{what}：“是否估算”（estimate）应为 true 或 false",
    ),
    "error.file.unknown_field": ("{what}: unknown field '{name}'", "{what}：未知字段“{name}”"),
    "error.file.duplicate_id": (
        "damaged project file: id '{id}' appears more than once in table '{table}'",
        "项目文件已损坏：编号“{id}”在表“{table}”中出现了不止一次",
    ),
    "error.file.duplicate_ids": (
        "damaged project file: an id appears more than once in table '{table}'",
        "项目文件已损坏：表“{table}”中有重复的编号",
    ),
    "error.file.table_missing": (
        "incomplete project file: table '{table}' is missing",
        "项目文件不完整：缺少表“{table}”",
    ),
    "error.file.no_id_column": (
        "damaged project file: table '{table}' has no id column",
        "项目文件已损坏：表“{table}”没有编号（id）列",
    ),
    "error.file.one_row": ("table '{table}' must hold exactly one row", "表“{table}”必须恰好有一行"),
    "error.file.row_id_mismatch": (
        "table '{table}': row '{key}' carries the id '{id}'",
        "表“{table}”：存放在“{key}”下的行，编号却是“{id}”",
    ),
    "error.file.would_not_reopen": (
        "the catalog entry '{entry}' would not reopen: {reason}",
        "目录条目“{entry}”保存后将无法重新打开：{reason}",
    ),
    # saving
    "error.file.no_folder": ("the folder does not exist", "文件夹不存在"),
    "error.file.is_folder": ("is a folder, not a project file", "这是一个文件夹，不是项目文件"),
    "error.file.cannot_save": ("cannot save: {reason}", "无法保存：{reason}"),
    "error.file.disk_full": ("the disk is full (no space left on device)", "磁盘已满（设备上没有剩余空间）"),
    "error.file.kept": ("the file on disk is as it was", "磁盘上的文件保持原样"),
    "error.file.no_name_yet": ("no file name yet: use Save As", "还没有文件名：请使用“另存为”"),
    # importing an existing cluster
    "error.import.unknown_format": (
        "not a format GPU Planner can import (Slurm topology.conf, NetBox CSV folder, ibnetdiscover output)",
        "不是 GPU Planner 能导入的格式（可导入 Slurm topology.conf、NetBox CSV 文件夹、ibnetdiscover 输出）",
    ),
    "error.import.not_found": ("no such file or folder", "文件或文件夹不存在"),
    "error.import.no_format": (
        "no import format '{fmt}' (choose {options})",
        "没有名为“{fmt}”的导入格式（可选：{options}）",
    ),
    "error.import.not_in_catalog": (
        "'{id}' is not a {what@device_kind} in the catalog",
        "目录中没有名为“{id}”的{what@device_kind}",
    ),
    "error.import.no_devices": ("the file describes no devices", "文件中没有描述任何设备"),
    "error.import.no_ib_blocks": ("no Switch or Ca blocks found", "没有找到 Switch 或 Ca 段落"),
    "error.import.no_csv": ("no {what} CSV in the folder", "文件夹中没有 {what} 的 CSV 文件"),
    "error.import.missing_column": ("missing column '{column}'", "缺少列“{column}”"),
    "error.import.give_folder": (
        "give the folder holding the NetBox CSV files",
        "请给出存放 NetBox CSV 文件的文件夹",
    ),
    "error.import.not_key_value": (
        "line {line}: '{token}' is not Key=Value",
        "第 {line} 行：“{token}”不是 Key=Value 形式",
    ),
    "error.import.block_form": (
        "the block form cannot be imported; give the tree form",
        "无法导入块（block）形式的拓扑；请提供树（tree）形式",
    ),
    "error.import.no_switchname": ("line {line}: no SwitchName", "第 {line} 行：缺少 SwitchName"),
    "error.import.bad_hostlist": (
        "line {line}: bad hostlist ({reason})",
        "第 {line} 行：主机列表无效（{reason}）",
    ),
}
