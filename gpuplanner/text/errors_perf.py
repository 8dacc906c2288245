"""Messages of errors the user sees from the performance estimates (bad model shapes, parallel layouts,
settings). The engine raises them in English (``text.en``); the Chinese is for the UI and the report."""

# id: (English, Chinese)
ERRORS_PERF: dict[str, tuple[str, str]] = {
    "error.not_a_model": (
        "'{id}' is a {kind}, not a model",
        "“{id}”是{kind}，不是模型",
    ),
    "error.model_or_shape": (
        "give --model ID or the shape ({missing} missing)",
        "请给出 --model ID 或模型形状（缺少 {missing}）",
    ),
    "error.not_a_server": (
        "'{id}' is not a server",
        "“{id}”不是服务器",
    ),
    "error.give_gpu": (
        "give --gpu ID (or --server ID, or --fabric FILE)",
        "请给出 --gpu ID（或 --server ID，或 --fabric FILE）",
    ),
    "error.not_a_gpu": (
        "'{id}' is not a GPU",
        "“{id}”不是 GPU",
    ),
    "error.oversub_below_one": (
        "oversubscription must be at least 1",
        "收敛比不能小于 1",
    ),
    "error.at_least_one": (
        "{name} must be at least 1",
        "{name} 不能小于 1",
    ),
    "error.tp_heads": (
        "tp = {tp} does not divide the model's {heads} attention heads",
        "tp = {tp} 不能整除模型的 {heads} 个注意力头",
    ),
    "error.tp_kv_heads_divide": (
        "tp = {tp} must divide the model's {kv} key/value heads",
        "tp = {tp} 必须整除模型的 {kv} 个键/值头",
    ),
    "error.tp_kv_heads_divide_or_multiple": (
        "tp = {tp} must divide or be a multiple of the model's {kv} key/value heads",
        "tp = {tp} 必须整除模型的 {kv} 个键/值头，或是其整数倍",
    ),
    "error.pp_layers": (
        "pp = {pp} exceeds the model's {layers} layers",
        "pp = {pp} 超过了模型的 {layers} 层",
    ),
    "error.vpp_needs_pp": (
        "interleaving (vpp > 1) needs pipeline parallelism (pp ≥ 2)",
        "交错流水线（vpp > 1）需要启用流水线并行（pp ≥ 2）",
    ),
    "error.vpp_layers": (
        "pp × vpp = {pp} × {vpp} virtual stages exceed the model's {layers} layers",
        "pp × vpp = {pp} × {vpp} 个虚拟流水段超过了模型的 {layers} 层",
    ),
    "error.ep_needs_moe": (
        "ep > 1 needs a mixture-of-experts model",
        "ep > 1 需要混合专家（MoE）模型",
    ),
    "error.ep_experts": (
        "ep = {ep} does not divide the model's {experts} experts",
        "ep = {ep} 不能整除模型的 {experts} 个专家",
    ),
    "error.gpus_model_parallel": (
        "{gpus} GPUs do not divide into TP × PP × CP = {tp} × {pp} × {cp} = {model_par}",
        "{gpus} 块 GPU 不能按 TP × PP × CP = {tp} × {pp} × {cp} = {model_par} 整除",
    ),
    "error.gpus_model_parallel.hint": (
        "choose a GPU count that is a multiple of tp × pp × cp",
        "请选择 tp × pp × cp 整数倍的 GPU 数量",
    ),
    "error.dp_gpus": (
        "TP × PP × CP × DP = {product} is not the {gpus} GPUs stated",
        "TP × PP × CP × DP = {product}，与给定的 {gpus} 块 GPU 不符",
    ),
    "error.ep_dp_cp": (
        "ep = {ep} does not divide DP × CP = {dp} × {cp}",
        "ep = {ep} 不能整除 DP × CP = {dp} × {cp}",
    ),
    "error.give_gpus": (
        "give --gpus N (or --fabric FILE)",
        "请给出 --gpus N（或 --fabric FILE）",
    ),
    "error.no_layout_fits": (
        "no parallel layout of {gpus} GPUs fits this model in {mem_gb:g} GB per GPU",
        "{gpus} 块 GPU 的任何并行方式都无法在每块 GPU {mem_gb:g} GB 显存内容纳该模型",
    ),
    "error.no_layout_fits.hint": (
        "add GPUs, or allow recomputation / ZeRO",
        "增加 GPU，或允许激活重计算 / ZeRO",
    ),
    "error.unknown_architecture": (
        "unknown architecture {value!r}",
        "未知的模型架构 {value!r}",
    ),
    "error.use_one_of": (
        "use one of {options}",
        "可选：{options}",
    ),
    "error.hidden_heads": (
        "hidden must be a multiple of heads",
        "hidden 必须是 heads 的整数倍",
    ),
    "error.top_k_experts": (
        "top_k exceeds experts",
        "top_k 超过了专家数 experts",
    ),
    "error.router_groups": (
        "router_group_topk {topk} of router_groups {groups} with {experts} experts: it needs 1 ≤ router_group_topk ≤ router_groups and experts divisible by router_groups",
        "router_groups 为 {groups}、router_group_topk 为 {topk}、专家数为 {experts}：需要 1 ≤ router_group_topk ≤ router_groups，且专家数能被 router_groups 整除",
    ),
    "error.sliding_window": (
        "sliding_window_layers {layers_w} with sliding_window {window}: it needs a window of at least 1 token and at most {layers} windowed layers",
        "sliding_window_layers 为 {layers_w}、sliding_window 为 {window}：窗口至少 1 个 token，滑动窗口层数不能超过总层数 {layers}",
    ),
    "error.swiglu_clamp": (
        "swiglu_clamp {value}: the clamp limit of a gated activation is 0 (none) or positive, and needs gated_mlp",
        "swiglu_clamp 为 {value}：门控激活的截断上限为 0（不截断）或正数，且需要 gated_mlp",
    ),
    "error.pipeline_layout": (
        "pipeline_layout '{layout}' is not a Megatron-Core layout: stages of E (embedding, once), t (layer), m (MTP module) and L (head and loss, once), separated by |, with X*n and (...)*n repeats",
        "pipeline_layout「{layout}」不是 Megatron-Core 的流水线布局：各阶段由 E（嵌入，一次）、t（层）、m（MTP 模块）、L（输出头与损失，一次）组成，以 | 分隔，可用 X*n 与 (...)*n 重复",
    ),
    "error.pipeline_layout_size": (
        "pipeline_layout '{layout}' has {stages} stages and {t} layers; the run needs pp × vpp = {pp} × {vpp} stages and the model's {layers} layers",
        "pipeline_layout「{layout}」有 {stages} 个阶段、{t} 层；该运行需要 pp × vpp = {pp} × {vpp} 个阶段，模型有 {layers} 层",
    ),
    "error.pipeline_layout_needs_pp": (
        "a pipeline_layout fixes the pipeline: state --pp (and --vpp, or it is the layout's stages / pp)",
        "pipeline_layout 固定了流水线划分：请给出 --pp（以及 --vpp，未给出时取布局阶段数 / pp）",
    ),
    "error.mla_dims": (
        "kv_lora_rank is set (Multi-head Latent Attention) without the head widths: it needs qk_nope_head_dim + qk_rope_head_dim ≥ 1 and v_head_dim ≥ 1",
        "设置了 kv_lora_rank（多头潜在注意力，MLA）却缺少头宽：需要 qk_nope_head_dim + qk_rope_head_dim ≥ 1 且 v_head_dim ≥ 1",
    ),
    "error.dense_layers": (
        "dense_layers exceeds layers",
        "dense_layers 超过了总层数 layers",
    ),
    "error.unknown_precision": (
        "unknown precision {value!r}",
        "未知的精度 {value!r}",
    ),
    "error.unknown_precision.hint": (
        "use bf16, fp16 or fp8",
        "可选 bf16、fp16 或 fp8",
    ),
    "error.unknown_recompute": (
        "unknown recompute {value!r}",
        "未知的重计算方式 {value!r}",
    ),
    "error.unknown_recompute.hint": (
        "use none, selective or full",
        "可选 none、selective 或 full",
    ),
    "error.unknown_attention": (
        "unknown attention {value!r}",
        "未知的注意力实现 {value!r}",
    ),
    "error.mxfp8_needs_blackwell": (
        "fp8_recipe mxfp8 needs Blackwell tensor cores (block-scaled FP8 GEMMs); {gpu} has none",
        "fp8_recipe mxfp8 需要 Blackwell 张量核心（块缩放 FP8 GEMM）；{gpu} 不支持",
    ),
    "error.mxfp8_needs_blackwell.hint": (
        "use --fp8-recipe delayed or current on this GPU",
        "此 GPU 请用 --fp8-recipe delayed 或 current",
    ),
    "error.unknown_grad_dtype": (
        "unknown gradient dtype {value!r}",
        "未知的梯度数据类型 {value!r}",
    ),
    "error.unknown_grad_dtype.hint": (
        "use fp32, bf16 or fp16",
        "可选 fp32、bf16 或 fp16",
    ),
    "error.unknown_optimizer": (
        "unknown optimizer {value!r}",
        "未知的优化器实现 {value!r}",
    ),
    "error.unknown_optimizer.hint": (
        "use fused or unfused",
        "可选 fused 或 unfused",
    ),
    "error.zero_stage": (
        "zero_stage must be 0–3",
        "zero_stage 必须在 0–3 之间",
    ),
    "error.global_batch": (
        "global batch {batch} is not a multiple of dp × micro_batch = {dp} × {micro_batch}",
        "全局批大小 {batch} 不是 dp × micro_batch = {dp} × {micro_batch} 的整数倍",
    ),
    "error.global_batch.hint": (
        "choose a global batch divisible by dp × micro_batch",
        "请选择能被 dp × micro_batch 整除的全局批大小",
    ),
    "error.positive": (
        "{name} must be positive",
        "{name} 必须为正数",
    ),
    "error.percentile": (
        "{name} must be a percentile between 0 and 100 (exclusive)",
        "{name} 必须是 0 到 100 之间（不含两端）的百分位",
    ),
    "error.net_factor": (
        "net_factor needs a collective kind (tp, cp, dp, pp, ep) and a share in (0, 1]",
        "net_factor 需要给出集合通信类型（tp、cp、dp、pp、ep）及 (0, 1] 之间的比例",
    ),
    "error.prompt_dist_shape": (
        "a prompt-length distribution needs as many weights as lengths, at least one ({lengths} lengths, {weights} weights)",
        "提示词长度分布的权重个数必须与长度个数相同，且至少一个（{lengths} 个长度，{weights} 个权重）",
    ),
    "error.read_datasets": (
        "cannot read the inference datasets: {reason}",
        "无法读取推理数据集文件：{reason}",
    ),
    "error.no_datasets": ("no datasets listed", "文件中没有列出任何数据集"),
    "error.prompt_dataset.hint": ("known: {known}", "可选：{known}"),
    "error.prompt_bins": (
        "prompt.bins must be a list of [lo, count, mean] ({reason})",
        "prompt.bins 必须是 [下限, 样本数, 均值] 的列表（{reason}）",
    ),
    "error.prompt_not_mean": (
        "the prompt length {prompt} is not the mean of the prompt lengths of {name} ({mean:.1f} tokens): give --prompt {give}",
        "提示词长度 {prompt} 不是 {name} 的提示词长度均值（{mean:.1f} 个 token）：请给出 --prompt {give}",
    ),
    "error.unknown_setting_value": (
        "unknown {name} {value!r}",
        "未知的 {name} 取值 {value!r}",
    ),
    "error.fp4_no_tensor_cores": (
        "{gpu} has no FP4 tensor cores (its catalog entry gives no fp4_dense_tflops): precision {precision} "
        "(NVFP4 weights and activations) is modelled only on GPUs that have them",
        "{gpu} 没有 FP4 张量核心（其目录条目未给出 fp4_dense_tflops）：精度 {precision}"
        "（NVFP4 权重与激活）仅适用于具备 FP4 张量核心的 GPU",
    ),
    "error.fp4_no_tensor_cores.hint": (
        "use fp8 or bf16 on this GPU, or a Blackwell GPU (B200, B300, GB200, GB300) for fp4",
        "此 GPU 请改用 fp8 或 bf16；如需 fp4，请选用 Blackwell GPU（B200、B300、GB200、GB300）",
    ),
    "error.fp4_training": (
        "--precision fp4 is modelled for serving only (with --inference); training in FP4 is not modelled: "
        "use bf16, fp16 or fp8",
        "--precision fp4 仅用于推理服务（需配合 --inference）；不对 FP4 训练建模：请改用 bf16、fp16 或 fp8",
    ),
    "error.serving_precision.hint": (
        "use bf16, fp16, fp8 or fp4",
        "可选 bf16、fp16、fp8 或 fp4",
    ),
    "error.serving_stack.hint": (
        "known serving stacks: {known}",
        "可选的推理软件栈：{known}",
    ),
    "error.kv_fraction": (
        "the KV-cache fraction must be above 0 and at most 1 (got {value})",
        "KV 缓存占比必须大于 0 且不超过 1（当前为 {value}）",
    ),
    "error.max_batched_tokens": (
        "max_batched_tokens (the most tokens one engine step carries, decode plus prefill) must be a whole number "
        "of at least 1 (got {value})",
        "max_batched_tokens（单个引擎步处理的最大 token 数，含解码与预填充）必须是不小于 1 的整数（当前为 {value}）",
    ),
    "error.chunked_prefill": (
        "chunked_prefill (whether prompts are chunked into the decode steps) must be true or false (got {value})",
        "chunked_prefill（是否将提示词分块并入解码步）必须为 true 或 false（当前为 {value}）",
    ),
    "error.unchunked_budget": (
        "max_batched_tokens ({value}) is below the longest prompt ({prompt} tokens): without chunked prefill a "
        "prompt runs whole in one step, so the engine never schedules a longer one (vLLM requires "
        "--max-num-batched-tokens ≥ max_model_len)",
        "max_batched_tokens（{value}）小于最长的提示词（{prompt} 个 token）：不分块预填充时提示词须在一个步内整体处理，"
        "更长的提示词永远不会被调度（vLLM 要求 --max-num-batched-tokens ≥ max_model_len）",
    ),
    "error.gemm_allreduce_fusion": (
        "gemm_allreduce_fusion (each tensor-parallel all-reduce fused into the GEMM before it) must be true or false "
        "(got {value})",
        "gemm_allreduce_fusion（张量并行的每次全归约与其前面的 GEMM 融合）必须为 true 或 false（当前为 {value}）",
    ),
    "error.max_seqs": (
        "max_seqs (the most sequences one replica runs at once) must be a whole number of at least 1 (got {value})",
        "max_seqs（单个副本同时运行的最大序列数）必须是不小于 1 的整数（当前为 {value}）",
    ),
    "error.think_time_negative": (
        "think_time_s cannot be negative",
        "think_time_s 不能为负数",
    ),
    "error.unknown_serving_mode": (
        "unknown serving mode {value!r}",
        "未知的推理部署方式 {value!r}",
    ),
    "error.unknown_serving_mode.hint": (
        "aggregated, disaggregated or best",
        "可选 aggregated、disaggregated 或 best",
    ),
    "error.read_stacks": (
        "cannot read the software stacks: {reason}",
        "无法读取软件栈文件：{reason}",
    ),
    "error.no_stacks_map": (
        "no 'stacks' map",
        "缺少 “stacks” 映射",
    ),
    "error.estimate_needs_note": (
        "an estimate needs a note saying how it was derived",
        "估算值必须附注说明其推算方法",
    ),
    "error.unknown_setting": (
        "{where}: unknown setting {key!r}",
        "{where}：未知的设置项 {key!r}",
    ),
    "error.setting_not_allowed": (
        "{where}: {key} = {value!r} is not one of {options}",
        "{where}：{key} = {value!r} 不在可选值 {options} 之中",
    ),
    "error.unknown_stack": (
        "unknown software stack {value!r}",
        "未知的软件栈 {value!r}",
    ),
    "error.no_layout_divides": (
        "no parallel layout of {gpus} GPUs divides global batch {batch} and the model's {heads} heads / {layers} layers",
        "{gpus} 块 GPU 的任何并行方式都无法同时整除全局批大小 {batch} 和模型的 {heads} 个注意力头 / {layers} 层",
    ),
    "error.no_layout_divides.hint": (
        "use a GPU count that is a multiple of 8 and a global batch divisible by the data-parallel size",
        "请使用 8 的整数倍的 GPU 数量，以及能被数据并行规模整除的全局批大小",
    ),
    "error.rank_order": (
        "rank order {value!r} must name tp, cp, dp and pp once each",
        "进程排布顺序 {value!r} 必须恰好各包含一次 tp、cp、dp 和 pp",
    ),
    "error.rank_order.hint": (
        'e.g. "tp-cp-dp-pp" (fastest first)',
        "例如 “tp-cp-dp-pp”（最内层在前）",
    ),
    "error.heads_over_tp": (
        "{heads} attention heads cannot be split over tp = {tp}",
        "{heads} 个注意力头无法按 tp = {tp} 切分",
    ),
    "error.heads_over_tp.hint": (
        "choose tp dividing the head count",
        "请选择能整除注意力头数的 tp",
    ),
    "error.layers_chunks": (
        "{layers} layers cannot form pp × vpp = {pp} × {vpp} chunks",
        "{layers} 层无法分成 pp × vpp = {pp} × {vpp} 个模型块",
    ),
    "error.ep_experts_dp_cp": (
        "ep = {ep} must divide the experts ({experts}) and dp × cp",
        "ep = {ep} 必须同时整除专家数（{experts}）和 dp × cp",
    ),
    "error.does_not_fit": (
        "configuration does not fit in GPU memory: {why}",
        "该配置超出 GPU 显存：{why}",
    ),
    "error.does_not_fit.hint": (
        "raise tp/pp, use ZeRO or recomputation, or lower the micro-batch",
        "提高 tp/pp，启用 ZeRO 或激活重计算，或减小微批大小",
    ),
    "error.replica_too_large": (
        "{gpus} GPUs cannot hold one replica of {unit} GPUs",
        "{gpus} 块 GPU 容纳不下一个需要 {unit} 块 GPU 的模型副本",
    ),
    "error.read_bands": (
        "cannot read the error bands: {reason}",
        "无法读取误差区间文件：{reason}",
    ),
    "error.no_groups_map": (
        "no 'groups' map with an 'all' group",
        "缺少包含 “all” 组的 “groups” 映射",
    ),
}
