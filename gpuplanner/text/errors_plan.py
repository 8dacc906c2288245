"""Messages of errors the user sees from the plan analysis: scenarios, workloads on the plan, assumption
files. The engine raises them in English (``text.en``); the Chinese is for the UI and the report."""

# id: (English, Chinese)
ERRORS_PLAN: dict[str, tuple[str, str]] = {
    "error.no_scenario": (
        "no scenario '{name}' (the project has: {names})",
        "没有名为“{name}”的场景（项目中有：{names}）",
    ),
    "error.scenario_json": (
        "scenario '{name}': overrides are not valid JSON ({reason})",
        "场景“{name}”：覆盖设置不是有效的 JSON（{reason}）",
    ),
    "error.scenario_cannot_override": (
        "scenario '{name}': cannot override '{key}'",
        "场景“{name}”：无法覆盖“{key}”",
    ),
    "error.scenario_no_field": (
        "scenario '{name}': no field '{field}'",
        "场景“{name}”：没有字段“{field}”",
    ),
    "error.no_phase": (
        "no phase '{name}' (the project has: {names})",
        "没有名为“{name}”的阶段（项目中有：{names}）",
    ),
    "error.assumption_missing": (
        "assumption {name!r} is missing",
        "缺少假设参数 {name!r}",
    ),
    "error.assumption_missing.hint": (
        "restore the entry",
        "请恢复该条目",
    ),
    "error.read_assumptions": (
        "cannot read assumptions: {reason}",
        "无法读取假设参数文件：{reason}",
    ),
    "error.no_entries_map": (
        "no 'entries' map",
        "缺少 “entries” 映射",
    ),
    "error.expected_map": (
        "expected a map of values",
        "此处应为取值映射",
    ),
    "error.no_gpu_value": (
        "no value for GPU {gpu!r} and no default",
        "没有 GPU {gpu!r} 对应的取值，也没有默认值",
    ),
    "error.read_runs": (
        "cannot read the published runs: {reason}",
        "无法读取已发表的训练实测数据：{reason}",
    ),
    "error.read_collective_runs": (
        "cannot read the published collective runs: {reason}",
        "无法读取已发表的集合通信实测数据：{reason}",
    ),
    "error.unknown_request_fields": (
        "unknown request field(s) {fields}",
        "未知的请求字段：{fields}",
    ),
    "error.no_gpu_servers": (
        "the plan has no GPU servers",
        "方案中没有 GPU 服务器",
    ),
    "error.no_gpu_servers_in_partition": (
        "the plan has no GPU servers in this partition",
        "方案的该分区中没有 GPU 服务器",
    ),
    "error.on_off": (
        "workload '{workload}': {field} '{value}' must be on, off or empty",
        "工作负载“{workload}”：{field}「{value}」只能为 on、off 或留空",
    ),
    "error.workload_fp4_training": (
        "workload '{workload}' ({kind}): precision fp4 is modelled for inference workloads only; use bf16, fp16 or fp8",
        "工作负载“{workload}”（{kind}）：精度 fp4 仅对推理工作负载建模；请改用 bf16、fp16 或 fp8",
    ),
    "error.workload_setting": (
        "workload '{workload}': {field} '{value}' is not one of {options} (or empty: the stack's value, then the default)",
        "工作负载“{workload}”：{field}「{value}」不在可选值 {options} 之中（或留空：取软件栈的值，再取默认值）",
    ),
    "error.workload_serving_setting": (
        "workload '{workload}': {field} '{value}' is not one of {options} (or empty: {empty})",
        "工作负载“{workload}”：{field}「{value}」不在可选值 {options} 之中（或留空：{empty}）",
    ),
    "error.workload_serving_stack.empty": (
        "vllm, as estimate --inference",
        "取 vllm，与 estimate --inference 相同",
    ),
    "error.workload_prompt_dataset.empty": (
        "every prompt has the workload's prompt_len",
        "每个提示词的长度均为该工作负载的 prompt_len",
    ),
    "error.workload_prompt_not_mean": (
        "workload '{workload}': prompt_dataset '{value}' has a mean prompt length of {mean:.1f} tokens, but "
        "prompt_len is {prompt}: set prompt_len to {give} or leave prompt_dataset empty",
        "工作负载“{workload}”：prompt_dataset「{value}」的提示词长度均值为 {mean:.1f} 个 token，而 prompt_len 为 "
        "{prompt}：请把 prompt_len 设为 {give}，或将 prompt_dataset 留空",
    ),
    "error.workload_partition_empty": (
        "workload '{workload}': no servers in partition '{partition}'",
        "工作负载“{workload}”：分区“{partition}”中没有服务器",
    ),
    "error.workload_needs_gpus": (
        "workload '{workload}' needs {used} GPUs (TP {tp} × PP {pp} × DP {dp} × CP {cp}); the plan has {gpus}",
        "工作负载“{workload}”需要 {used} 块 GPU（TP {tp} × PP {pp} × DP {dp} × CP {cp}），而方案只有 {gpus} 块",
    ),
    "error.partition_empty": (
        "no servers in partition '{partition}'",
        "分区“{partition}”中没有服务器",
    ),
}
