"""What `gpuplanner advise` prints as text (cli/advise_cmd.py): the goal, the search in numbers, why candidates
were pruned and servers left out, the front as a table (``adv.col.*``), the limit that binds each design
(``word.advisor_limit.*``). The servers are named as the report and the desktop name them
(catalog/names.py); `advise --json` and designs.json keep the ids and English keys."""

# id: (English, Chinese)
ADVISE: dict[str, tuple[str, str]] = {
    "adv.goal": ("Goal: {what}", "目标：{what}"),
    "adv.goal_train": (
        "train {model} on {tokens} tokens within {days:g} days",
        "在 {days:g} 天内用 {tokens} 个 token 训练 {model}",
    ),
    "adv.goal_serve": (
        "serve {model} {load} ({targets}, {mode@serving_mode} serving{extras})",
        "为 {model} 提供推理服务，{load}（{targets}，{mode@serving_mode}{extras}）",
    ),
    "adv.load_rate": ("at {rate:g} requests/s", "每秒 {rate:g} 个请求"),
    "adv.load_users": ("for {users:g} concurrent users{think}", "{users:g} 个并发用户{think}"),
    "adv.think": (", {s:g} s think time", "，思考时间 {s:g} 秒"),
    "adv.load_and": ("{a} and {b}", "{a}、{b}"),
    "adv.targets": (
        "TTFT ≤ {ttft:g} s{ttft_at}, TPOT ≤ {tpot:g} ms{tpot_at}",
        "TTFT ≤ {ttft:g} 秒{ttft_at}，TPOT ≤ {tpot:g} 毫秒{tpot_at}",
    ),
    "adv.at_percentile": (" at p{p:g}", "（p{p:g}）"),
    "adv.extra_stack": (", {stack}", "，{stack}"),
    "adv.extra_kv": (", KV-cache share {f:g}", "，KV 缓存显存占比 {f:g}"),
    "adv.extra_seqs": (
        ", at most {n:,} sequences at once per replica",
        "，每个副本同时最多 {n:,} 个序列",
    ),
    "adv.extra_tokens": (
        ", at most {n:,} tokens per engine step",
        "，每个引擎步最多 {n:,} 个 token",
    ),
    "adv.extra_unchunked": (", prefill not chunked", "，不分块预填充"),
    "adv.extra_fusion": (
        ", tensor-parallel all-reduce fused into the GEMM",
        "，张量并行全归约与 GEMM 融合",
    ),
    "adv.extra_prompts": (", prompts as {dataset}", "，提示长度按 {dataset} 分布"),
    "adv.search": (
        "{cands:,} candidates; {pruned:,} pruned, {evaluated:,} planned and analysed, {feasible:,} within every "
        "limit; {seconds:.1f} s on {executor}",
        "共 {cands:,} 个候选方案；{pruned:,} 个被剪除，{evaluated:,} 个经过完整规划与分析，{feasible:,} 个满足全部"
        "限制；耗时 {seconds:.1f} 秒（{executor}）",
    ),
    "adv.pruned": ("  pruned by {why}: {n:,}", "  因{why}剪除：{n:,}"),
    "adv.left_out": ("  left out {servers}: {why}", "  未纳入 {servers}：{why}"),
    "adv.none": (
        "No design meets every limit: relax a limit (see the pruning reasons above).",
        "没有方案能满足全部限制：请放宽某项限制（见上方的剪除原因）。",
    ),
    "adv.wrote": (
        "Wrote {n:,} project files and designs.json to {folder}",
        "已将 {n:,} 个项目文件和 designs.json 写入 {folder}",
    ),
    # why a candidate was pruned before a plan was drawn (advisor/space.py limit_broken, advisor/run.py)
    "adv.prune.rack_kw": (
        "rack kW: one server draws more than the rack limit",
        "单柜功率：一台服务器的功率已超过单柜上限",
    ),
    "adv.prune.racks": ("rack count", "机柜数量"),
    "adv.prune.facility_kw": ("facility kW", "设施功率"),
    "adv.prune.capex": ("capex budget", "资本支出预算"),
    "adv.prune.tco": ("TCO budget", "总拥有成本预算"),
    "adv.prune.no_fit": ("no layout fits in GPU memory", "没有任何并行布局能放进 GPU 显存"),
    "adv.prune.deadline": ("deadline (even on an ideal fabric)", "截止期限（即使网络理想也无法按期完成）"),
    "adv.prune.rate": ("request rate within the latency targets", "在时延目标内达不到请求速率"),
    "adv.prune.load": ("load within the latency targets", "在时延目标内承载不了负载"),
    "adv.prune.dominated": ("dominated by a design already found", "劣于已找到的方案"),
    # the table
    "adv.col.servers": ("servers", "服务器"),
    "adv.col.gpus": ("GPUs", "GPU 数"),
    "adv.col.fabric": ("fabric", "网络"),
    "adv.col.cooling": ("cooling", "冷却"),
    "adv.col.days": ("days", "训练天数"),
    "adv.col.rate": ("req/s", "请求/秒"),
    "adv.col.users": ("users", "并发用户"),
    "adv.col.facility_kw": ("facility kW", "设施 kW"),
    "adv.col.capex": ("capex M$", "资本支出 百万美元"),
    "adv.col.tco": ("TCO M$", "总拥有成本 百万美元"),
    "adv.col.binding": ("binding", "约束项"),
    # the limit that binds a design (advisor/evaluate.py binding)
    "word.advisor_limit.facility_kw": ("facility_kw", "设施功率"),
    "word.advisor_limit.rack_kw": ("rack_kw", "单柜功率"),
    "word.advisor_limit.racks": ("racks", "机柜数量"),
    "word.advisor_limit.capex_usd": ("capex_usd", "资本支出预算"),
    "word.advisor_limit.tco_usd": ("tco_usd", "总拥有成本预算"),
    "word.advisor_limit.deadline_days": ("deadline_days", "截止期限"),
    "word.advisor_limit.requests_per_s": ("requests_per_s", "请求速率"),
    "word.advisor_limit.users": ("users", "并发用户"),
    "word.advisor_limit.cooling": ("cooling", "冷却"),
}

# the advisor's pruning reasons (English keys of AdviceResult.pruned and designs.json) → their slugs under adv.prune.
PRUNE_SLUGS: dict[str, str] = {
    en: key.removeprefix("adv.prune.") for key, (en, _) in ADVISE.items() if key.startswith("adv.prune.")
}
