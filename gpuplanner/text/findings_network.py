"""Finding sentences of the fabric, workload, team and phase checks. ``finding.<rule>`` is what is wrong,
``fix.<rule>`` what to do; the engine's ``Finding`` carries the rule and the values, never the sentence."""

# id: (English, Chinese)
FINDINGS_NETWORK: dict[str, tuple[str, str]] = {
    # engine/checks/network.py
    "finding.fabric-oversubscribed-for-training": (
        "The compute fabric is oversubscribed {ratio}:1 at the {tier} tier; training traffic that "
        "crosses it gets {share} of the NIC bandwidth.",
        "计算网络在{tier}层存在 {ratio}:1 的收敛比，跨该层的训练流量只能获得网卡带宽的 {share}。",
    ),
    "fix.fabric-oversubscribed-for-training": (
        "Use 1:1 (non-blocking) uplinks for training clusters, or keep each job's data-parallel "
        "traffic inside one leaf group.",
        "训练集群应采用 1:1 无阻塞上联，或把每个作业的数据并行流量限制在同一组叶交换机内。",
    ),
    "finding.nic-bandwidth-per-gpu-low": (
        "Each GPU gets {have} Gb/s of network bandwidth; reference designs give {ref} Gb/s to a GPU "
        "of this class ({gpu}).",
        "每块 GPU 只有 {have} Gb/s 的网络带宽；参考设计为 {gpu}每卡配 {ref} Gb/s。",
    ),
    "fix.nic-bandwidth-per-gpu-low": (
        "Give every GPU its own NIC at the reference speed (rail-optimised), or expect the "
        "communication wall.",
        "为每块 GPU 配置一块参考速率的独立网卡（轨道优化），否则将遭遇“通信墙”。",
    ),
    "finding.tp-crosses-node": (
        "Tensor parallelism of {tp} exceeds the {node} GPUs of one NVLink domain: TP traffic would "
        "cross the network.",
        "张量并行度 {tp} 超过单个 NVLink 域的 {node} 块 GPU，张量并行流量将经过网络。",
    ),
    "fix.tp-crosses-node": (
        "Keep TP ≤ {node}; use pipeline or data parallelism across nodes.",
        "将张量并行度控制在 {node} 以内，节点之间使用流水线并行或数据并行。",
    ),
    "finding.model-does-not-fit": (
        "The workload needs {need} GB per GPU but the GPU has {have} GB: {why}",
        "该训练任务每块 GPU 需要 {need} GB 显存，而 GPU 只有 {have} GB：{why}",
    ),
    "fix.model-does-not-fit": (
        "Raise TP/PP, use ZeRO/FSDP sharding or full recomputation, or lower the micro-batch.",
        "提高张量/流水线并行度，使用 ZeRO/FSDP 分片或完全重计算，或减小微批大小。",
    ),
    "finding.cable-too-long": (
        "{n} links are longer than any medium at their speed reaches (longest {length} m).",
        "有 {n} 条链路的长度超过了该速率下任何线缆或光模块的传输距离（最长 {length} 米）。",
    ),
    "fix.cable-too-long": (
        "Move the racks closer, or choose single-mode optics with a longer reach.",
        "将机柜靠近摆放，或选用传输距离更长的单模光模块。",
    ),
    "finding.copper-missed-by-distance": (
        "{n} cables are just past the {reach} m that copper reaches at their speed ({min}–{max} m, "
        "e.g. {a} ↔ {b}), so they need {media_kinds@medium} and {modules} transceivers.",
        "有 {n} 根线缆略超出该速率下铜缆 {reach} 米的传输距离（{min}–{max} 米，例如 {a} ↔ {b}），因此"
        "需要使用{media_kinds@medium}及 {modules} 个光模块。",
    ),
    "fix.copper-missed-by-distance": (
        "Shorten these runs: between racks a run climbs to the tray and back down, with slack — "
        "{overhead} m on top of {floor} m across the floor. Put both ends in one rack (or "
        "neighbouring racks), or give the real tray height and slack under Site and costs if the "
        "route is shorter; copper would then do, with no optics to buy, power or cool.",
        "缩短这些走线：机柜间走线需上到桥架再下来并留有余量——在地面 {floor} 米之外还要 {overhead} 米。"
        "把两端放进同一机柜（或相邻机柜），或在“场地与成本”中填写实际的桥架高度和余量；这样即可改用铜"
        "缆，无需采购、供电和散热光模块。",
    ),
    "finding.ports-over-subscribed": (
        "{name}: port group '{group}' is asked for {used} ports but has {ports}.",
        "{name}：端口组“{group}”需要 {used} 个端口，但只有 {ports} 个。",
    ),
    "fix.ports-over-subscribed": (
        "Move links to another switch or add a switch.",
        "将部分链路移到其他交换机，或增加交换机。",
    ),
    "finding.server-not-connected": (
        "{n} GPU servers have no compute-fabric link (e.g. {name}).",
        "有 {n} 台 GPU 服务器没有连接计算网络（例如 {name}）。",
    ),
    "fix.server-not-connected": (
        "Connect each server's compute NICs to the fabric.",
        "将每台服务器的计算网卡接入计算网络。",
    ),
    "finding.storage-missing": (
        "The plan has {gpus} GPUs for training but no shared storage system.",
        "方案中有 {gpus} 块用于训练的 GPU，却没有共享存储系统。",
    ),
    "fix.storage-missing": (
        "Add a parallel file system (Lustre, GPFS, WEKA, BeeGFS) or at least an NFS appliance.",
        "增加并行文件系统（Lustre、GPFS、WEKA、BeeGFS），至少配置一台 NFS 存储。",
    ),
    "finding.storage-too-slow": (
        "Storage reads {have} GB/s; {gpus} GPUs need about {need} GB/s to stay fed.",
        "存储读带宽为 {have} GB/s，而 {gpus} 块 GPU 需要约 {need} GB/s 才能不等数据。",
    ),
    "fix.storage-too-slow": (
        "Add storage units or use local NVMe caching.",
        "增加存储节点或使用本地 NVMe 缓存。",
    ),
    "finding.checkpoint-too-slow": (
        "A checkpoint of {size} GB takes {seconds} s at {write} GB/s (target {target} s).",
        "一次 {size} GB 的检查点在 {write} GB/s 写带宽下需 {seconds} 秒（目标 {target} 秒）。",
    ),
    "fix.checkpoint-too-slow": (
        "Add storage write bandwidth or use asynchronous checkpointing.",
        "提升存储写带宽，或采用异步检查点。",
    ),
    "finding.no-fabric-redundancy": (
        "The compute fabric has a single {tier} switch: one failure stops every job.",
        "计算网络只有一台{tier}交换机：一台故障将中断所有作业。",
    ),
    "fix.no-fabric-redundancy": (
        "Use at least two spines (or two switches) so that a failure only lowers bandwidth.",
        "至少使用两台脊交换机（或两台交换机），使单台故障只降低带宽而不中断业务。",
    ),
    "finding.short-expert-kernels": (
        "Each expert's GEMM takes about {us} µs per micro-batch and layer (micro-batch {micro_batch}, EP {ep}), "
        "under the {limit} µs at which kernels are launch-bound: host work paces the step, so the estimated "
        "throughput is an upper bound.",
        "每个专家的 GEMM 每微批次每层约 {us} µs（微批次 {micro_batch}，EP {ep}），低于内核受启动开销限制的 "
        "{limit} µs：单步时间由主机端工作决定，估算吞吐量只是上限。",
    ),
    "fix.short-expert-kernels": (
        "Give each expert more tokens (a larger micro-batch, or fewer experts per GPU through a wider EP) and "
        "capture the router and dispatch in CUDA graphs; plan capacity on the published host-paced range.",
        "让每个专家处理更多 token（增大微批次，或扩大 EP 以减少每卡专家数），并用 CUDA Graph 捕获路由与分发；"
        "按已发表的受主机节奏限制实测区间规划算力。",
    ),
    "finding.communication-bound": (
        "Training is limited by the network: {bottleneck}",
        "训练受网络限制：{bottleneck}",
    ),
    "fix.communication-bound": (
        "More NIC bandwidth per GPU, less oversubscription, or a parallel layout that keeps heavy "
        "traffic inside nodes.",
        "提高每卡网络带宽、降低收敛比，或调整并行策略使大流量留在节点内。",
    ),
    # engine/checks/teams.py
    "finding.quota-exceeds-cluster": (
        "Guaranteed GPU quotas add up to {guaranteed} in partition '{partition}', which has {gpus} GPUs.",
        "分区“{partition}”的保障 GPU 配额合计 {guaranteed} 块，而该分区只有 {gpus} 块 GPU。",
    ),
    "fix.quota-exceeds-cluster": (
        "Lower the guarantees or add GPUs to the partition; let teams burst instead.",
        "降低保障配额或为该分区增加 GPU，改用可借用（burst）配额。",
    ),
    "finding.job-larger-than-partition": (
        "Team '{team}' runs jobs of {job} GPUs, but partition '{partition}' has {gpus}.",
        "团队“{team}”的最大作业需要 {job} 块 GPU，而分区“{partition}”只有 {gpus} 块。",
    ),
    "fix.job-larger-than-partition": (
        "Give the team a larger partition or split its jobs.",
        "为该团队分配更大的分区，或拆分作业。",
    ),
    "finding.job-spans-fabric-islands": (
        "Team '{team}' runs jobs of {job} GPUs, more than one non-blocking leaf group ({island} "
        "GPUs): its traffic crosses the spines.",
        "团队“{team}”的最大作业需要 {job} 块 GPU，超过单个无阻塞叶交换机组（{island} 块 GPU），其流量"
        "将跨越脊交换机。",
    ),
    "fix.job-spans-fabric-islands": (
        "Keep the spine tier non-blocking, or use topology-aware scheduling (Slurm topology/tree or "
        "block plugin).",
        "保持脊层无阻塞，或启用拓扑感知调度（Slurm 的 topology/tree 或 block 插件）。",
    ),
    "finding.teams-without-quotas": (
        "{n} teams share the cluster and {without} have no GPU quota: without quotas and priorities, "
        "teams end up fighting over GPUs.",
        "共有 {n} 个团队共享集群，其中 {without} 个没有 GPU 配额：缺少配额和优先级管理，必然出现资源争抢。",
    ),
    "fix.teams-without-quotas": (
        "Give every team a guaranteed quota and a priority in the scheduler (Slurm QOS, Kueue ClusterQueue).",
        "在调度平台中为每个团队设置保障配额和优先级（Slurm QOS、Kueue ClusterQueue）。",
    ),
    "finding.scheduler-advice": (
        "Scheduler: {scheduler@scheduler} fits a cluster of {gpus} GPUs running {mix@workload_mix}.",
        "调度平台建议：{gpus} 块 GPU、以{mix@workload_mix}为主的集群适合采用 {scheduler@scheduler}。",
    ),
    "fix.scheduler-advice": (
        "{scheduler@scheduler_why}",
        "{scheduler@scheduler_why}",
    ),
    # engine/workloads.py
    "finding.workload-not-evaluated": (
        "Workload '{workload}' ({kind}) could not be evaluated: {reason}",
        "工作负载“{workload}”（{kind@workload_kind}）无法评估：{reason}",
    ),
    "fix.workload-not-evaluated": (
        "Check the workload's model, parallel layout and partition.",
        "请检查该工作负载的模型、并行方式和分区。",
    ),
    "finding.serving-target-not-met": (
        "Workload '{workload}': partition '{partition}' ({gpus} GPUs) serves {capacity} "
        "{unit@serving_unit} within the targets, short of the {target} asked; {needed} GPUs would "
        "serve them.",
        "工作负载“{workload}”：分区“{partition}”（{gpus} 块 GPU）在目标时延内可服务 {capacity} {unit@serving_unit}，"
        "低于要求的 {target}；需要 {needed} 块 GPU。",
    ),
    "fix.serving-target-not-met": (
        "Add {missing} GPUs to the partition, relax the TTFT/TPOT targets, or serve at FP8.",
        "为该分区增加 {missing} 块 GPU，放宽首字/逐字时延目标，或采用 FP8 推理。",
    ),
    "finding.serving-target-unreachable": (
        "Workload '{workload}': no number of GPUs serves the {target} {unit@serving_unit} asked within the "
        "TTFT/TPOT targets: even one request alone misses them on this hardware.",
        "工作负载“{workload}”：在首字/逐字时延目标内，任何数量的 GPU 都无法服务要求的 {target} {unit@serving_unit}："
        "在这种硬件上，即使只有一个请求也达不到目标。",
    ),
    "fix.serving-target-unreachable": (
        "Relax the TTFT/TPOT targets, shorten the prompts, serve at FP8, or choose faster GPUs.",
        "放宽首字/逐字时延目标、缩短提示长度、采用 FP8 推理，或选用更快的 GPU。",
    ),
    # engine/phases.py
    "finding.phase-growth-needs-replacement": (
        "Phase '{phase}' cannot grow from '{before}' without replacing equipment: {what}",
        "阶段“{phase}”无法在不更换设备的前提下从“{before}”扩展：{what}",
    ),
    "fix.phase-growth-needs-replacement": (
        "Leave spare switch ports, rack power and feed capacity in the earlier phase, or plan the "
        "replacement.",
        "在前一阶段预留交换机端口、机柜功率和供电容量，或将设备更换列入计划。",
    ),
}
