"""Words for engine slugs, looked up by templates as ``{param@vocabulary}`` (see ``render``): the engine
names a device kind, a workload kind or a scheduler by its slug; each language says it in its own words.
A Chinese measure word that belongs to the noun is part of the word ("个并发用户")."""

# id: (English, Chinese)
WORDS: dict[str, tuple[str, str]] = {
    "word.separator.alternatives": (" / ", "/"),
    "word.separator.list": (", ", "、"),
    "word.list.none": ("none", "无"),  # an empty list of names
    # device kinds (engine/compiled.py KIND_CODES)
    "word.device_kind.server": ("server", "服务器"),
    "word.device_kind.switch": ("switch", "交换机"),
    "word.device_kind.storage": ("storage", "存储设备"),
    "word.device_kind.other": ("other", "设备"),
    # workload kinds
    "word.workload_kind.training": ("training", "训练"),
    "word.workload_kind.fine-tuning": ("fine-tuning", "微调"),
    "word.workload_kind.inference": ("inference", "推理服务"),
    # what a cluster mostly runs (scheduler advice)
    "word.workload_mix.training": ("training", "训练"),
    "word.workload_mix.inference": ("inference", "推理"),
    "word.workload_mix.mixed": ("training and inference", "训练与推理"),
    # what a serving capacity counts
    "word.serving_unit.users": ("concurrent users", "个并发用户"),
    "word.serving_unit.requests": ("requests/s", "请求/秒"),
    # budgets of the site limits
    "word.budget.capex": ("Capex", "投资（CAPEX）"),
    "word.budget.tco": ("{years}-year TCO", "{years} 年总拥有成本（TCO）"),
    # cable media that replace copper
    "word.medium.fiber-mmf": ("multimode fibre", "多模光纤"),
    "word.medium.fiber-smf": ("single-mode fibre", "单模光纤"),
    "word.medium.aoc": ("active optical cables", "有源光缆"),
    # schedulers (engine/checks/teams.py advised_scheduler)
    "word.scheduler.kubernetes": ("Kubernetes + NVIDIA GPU Operator", "Kubernetes + NVIDIA GPU Operator"),
    "word.scheduler.slurm+kubernetes": ("Slurm + Kubernetes (dual stack)", "Slurm + Kubernetes（双栈）"),
    "word.scheduler.slurm": ("Slurm", "Slurm"),
    "word.scheduler.volcano": ("Kubernetes + Volcano", "Kubernetes + Volcano"),
    "word.scheduler_why.kubernetes": (
        "containers and MLOps integrate easily; inference and small training jobs do not need Slurm's batch "
        "policies",
        "容器化、易于集成 MLOps；推理和小规模训练不需要 Slurm 的批处理调度策略",
    ),
    "word.scheduler_why.slurm+kubernetes": (
        "training jobs on Slurm, inference services on Kubernetes, as mid-size enterprise platforms do",
        "训练任务使用 Slurm 调度，推理服务由 Kubernetes 管理，这是中等规模企业平台的常见做法",
    ),
    "word.scheduler_why.slurm": (
        "mature batch scheduling with preemption, fair share and topology-aware placement for large training "
        "jobs",
        "成熟的批处理调度，支持抢占、公平共享和拓扑感知放置，适合大规模训练",
    ),
    "word.scheduler_why.volcano": (
        "gang scheduling keeps all ranks of a distributed training job starting together on Kubernetes",
        "Gang 调度保证分布式训练作业的所有进程在 Kubernetes 上同时启动",
    ),
    # parts of a training step (engine/perf/training.py breakdown keys)
    "word.step_part.compute_s": ("GEMM and attention compute", "GEMM 与注意力计算"),
    "word.step_part.recompute_s": ("Activation recomputation", "激活重计算"),
    "word.step_part.tp_comm_s.intra": ("TP all-reduce over NVLink", "经 NVLink 的张量并行 all-reduce"),
    "word.step_part.tp_comm_s.inter": ("TP all-reduce across nodes", "跨节点的张量并行 all-reduce"),
    "word.step_part.cp_comm_s": ("CP ring-attention exchange", "上下文并行环形注意力交换"),
    "word.step_part.pp_comm_s": ("Pipeline point-to-point sends", "流水线点对点发送"),
    "word.step_part.pp_bubble_s": ("Pipeline bubble", "流水线气泡"),
    "word.step_part.dp_comm_s.intra": ("DP gradient reduction over NVLink", "经 NVLink 的数据并行梯度归约"),
    "word.step_part.dp_comm_s.inter": (
        "DP all-reduce over the inter-node fabric",
        "跨节点网络上的数据并行 all-reduce",
    ),
    "word.step_part.ep_comm_s": ("Expert all-to-all", "专家并行 all-to-all"),
    "word.step_part.optimizer_s": ("Optimizer step", "优化器更新"),
    "word.metric.hw_tflops_per_gpu": (
        "hardware TFLOP/s per GPU (recomputation counted)",
        "每 GPU 硬件 TFLOP/s（计入重计算）",
    ),
    "word.metric.tflops_per_gpu": (
        "model TFLOP/s per GPU",
        "每 GPU 模型 TFLOP/s",
    ),
    "word.metric.mfu": (
        "MFU (model FLOPs / BF16 peak)",
        "MFU（模型 FLOPs / BF16 峰值）",
    ),
    "word.metric.step_time_s": (
        "step time, s",
        "单步时间（秒）",
    ),
    "word.metric.tokens_per_s_per_gpu": (
        "tokens/s per GPU",
        "每 GPU tokens/s",
    ),
    # run settings as `estimate` prints them (engine/perf/settings.py values)
    "word.recompute.none": ("none", "不重计算"),
    "word.recompute.selective": ("selective", "选择性重计算"),
    "word.recompute.full": ("full", "完全重计算"),
    "word.attention.flash": ("flash", "FlashAttention"),
    "word.attention.unfused": ("unfused", "非融合"),
    "word.attention.triton": ("triton", "Triton 版 FlashAttention"),
    "word.on_off.on": ("on", "开启"),
    "word.on_off.off": ("off", "关闭"),
    # serving (engine/perf/serving.py: the mode, what limits the rate; inference.py: what bounds a step)
    "word.serving_mode.aggregated": ("aggregated", "聚合式"),
    "word.serving_mode.disaggregated": ("disaggregated", "预填充/解码分离式"),
    "word.serving_stack.vllm": (
        "vllm (weights, workspace and KV cache within a share of the device's memory: vLLM's "
        "gpu_memory_utilization)",
        "vllm（权重、工作区与 KV 缓存合计占设备显存的一定比例：vLLM 的 gpu_memory_utilization）",
    ),
    "word.serving_stack.trtllm": (
        "trtllm (the KV cache takes a share of the memory left after the weights and workspace: TensorRT-LLM's "
        "free_gpu_memory_fraction)",
        "trtllm（KV 缓存占权重与工作区之外剩余显存的一定比例：TensorRT-LLM 的 free_gpu_memory_fraction）",
    ),
    "word.serving_limit.tpot": ("tpot", "TPOT 目标"),
    "word.serving_limit.ttft": ("ttft", "TTFT 目标"),
    "word.serving_limit.kv cache": ("kv cache", "KV 缓存容量"),
    "word.serving_limit.memory": ("memory", "显存"),
    "word.serving_limit.max seqs": ("max seqs", "最大并发序列数"),
    "word.serving_limit.compute": ("compute", "算力"),
    "word.serving_limit.token budget": ("token budget", "批处理 token 预算"),
    "word.serving_limit.prefill compute": ("prefill compute", "预填充算力"),
    "word.serving_limit.nothing": ("nothing", "无"),
    "word.inference_bound.memory bandwidth": ("memory bandwidth", "显存带宽"),
    "word.inference_bound.compute": ("compute", "算力"),
    # the metric of a published run, as `validate` lists it (its id in English, a short name in Chinese)
    "word.metric_short.hw_tflops_per_gpu": ("hw_tflops_per_gpu", "每GPU硬件TFLOP/s"),
    "word.metric_short.tflops_per_gpu": ("tflops_per_gpu", "每GPU模型TFLOP/s"),
    "word.metric_short.mfu": ("mfu", "MFU"),
    "word.metric_short.step_time_s": ("step_time_s", "训练步时间（秒）"),
    "word.metric_short.tokens_per_s_per_gpu": ("tokens_per_s_per_gpu", "每GPU tokens/s"),
}
