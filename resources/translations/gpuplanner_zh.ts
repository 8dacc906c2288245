<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN">
<context>
    <name>AdvisorDialog</name>
    <message>
        <source>Design advisor</source>
        <translation>设计顾问</translation>
    </message>
    <message>
        <source>State the goal and the limits, then Search.</source>
        <translation>填写目标与约束条件，然后点击“搜索”。</translation>
    </message>
    <message>
        <source>Set the design goal</source>
        <translation>设定设计目标</translation>
    </message>
    <message>
        <source>Not kept: {why}</source>
        <translation>未保存：{why}</translation>
    </message>
    <message>
        <source>The project&apos;s goal is now the one in this form.</source>
        <translation>项目的目标已改为本表中的目标。</translation>
    </message>
    <message>
        <source>Search</source>
        <translation>搜索</translation>
    </message>
    <message>
        <source>Cancel search</source>
        <translation>取消搜索</translation>
    </message>
    <message>
        <source>Open as project</source>
        <translation>作为项目打开</translation>
    </message>
    <message>
        <source>Whole goal…</source>
        <translation>完整目标…</translation>
    </message>
    <message>
        <source>The project&apos;s goal: servers, cooling, fabrics, budgets and more</source>
        <translation>项目的目标：服务器、冷却、网络、预算等</translation>
    </message>
    <message>
        <source>Keep as the project&apos;s goal</source>
        <translation>设为项目目标</translation>
    </message>
    <message>
        <source>Not searched: {why}</source>
        <translation>未搜索：{why}</translation>
    </message>
    <message>
        <source>Searching…</source>
        <translation>正在搜索…</translation>
    </message>
    <message>
        <source>The search failed: {why}</source>
        <translation>搜索失败：{why}</translation>
    </message>
    <message>
        <source>Time to train (days)</source>
        <translation>训练时长（天）</translation>
    </message>
    <message>
        <source>Serving headroom (×)</source>
        <translation>服务能力余量（倍）</translation>
    </message>
    <message>
        <source>Servers</source>
        <translation>服务器</translation>
    </message>
    <message>
        <source>GPUs</source>
        <translation>GPU 数量</translation>
    </message>
    <message>
        <source>Fabric</source>
        <translation>网络</translation>
    </message>
    <message>
        <source>Cooling</source>
        <translation>制冷</translation>
    </message>
    <message>
        <source>Days</source>
        <translation>天数</translation>
    </message>
    <message>
        <source>Requests/s</source>
        <translation>请求/秒</translation>
    </message>
    <message>
        <source>Users</source>
        <translation>并发用户数</translation>
    </message>
    <message>
        <source>Facility kW</source>
        <translation>设施功率 kW</translation>
    </message>
    <message>
        <source>Capex</source>
        <translation>资本支出</translation>
    </message>
    <message>
        <source>TCO</source>
        <translation>总拥有成本</translation>
    </message>
    <message>
        <source>Binding limit</source>
        <translation>起决定作用的约束</translation>
    </message>
    <message numerus="yes">
        <source>%Ln design(s) on the front; {cands} candidates, {pruned} pruned by bounds, {ev} planned and analysed in {s} s.</source>
        <translation>
            <numerusform>帕累托前沿上有 %Ln 个设计；共 {cands} 个候选，{pruned} 个被上下界剪除，{ev} 个完整规划并分析，用时 {s} 秒。</numerusform>
        </translation>
    </message>
    <message>
        <source>Cancelled: the front holds what was analysed so far.</source>
        <translation>已取消：前沿仅包含目前已分析的设计。</translation>
    </message>
    <message>
        <source>No design meets every limit: relax one.</source>
        <translation>没有设计能满足全部约束：请放宽其中一项。</translation>
    </message>
    <message>
        <source>facility power</source>
        <translation>设施功率</translation>
    </message>
    <message>
        <source>rack power</source>
        <translation>单柜功率</translation>
    </message>
    <message>
        <source>rack count</source>
        <translation>机柜数</translation>
    </message>
    <message>
        <source>capex budget</source>
        <translation>资本支出预算</translation>
    </message>
    <message>
        <source>TCO budget</source>
        <translation>总拥有成本预算</translation>
    </message>
    <message>
        <source>deadline</source>
        <translation>期限</translation>
    </message>
    <message>
        <source>request rate</source>
        <translation>请求速率</translation>
    </message>
    <message>
        <source>concurrent users</source>
        <translation>并发用户数</translation>
    </message>
    <message>
        <source>cooling</source>
        <translation>制冷方式</translation>
    </message>
    <message>
        <source>{n} kW</source>
        <translation>{n} kW</translation>
    </message>
    <message>
        <source>{n} days</source>
        <translation>{n} 天</translation>
    </message>
    <message>
        <source>{n} requests/s</source>
        <translation>{n} 请求/秒</translation>
    </message>
    <message>
        <source>rack budget {kw}</source>
        <translation>单柜预算 {kw}</translation>
    </message>
    <message>
        <source>rack budget: no limit</source>
        <translation>单柜预算不限</translation>
    </message>
    <message>
        <source>{srv}: {gpus} GPUs, switch {sw}, {kw}, serving ({mode}): {lay}.</source>
        <translation>{srv}：{gpus} 块 GPU，{sw}，{kw}，推理部署（{mode}）：{lay}。</translation>
    </message>
    <message>
        <source>{srv}: {gpus} GPUs, switch {sw}, {kw}, layout {lay}.</source>
        <translation>{srv}：{gpus} 块 GPU，{sw}，{kw}，并行布局 {lay}。</translation>
    </message>
    <message>
        <source>{head} Limits: {lims}</source>
        <translation>{head}约束：{lims}</translation>
    </message>
    <message>
        <source>{name} {plan} (allowed: {limit})</source>
        <translation>{name} {plan}（允许：{limit}）</translation>
    </message>
    <message>
        <source>TCO, {unit}</source>
        <translation>总拥有成本（{unit}）</translation>
    </message>
    <message>
        <source>{name} {plan} (at least {limit})</source>
        <translation>{name} {plan}（至少 {limit}）</translation>
    </message>
    <message>
        <source>{name} {plan} (at most {limit})</source>
        <translation>{name} {plan}（上限 {limit}）</translation>
    </message>
    <message>
        <source>; </source>
        <translation>；</translation>
    </message>
</context>
<context>
    <name>AdvisorGoalForm</name>
    <message>
        <source>Train a model</source>
        <translation>训练模型</translation>
    </message>
    <message>
        <source>Serve a model</source>
        <translation>模型推理服务</translation>
    </message>
    <message>
        <source>Goal:</source>
        <translation>目标：</translation>
    </message>
    <message>
        <source>Model:</source>
        <translation>模型：</translation>
    </message>
    <message>
        <source>The weights&apos; precision (as estimate --precision); a serving goal&apos;s KV cache takes 1 byte with FP8/FP4 weights, else 2. FP4 is for serving goals only: the advisor then ranks only GPUs with FP4 tensor cores (B200, B300, GB200, GB300, MI355X) and names the others it leaves out.</source>
        <translation>权重的精度（与 estimate --precision 相同）；推理服务目标的 KV 缓存在 FP8/FP4 权重下每个元素占 1 字节，否则占 2 字节。FP4 仅用于推理服务目标：设计顾问只对具备 FP4 张量核心的 GPU（B200、B300、GB200、GB300、MI355X）排序，并列出被排除的其他 GPU。</translation>
    </message>
    <message>
        <source>Precision:</source>
        <translation>精度：</translation>
    </message>
    <message>
        <source>Site and budget</source>
        <translation>场地与预算</translation>
    </message>
    <message>
        <source>no limit</source>
        <translation>不限</translation>
    </message>
    <message>
        <source>Facility power ≤</source>
        <translation>设施功率 ≤</translation>
    </message>
    <message>
        <source>Rack power ≤</source>
        <translation>单柜功率 ≤</translation>
    </message>
    <message>
        <source>Racks ≤</source>
        <translation>机柜数 ≤</translation>
    </message>
    <message>
        <source>Capex budget ≤</source>
        <translation>资本支出预算 ≤</translation>
    </message>
    <message>
        <source>e.g. CN: leave out parts not sold there</source>
        <translation>如 CN：排除该地区不能销售的部件</translation>
    </message>
    <message>
        <source>Customer region:</source>
        <translation>客户所在地区：</translation>
    </message>
    <message>
        <source>any; e.g. Huawei</source>
        <translation>不限；如 Huawei</translation>
    </message>
    <message>
        <source>GPU vendors:</source>
        <translation>GPU 厂商：</translation>
    </message>
    <message>
        <source>At most servers:</source>
        <translation>服务器数上限：</translation>
    </message>
    <message>
        <source>Training</source>
        <translation>训练</translation>
    </message>
    <message>
        <source> billion tokens</source>
        <translation> 十亿 tokens</translation>
    </message>
    <message>
        <source>Tokens:</source>
        <translation>训练数据量：</translation>
    </message>
    <message>
        <source> days</source>
        <translation> 天</translation>
    </message>
    <message>
        <source>Deadline:</source>
        <translation>期限：</translation>
    </message>
    <message>
        <source>Serving</source>
        <translation>推理服务</translation>
    </message>
    <message>
        <source> requests/s</source>
        <translation> 请求/秒</translation>
    </message>
    <message>
        <source>not stated</source>
        <translation>未填写</translation>
    </message>
    <message>
        <source>Request rate:</source>
        <translation>请求速率：</translation>
    </message>
    <message>
        <source> users</source>
        <translation> 个用户</translation>
    </message>
    <message>
        <source>Concurrent users to serve, each waiting for its answer and then the think time before the next request (as estimate --users). With a request rate too, both must be served.</source>
        <translation>要服务的并发用户数：每个用户等到回复后，再经过思考时间才发出下一个请求（与 estimate --users 相同）。同时填写请求速率时，两者都须满足。</translation>
    </message>
    <message>
        <source>Concurrent users:</source>
        <translation>并发用户数：</translation>
    </message>
    <message>
        <source>Seconds a user waits between an answer and the next request.</source>
        <translation>用户收到回复后到发出下一个请求之间等待的秒数。</translation>
    </message>
    <message>
        <source>Think time:</source>
        <translation>用户思考时间：</translation>
    </message>
    <message>
        <source> tokens</source>
        <translation> 个 token</translation>
    </message>
    <message>
        <source>Prompt length:</source>
        <translation>提示词长度：</translation>
    </message>
    <message>
        <source>Output length:</source>
        <translation>输出长度：</translation>
    </message>
    <message>
        <source>all of the prompt length</source>
        <translation>全部等于提示词长度</translation>
    </message>
    <message>
        <source>Prompt lengths vary as in this dataset (catalogs/validation/inference_datasets.yaml); the prompt length becomes its mean (as estimate --prompt-dataset).</source>
        <translation>提示词长度按该数据集分布（catalogs/validation/inference_datasets.yaml）；提示词长度取其平均值（与 estimate --prompt-dataset 相同）。</translation>
    </message>
    <message>
        <source>Prompt lengths:</source>
        <translation>提示词长度分布：</translation>
    </message>
    <message>
        <source>Time to first token ≤</source>
        <translation>首 token 时延 ≤</translation>
    </message>
    <message>
        <source>Time per output token ≤</source>
        <translation>每输出 token 时延 ≤</translation>
    </message>
    <message>
        <source>aggregated</source>
        <translation>合并部署</translation>
    </message>
    <message>
        <source>disaggregated</source>
        <translation>预填充/解码分离</translation>
    </message>
    <message>
        <source>best of the two</source>
        <translation>两者择优</translation>
    </message>
    <message>
        <source>Aggregated: every replica prefills and decodes; disaggregated: prefill and decode workers apart; best: the larger capacity of the two (as estimate --inference --serving).</source>
        <translation>合并部署：每个副本既做预填充也做解码；预填充/解码分离：预填充与解码由不同的工作节点承担；两者择优：取两者中容量较大者（与 estimate --inference --serving 相同）。</translation>
    </message>
    <message>
        <source>Serving mode:</source>
        <translation>推理部署方式：</translation>
    </message>
    <message>
        <source>vLLM rule</source>
        <translation>vLLM 规则</translation>
    </message>
    <message>
        <source>TensorRT-LLM rule</source>
        <translation>TensorRT-LLM 规则</translation>
    </message>
    <message>
        <source>How the KV cache is sized: vLLM gives a share of the memory to weights, workspace and KV cache; TensorRT-LLM gives the KV cache a share of the memory left after them (as estimate --serving-stack).</source>
        <translation>KV 缓存的容量规则：vLLM 将显存的一定比例用于权重、工作区和 KV 缓存；TensorRT-LLM 将扣除权重和工作区后剩余显存的一定比例用于 KV 缓存（与 estimate --serving-stack 相同）。</translation>
    </message>
    <message>
        <source>Serving stack:</source>
        <translation>推理软件栈：</translation>
    </message>
    <message>
        <source>the stack&apos;s default</source>
        <translation>按软件栈默认值</translation>
    </message>
    <message>
        <source>KV-cache share:</source>
        <translation>KV 缓存显存占比：</translation>
    </message>
    <message>
        <source>Sequences at once ≤:</source>
        <translation>同时运行序列数 ≤：</translation>
    </message>
    <message>
        <source>the engine&apos;s default</source>
        <translation>按引擎默认值</translation>
    </message>
    <message>
        <source>Tokens per engine step ≤:</source>
        <translation>每个引擎步 token 数 ≤：</translation>
    </message>
    <message>
        <source>Prefill chunked into the decode steps</source>
        <translation>预填充分块并入解码步</translation>
    </message>
    <message>
        <source>All-reduce fused into the GEMM</source>
        <translation>全归约与 GEMM 融合</translation>
    </message>
    <message>
        <source>mean</source>
        <translation>平均值</translation>
    </message>
    <message>
        <source>The percentile of requests the target holds for (MLPerf: 99); the lowest value: in the mean.</source>
        <translation>目标须满足的请求百分位（MLPerf 为 99）；最小值表示按平均值计。</translation>
    </message>
    <message>
        <source>at</source>
        <translation>于</translation>
    </message>
</context>
<context>
    <name>CompareDialog</name>
    <message>
        <source>Compare scenarios</source>
        <translation>场景对比</translation>
    </message>
    <message>
        <source>Compare</source>
        <translation>对比</translation>
    </message>
    <message>
        <source>with</source>
        <translation>与</translation>
    </message>
    <message>
        <source>Base (as drawn)</source>
        <translation>基准（按图）</translation>
    </message>
    <message>
        <source>Analysing…</source>
        <translation>正在分析…</translation>
    </message>
    <message>
        <source>Figure</source>
        <translation>指标</translation>
    </message>
    <message>
        <source>Difference</source>
        <translation>差值</translation>
    </message>
    <message>
        <source>same</source>
        <translation>相同</translation>
    </message>
    <message numerus="yes">
        <source>{same} of %Ln figure(s) are the same.</source>
        <translation>
            <numerusform>%Ln 项指标中有 {same} 项相同。</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>Counts</name>
    <message numerus="yes">
        <source>%Ln GPU(s)</source>
        <translation>
            <numerusform>%Ln 块 GPU</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%Ln rack(s)</source>
        <translation>
            <numerusform>%Ln 个机柜</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%Ln finding(s)</source>
        <translation>
            <numerusform>%Ln 条检查发现</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Delete %Ln selected item(s) and their links?</source>
        <translation>
            <numerusform>删除所选的 %Ln 项及其链路？</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%Ln GPU(s):</source>
        <translation>
            <numerusform>%Ln 块 GPU：</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Delete %Ln item(s)</source>
        <translation>
            <numerusform>删除 %Ln 项</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Paste %Ln item(s)</source>
        <translation>
            <numerusform>粘贴 %Ln 项</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Set {field} of %Ln item(s)</source>
        <translation>
            <numerusform>设置 %Ln 项的{field}</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>&lt;b&gt;%Ln rack(s) selected&lt;/b&gt; — an edit applies to all of them</source>
        <translation>
            <numerusform>&lt;b&gt;已选择 %Ln 个机柜&lt;/b&gt; — 修改将应用于全部所选机柜</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>&lt;b&gt;%Ln device(s) selected&lt;/b&gt; — an edit applies to all of them</source>
        <translation>
            <numerusform>&lt;b&gt;已选择 %Ln 台设备&lt;/b&gt; — 修改将应用于全部所选设备</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>&lt;b&gt;%Ln link(s) selected&lt;/b&gt; — an edit applies to all of them</source>
        <translation>
            <numerusform>&lt;b&gt;已选择 %Ln 条链路&lt;/b&gt; — 修改将应用于全部所选链路</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>&lt;b&gt;%Ln item(s) selected&lt;/b&gt; — select items of one kind to edit them together</source>
        <translation>
            <numerusform>&lt;b&gt;已选择 %Ln 项&lt;/b&gt; — 请只选择同一类对象以便批量编辑</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>Document</name>
    <message>
        <source>Cannot undo “{what}”: {why}. Nothing was changed.</source>
        <translation>无法撤销“{what}”：{why}。未做任何更改。</translation>
    </message>
    <message>
        <source>Cannot redo “{what}”: {why}. Nothing was changed.</source>
        <translation>无法重做“{what}”：{why}。未做任何更改。</translation>
    </message>
</context>
<context>
    <name>FileOpen</name>
    <message>
        <source>Opening {name}…</source>
        <translation>正在打开 {name}…</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
    <message>
        <source>Opening project</source>
        <translation>正在打开项目</translation>
    </message>
</context>
<context>
    <name>FloorPlanPanel</name>
    <message>
        <source>Add row</source>
        <translation>添加机柜列</translation>
    </message>
    <message>
        <source>Add an empty row of racks after the last one</source>
        <translation>在最后一列之后添加一列空机柜位</translation>
    </message>
    <message>
        <source>Add unit</source>
        <translation>添加设备</translation>
    </message>
    <message>
        <source>Place a cooling or power unit on the floor</source>
        <translation>在机房平面上放置制冷或配电设备</translation>
    </message>
    <message>
        <source>Fit</source>
        <translation>适应窗口</translation>
    </message>
    <message>
        <source>Show the whole hall</source>
        <translation>显示整个机房</translation>
    </message>
    <message>
        <source>not rated</source>
        <translation>未标定容量</translation>
    </message>
    <message>
        <source>Name</source>
        <translation>名称</translation>
    </message>
    <message>
        <source>Rated capacity</source>
        <translation>额定容量</translation>
    </message>
    <message>
        <source>Serves</source>
        <translation>服务范围</translation>
    </message>
    <message>
        <source>Rack kW at maximum:</source>
        <translation>机柜最大功率 (kW)：</translation>
    </message>
    <message>
        <source>cold aisle</source>
        <translation>冷通道</translation>
    </message>
    <message>
        <source>Row</source>
        <translation>机柜列</translation>
    </message>
    <message>
        <source>hot aisle</source>
        <translation>热通道</translation>
    </message>
    <message>
        <source>aisle contained</source>
        <translation>通道封闭</translation>
    </message>
    <message>
        <source>Rack fronts face</source>
        <translation>机柜正面朝向</translation>
    </message>
    <message>
        <source>unit over its rating</source>
        <translation>设备超出额定容量</translation>
    </message>
    <message>
        <source>unit not rated</source>
        <translation>设备未标定容量</translation>
    </message>
    <message>
        <source>Placed a new {kind}: enter its rated capacity on the right.</source>
        <translation>已放置新的{kind}：请在右侧填写其额定容量。</translation>
    </message>
    <message>
        <source>Rename unit</source>
        <translation>重命名设备</translation>
    </message>
    <message>
        <source>Set the rating of {unit}</source>
        <translation>设置 {unit} 的额定容量</translation>
    </message>
    <message>
        <source>{unit} serves another row</source>
        <translation>{unit} 服务于其他机柜列</translation>
    </message>
    <message>
        <source>Drag racks along and between rows; drag cooling and power units next to the racks they serve. Select a rack to see its cable runs, a unit to edit its rating.</source>
        <translation>沿机柜列或在列间拖动机柜；把制冷和配电设备拖到所服务的机柜旁。选中机柜可查看其线缆走线，选中设备可编辑其额定容量。</translation>
    </message>
    <message>
        <source>the whole hall</source>
        <translation>整个机房</translation>
    </message>
    <message>
        <source>row {row}</source>
        <translation>第 {row} 列</translation>
    </message>
</context>
<context>
    <name>FloorWords</name>
    <message>
        <source>row {row}, slot {slot}</source>
        <translation>第 {row} 列 {slot} 号位</translation>
    </message>
    <message>
        <source>{kw} kW at maximum</source>
        <translation>最大 {kw} kW</translation>
    </message>
    <message numerus="yes">
        <source>%Ln cable run(s) leave the rack: {media}</source>
        <translation>
            <numerusform>%Ln 条线缆走线引出机柜：{media}</numerusform>
        </translation>
    </message>
    <message>
        <source>longest run {longest} m; {total} m of cable in all</source>
        <translation>最长走线 {longest} m；线缆总长 {total} m</translation>
    </message>
    <message numerus="yes">
        <source>%Ln run(s) too long for any medium the ports take</source>
        <translation>
            <numerusform>%Ln 条走线过长，端口支持的任何介质都无法覆盖</numerusform>
        </translation>
    </message>
    <message>
        <source>{rack}: cables now {after} (were {before}); longest run {m} m</source>
        <translation>{rack}：线缆现为 {after}（原为 {before}）；最长走线 {m} m</translation>
    </message>
    <message>
        <source>{rack}: longest run {b} → {a} m, same media</source>
        <translation>{rack}：最长走线 {b} → {a} m，介质不变</translation>
    </message>
    <message numerus="yes">
        <source>{rack}: %Ln run(s) too long for any medium</source>
        <translation>
            <numerusform>{rack}：%Ln 条走线过长，没有任何介质可以覆盖</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%Ln rack(s)</source>
        <translation>
            <numerusform>%Ln 个机柜</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%Ln row(s)</source>
        <translation>
            <numerusform>%Ln 列</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%Ln unit(s) on the floor</source>
        <translation>
            <numerusform>机房内 %Ln 台设备</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%Ln over their rating</source>
        <translation>
            <numerusform>%Ln 台超出额定容量</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%Ln item(s) selected</source>
        <translation>
            <numerusform>已选择 %Ln 项</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Move %Ln item(s) on the floor</source>
        <translation>
            <numerusform>在平面图上移动 %Ln 项</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Delete %Ln floor unit(s)</source>
        <translation>
            <numerusform>删除 %Ln 台机房设备</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>GoalDialog</name>
    <message>
        <source>Goal</source>
        <translation>目标</translation>
    </message>
    <message>
        <source>Training</source>
        <translation>训练</translation>
    </message>
    <message>
        <source>Serving</source>
        <translation>推理服务</translation>
    </message>
    <message>
        <source>Site limits and budget</source>
        <translation>场地限制与预算</translation>
    </message>
    <message>
        <source>What may be bought and built</source>
        <translation>可采购与可建设的范围</translation>
    </message>
    <message>
        <source>Design goal</source>
        <translation>设计目标</translation>
    </message>
    <message>
        <source>no limit</source>
        <translation>不限</translation>
    </message>
    <message>
        <source>Plan ▸ Design advisor… searches this goal; gpuplanner advise FILE does the same.</source>
        <translation>“规划 ▸ 设计顾问…”按此目标搜索方案；命令行 gpuplanner advise FILE 亦同。</translation>
    </message>
    <message>
        <source>no goal</source>
        <translation>未设目标</translation>
    </message>
    <message>
        <source>train a model</source>
        <translation>训练模型</translation>
    </message>
    <message>
        <source>serve a model</source>
        <translation>模型推理服务</translation>
    </message>
    <message>
        <source>TCO</source>
        <translation>总拥有成本</translation>
    </message>
    <message>
        <source>capex</source>
        <translation>资本支出</translation>
    </message>
    <message>
        <source>aggregated</source>
        <translation>合并部署</translation>
    </message>
    <message>
        <source>disaggregated</source>
        <translation>预填充/解码分离</translation>
    </message>
    <message>
        <source>best of the two</source>
        <translation>两者择优</translation>
    </message>
    <message>
        <source>vLLM rule</source>
        <translation>vLLM 规则</translation>
    </message>
    <message>
        <source>TensorRT-LLM rule</source>
        <translation>TensorRT-LLM 规则</translation>
    </message>
    <message>
        <source>all of the prompt length</source>
        <translation>全部等于提示词长度</translation>
    </message>
    <message>
        <source>in the mean</source>
        <translation>按平均值</translation>
    </message>
    <message>
        <source>not stated</source>
        <translation>未填写</translation>
    </message>
    <message>
        <source>days</source>
        <translation>天</translation>
    </message>
    <message>
        <source>goal</source>
        <translation>目标</translation>
    </message>
    <message>
        <source>model</source>
        <translation>模型</translation>
    </message>
    <message>
        <source>cost to minimise</source>
        <translation>优化的成本</translation>
    </message>
    <message>
        <source>training tokens</source>
        <translation>训练数据量（token）</translation>
    </message>
    <message>
        <source>deadline</source>
        <translation>期限</translation>
    </message>
    <message>
        <source>global batch (sequences)</source>
        <translation>全局批量（序列数）</translation>
    </message>
    <message>
        <source>precision</source>
        <translation>精度</translation>
    </message>
    <message>
        <source>request rate (per s)</source>
        <translation>请求速率（每秒）</translation>
    </message>
    <message>
        <source>prompt length (tokens)</source>
        <translation>提示长度（token）</translation>
    </message>
    <message>
        <source>output length (tokens)</source>
        <translation>输出长度（token）</translation>
    </message>
    <message>
        <source>time to first token ≤</source>
        <translation>首 token 时延 ≤</translation>
    </message>
    <message>
        <source>time per output token ≤</source>
        <translation>每输出 token 时延 ≤</translation>
    </message>
    <message>
        <source>serving mode</source>
        <translation>推理部署方式</translation>
    </message>
    <message>
        <source>concurrent users</source>
        <translation>并发用户数</translation>
    </message>
    <message>
        <source>think time</source>
        <translation>用户思考时间</translation>
    </message>
    <message>
        <source>prompt lengths as</source>
        <translation>提示词长度分布同</translation>
    </message>
    <message>
        <source>… at percentile</source>
        <translation>… 所在百分位</translation>
    </message>
    <message>
        <source>serving stack</source>
        <translation>推理软件栈（KV 缓存规则）</translation>
    </message>
    <message>
        <source>KV-cache share</source>
        <translation>KV 缓存显存占比</translation>
    </message>
    <message>
        <source>sequences at once ≤</source>
        <translation>同时运行序列数 ≤</translation>
    </message>
    <message>
        <source>tokens per engine step ≤</source>
        <translation>每个引擎步 token 数 ≤</translation>
    </message>
    <message>
        <source>prefill chunked into decode steps</source>
        <translation>预填充分块并入解码步</translation>
    </message>
    <message>
        <source>all-reduce fused into the GEMM</source>
        <translation>全归约与 GEMM 融合</translation>
    </message>
    <message>
        <source>facility power ≤ (kW)</source>
        <translation>设施功率 ≤（kW）</translation>
    </message>
    <message>
        <source>rack power ≤ (kW)</source>
        <translation>单柜功率 ≤（kW）</translation>
    </message>
    <message>
        <source>racks ≤</source>
        <translation>机柜数 ≤</translation>
    </message>
    <message>
        <source>capex budget ≤ (USD)</source>
        <translation>资本支出预算 ≤（美元）</translation>
    </message>
    <message>
        <source>TCO budget ≤ (USD)</source>
        <translation>总拥有成本预算 ≤（美元）</translation>
    </message>
    <message>
        <source>customer region</source>
        <translation>客户所在地区</translation>
    </message>
    <message>
        <source>servers allowed</source>
        <translation>可选服务器</translation>
    </message>
    <message>
        <source>GPU vendors allowed</source>
        <translation>可选 GPU 厂商</translation>
    </message>
    <message>
        <source>cooling allowed</source>
        <translation>可选冷却方式</translation>
    </message>
    <message>
        <source>fabric templates</source>
        <translation>网络拓扑模板</translation>
    </message>
    <message>
        <source>oversubscriptions tried</source>
        <translation>尝试的收敛比</translation>
    </message>
    <message>
        <source>at most servers</source>
        <translation>服务器数上限</translation>
    </message>
    <message>
        <source>no goal: the advisor has nothing to search for this project.</source>
        <translation>未设目标：设计顾问无法为本项目搜索方案。</translation>
    </message>
    <message>
        <source>FP4 is for serving goals only: the advisor then ranks only GPUs with FP4 tensor cores (B200, B300, GB200, GB300, MI355X) and names the others it leaves out.</source>
        <translation>FP4 仅用于推理服务目标：设计顾问只对具备 FP4 张量核心的 GPU（B200、B300、GB200、GB300、MI355X）排序，并列出被排除的其他 GPU。</translation>
    </message>
    <message>
        <source>Aggregated: every replica prefills and decodes; disaggregated: prefill and decode workers apart; best: the larger capacity of the two (as estimate --inference --serving).</source>
        <translation>合并部署：每个副本既做预填充也做解码；预填充/解码分离：预填充与解码由不同的工作节点承担；两者择优：取两者中容量较大者（与 estimate --inference --serving 相同）。</translation>
    </message>
    <message>
        <source>Concurrent users to serve, each waiting for its answer and then the think time before the next request (as estimate --users). With a request rate too, both must be served.</source>
        <translation>要服务的并发用户数：每个用户等到回复后，再经过思考时间才发出下一个请求（与 estimate --users 相同）。同时填写请求速率时，两者都须满足。</translation>
    </message>
    <message>
        <source>Seconds a user waits between an answer and the next request.</source>
        <translation>用户收到回复后到发出下一个请求之间等待的秒数。</translation>
    </message>
    <message>
        <source>Prompt lengths vary as in this dataset (catalogs/validation/inference_datasets.yaml); the prompt length must be its mean (as estimate --prompt-dataset).</source>
        <translation>提示词长度按该数据集分布（catalogs/validation/inference_datasets.yaml）；提示词长度须等于其平均值（与 estimate --prompt-dataset 相同）。</translation>
    </message>
    <message>
        <source>The percentile of requests the target holds for (MLPerf: 99); the lowest value: in the mean.</source>
        <translation>目标须满足的请求百分位（MLPerf 为 99）；最小值表示按平均值计。</translation>
    </message>
    <message>
        <source>How the KV cache is sized: vLLM gives a share of the memory to weights, workspace and KV cache; TensorRT-LLM gives the KV cache a share of the memory left after them (as estimate --serving-stack).</source>
        <translation>KV 缓存的容量规则：vLLM 将显存的一定比例用于权重、工作区和 KV 缓存；TensorRT-LLM 将扣除权重和工作区后剩余显存的一定比例用于 KV 缓存（与 estimate --serving-stack 相同）。</translation>
    </message>
    <message>
        <source>ISO country code (e.g. CN): parts export-restricted there are left out.</source>
        <translation>ISO 国家代码（如 CN）：在该地区受出口管制的部件不予考虑。</translation>
    </message>
    <message>
        <source>Catalog server ids, comma-separated; empty = every GPU server in the catalog.</source>
        <translation>产品目录中的服务器 ID，以逗号分隔；留空表示目录中所有 GPU 服务器。</translation>
    </message>
    <message>
        <source>GPU vendors, comma-separated (e.g. Huawei); empty = any.</source>
        <translation>GPU 厂商，以逗号分隔（如 Huawei）；留空表示不限。</translation>
    </message>
    <message>
        <source>Comma-separated, from: {names}; empty = any.</source>
        <translation>以逗号分隔，可选：{names}；留空表示不限。</translation>
    </message>
    <message>
        <source>Comma-separated, from: {names}.</source>
        <translation>以逗号分隔，可选：{names}。</translation>
    </message>
    <message>
        <source>Leaf oversubscription ratios, comma-separated: 1 = non-blocking, up to 8.</source>
        <translation>叶交换机收敛比，以逗号分隔：1 表示无阻塞，最大 8。</translation>
    </message>
    <message>
        <source>The search&apos;s own ceiling on the server count.</source>
        <translation>搜索时服务器数量的上限。</translation>
    </message>
    <message>
        <source>In US dollars, as the catalog&apos;s prices; 0 = no limit.</source>
        <translation>以美元计，与产品目录价格一致；0 表示不限。</translation>
    </message>
    <message>
        <source>In US dollars over the site&apos;s TCO years; 0 = no limit.</source>
        <translation>以美元计，按场地设置的总拥有成本年限；0 表示不限。</translation>
    </message>
    <message>
        <source>the goal</source>
        <translation>设计目标</translation>
    </message>
</context>
<context>
    <name>Inspector</name>
    <message>
        <source>&lt;b&gt;{name}&lt;/b&gt; — {what}</source>
        <translation>&lt;b&gt;{name}&lt;/b&gt; — {what}</translation>
    </message>
    <message>
        <source>Figures</source>
        <translation>数据</translation>
    </message>
    <message>
        <source>The selection&apos;s figures from the last analysis; click to fold</source>
        <translation>所选对象在最近一次分析中的数据；点击可折叠</translation>
    </message>
    <message>
        <source>&lt;b&gt;Project and site&lt;/b&gt; — nothing selected</source>
        <translation>&lt;b&gt;项目与场地&lt;/b&gt; — 未选择任何对象</translation>
    </message>
    <message>
        <source>Project</source>
        <translation>项目</translation>
    </message>
    <message>
        <source>Site</source>
        <translation>场地</translation>
    </message>
    <message>
        <source>rack</source>
        <translation>机柜</translation>
    </message>
    <message>
        <source>device</source>
        <translation>设备</translation>
    </message>
    <message>
        <source>link</source>
        <translation>链路</translation>
    </message>
    <message>
        <source>Set {field}</source>
        <translation>设置{field}</translation>
    </message>
    <message>
        <source>{field} = {value!r} refused: {why}</source>
        <translation>{field} = {value!r} 被拒绝：{why}</translation>
    </message>
    <message>
        <source>{n} × {old} → {new}</source>
        <translation>{n} × {old} → {new}</translation>
    </message>
    <message numerus="yes">
        <source>%Ln link end(s) moved to the new model&apos;s port groups: {moves}.</source>
        <translation>
            <numerusform>%Ln 个链路端口已改接到新型号的端口组：{moves}。</numerusform>
        </translation>
    </message>
    <message>
        <source>{device} {group}: {cables} cables on {ports} ports</source>
        <translation>{device} 的 {group}：{ports} 个端口上接了 {cables} 根线缆</translation>
    </message>
    <message>
        <source>More cables than ports: {list}.</source>
        <translation>线缆多于端口：{list}。</translation>
    </message>
    <message>
        <source>(mixed)</source>
        <translation>（多个值）</translation>
    </message>
</context>
<context>
    <name>Legend</name>
    <message>
        <source>Links (utilisation over a training step):</source>
        <translation>链路（一个训练步内的利用率）：</translation>
    </message>
    <message>
        <source>{label} ({n})</source>
        <translation>{label}（{n}）</translation>
    </message>
    <message>
        <source>Racks (kW at load / budget):</source>
        <translation>机柜（负载功率 kW / 功率预算）：</translation>
    </message>
    <message>
        <source>Cooling:</source>
        <translation>制冷：</translation>
    </message>
    <message>
        <source>Legend</source>
        <translation>图例</translation>
    </message>
</context>
<context>
    <name>MainWindow</name>
    <message>
        <source>&amp;New</source>
        <translation>新建(&amp;N)</translation>
    </message>
    <message>
        <source>New from &amp;template…</source>
        <translation>从模板新建(&amp;T)…</translation>
    </message>
    <message>
        <source>&amp;Add from template…</source>
        <translation>从模板添加(&amp;A)…</translation>
    </message>
    <message>
        <source>Add a pod (servers, fabrics, racks) to this project, in its own partition</source>
        <translation>向本项目添加一个集群单元（服务器、网络、机柜），放入其独立分区</translation>
    </message>
    <message>
        <source>&amp;Open…</source>
        <translation>打开(&amp;O)…</translation>
    </message>
    <message>
        <source>&amp;Welcome…</source>
        <translation>欢迎页(&amp;W)…</translation>
    </message>
    <message>
        <source>Recent projects, templates and the example projects</source>
        <translation>最近的项目、模板与示例项目</translation>
    </message>
    <message>
        <source>&amp;Save</source>
        <translation>保存(&amp;S)</translation>
    </message>
    <message>
        <source>Save &amp;as…</source>
        <translation>另存为(&amp;A)…</translation>
    </message>
    <message>
        <source>&amp;Export report (PDF)…</source>
        <translation>导出报告 (PDF)(&amp;E)…</translation>
    </message>
    <message>
        <source>&amp;Print rack elevation…</source>
        <translation>打印机柜立面图(&amp;P)…</translation>
    </message>
    <message>
        <source>&amp;Quit</source>
        <translation>退出(&amp;Q)</translation>
    </message>
    <message>
        <source>&amp;Undo</source>
        <translation>撤销(&amp;U)</translation>
    </message>
    <message>
        <source>&amp;Redo</source>
        <translation>重做(&amp;R)</translation>
    </message>
    <message>
        <source>Undo</source>
        <translation>撤销</translation>
    </message>
    <message>
        <source>Redo</source>
        <translation>重做</translation>
    </message>
    <message>
        <source>Cu&amp;t</source>
        <translation>剪切(&amp;T)</translation>
    </message>
    <message>
        <source>&amp;Copy</source>
        <translation>复制(&amp;C)</translation>
    </message>
    <message>
        <source>&amp;Paste</source>
        <translation>粘贴(&amp;P)</translation>
    </message>
    <message>
        <source>&amp;Delete</source>
        <translation>删除(&amp;D)</translation>
    </message>
    <message>
        <source>Select &amp;all</source>
        <translation>全选(&amp;A)</translation>
    </message>
    <message>
        <source>&amp;Preferences…</source>
        <translation>首选项(&amp;P)…</translation>
    </message>
    <message>
        <source>Zoom &amp;in</source>
        <translation>放大(&amp;I)</translation>
    </message>
    <message>
        <source>Zoom &amp;out</source>
        <translation>缩小(&amp;O)</translation>
    </message>
    <message>
        <source>Zoom to &amp;fit</source>
        <translation>缩放以适应窗口(&amp;F)</translation>
    </message>
    <message>
        <source>Collapse all &amp;scalable units</source>
        <translation>折叠全部可扩展单元(&amp;S)</translation>
    </message>
    <message>
        <source>Show each scalable unit or pod as one block with its GPUs, kW, busiest uplink and findings</source>
        <translation>把每个可扩展单元（SU）或 Pod 显示为一个方块，标出 GPU 数、功率、最忙上行链路和检查发现</translation>
    </message>
    <message>
        <source>Collapse all &amp;rows</source>
        <translation>折叠全部机柜列(&amp;R)</translation>
    </message>
    <message>
        <source>Show each row of racks as one block with its totals</source>
        <translation>把每列机柜显示为一个方块，标出合计</translation>
    </message>
    <message>
        <source>&amp;Collapse the selection&apos;s group</source>
        <translation>折叠所选项所在的组(&amp;C)</translation>
    </message>
    <message>
        <source>Collapse the scalable units of the selected racks and devices (double-click a block to expand it)</source>
        <translation>折叠所选机柜和设备所在的可扩展单元（双击方块可展开）</translation>
    </message>
    <message>
        <source>&amp;Expand all groups</source>
        <translation>展开全部组(&amp;E)</translation>
    </message>
    <message>
        <source>&amp;Minimap</source>
        <translation>缩略图(&amp;M)</translation>
    </message>
    <message>
        <source>&amp;Arrange in tiers</source>
        <translation>按层排列(&amp;A)</translation>
    </message>
    <message>
        <source>Switches in tiers by role above the racks, racks in lines by row (one undo step)</source>
        <translation>交换机按角色分层排在机柜上方，机柜按列成行排列（一步即可撤销）</translation>
    </message>
    <message>
        <source>&amp;Larger text (projector)</source>
        <translation>大字号（投影）(&amp;L)</translation>
    </message>
    <message>
        <source>Larger text in panels, menus and dialogs, for a projector or a large room</source>
        <translation>面板、菜单和对话框使用大字号，适合投影或大会议室</translation>
    </message>
    <message>
        <source>Draw &amp;links</source>
        <translation>绘制链路(&amp;L)</translation>
    </message>
    <message>
        <source>Drag from one device to another to link them (or drag from a port-group pad at any time)</source>
        <translation>从一台设备拖到另一台设备即可连线（也可随时从端口组连接点拖出）</translation>
    </message>
    <message>
        <source>&amp;Workload…</source>
        <translation>工作负载(&amp;W)…</translation>
    </message>
    <message>
        <source>New s&amp;erving workload…</source>
        <translation>新建推理服务负载(&amp;E)…</translation>
    </message>
    <message>
        <source>A serving workload beside the others: users, TTFT/TPOT targets, its partition</source>
        <translation>在现有负载之外新增一个推理服务负载：并发用户、首字/逐字时延目标及其分区</translation>
    </message>
    <message>
        <source>&amp;Site and costs…</source>
        <translation>场地与成本(&amp;S)…</translation>
    </message>
    <message>
        <source>&amp;Phases and teams…</source>
        <translation>建设阶段与团队(&amp;P)…</translation>
    </message>
    <message>
        <source>Design &amp;advisor…</source>
        <translation>设计顾问(&amp;A)…</translation>
    </message>
    <message>
        <source>From a goal and the site&apos;s limits to the best cluster designs</source>
        <translation>根据目标与场地约束给出最优的集群设计</translation>
    </message>
    <message>
        <source>Design &amp;goal…</source>
        <translation>设计目标(&amp;G)…</translation>
    </message>
    <message>
        <source>What the customer wants and the site&apos;s limits, kept in the project</source>
        <translation>客户的目标与场地限制，保存在项目中</translation>
    </message>
    <message>
        <source>&amp;About GPU Planner</source>
        <translation>关于 GPU Planner(&amp;A)</translation>
    </message>
    <message>
        <source>Arrange in tiers</source>
        <translation>按层排列</translation>
    </message>
    <message>
        <source>Everything is already in its tier.</source>
        <translation>所有设备都已在各自的层中。</translation>
    </message>
    <message>
        <source>&amp;File</source>
        <translation>文件(&amp;F)</translation>
    </message>
    <message>
        <source>Open &amp;recent</source>
        <translation>最近打开(&amp;R)</translation>
    </message>
    <message>
        <source>&amp;Edit</source>
        <translation>编辑(&amp;E)</translation>
    </message>
    <message>
        <source>&amp;View</source>
        <translation>视图(&amp;V)</translation>
    </message>
    <message>
        <source>&amp;Plan</source>
        <translation>规划(&amp;P)</translation>
    </message>
    <message>
        <source>&amp;Help</source>
        <translation>帮助(&amp;H)</translation>
    </message>
    <message>
        <source>Main</source>
        <translation>主工具栏</translation>
    </message>
    <message>
        <source>GPU Planner — plan GPU clusters offline: fabric, performance, power, cooling and cost.</source>
        <translation>GPU Planner — 离线规划 GPU 集群：网络、性能、供电、制冷与成本。</translation>
    </message>
    <message>
        <source>About GPU Planner</source>
        <translation>关于 GPU Planner</translation>
    </message>
    <message>
        <source>Delete</source>
        <translation>删除</translation>
    </message>
    <message>
        <source>Nothing to paste: copy racks, devices or links first</source>
        <translation>没有可粘贴的内容：请先复制机柜、设备或链路</translation>
    </message>
    <message>
        <source>The clipboard does not hold GPU Planner items</source>
        <translation>剪贴板中没有 GPU Planner 的对象</translation>
    </message>
    <message>
        <source>Kept the workload, site and costs, teams and project details.</source>
        <translation>已保留工作负载、场地与成本、团队和项目信息。</translation>
    </message>
    <message>
        <source>The PDF report is not part of this build (gpuplanner.reports is missing)</source>
        <translation>此版本不含 PDF 报告功能（缺少 gpuplanner.reports）</translation>
    </message>
    <message>
        <source>Cannot write the report</source>
        <translation>无法写入报告</translation>
    </message>
    <message>
        <source>Report written to {path}</source>
        <translation>报告已写入 {path}</translation>
    </message>
    <message>
        <source>Topology</source>
        <translation>拓扑</translation>
    </message>
    <message>
        <source>Floor plan</source>
        <translation>机房平面图</translation>
    </message>
    <message>
        <source>Catalog</source>
        <translation>设备目录</translation>
    </message>
    <message>
        <source>Inspector</source>
        <translation>属性</translation>
    </message>
    <message>
        <source>Results</source>
        <translation>分析结果</translation>
    </message>
    <message>
        <source>Plots</source>
        <translation>图表</translation>
    </message>
    <message>
        <source>Rack elevation</source>
        <translation>机柜立面图</translation>
    </message>
    <message>
        <source>Analysis failed: {m}</source>
        <translation>分析失败：{m}</translation>
    </message>
    <message>
        <source>Restore unsaved work?</source>
        <translation>恢复未保存的工作？</translation>
    </message>
    <message>
        <source>GPU Planner did not close properly. Restore the unsaved work on “{name}” ({file}), autosaved at {when}?</source>
        <translation>GPU Planner 上次未正常关闭。是否恢复“{name}”（{file}）于 {when} 自动保存的未保存工作？</translation>
    </message>
    <message>
        <source>Untitled</source>
        <translation>未命名</translation>
    </message>
    <message>
        <source>never saved</source>
        <translation>从未保存</translation>
    </message>
    <message>
        <source>Cannot restore</source>
        <translation>无法恢复</translation>
    </message>
    <message>
        <source>Internal error: {e} — your work is kept; please report it</source>
        <translation>内部错误：{e} — 您的工作已保留；请报告此问题</translation>
    </message>
    <message>
        <source>not saved</source>
        <translation>未保存</translation>
    </message>
    <message>
        <source>{name} — {file}[*] — GPU Planner</source>
        <translation>{name} — {file}[*] — GPU Planner</translation>
    </message>
    <message>
        <source>● unsaved changes</source>
        <translation>● 有未保存的更改</translation>
    </message>
    <message>
        <source>saved</source>
        <translation>已保存</translation>
    </message>
    <message>
        <source>zoom {p} %</source>
        <translation>缩放 {p} %</translation>
    </message>
    <message numerus="yes">
        <source>%Ln GPU(s) at the end of phase “{phase}”</source>
        <translation>
            <numerusform>阶段“{phase}”结束时共 %Ln 块 GPU</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%Ln GPU(s)</source>
        <translation>
            <numerusform>%Ln 块 GPU</numerusform>
        </translation>
    </message>
    <message>
        <source>analysis {ms} ms</source>
        <translation>分析耗时 {ms} ms</translation>
    </message>
    <message>
        <source>Unsaved changes</source>
        <translation>未保存的更改</translation>
    </message>
    <message>
        <source>“{name}” has unsaved changes. Save them first?</source>
        <translation>“{name}”有未保存的更改。是否先保存？</translation>
    </message>
    <message>
        <source>Open project</source>
        <translation>打开项目</translation>
    </message>
    <message>
        <source>Opening cancelled; the current project is unchanged</source>
        <translation>已取消打开，当前项目保持不变</translation>
    </message>
    <message>
        <source>Cannot open the project</source>
        <translation>无法打开项目</translation>
    </message>
    <message>
        <source>{file} is an example: it opened as an untitled copy (Save as… keeps your changes)</source>
        <translation>{file} 是示例项目：已作为未命名副本打开（用“另存为…”保存您的修改）</translation>
    </message>
    <message>
        <source>{path}

{why}

The current project is unchanged.</source>
        <translation>{path}

{why}

当前项目未做任何改动。</translation>
    </message>
    <message>
        <source>Save project as</source>
        <translation>项目另存为</translation>
    </message>
    <message>
        <source>Cannot save the project</source>
        <translation>无法保存项目</translation>
    </message>
    <message>
        <source>Saved {path}</source>
        <translation>已保存 {path}</translation>
    </message>
    <message>
        <source>GPU Planner projects (*.gpuplan);;All files (*)</source>
        <translation>GPU Planner 项目 (*.gpuplan);;所有文件 (*)</translation>
    </message>
</context>
<context>
    <name>Minimap</name>
    <message>
        <source>The whole plan: click or drag to move the view</source>
        <translation>整个规划：单击或拖动可移动视图</translation>
    </message>
</context>
<context>
    <name>Palette</name>
    <message>
        <source>Search the catalog (name, vendor, id)…</source>
        <translation>搜索设备目录（名称、厂商、ID）…</translation>
    </message>
    <message>
        <source>GPUs</source>
        <translation>GPU</translation>
    </message>
    <message>
        <source>Servers</source>
        <translation>服务器</translation>
    </message>
    <message>
        <source>Switches</source>
        <translation>交换机</translation>
    </message>
    <message>
        <source>Storage</source>
        <translation>存储</translation>
    </message>
    <message>
        <source>Racks</source>
        <translation>机柜</translation>
    </message>
    <message>
        <source>{name} — {mem} GB</source>
        <translation>{name} — {mem} GB 显存</translation>
    </message>
    <message>
        <source>{name} — {ru}U, {kw} kW</source>
        <translation>{name} — {ru}U，{kw} kW</translation>
    </message>
    <message>
        <source>{name} — {kw} kW</source>
        <translation>{name} — {kw} kW</translation>
    </message>
    <message>
        <source>BF16 dense {tf} TFLOPS, TDP {w} W</source>
        <translation>BF16 稠密算力 {tf} TFLOPS，TDP {w} W</translation>
    </message>
    <message>
        <source>{name} — {n} GPU, {ru}U</source>
        <translation>{name} — {n} 卡，{ru}U</translation>
    </message>
    <message>
        <source>{name} — {ports} ports</source>
        <translation>{name} — {ports} 端口</translation>
    </message>
    <message>
        <source>{name} — {ru}U</source>
        <translation>{name} — {ru}U</translation>
    </message>
    <message>
        <source>dropping a GPU adds a server that carries it</source>
        <translation>拖入 GPU 会添加一台搭载该 GPU 的服务器</translation>
    </message>
    <message>
        <source>{ru}U, up to {w} W</source>
        <translation>{ru}U，最大 {w} W</translation>
    </message>
    <message>
        <source>figures marked as estimates</source>
        <translation>数据为估算值</translation>
    </message>
</context>
<context>
    <name>PhasePicker</name>
    <message>
        <source>Show phase:</source>
        <translation>显示阶段：</translation>
    </message>
    <message>
        <source>All phases</source>
        <translation>全部阶段</translation>
    </message>
    <message>
        <source>{n}. {name} (and before)</source>
        <translation>{n}. {name}（及之前）</translation>
    </message>
</context>
<context>
    <name>PhasesTeamsDialog</name>
    <message>
        <source>Phases and teams</source>
        <translation>建设阶段与团队</translation>
    </message>
    <message>
        <source>Build-out phases (each adds to the ones before)</source>
        <translation>建设阶段（每个阶段在之前阶段的基础上扩建）</translation>
    </message>
    <message>
        <source>Order</source>
        <translation>顺序</translation>
    </message>
    <message>
        <source>Name</source>
        <translation>名称</translation>
    </message>
    <message>
        <source>Description</source>
        <translation>描述</translation>
    </message>
    <message>
        <source>Scheduler</source>
        <translation>调度系统</translation>
    </message>
    <message numerus="yes">
        <source>Put the %Ln selected item(s) (racks with their devices, and their links) in phase:</source>
        <translation>
            <numerusform>将所选的 %Ln 项（机柜及其中设备、相关链路）归入阶段：</numerusform>
        </translation>
    </message>
    <message>
        <source>(leave as they are)</source>
        <translation>（保持不变）</translation>
    </message>
    <message>
        <source>Teams and GPU quotas</source>
        <translation>团队与 GPU 配额</translation>
    </message>
    <message>
        <source>Partition</source>
        <translation>分区</translation>
    </message>
    <message>
        <source>Guaranteed GPUs</source>
        <translation>保障 GPU 数</translation>
    </message>
    <message>
        <source>Burst GPUs</source>
        <translation>弹性 GPU 数</translation>
    </message>
    <message>
        <source>Priority</source>
        <translation>优先级</translation>
    </message>
    <message>
        <source>Largest job (GPUs)</source>
        <translation>最大作业（GPU 数）</translation>
    </message>
    <message>
        <source>Add</source>
        <translation>添加</translation>
    </message>
    <message>
        <source>Remove selected</source>
        <translation>删除所选</translation>
    </message>
    <message>
        <source>Phase {n}</source>
        <translation>阶段 {n}</translation>
    </message>
    <message>
        <source>as advised</source>
        <translation>按建议</translation>
    </message>
    <message>
        <source>Team {n}</source>
        <translation>团队 {n}</translation>
    </message>
    <message>
        <source>{table}, row {r}, {col}: &apos;{v}&apos; is not a whole number ≥ {m}</source>
        <translation>{table}，第 {r} 行，{col}：“{v}”不是 ≥ {m} 的整数</translation>
    </message>
    <message>
        <source>Phases</source>
        <translation>建设阶段</translation>
    </message>
    <message>
        <source>{table}, row {r}: a phase needs a name</source>
        <translation>{table}，第 {r} 行：阶段需要名称</translation>
    </message>
    <message>
        <source>{table}, row {r}: two phases are named &apos;{name}&apos;</source>
        <translation>{table}，第 {r} 行：有两个阶段都叫“{name}”</translation>
    </message>
    <message>
        <source>Teams</source>
        <translation>团队</translation>
    </message>
    <message>
        <source>{table}, row {r}: a team needs a name</source>
        <translation>{table}，第 {r} 行：团队需要名称</translation>
    </message>
    <message>
        <source>Edit phases and teams</source>
        <translation>编辑建设阶段与团队</translation>
    </message>
</context>
<context>
    <name>PlannerScene</name>
    <message>
        <source>{name}: {n} × {speed} {type} — {used} in use; drag from here to another device&apos;s port group to link</source>
        <translation>{name}：{n} × {speed} {type} — 已用 {used}；从此处拖到另一台设备的端口组即可连线</translation>
    </message>
    <message>
        <source>{kw} kW</source>
        <translation>{kw} kW</translation>
    </message>
</context>
<context>
    <name>PlotsPanel</name>
    <message>
        <source>Throughput</source>
        <translation>吞吐量</translation>
    </message>
    <message>
        <source>GPUs (same layout, batch per replica)</source>
        <translation>GPU 数量（并行布局相同，每副本批量不变）</translation>
    </message>
    <message>
        <source>Scaling efficiency, % of the smallest size per GPU</source>
        <translation>扩展效率（相对最小规模的单卡吞吐，%）</translation>
    </message>
    <message>
        <source>GPUs</source>
        <translation>GPU</translation>
    </message>
    <message>
        <source>Link utilisation over a training step</source>
        <translation>一个训练步内的链路利用率</translation>
    </message>
    <message>
        <source>links</source>
        <translation>链路数</translation>
    </message>
    <message>
        <source>utilisation (%)</source>
        <translation>利用率 (%)</translation>
    </message>
    <message>
        <source>Rack power at load (bars) against budget (red marks)</source>
        <translation>机柜负载功率（柱）与功率预算（红色标记）</translation>
    </message>
    <message>
        <source>kW</source>
        <translation>kW</translation>
    </message>
    <message>
        <source>rack</source>
        <translation>机柜</translation>
    </message>
    <message>
        <source>Cost over the years</source>
        <translation>逐年累计成本</translation>
    </message>
    <message>
        <source>years</source>
        <translation>年</translation>
    </message>
    <message>
        <source>Cost per GPU-hour: each input moved down and up</source>
        <translation>每 GPU 小时成本：各输入分别下调与上调</translation>
    </message>
    <message>
        <source>Scaling</source>
        <translation>扩展性</translation>
    </message>
    <message>
        <source>Link utilisation</source>
        <translation>链路利用率</translation>
    </message>
    <message>
        <source>Rack power</source>
        <translation>机柜功率</translation>
    </message>
    <message>
        <source>TCO</source>
        <translation>总拥有成本 TCO</translation>
    </message>
    <message>
        <source>Sensitivity</source>
        <translation>敏感性</translation>
    </message>
    <message>
        <source>Throughput, million tokens/s</source>
        <translation>吞吐量（百万 token/秒）</translation>
    </message>
    <message>
        <source>Throughput, thousand tokens/s</source>
        <translation>吞吐量（千 token/秒）</translation>
    </message>
    <message numerus="yes">
        <source>%Ln GPU(s) today: {tps} tokens/s, MFU {mfu} % (red line). Layout tp={tp} pp={pp} cp={cp}.</source>
        <translation>
            <numerusform>当前 %Ln 块 GPU：{tps} token/秒，算力利用率 MFU {mfu} %（红线）。并行布局 tp={tp} pp={pp} cp={cp}。</numerusform>
        </translation>
    </message>
    <message>
        <source>(click a bar to select those links)</source>
        <translation>（点击柱形可选中对应链路）</translation>
    </message>
    <message>
        <source>budget</source>
        <translation>预算</translation>
    </message>
    <message>
        <source>cloud at {p} USD/GPU·h, {u} % used</source>
        <translation>云租用：{p} USD/GPU·h，利用率 {u} %</translation>
    </message>
    <message>
        <source>base {v}; ranges in catalogs/assumptions/cost.yaml</source>
        <translation>基准 {v}；变动范围见 catalogs/assumptions/cost.yaml</translation>
    </message>
    <message>
        <source>own: capex + opex</source>
        <translation>自建：资本支出 + 运营支出</translation>
    </message>
    <message>
        <source>electricity price</source>
        <translation>电价</translation>
    </message>
    <message>
        <source>utilisation</source>
        <translation>利用率</translation>
    </message>
    <message>
        <source>GPU price</source>
        <translation>GPU 价格</translation>
    </message>
    <message>
        <source>cloud price</source>
        <translation>云价格</translation>
    </message>
    <message>
        <source>PUE</source>
        <translation>PUE</translation>
    </message>
    <message>
        <source>discount rate</source>
        <translation>折现率</translation>
    </message>
    <message>
        <source>No cost per GPU-hour to vary (no GPUs or no utilisation).</source>
        <translation>没有可分析的每 GPU 小时成本（无 GPU 或利用率为零）。</translation>
    </message>
    <message>
        <source>{cur} per GPU-hour</source>
        <translation>每 GPU 小时 {cur}</translation>
    </message>
    <message>
        <source>input lowered or raised: cheaper</source>
        <translation>输入下调或上调后：更便宜</translation>
    </message>
    <message>
        <source>dearer</source>
        <translation>更贵</translation>
    </message>
</context>
<context>
    <name>PreferencesDialog</name>
    <message>
        <source>Preferences</source>
        <translation>首选项</translation>
    </message>
    <message>
        <source>Follow the system ({language})</source>
        <translation>跟随系统（{language}）</translation>
    </message>
    <message>
        <source>Automatic: 万 / 亿 in Chinese, k / M / B in English</source>
        <translation>自动：中文界面用 万 / 亿，英文界面用 k / M / B</translation>
    </message>
    <message>
        <source>k / M / B (1.25 M USD)</source>
        <translation>k / M / B（1.25 M USD）</translation>
    </message>
    <message>
        <source>万 / 亿 (125.0 万美元, 3.42 亿元)</source>
        <translation>万 / 亿（125.0 万美元，3.42 亿元）</translation>
    </message>
    <message>
        <source>The window is rebuilt in the new language at once; the open project and its undo history stay. Reports are written in the project&apos;s language (Inspector ▸ Project ▸ language), which File ▸ Export report lets you change.</source>
        <translation>窗口会立即以新语言重建，已打开的项目及其撤销历史都会保留。报告使用项目的语言（属性 ▸ 项目 ▸ 语言），导出报告时（文件 ▸ 导出报告）也可另选语言。</translation>
    </message>
    <message>
        <source>Language</source>
        <translation>界面语言</translation>
    </message>
    <message>
        <source>Large amounts</source>
        <translation>大额数字</translation>
    </message>
</context>
<context>
    <name>RackElevation</name>
    <message>
        <source>Print…</source>
        <translation>打印…</translation>
    </message>
    <message>
        <source>Smaller (Ctrl+wheel)</source>
        <translation>缩小（Ctrl+滚轮）</translation>
    </message>
    <message>
        <source>Larger (Ctrl+wheel)</source>
        <translation>放大（Ctrl+滚轮）</translation>
    </message>
    <message>
        <source>Fit height</source>
        <translation>适应高度</translation>
    </message>
    <message>
        <source>Scale the drawing so that the tallest rack fills the height of the view</source>
        <translation>缩放图面，使最高的机柜占满视图高度</translation>
    </message>
    <message>
        <source>Row:</source>
        <translation>机柜列：</translation>
    </message>
    <message numerus="yes">
        <source>{row} (%Ln rack(s))</source>
        <translation>
            <numerusform>{row}（%Ln 个机柜）</numerusform>
        </translation>
    </message>
    <message>
        <source>No racks yet: drop a rack from the catalog onto the canvas.</source>
        <translation>还没有机柜：请从设备目录把机柜拖到画布上。</translation>
    </message>
    <message>
        <source>{used} of {ru} U used</source>
        <translation>已用 {used} / {ru} U</translation>
    </message>
    <message>
        <source>{load} kW at load, {peak} kW max</source>
        <translation>负载 {load} kW，最大 {peak} kW</translation>
    </message>
    <message>
        <source>budget {budget} kW · {used} of {ru} U used</source>
        <translation>预算 {budget} kW · 已用 {used} / {ru} U</translation>
    </message>
    <message>
        <source>cooling: {m}</source>
        <translation>制冷：{m}</translation>
    </message>
</context>
<context>
    <name>ReportDialog</name>
    <message>
        <source>Export report</source>
        <translation>导出报告</translation>
    </message>
    <message>
        <source>Browse…</source>
        <translation>浏览…</translation>
    </message>
    <message>
        <source>English</source>
        <translation>英文</translation>
    </message>
    <message>
        <source>Simplified Chinese (简体中文)</source>
        <translation>简体中文</translation>
    </message>
    <message>
        <source>File:</source>
        <translation>文件：</translation>
    </message>
    <message>
        <source>Language of the report:</source>
        <translation>报告语言：</translation>
    </message>
    <message>
        <source>Export the report</source>
        <translation>导出报告</translation>
    </message>
    <message>
        <source>PDF documents (*.pdf)</source>
        <translation>PDF 文档 (*.pdf)</translation>
    </message>
</context>
<context>
    <name>ResultsPanel</name>
    <message>
        <source>GPUs</source>
        <translation>GPU</translation>
    </message>
    <message>
        <source>Step time</source>
        <translation>单步时间</translation>
    </message>
    <message>
        <source>MFU</source>
        <translation>算力利用率 MFU</translation>
    </message>
    <message>
        <source>Tokens/s</source>
        <translation>token/秒</translation>
    </message>
    <message>
        <source>Time to train</source>
        <translation>训练总时长</translation>
    </message>
    <message>
        <source>IT kW (load / max)</source>
        <translation>IT 功率 kW（负载 / 最大）</translation>
    </message>
    <message>
        <source>Facility kW (load / max)</source>
        <translation>设施功率 kW（负载 / 最大）</translation>
    </message>
    <message>
        <source>TCO, {n} years</source>
        <translation>总拥有成本 TCO（{n} 年）</translation>
    </message>
    <message>
        <source>{name} ({partition}, {gpus} GPUs)</source>
        <translation>{name}（{partition}，{gpus} 块 GPU）</translation>
    </message>
    <message>
        <source>all</source>
        <translation>全部</translation>
    </message>
    <message>
        <source>{where}: not evaluated — {why}</source>
        <translation>{where}：无法评估——{why}</translation>
    </message>
    <message>
        <source>{where}: {days} days to train, MFU {mfu}</source>
        <translation>{where}：训练 {days} 天，MFU {mfu}</translation>
    </message>
    <message>
        <source>{where}: up to {users} users ({rate} requests/s), first token {ttft} s, {tpot} ms per token</source>
        <translation>{where}：最多 {users} 个并发用户（每秒 {rate} 个请求），首字时延 {ttft} 秒，每 token {tpot} 毫秒</translation>
    </message>
    <message>
        <source>— the load asked for needs {n} GPUs</source>
        <translation>——所要求的负载需要 {n} 块 GPU</translation>
    </message>
    <message>
        <source>at most {n} sequences at once</source>
        <translation>最多同时 {n} 个序列</translation>
    </message>
    <message>
        <source>at most {n} tokens per step</source>
        <translation>每步最多 {n} 个 token</translation>
    </message>
    <message>
        <source>prefill not chunked</source>
        <translation>不分块预填充</translation>
    </message>
    <message>
        <source>all-reduce fused into the GEMM</source>
        <translation>全归约与 GEMM 融合</translation>
    </message>
    <message>
        <source> ({settings})</source>
        <translation>（{settings}）</translation>
    </message>
    <message>
        <source>; </source>
        <translation>；</translation>
    </message>
    <message>
        <source>IT power, kW (with the design margin)</source>
        <translation>IT 功率（kW，含设计余量）</translation>
    </message>
    <message>
        <source>Utility feed, kW</source>
        <translation>市电容量（kW）</translation>
    </message>
    <message>
        <source>Rack positions</source>
        <translation>机柜位</translation>
    </message>
    <message>
        <source>Capex budget</source>
        <translation>投资预算</translation>
    </message>
    <message>
        <source>TCO budget</source>
        <translation>总拥有成本预算</translation>
    </message>
    <message>
        <source>within</source>
        <translation>满足</translation>
    </message>
    <message>
        <source>EXCEEDED</source>
        <translation>超出</translation>
    </message>
    <message>
        <source>{name}: {plan} of {limit} — {verdict}</source>
        <translation>{name}：{plan} / {limit}——{verdict}</translation>
    </message>
    <message>
        <source>{needed} of {available} kW</source>
        <translation>{needed} / {available} kW</translation>
    </message>
    <message>
        <source>{needed} kW</source>
        <translation>{needed} kW</translation>
    </message>
    <message>
        <source>Facility kW at maximum ({max} kW) plus {pct} % headroom (Site and costs ▸ feed headroom).</source>
        <translation>最大负载时设施功率（{max} kW）另加 {pct}% 余量（场地与成本 ▸ 供电余量）。</translation>
    </message>
    <message>
        <source>No utility feed is stated for the site (Site and costs ▸ utility).</source>
        <translation>尚未填写站点的市电容量（场地与成本 ▸ 市电容量）。</translation>
    </message>
    <message>
        <source>The stated utility feed is too small.</source>
        <translation>填写的市电容量不足。</translation>
    </message>
    <message>
        <source>row {row}: {kw} kW at maximum</source>
        <translation>第 {row} 列：最大 {kw} kW</translation>
    </message>
    <message>
        <source>{method} {kw} kW</source>
        <translation>{method} {kw} kW</translation>
    </message>
    <message>
        <source>Cooling (IT kW at load): {mix}; {liquid} kW to liquid, {air} kW to air</source>
        <translation>散热（负载下 IT 功率）：{mix}；液冷带走 {liquid} kW，风冷带走 {air} kW</translation>
    </message>
    <message>
        <source>{text}
rule: {rule}</source>
        <translation>{text}
规则：{rule}</translation>
    </message>
    <message>
        <source>PUE</source>
        <translation>PUE</translation>
    </message>
    <message>
        <source>Utility feed needed</source>
        <translation>所需市电容量</translation>
    </message>
    <message>
        <source>Racks / rows</source>
        <translation>机柜 / 列</translation>
    </message>
    <message>
        <source>Capex</source>
        <translation>资本支出 (Capex)</translation>
    </message>
    <message>
        <source>TCO</source>
        <translation>总拥有成本 TCO</translation>
    </message>
    <message>
        <source>Finding</source>
        <translation>检查结果</translation>
    </message>
    <message>
        <source>Analysis failed: {msg}</source>
        <translation>分析失败：{msg}</translation>
    </message>
    <message>
        <source>Figures for the cluster at the end of phase {n}, “{name}” (with the phases before)</source>
        <translation>以下为第 {n} 阶段“{name}”结束时（含此前各阶段）集群的数据</translation>
    </message>
    <message>
        <source>Bottleneck: {b}</source>
        <translation>瓶颈：{b}</translation>
    </message>
</context>
<context>
    <name>RowDialog</name>
    <message>
        <source>Not applied: {why}</source>
        <translation>未应用：{why}</translation>
    </message>
</context>
<context>
    <name>ScenarioCompare</name>
    <message>
        <source>GPUs</source>
        <translation>GPU 数量</translation>
    </message>
    <message>
        <source>Switches</source>
        <translation>交换机</translation>
    </message>
    <message>
        <source>Tokens/s</source>
        <translation>token/秒</translation>
    </message>
    <message>
        <source>MFU</source>
        <translation>MFU（模型算力利用率）</translation>
    </message>
    <message>
        <source>Time to train (days)</source>
        <translation>训练时长（天）</translation>
    </message>
    <message>
        <source>IT kW at maximum</source>
        <translation>IT 最大功率（kW）</translation>
    </message>
    <message>
        <source>IT kW at the predicted load</source>
        <translation>预测负载下 IT 功率（kW）</translation>
    </message>
    <message>
        <source>PUE</source>
        <translation>PUE</translation>
    </message>
    <message>
        <source>Facility kW at maximum</source>
        <translation>设施最大功率（kW）</translation>
    </message>
    <message>
        <source>Energy per year (MWh)</source>
        <translation>年耗电量（MWh）</translation>
    </message>
    <message>
        <source>Capital cost</source>
        <translation>资本支出</translation>
    </message>
    <message>
        <source>Operating cost per year</source>
        <translation>年运营成本</translation>
    </message>
    <message>
        <source>Total cost of ownership</source>
        <translation>总拥有成本</translation>
    </message>
    <message>
        <source>Cost per GPU-hour</source>
        <translation>每 GPU 小时成本</translation>
    </message>
    <message>
        <source>Errors</source>
        <translation>错误</translation>
    </message>
    <message>
        <source>Warnings</source>
        <translation>警告</translation>
    </message>
</context>
<context>
    <name>ScenarioPicker</name>
    <message>
        <source>Scenario:</source>
        <translation>场景：</translation>
    </message>
    <message>
        <source>Compare…</source>
        <translation>对比…</translation>
    </message>
    <message>
        <source>Two scenarios&apos; figures side by side, with the difference</source>
        <translation>两个场景的指标并列显示，并给出差值</translation>
    </message>
    <message>
        <source>Base (as drawn)</source>
        <translation>基准（按图）</translation>
    </message>
    <message>
        <source>The project has no scenarios (Plan ▸ Site and costs)</source>
        <translation>项目中没有场景（规划 ▸ 场地与成本）</translation>
    </message>
</context>
<context>
    <name>SiteDialog</name>
    <message>
        <source>Energy and climate</source>
        <translation>能源与气候</translation>
    </message>
    <message>
        <source>Power feed</source>
        <translation>供电容量</translation>
    </message>
    <message>
        <source>Site limits, budget and export rules</source>
        <translation>场地限制、预算与出口管制</translation>
    </message>
    <message>
        <source>Ownership costs</source>
        <translation>持有成本</translation>
    </message>
    <message>
        <source>Cloud comparison</source>
        <translation>云服务对比</translation>
    </message>
    <message>
        <source>Facility and finance</source>
        <translation>机房设施与财务</translation>
    </message>
    <message>
        <source>Electrical</source>
        <translation>电气</translation>
    </message>
    <message>
        <source>Floor and cabling</source>
        <translation>机房与布线</translation>
    </message>
    <message>
        <source>Site and costs</source>
        <translation>场地与成本</translation>
    </message>
    <message>
        <source>The kW the utility can deliver to this site; 0 = not stated (no check).</source>
        <translation>市电可供给本站点的容量（kW）；0 = 未填写（不做检查）。</translation>
    </message>
    <message>
        <source>Margin on top of the facility kW at maximum when sizing the feed: 0.20 = 20 %.</source>
        <translation>按最大设施功率确定供电容量时另加的余量：0.20 = 20%。</translation>
    </message>
    <message>
        <source>Average share of the maximum IT power drawn over a year: 0.80 = 80 %.</source>
        <translation>全年平均 IT 功耗占最大 IT 功率的比例：0.80 = 80%。</translation>
    </message>
    <message>
        <source>IT power the hall can take; the plan&apos;s IT kW at maximum plus the feed margin is checked against it. 0 = not stated.</source>
        <translation>机房可承载的 IT 功率；方案的最大 IT 功率加上设计余量将与之比较。0 表示未说明。</translation>
    </message>
    <message>
        <source>Rack positions on the floor, as [{&quot;count&quot;: 24, &quot;cooling&quot;: &quot;air&quot;, &quot;kw&quot;: 40}, …]; cooling is air, rear-door or liquid. [] = not stated.</source>
        <translation>机房内的机柜位，格式为 [{&quot;count&quot;: 24, &quot;cooling&quot;: &quot;air&quot;, &quot;kw&quot;: 40}, …]；cooling 取 air（风冷）、rear-door（背板换热）或 liquid（液冷）。[] 表示未说明。</translation>
    </message>
    <message>
        <source>Capex budget in the project currency; 0 = not stated.</source>
        <translation>以项目货币计的投资预算；0 表示未说明。</translation>
    </message>
    <message>
        <source>TCO budget in the project currency, over the TCO years; 0 = not stated.</source>
        <translation>以项目货币计、覆盖 TCO 年限的总拥有成本预算；0 表示未说明。</translation>
    </message>
    <message>
        <source>The customer&apos;s country (ISO code, e.g. CN) for the export rules; empty = none.</source>
        <translation>客户所在国家或地区（ISO 代码，如 CN），用于出口管制检查；留空表示不检查。</translation>
    </message>
    <message>
        <source>Share of the hours the GPUs are busy, for the cloud comparison: 0.70 = 70 %.</source>
        <translation>GPU 处于忙碌状态的时间比例（用于与云服务对比）：0.70 = 70%。</translation>
    </message>
    <message>
        <source>A finding is raised when the predicted PUE is above this.</source>
        <translation>预测 PUE 高于此值时给出检查结果。</translation>
    </message>
    <message>
        <source>0 = the hall&apos;s size is not stated (racks are not checked against it).</source>
        <translation>0 = 未填写机房尺寸（不检查机柜是否超出机房）。</translation>
    </message>
    <message>
        <source>colocation: rent per kW of IT power per month; build: own data hall at a cost per MW of IT; none: the facility is not costed.</source>
        <translation>托管：按 IT 功率每千瓦每月计租；自建：按每兆瓦 IT 负载的建设成本自建机房；不计：不计算机房设施成本。</translation>
    </message>
    <message>
        <source>0 = the sourced market rate (CBRE North America H2 2024).</source>
        <translation>0 = 采用有出处的市场价格（CBRE 北美数据中心报告 2024 下半年）。</translation>
    </message>
    <message>
        <source>0 = the sourced build cost (Turner &amp; Townsend cost index 2025–26).</source>
        <translation>0 = 采用有出处的建设成本（Turner &amp; Townsend 数据中心造价指数 2025–26）。</translation>
    </message>
    <message>
        <source>Years of vendor support included in the hardware prices; maintenance is charged after them.</source>
        <translation>硬件价格中已包含的厂商支持年限；此后才计入维保费用。</translation>
    </message>
    <message>
        <source>list: each GPU type&apos;s dated cloud prices (median of the offers); site: the price entered here.</source>
        <translation>价目表：按 GPU 型号采用注明日期的云价格（各报价的中位数）；场地：采用此处填写的价格。</translation>
    </message>
    <message>
        <source>e.g. NVIDIA AI Enterprise: 4,500 USD per GPU per year.</source>
        <translation>例如 NVIDIA AI Enterprise：每 GPU 每年 4,500 美元。</translation>
    </message>
    <message>
        <source>UPS, transformer and generator redundancy: N, N+1 or 2N.</source>
        <translation>UPS、变压器和发电机的冗余方式：N、N+1 或 2N。</translation>
    </message>
    <message>
        <source>auto: the annual mean ambient temperature sets the free-cooling hours and so the PUE; a label (cold, temperate, hot) applies its fixed factor.</source>
        <translation>自动：由年平均环境温度确定自然冷却小时数，进而确定 PUE；选择寒冷、温和或炎热则采用其固定系数。</translation>
    </message>
    <message>
        <source>Annual mean outdoor temperature; used when the climate is auto.</source>
        <translation>年平均室外温度；气候设为“自动”时使用。</translation>
    </message>
    <message>
        <source>IT {it} kW at maximum → facility {fac} kW at PUE {pue}; the utility feed needs {feed} kW (with {pct} % headroom).</source>
        <translation>最大 IT 功率 {it} kW → PUE {pue} 时设施功率 {fac} kW；所需市电容量 {feed} kW（含 {pct}% 余量）。</translation>
    </message>
    <message>
        <source>No utility feed is stated.</source>
        <translation>尚未填写市电容量。</translation>
    </message>
    <message>
        <source>The stated {kw} kW is enough.</source>
        <translation>填写的 {kw} kW 市电容量足够。</translation>
    </message>
    <message>
        <source>The stated {kw} kW is too small.</source>
        <translation>填写的 {kw} kW 市电容量不足。</translation>
    </message>
</context>
<context>
    <name>TemplateDialog</name>
    <message>
        <source>New project from a template</source>
        <translation>从模板新建项目</translation>
    </message>
    <message>
        <source>New cluster</source>
        <translation>新集群</translation>
    </message>
    <message>
        <source>Number of servers</source>
        <translation>服务器数量</translation>
    </message>
    <message>
        <source>Compute fabric</source>
        <translation>计算网络</translation>
    </message>
    <message>
        <source>same as leaf</source>
        <translation>与叶交换机相同</translation>
    </message>
    <message>
        <source>same as spine</source>
        <translation>与脊交换机相同</translation>
    </message>
    <message>
        <source>rail-optimised</source>
        <translation>轨道优化 (Rail-optimized)</translation>
    </message>
    <message>
        <source>Add a pod from a template</source>
        <translation>从模板添加集群单元</translation>
    </message>
    <message>
        <source>InfiniBand</source>
        <translation>InfiniBand</translation>
    </message>
    <message>
        <source>Ethernet (RoCE v2)</source>
        <translation>以太网 (RoCE v2)</translation>
    </message>
    <message>
        <source>The GPU-to-GPU (compute) network. The storage and management networks are Ethernet either way.</source>
        <translation>GPU 之间的计算网络。存储网络和管理网络均为以太网。</translation>
    </message>
    <message>
        <source>the rack type&apos;s budget</source>
        <translation>按机柜型号的功率预算</translation>
    </message>
    <message>
        <source>storage fabric</source>
        <translation>存储网络</translation>
    </message>
    <message>
        <source>e.g. infer</source>
        <translation>例如 infer</translation>
    </message>
    <message>
        <source>The partition the pod&apos;s GPU servers belong to; their names start with it.</source>
        <translation>该单元的 GPU 服务器所属的分区；服务器名称以此为前缀。</translation>
    </message>
    <message>
        <source>fill the site&apos;s free rack positions, each up to its kW</source>
        <translation>按机位功率上限填满场地的空闲机柜位</translation>
    </message>
    <message>
        <source>management fabric</source>
        <translation>管理网络</translation>
    </message>
    <message>
        <source>Keep the workload, site and costs, teams and project details</source>
        <translation>保留工作负载、场地与成本、团队和项目信息</translation>
    </message>
    <message>
        <source>Copies the open project&apos;s workloads, scenarios, teams, phases, site and cost settings and project details (customer, currency, language) into the new project. An explicit DP is adapted to the new GPU count. Racks, devices, links and the floor plan are new.</source>
        <translation>将当前项目的工作负载、场景、团队、建设阶段、场地与成本设置以及项目信息（客户、币种、语言）复制到新项目。显式指定的数据并行度（DP）会按新的 GPU 数量调整。机柜、设备、链路和机房平面图为新生成。</translation>
    </message>
    <message>
        <source>Project name</source>
        <translation>项目名称</translation>
    </message>
    <message>
        <source>Template</source>
        <translation>模板</translation>
    </message>
    <message>
        <source>Server</source>
        <translation>服务器</translation>
    </message>
    <message>
        <source>Leaf switch</source>
        <translation>叶交换机 (Leaf)</translation>
    </message>
    <message>
        <source>Spine switch</source>
        <translation>脊交换机 (Spine)</translation>
    </message>
    <message>
        <source>Core switch</source>
        <translation>核心交换机 (Core)</translation>
    </message>
    <message>
        <source>Oversubscription (1 = non-blocking)</source>
        <translation>收敛比（1 = 无阻塞）</translation>
    </message>
    <message>
        <source>Servers per scalable unit</source>
        <translation>每个可扩展单元 (SU) 的服务器数</translation>
    </message>
    <message>
        <source>Planes</source>
        <translation>网络平面数</translation>
    </message>
    <message>
        <source>Rack</source>
        <translation>机柜</translation>
    </message>
    <message>
        <source>Rack power budget</source>
        <translation>机柜功率预算</translation>
    </message>
    <message>
        <source>Storage system</source>
        <translation>存储系统</translation>
    </message>
    <message>
        <source>Storage units</source>
        <translation>存储设备数量</translation>
    </message>
    <message>
        <source>Partition</source>
        <translation>分区</translation>
    </message>
    <message>
        <source>Cannot generate: {why}</source>
        <translation>无法生成：{why}</translation>
    </message>
    <message numerus="yes">
        <source>Generate {t} with %Ln server(s)</source>
        <translation>
            <numerusform>生成 {t}（%Ln 台服务器）</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Workload “{w}”: DP {dp} was left as it was; TP × PP × CP = {m} does not fit %Ln GPU(s).</source>
        <translation>
            <numerusform>工作负载“{w}”：DP {dp} 保持不变；TP × PP × CP = {m} 无法放入 %Ln 块 GPU。</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Workload “{w}”: DP {old} → {new} for %Ln GPU(s).</source>
        <translation>
            <numerusform>工作负载“{w}”：DP {old} → {new}，对应 %Ln 块 GPU。</numerusform>
        </translation>
    </message>
    <message>
        <source>Workload “{w}”: partition “{p}” is not in the new cluster; it now runs on all GPUs.</source>
        <translation>工作负载“{w}”：新集群中没有分区“{p}”，现改为在全部 GPU 上运行。</translation>
    </message>
</context>
<context>
    <name>WelcomeDialog</name>
    <message>
        <source>Welcome to GPU Planner</source>
        <translation>欢迎使用 GPU Planner</translation>
    </message>
    <message>
        <source>{name} (missing)</source>
        <translation>{name}（文件不存在）</translation>
    </message>
    <message>
        <source>no longer in {folder}</source>
        <translation>已不在 {folder} 中</translation>
    </message>
    <message>
        <source>{path} was moved or deleted</source>
        <translation>{path} 已被移动或删除</translation>
    </message>
    <message>
        <source>No recent projects yet</source>
        <translation>暂无最近的项目</translation>
    </message>
    <message>
        <source>Projects you open or save appear here.</source>
        <translation>打开或保存过的项目会显示在这里。</translation>
    </message>
    <message>
        <source>1-node pilot</source>
        <translation>单节点试点</translation>
    </message>
    <message>
        <source>One 8-GPU HGX H100 server on a 25/100 GbE switch (2 × 100 GbE) in a standard 12 kW rack, with a management network: the pilot phase.</source>
        <translation>一台 8 卡 HGX H100 服务器，通过 25/100 GbE 交换机（2 × 100 GbE）接入，放在标准 12 kW 机柜中，另配管理网络：试点阶段。</translation>
    </message>
    <message>
        <source>4-node RoCE cluster</source>
        <translation>4 节点 RoCE 集群</translation>
    </message>
    <message>
        <source>Four 8-GPU HGX H100 servers, 8 × 400 GbE RoCE v2 each on one Spectrum-4 switch, with BeeGFS storage and management networks.</source>
        <translation>四台 8 卡 HGX H100 服务器，每台 8 × 400 GbE RoCE v2 接入一台 Spectrum-4 交换机，另配 BeeGFS 存储网络和管理网络。</translation>
    </message>
    <message>
        <source>32-node InfiniBand SU</source>
        <translation>32 节点 InfiniBand SU</translation>
    </message>
    <message>
        <source>One scalable unit of 32 DGX H100 on a rail-optimised, non-blocking NDR InfiniBand leaf-spine, with Lustre storage and management networks.</source>
        <translation>一个可扩展单元 (SU)：32 台 DGX H100，采用轨道优化、无阻塞的 NDR InfiniBand 叶脊网络，另配 Lustre 存储网络和管理网络。</translation>
    </message>
    <message>
        <source>128-node SuperPOD-like</source>
        <translation>128 节点类 SuperPOD</translation>
    </message>
    <message>
        <source>Four scalable units of 32 DGX H100 on a rail-optimised NDR InfiniBand leaf-spine, six Lustre appliances on a 400 GbE storage fabric, management network.</source>
        <translation>四个可扩展单元，每个 32 台 DGX H100，采用轨道优化的 NDR InfiniBand 叶脊网络；六台 Lustre 存储一体机接入 400 GbE 存储网络；另配管理网络。</translation>
    </message>
    <message>
        <source>1,024-node 3-tier fat tree</source>
        <translation>1,024 节点三层胖树</translation>
    </message>
    <message>
        <source>1,024 DGX H100 (32 scalable units) on a non-blocking 3-tier NDR InfiniBand fat tree, rail-optimised, with 48 Lustre appliances on a 200 GbE storage fabric and a management network.</source>
        <translation>1,024 台 DGX H100（32 个可扩展单元），采用无阻塞、轨道优化的三层 NDR InfiniBand 胖树网络，另配 48 台 Lustre 存储设备的 200 GbE 存储网络和管理网络。</translation>
    </message>
    <message>
        <source>{n} GPUs</source>
        <translation>{n} 块 GPU</translation>
    </message>
    <message>
        <source>Phased build-out: pilot → RoCE → InfiniBand</source>
        <translation>分阶段建设：试点 → RoCE → InfiniBand</translation>
    </message>
    <message>
        <source>Three phases up to 304 GPUs, with teams, quotas and a floor plan.</source>
        <translation>分三个阶段扩展到 304 块 GPU，含团队、配额与机房平面图。</translation>
    </message>
    <message>
        <source>256-GPU cluster (Chinese, CNY)</source>
        <translation>256 卡集群（中文，人民币）</translation>
    </message>
    <message>
        <source>32 HGX H100 servers on NDR InfiniBand, a Llama 3 70B fine-tuning job.</source>
        <translation>32 台 HGX H100 服务器，NDR InfiniBand 网络，运行 Llama 3 70B 微调任务。</translation>
    </message>
    <message>
        <source>1,024 × H100 SuperPOD-like cluster</source>
        <translation>1,024 × H100 类 SuperPOD 集群</translation>
    </message>
    <message>
        <source>128 DGX H100 in 4 scalable units, Lustre storage, Llama 3 70B pre-training.</source>
        <translation>128 台 DGX H100，分 4 个可扩展单元，Lustre 存储，Llama 3 70B 预训练。</translation>
    </message>
    <message>
        <source>No example projects found</source>
        <translation>未找到示例项目</translation>
    </message>
    <message>
        <source>GPU Planner</source>
        <translation>GPU Planner</translation>
    </message>
    <message>
        <source>Plan GPU clusters offline: fabric, performance, power, cooling and cost. Open a project, start from a template or explore an example.</source>
        <translation>离线规划 GPU 集群：网络、性能、供电、制冷与成本。可以打开项目、从模板开始，或浏览示例项目。</translation>
    </message>
    <message>
        <source>&amp;Open…</source>
        <translation>打开(&amp;O)…</translation>
    </message>
    <message>
        <source>&amp;Blank project</source>
        <translation>空白项目(&amp;B)</translation>
    </message>
    <message>
        <source>Open &amp;selected</source>
        <translation>打开所选(&amp;S)</translation>
    </message>
    <message>
        <source>Close</source>
        <translation>关闭</translation>
    </message>
    <message>
        <source>Recent projects</source>
        <translation>最近的项目</translation>
    </message>
    <message>
        <source>Example projects</source>
        <translation>示例项目</translation>
    </message>
    <message>
        <source>New from template</source>
        <translation>从模板新建</translation>
    </message>
    <message>
        <source>Project not found</source>
        <translation>找不到项目</translation>
    </message>
    <message>
        <source>“{name}” is no longer in {folder}: it was moved, renamed or deleted.

The current project is unchanged.</source>
        <translation>“{name}”已不在 {folder} 中：它可能被移动、重命名或删除。

当前项目未做任何改动。</translation>
    </message>
    <message>
        <source>Open project</source>
        <translation>打开项目</translation>
    </message>
</context>
<context>
    <name>WorkloadDialog</name>
    <message>
        <source>Training job</source>
        <translation>训练任务</translation>
    </message>
    <message>
        <source>Serving</source>
        <translation>推理服务</translation>
    </message>
    <message>
        <source>Job</source>
        <translation>任务</translation>
    </message>
    <message>
        <source>Model shape (when no catalog model is chosen)</source>
        <translation>模型结构（未选择目录中的模型时）</translation>
    </message>
    <message>
        <source>Parallelism</source>
        <translation>并行策略</translation>
    </message>
    <message>
        <source>Batch, precision, memory</source>
        <translation>批量、精度与显存</translation>
    </message>
    <message>
        <source>Run settings (empty: the stack&apos;s value, then the default)</source>
        <translation>运行设置（留空：取软件栈的值，再取默认值）</translation>
    </message>
    <message>
        <source>Partition and serving (kind: inference)</source>
        <translation>分区与推理服务（类型为推理时）</translation>
    </message>
    <message>
        <source>Workload</source>
        <translation>工作负载</translation>
    </message>
    <message>
        <source>New workload</source>
        <translation>新建工作负载</translation>
    </message>
    <message>
        <source>Add workload</source>
        <translation>添加工作负载</translation>
    </message>
    <message>
        <source>Edit workload</source>
        <translation>编辑工作负载</translation>
    </message>
    <message numerus="yes">
        <source>%Ln GPU(s): up to {users} concurrent users ({rate} requests/s), first token {ttft} s, {tpot} ms per token.</source>
        <translation>
            <numerusform>%Ln 块 GPU：最多 {users} 个并发用户（每秒 {rate} 个请求），首字时延 {ttft} 秒，每 token {tpot} 毫秒。</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>The load asked for needs %Ln GPU(s).</source>
        <translation>
            <numerusform>所要求的负载需要 %Ln 块 GPU。</numerusform>
        </translation>
    </message>
    <message>
        <source>Not evaluated yet (apply to see the estimate).</source>
        <translation>尚未评估（点击“应用”查看估算结果）。</translation>
    </message>
</context>
<context>
    <name>annotations</name>
    <message>
        <source>tensor-parallel (TP)</source>
        <translation>张量并行 (TP)</translation>
    </message>
    <message>
        <source>context-parallel (CP)</source>
        <translation>上下文并行 (CP)</translation>
    </message>
    <message>
        <source>data-parallel (DP) gradient reduction</source>
        <translation>数据并行 (DP) 梯度规约</translation>
    </message>
    <message>
        <source>pipeline (PP) activations</source>
        <translation>流水线并行 (PP) 激活传递</translation>
    </message>
    <message>
        <source>expert-parallel (EP) all-to-all</source>
        <translation>专家并行 (EP) all-to-all</translation>
    </message>
    <message>
        <source>{load} / {budget} kW</source>
        <translation>{load} / {budget} kW</translation>
    </message>
    <message>
        <source>power: {load} kW at the predicted load, {peak} kW at maximum; budget {budget} kW</source>
        <translation>功率：预测负载下 {load} kW，最大 {peak} kW；预算 {budget} kW</translation>
    </message>
    <message>
        <source>over budget at the predicted load</source>
        <translation>预测负载下超出功率预算</translation>
    </message>
    <message>
        <source>over budget at maximum draw</source>
        <translation>满载时超出功率预算</translation>
    </message>
    <message>
        <source>chosen by you</source>
        <translation>手动指定</translation>
    </message>
    <message>
        <source>chosen automatically</source>
        <translation>自动选择</translation>
    </message>
    <message>
        <source>cooling: {method} ({how}), takes up to {cap} kW per rack</source>
        <translation>制冷：{method}（{how}），单柜最高 {cap} kW</translation>
    </message>
    <message>
        <source>the cooling cannot take {peak} kW</source>
        <translation>该制冷方式无法承担 {peak} kW</translation>
    </message>
    <message>
        <source>airflow {airflow} · coolant {lpm} L/min · liquid {liq} kW, air {air} kW</source>
        <translation>风量 {airflow} · 冷却液流量 {lpm} L/min · 液冷散热 {liq} kW，风冷散热 {air} kW</translation>
    </message>
    <message>
        <source>{n} × {speed} = {total} per direction</source>
        <translation>{n} × {speed} = 单向 {total}</translation>
    </message>
    <message>
        <source>not analysed yet</source>
        <translation>尚未分析</translation>
    </message>
    <message>
        <source>no training workload: no predicted traffic</source>
        <translation>没有训练负载：无预测流量</translation>
    </message>
    <message>
        <source>utilisation over a training step: {ab} % {a}→{b}, {ba} % {b}→{a}</source>
        <translation>一个训练步内的利用率：{a}→{b} {ab} %，{b}→{a} {ba} %</translation>
    </message>
    <message>
        <source>busiest link for: {kinds} — it sets that traffic&apos;s speed</source>
        <translation>以下流量的最繁忙链路：{kinds} — 它决定了这类流量的速度</translation>
    </message>
    <message>
        <source>tier {tier} · {medium} · {length} m</source>
        <translation>层级 {tier} · {medium} · {length} m</translation>
    </message>
    <message>
        <source>rack {rack}, U{u}</source>
        <translation>机柜 {rack}，U{u}</translation>
    </message>
    <message>
        <source>power {load} W at the predicted load (max {peak} W)</source>
        <translation>预测负载功率 {load} W（最大 {peak} W）</translation>
    </message>
</context>
<context>
    <name>choices</name>
    <message>
        <source>tco</source>
        <translation>总拥有成本</translation>
    </message>
    <message>
        <source>capex</source>
        <translation>资本支出</translation>
    </message>
    <message>
        <source>compute</source>
        <translation>计算节点</translation>
    </message>
    <message>
        <source>leaf</source>
        <translation>叶交换机 (Leaf)</translation>
    </message>
    <message>
        <source>spine</source>
        <translation>脊交换机 (Spine)</translation>
    </message>
    <message>
        <source>core</source>
        <translation>核心交换机 (Core)</translation>
    </message>
    <message>
        <source>storage</source>
        <translation>存储</translation>
    </message>
    <message>
        <source>storage-switch</source>
        <translation>存储交换机</translation>
    </message>
    <message>
        <source>management</source>
        <translation>管理</translation>
    </message>
    <message>
        <source>other</source>
        <translation>其他</translation>
    </message>
    <message>
        <source>infiniband</source>
        <translation>InfiniBand</translation>
    </message>
    <message>
        <source>ethernet</source>
        <translation>以太网</translation>
    </message>
    <message>
        <source>training</source>
        <translation>训练</translation>
    </message>
    <message>
        <source>inference</source>
        <translation>推理</translation>
    </message>
    <message>
        <source>fine-tuning</source>
        <translation>微调</translation>
    </message>
    <message>
        <source>aggregated</source>
        <translation>合并部署</translation>
    </message>
    <message>
        <source>disaggregated</source>
        <translation>预填充/解码分离</translation>
    </message>
    <message>
        <source>best</source>
        <translation>自动择优</translation>
    </message>
    <message>
        <source>vllm</source>
        <translation>vLLM</translation>
    </message>
    <message>
        <source>trtllm</source>
        <translation>TensorRT-LLM</translation>
    </message>
    <message>
        <source>bf16</source>
        <translation>BF16</translation>
    </message>
    <message>
        <source>fp16</source>
        <translation>FP16</translation>
    </message>
    <message>
        <source>fp8</source>
        <translation>FP8</translation>
    </message>
    <message>
        <source>fp4</source>
        <translation>FP4</translation>
    </message>
    <message>
        <source>none</source>
        <translation>不重计算</translation>
    </message>
    <message>
        <source>selective</source>
        <translation>选择性重计算</translation>
    </message>
    <message>
        <source>full</source>
        <translation>完全重计算</translation>
    </message>
    <message>
        <source>dense</source>
        <translation>稠密模型 (Dense)</translation>
    </message>
    <message>
        <source>moe</source>
        <translation>混合专家 (MoE)</translation>
    </message>
    <message>
        <source>vit</source>
        <translation>视觉 Transformer (ViT)</translation>
    </message>
    <message>
        <source>dit</source>
        <translation>扩散 Transformer (DiT)</translation>
    </message>
    <message>
        <source>en</source>
        <translation>英文 (en)</translation>
    </message>
    <message>
        <source>zh</source>
        <translation>中文 (zh)</translation>
    </message>
    <message>
        <source>cold</source>
        <translation>寒冷</translation>
    </message>
    <message>
        <source>temperate</source>
        <translation>温和</translation>
    </message>
    <message>
        <source>hot</source>
        <translation>炎热</translation>
    </message>
    <message>
        <source>auto</source>
        <translation>自动（按环境温度）</translation>
    </message>
    <message>
        <source>colocation</source>
        <translation>托管机房</translation>
    </message>
    <message>
        <source>build</source>
        <translation>自建机房</translation>
    </message>
    <message>
        <source>list</source>
        <translation>价目表</translation>
    </message>
    <message>
        <source>site</source>
        <translation>场地设定</translation>
    </message>
    <message>
        <source>on_demand</source>
        <translation>按需</translation>
    </message>
    <message>
        <source>reserved_1y</source>
        <translation>预留 1 年</translation>
    </message>
    <message>
        <source>reserved_3y</source>
        <translation>预留 3 年</translation>
    </message>
    <message>
        <source>N</source>
        <translation>N</translation>
    </message>
    <message>
        <source>N+1</source>
        <translation>N+1</translation>
    </message>
    <message>
        <source>2N</source>
        <translation>2N</translation>
    </message>
    <message>
        <source>crah</source>
        <translation>精密空调 (CRAH)</translation>
    </message>
    <message>
        <source>in-row</source>
        <translation>列间空调</translation>
    </message>
    <message>
        <source>rear-door</source>
        <translation>背板换热器</translation>
    </message>
    <message>
        <source>cdu</source>
        <translation>冷量分配单元 (CDU)</translation>
    </message>
    <message>
        <source>immersion-tank</source>
        <translation>浸没式液冷槽</translation>
    </message>
    <message>
        <source>pdu</source>
        <translation>电源分配单元 (PDU)</translation>
    </message>
    <message>
        <source>busway</source>
        <translation>母线槽</translation>
    </message>
    <message>
        <source>utility-feed</source>
        <translation>市电进线</translation>
    </message>
    <message>
        <source>slurm</source>
        <translation>Slurm</translation>
    </message>
    <message>
        <source>kubernetes</source>
        <translation>Kubernetes</translation>
    </message>
    <message>
        <source>volcano</source>
        <translation>Volcano</translation>
    </message>
    <message>
        <source>slurm+kubernetes</source>
        <translation>Slurm + Kubernetes</translation>
    </message>
</context>
<context>
    <name>estimate</name>
    <message>
        <source>No training workload: Plan → Workload… adds one.</source>
        <translation>没有训练负载：可通过 规划 → 工作负载… 添加。</translation>
    </message>
    <message>
        <source>No workload is active: tick “active” on one in Plan → Workload… to see its estimate.</source>
        <translation>没有启用的工作负载：请在“规划 → 工作负载…”中勾选某个负载的“启用”以查看估算。</translation>
    </message>
    <message>
        <source>The active workload “{name}” is an inference workload: the training estimate does not apply.</source>
        <translation>启用的工作负载“{name}”是推理负载：训练估算不适用。</translation>
    </message>
    <message>
        <source>The workload “{name}” cannot be evaluated yet: the plan has no GPUs.</source>
        <translation>暂时无法评估工作负载“{name}”：规划中还没有 GPU。</translation>
    </message>
    <message>
        <source>The workload “{name}” cannot be evaluated: {why}</source>
        <translation>无法评估工作负载“{name}”：{why}</translation>
    </message>
    <message>
        <source>The workload “{name}” has not been evaluated yet.</source>
        <translation>工作负载“{name}”尚未评估。</translation>
    </message>
    <message>
        <source>Does not fit: needs {total} GB per GPU but only {usable} GB is usable (weights {weights} GB, gradients {grads} GB, optimizer {optimizer} GB, activations {activations} GB).</source>
        <translation>显存放不下：每块 GPU 需要 {total} GB，但可用只有 {usable} GB（权重 {weights} GB，梯度 {grads} GB，优化器状态 {optimizer} GB，激活 {activations} GB）。</translation>
    </message>
    <message>
        <source>{gpus} step {step}, MFU {mfu}, {tps} tokens/s, time to train {ttt}. Bottleneck: {b}.</source>
        <translation>{gpus}单步 {step}，MFU {mfu}，{tps} tokens/秒，训练时长 {ttt}。瓶颈：{b}。</translation>
    </message>
    <message>
        <source>Expected range, from {runs} published runs: step {s0}–{s1}, {t0}–{t1} tokens/s.</source>
        <translation>预期范围（取自 {runs} 个已发表实测）：单步 {s0}–{s1}，{t0}–{t1} token/秒。</translation>
    </message>
    <message>
        <source>Host-paced: each expert&apos;s GEMM takes about {us} µs, under the {limit} µs at which kernels are launch-bound, so this speed is an upper bound.</source>
        <translation>受主机节奏限制：每个专家的 GEMM 约需 {us} µs，低于内核受启动开销限制的 {limit} µs，因此该速度只是上限。</translation>
    </message>
</context>
<context>
    <name>fields</name>
    <message>
        <source>automatic (cheapest that takes the load)</source>
        <translation>自动（能承担负载的最便宜方案）</translation>
    </message>
    <message>
        <source>the first phase</source>
        <translation>第一阶段</translation>
    </message>
    <message>
        <source>automatic</source>
        <translation>自动</translation>
    </message>
    <message>
        <source>shape fields below</source>
        <translation>按下方模型结构字段</translation>
    </message>
    <message>
        <source>on</source>
        <translation>开</translation>
    </message>
    <message>
        <source>off</source>
        <translation>关</translation>
    </message>
    <message>
        <source>as the precision (1 with fp8/fp4, else 2)</source>
        <translation>随精度（fp8/fp4 为 1，否则为 2）</translation>
    </message>
    <message>
        <source>the engine&apos;s default</source>
        <translation>按引擎默认值</translation>
    </message>
    <message>
        <source>mean</source>
        <translation>平均值</translation>
    </message>
    <message>
        <source>the serving stack&apos;s default</source>
        <translation>按推理软件栈默认值</translation>
    </message>
    <message>
        <source>no target</source>
        <translation>不设目标</translation>
    </message>
    <message>
        <source>no think time</source>
        <translation>无思考时间</translation>
    </message>
    <message>
        <source>The serving stack&apos;s KV-cache share as the deployment sets it (as estimate --kv-fraction): vLLM --gpu-memory-utilization, a share of the whole GPU&apos;s memory; TensorRT-LLM free_gpu_memory_fraction, a share of the memory the weights and workspace leave. The lowest value: the stack&apos;s default.</source>
        <translation>推理软件栈分给 KV 缓存的显存占比，按实际部署的设置填写（与 estimate --kv-fraction 相同）：vLLM 的 --gpu-memory-utilization 是整块 GPU 显存的占比；TensorRT-LLM 的 free_gpu_memory_fraction 是扣除权重和工作区后剩余显存的占比。最低值：按软件栈的默认值。</translation>
    </message>
    <message>
        <source>The most sequences one replica runs at once, as the deployment caps it (as estimate --max-seqs): vLLM --max-num-seqs, TensorRT-LLM max_batch_size. The lowest value: the stack&apos;s default (vLLM 1024 on GPUs of 70 GiB or more, else 256; TensorRT-LLM uncapped).</source>
        <translation>单个副本同时运行的最大序列数，按实际部署的上限填写（与 estimate --max-seqs 相同）：vLLM 的 --max-num-seqs，TensorRT-LLM 的 max_batch_size。最低值：按软件栈的默认值（vLLM 在显存不少于 70 GiB 的 GPU 上为 1024，否则为 256；TensorRT-LLM 不设上限）。</translation>
    </message>
    <message>
        <source>The most tokens one engine step carries, decode tokens plus prefill (chunk) tokens, as the deployment sets it (as estimate --max-batched-tokens): TensorRT-LLM max_num_tokens, vLLM --max-num-batched-tokens with chunked prefill on. The lowest value: the engine&apos;s default (8,192, vLLM V1&apos;s default on GPUs of 70 GiB or more).</source>
        <translation>单个引擎步处理的最大 token 数（解码 token 与预填充分块 token 合计），按实际部署的设置填写（与 estimate --max-batched-tokens 相同）：TensorRT-LLM 的 max_num_tokens，开启分块预填充时 vLLM 的 --max-num-batched-tokens。最低值：按引擎的默认值（8,192，即 vLLM V1 在显存不少于 70 GiB 的 GPU 上的默认值）。</translation>
    </message>
    <message>
        <source>Checked (the engine&apos;s default): prompts are chunked into the decode steps (vLLM V1, TensorRT-LLM chunked context). Unchecked: the engine runs whole prompts in their own prefill-only steps while the running decodes wait (vLLM V0 with enable_chunked_prefill False; as estimate --no-chunked-prefill).</source>
        <translation>勾选（引擎默认）：提示词分块并入解码步（vLLM V1、TensorRT-LLM chunked context）。不勾选：引擎将整段提示词放在单独的仅预填充步中处理，正在进行的解码等待（vLLM V0 且 enable_chunked_prefill 为 False；同 estimate --no-chunked-prefill）。</translation>
    </message>
    <message>
        <source>Checked: each tensor-parallel all-reduce runs fused into the GEMM before it, overlapping the GEMM&apos;s compute, as the deployment builds it (TensorRT-LLM gemm_allreduce_plugin; as estimate --gemm-allreduce-fusion). Unchecked (the engine&apos;s default): a separate all-reduce after the GEMM.</source>
        <translation>勾选：张量并行的每次全归约与其前面的 GEMM 融合执行，与 GEMM 的计算重叠，按部署的构建方式（TensorRT-LLM gemm_allreduce_plugin；同 estimate --gemm-allreduce-fusion）。不勾选（引擎默认）：GEMM 之后单独执行全归约。</translation>
    </message>
    <message>
        <source>not stated: the floor plan&apos;s utility feeds, {kw} kW</source>
        <translation>未填写：按平面图中的市电进线计，{kw} kW</translation>
    </message>
    <message>
        <source>not stated</source>
        <translation>未填写</translation>
    </message>
    <message>
        <source>deadline days</source>
        <translation>期限（天）</translation>
    </message>
    <message>
        <source>ttft s max</source>
        <translation>首 token 时延上限（秒）</translation>
    </message>
    <message>
        <source>tpot s max</source>
        <translation>每输出 token 时延上限（秒）</translation>
    </message>
    <message>
        <source>facility kw max</source>
        <translation>设施功率上限（kW）</translation>
    </message>
    <message>
        <source>rack kw max</source>
        <translation>单柜功率上限（kW）</translation>
    </message>
    <message>
        <source>racks max</source>
        <translation>机柜数上限</translation>
    </message>
    <message>
        <source>capex usd max</source>
        <translation>资本支出预算上限（美元）</translation>
    </message>
    <message>
        <source>tco usd max</source>
        <translation>总拥有成本预算上限（美元）</translation>
    </message>
    <message>
        <source>servers</source>
        <translation>可选服务器</translation>
    </message>
    <message>
        <source>vendors</source>
        <translation>可选厂商</translation>
    </message>
    <message>
        <source>cooling</source>
        <translation>可选冷却方式</translation>
    </message>
    <message>
        <source>templates</source>
        <translation>网络拓扑模板</translation>
    </message>
    <message>
        <source>oversubs</source>
        <translation>尝试的收敛比</translation>
    </message>
    <message>
        <source>objective</source>
        <translation>优化的成本</translation>
    </message>
    <message>
        <source>max servers</source>
        <translation>服务器数上限</translation>
    </message>
    <message>
        <source>a device</source>
        <translation>A 端设备</translation>
    </message>
    <message>
        <source>a group</source>
        <translation>A 端端口组</translation>
    </message>
    <message>
        <source>active</source>
        <translation>启用</translation>
    </message>
    <message>
        <source>aisle</source>
        <translation>通道</translation>
    </message>
    <message>
        <source>ambient temp</source>
        <translation>环境温度</translation>
    </message>
    <message>
        <source>architecture</source>
        <translation>模型架构</translation>
    </message>
    <message>
        <source>attention</source>
        <translation>注意力内核</translation>
    </message>
    <message>
        <source>b device</source>
        <translation>B 端设备</translation>
    </message>
    <message>
        <source>b group</source>
        <translation>B 端端口组</translation>
    </message>
    <message>
        <source>cable id</source>
        <translation>线缆型号</translation>
    </message>
    <message>
        <source>cable slack</source>
        <translation>线缆余量</translation>
    </message>
    <message>
        <source>capacity</source>
        <translation>容量</translation>
    </message>
    <message>
        <source>climate</source>
        <translation>气候</translation>
    </message>
    <message>
        <source>cloud</source>
        <translation>云 GPU 价格</translation>
    </message>
    <message>
        <source>consultant</source>
        <translation>顾问</translation>
    </message>
    <message>
        <source>contained</source>
        <translation>通道封闭</translation>
    </message>
    <message>
        <source>cooling id</source>
        <translation>制冷方式</translation>
    </message>
    <message>
        <source>cp</source>
        <translation>上下文并行 CP</translation>
    </message>
    <message>
        <source>created</source>
        <translation>创建时间</translation>
    </message>
    <message>
        <source>currency</source>
        <translation>币种</translation>
    </message>
    <message>
        <source>customer</source>
        <translation>客户</translation>
    </message>
    <message>
        <source>depth</source>
        <translation>深度</translation>
    </message>
    <message>
        <source>description</source>
        <translation>描述</translation>
    </message>
    <message>
        <source>dp</source>
        <translation>数据并行 DP</translation>
    </message>
    <message>
        <source>dp overlap</source>
        <translation>梯度归约重叠</translation>
    </message>
    <message>
        <source>electricity</source>
        <translation>电价</translation>
    </message>
    <message>
        <source>ep</source>
        <translation>专家并行 EP</translation>
    </message>
    <message>
        <source>ep overlap</source>
        <translation>专家并行通信重叠</translation>
    </message>
    <message>
        <source>expected utilization</source>
        <translation>预期利用率</translation>
    </message>
    <message>
        <source>experts</source>
        <translation>专家数</translation>
    </message>
    <message>
        <source>fabric id</source>
        <translation>所属网络</translation>
    </message>
    <message>
        <source>feed headroom</source>
        <translation>供电余量</translation>
    </message>
    <message>
        <source>ffn hidden</source>
        <translation>FFN 隐藏维度</translation>
    </message>
    <message>
        <source>floor x</source>
        <translation>平面 X</translation>
    </message>
    <message>
        <source>floor y</source>
        <translation>平面 Y</translation>
    </message>
    <message>
        <source>global batch</source>
        <translation>全局批量（序列）</translation>
    </message>
    <message>
        <source>gpu burst</source>
        <translation>GPU 弹性配额</translation>
    </message>
    <message>
        <source>gpu guaranteed</source>
        <translation>GPU 保障配额</translation>
    </message>
    <message>
        <source>grad dtype</source>
        <translation>梯度数据类型</translation>
    </message>
    <message>
        <source>group</source>
        <translation>分组</translation>
    </message>
    <message>
        <source>hall depth</source>
        <translation>机房进深</translation>
    </message>
    <message>
        <source>hall width</source>
        <translation>机房宽度</translation>
    </message>
    <message>
        <source>heads</source>
        <translation>注意力头数</translation>
    </message>
    <message>
        <source>hidden</source>
        <translation>隐藏维度</translation>
    </message>
    <message>
        <source>infer batch</source>
        <translation>推理批量</translation>
    </message>
    <message>
        <source>kind</source>
        <translation>类型</translation>
    </message>
    <message>
        <source>kv bytes</source>
        <translation>KV 缓存每值字节数</translation>
    </message>
    <message>
        <source>kv heads</source>
        <translation>KV 头数</translation>
    </message>
    <message>
        <source>language</source>
        <translation>语言</translation>
    </message>
    <message>
        <source>largest job gpus</source>
        <translation>最大作业 GPU 数</translation>
    </message>
    <message>
        <source>layers</source>
        <translation>层数</translation>
    </message>
    <message>
        <source>length</source>
        <translation>长度</translation>
    </message>
    <message>
        <source>load factor</source>
        <translation>负载率</translation>
    </message>
    <message>
        <source>logo path</source>
        <translation>Logo 路径</translation>
    </message>
    <message>
        <source>maintenance</source>
        <translation>维保费率</translation>
    </message>
    <message>
        <source>measured busbw</source>
        <translation>实测总线带宽 (busbw)</translation>
    </message>
    <message>
        <source>measured mfu</source>
        <translation>实测 MFU</translation>
    </message>
    <message>
        <source>medium</source>
        <translation>介质</translation>
    </message>
    <message>
        <source>micro batch</source>
        <translation>微批量（序列）</translation>
    </message>
    <message>
        <source>model id</source>
        <translation>模型</translation>
    </message>
    <message>
        <source>modified</source>
        <translation>修改时间</translation>
    </message>
    <message>
        <source>multiplicity</source>
        <translation>并行链路数</translation>
    </message>
    <message>
        <source>name</source>
        <translation>名称</translation>
    </message>
    <message>
        <source>nodes per staff</source>
        <translation>人均运维节点数</translation>
    </message>
    <message>
        <source>notes</source>
        <translation>备注</translation>
    </message>
    <message>
        <source>order</source>
        <translation>顺序</translation>
    </message>
    <message>
        <source>output len</source>
        <translation>输出长度（token）</translation>
    </message>
    <message>
        <source>overrides json</source>
        <translation>覆盖参数 (JSON)</translation>
    </message>
    <message>
        <source>param gather overlap</source>
        <translation>参数聚合重叠</translation>
    </message>
    <message>
        <source>params json</source>
        <translation>参数 (JSON)</translation>
    </message>
    <message>
        <source>partition</source>
        <translation>分区</translation>
    </message>
    <message>
        <source>phase id</source>
        <translation>建设阶段</translation>
    </message>
    <message>
        <source>placement order</source>
        <translation>排布顺序</translation>
    </message>
    <message>
        <source>position</source>
        <translation>位置</translation>
    </message>
    <message>
        <source>power budget</source>
        <translation>功率预算</translation>
    </message>
    <message>
        <source>pp</source>
        <translation>流水线并行 PP</translation>
    </message>
    <message>
        <source>pp overlap</source>
        <translation>流水线发送重叠</translation>
    </message>
    <message>
        <source>precision</source>
        <translation>精度</translation>
    </message>
    <message>
        <source>price</source>
        <translation>价格</translation>
    </message>
    <message>
        <source>priority</source>
        <translation>优先级</translation>
    </message>
    <message>
        <source>prompt len</source>
        <translation>提示词长度（token）</translation>
    </message>
    <message>
        <source>rack id</source>
        <translation>所在机柜</translation>
    </message>
    <message>
        <source>rack pitch</source>
        <translation>机柜间距</translation>
    </message>
    <message>
        <source>recompute</source>
        <translation>激活重计算</translation>
    </message>
    <message>
        <source>role</source>
        <translation>角色</translation>
    </message>
    <message>
        <source>row</source>
        <translation>机柜列</translation>
    </message>
    <message>
        <source>row pitch</source>
        <translation>列间距</translation>
    </message>
    <message>
        <source>scheduler</source>
        <translation>调度系统</translation>
    </message>
    <message>
        <source>seq len</source>
        <translation>序列长度（token）</translation>
    </message>
    <message>
        <source>sequence parallel</source>
        <translation>序列并行</translation>
    </message>
    <message>
        <source>software</source>
        <translation>软件费用</translation>
    </message>
    <message>
        <source>speed</source>
        <translation>速率</translation>
    </message>
    <message>
        <source>stack</source>
        <translation>软件栈</translation>
    </message>
    <message>
        <source>staff</source>
        <translation>人员成本</translation>
    </message>
    <message>
        <source>target pue</source>
        <translation>目标 PUE</translation>
    </message>
    <message>
        <source>tco</source>
        <translation>TCO 周期</translation>
    </message>
    <message>
        <source>technology</source>
        <translation>网络技术</translation>
    </message>
    <message>
        <source>top k</source>
        <translation>Top-k</translation>
    </message>
    <message>
        <source>topology</source>
        <translation>拓扑</translation>
    </message>
    <message>
        <source>total tokens</source>
        <translation>总 token 数</translation>
    </message>
    <message>
        <source>tp</source>
        <translation>张量并行 TP</translation>
    </message>
    <message>
        <source>tp comm overlap</source>
        <translation>张量并行通信重叠</translation>
    </message>
    <message>
        <source>tray height</source>
        <translation>线槽高度</translation>
    </message>
    <message>
        <source>type id</source>
        <translation>型号</translation>
    </message>
    <message>
        <source>u position</source>
        <translation>U 位</translation>
    </message>
    <message>
        <source>usd exchange rate</source>
        <translation>美元汇率</translation>
    </message>
    <message>
        <source>utility</source>
        <translation>市电容量</translation>
    </message>
    <message>
        <source>facility model</source>
        <translation>机房模式</translation>
    </message>
    <message>
        <source>colo</source>
        <translation>托管价格</translation>
    </message>
    <message>
        <source>build</source>
        <translation>建设成本</translation>
    </message>
    <message>
        <source>staff min</source>
        <translation>最少运维人员</translation>
    </message>
    <message>
        <source>support years in price</source>
        <translation>价格含支持年限</translation>
    </message>
    <message>
        <source>insurance</source>
        <translation>保险</translation>
    </message>
    <message>
        <source>depreciation</source>
        <translation>折旧年限</translation>
    </message>
    <message>
        <source>discount rate</source>
        <translation>折现率</translation>
    </message>
    <message>
        <source>cloud price source</source>
        <translation>云价格来源</translation>
    </message>
    <message>
        <source>cloud term</source>
        <translation>云计费方式</translation>
    </message>
    <message>
        <source>redundancy</source>
        <translation>冗余方式</translation>
    </message>
    <message>
        <source>ups runtime</source>
        <translation>UPS 后备时间</translation>
    </message>
    <message>
        <source>vocab</source>
        <translation>词表大小</translation>
    </message>
    <message>
        <source>vpp</source>
        <translation>虚拟流水线 VPP</translation>
    </message>
    <message>
        <source>width</source>
        <translation>宽度</translation>
    </message>
    <message>
        <source>x</source>
        <translation>画布 X</translation>
    </message>
    <message>
        <source>y</source>
        <translation>画布 Y</translation>
    </message>
    <message>
        <source>zero stage</source>
        <translation>ZeRO 阶段</translation>
    </message>
    <message>
        <source>it</source>
        <translation>IT 可用功率</translation>
    </message>
    <message>
        <source>positions json</source>
        <translation>机柜位（功率与散热）</translation>
    </message>
    <message>
        <source>budget capex</source>
        <translation>投资预算</translation>
    </message>
    <message>
        <source>budget tco</source>
        <translation>总拥有成本预算</translation>
    </message>
    <message>
        <source>region</source>
        <translation>客户所在地区（ISO 代码）</translation>
    </message>
    <message>
        <source>users</source>
        <translation>并发用户数</translation>
    </message>
    <message>
        <source>requests per s</source>
        <translation>请求速率（次/秒）</translation>
    </message>
    <message>
        <source>ttft target s</source>
        <translation>首字时延目标（秒）</translation>
    </message>
    <message>
        <source>tpot target s</source>
        <translation>逐字时延目标（秒）</translation>
    </message>
    <message>
        <source>think time s</source>
        <translation>用户思考时间（秒）</translation>
    </message>
    <message>
        <source>serving mode</source>
        <translation>推理部署方式</translation>
    </message>
    <message>
        <source>serving stack</source>
        <translation>推理软件栈（KV 缓存规则）</translation>
    </message>
    <message>
        <source>prompt dataset</source>
        <translation>提示词长度分布同数据集</translation>
    </message>
    <message>
        <source>ttft percentile</source>
        <translation>首字时延目标的百分位</translation>
    </message>
    <message>
        <source>tpot percentile</source>
        <translation>逐字时延目标的百分位</translation>
    </message>
    <message>
        <source>kv fraction</source>
        <translation>KV 缓存显存占比</translation>
    </message>
    <message>
        <source>max seqs</source>
        <translation>最大并发序列数</translation>
    </message>
    <message>
        <source>max batched tokens</source>
        <translation>每步最大 token 数</translation>
    </message>
    <message>
        <source>chunked prefill</source>
        <translation>分块预填充</translation>
    </message>
    <message>
        <source>gemm allreduce fusion</source>
        <translation>GEMM 与全归约融合</translation>
    </message>
    <message>
        <source>tp overlap</source>
        <translation>张量并行通信与计算重叠</translation>
    </message>
    <message>
        <source>balanced pipeline</source>
        <translation>均衡流水线</translation>
    </message>
    <message>
        <source>zero3 regather on recompute</source>
        <translation>ZeRO-3 重计算时重新收集参数</translation>
    </message>
    <message>
        <source>zero3 nics per node</source>
        <translation>ZeRO-3 每节点网卡数</translation>
    </message>
    <message>
        <source>optimizer</source>
        <translation>优化器</translation>
    </message>
    <message>
        <source>optimizer state</source>
        <translation>优化器状态</translation>
    </message>
    <message>
        <source>moe dispatcher</source>
        <translation>MoE 分发器</translation>
    </message>
    <message>
        <source>expert tp</source>
        <translation>专家按张量并行切分</translation>
    </message>
    <message>
        <source>fp8 params</source>
        <translation>FP8 参数</translation>
    </message>
    <message>
        <source>recompute norm act</source>
        <translation>重计算归一化与激活</translation>
    </message>
    <message>
        <source>mla up proj recompute</source>
        <translation>重计算 MLA 上投影</translation>
    </message>
    <message>
        <source>pipeline layout</source>
        <translation>流水线布局</translation>
    </message>
    <message>
        <source>fp8 recipe</source>
        <translation>FP8 缩放方案</translation>
    </message>
</context>
<context>
    <name>floor</name>
    <message>
        <source>CRAH (room cooler)</source>
        <translation>精密空调 CRAH（机房空调）</translation>
    </message>
    <message>
        <source>in-row cooler</source>
        <translation>列间空调</translation>
    </message>
    <message>
        <source>rear-door heat exchangers</source>
        <translation>背板换热器</translation>
    </message>
    <message>
        <source>coolant distribution unit (CDU)</source>
        <translation>冷量分配单元 (CDU)</translation>
    </message>
    <message>
        <source>immersion tank</source>
        <translation>浸没式液冷槽</translation>
    </message>
    <message>
        <source>power distribution unit (PDU)</source>
        <translation>电源分配单元 (PDU)</translation>
    </message>
    <message>
        <source>busway</source>
        <translation>母线槽</translation>
    </message>
    <message>
        <source>utility feed</source>
        <translation>市电进线</translation>
    </message>
    <message>
        <source>In-row cooler</source>
        <translation>列间空调</translation>
    </message>
    <message>
        <source>In-row cooler {n}</source>
        <translation>列间空调 {n}</translation>
    </message>
    <message>
        <source>Rear doors</source>
        <translation>背板换热器</translation>
    </message>
    <message>
        <source>Rear doors {n}</source>
        <translation>背板换热器 {n}</translation>
    </message>
    <message>
        <source>Immersion tank</source>
        <translation>浸没式液冷槽</translation>
    </message>
    <message>
        <source>Immersion tank {n}</source>
        <translation>浸没式液冷槽 {n}</translation>
    </message>
    <message>
        <source>Busway</source>
        <translation>母线槽</translation>
    </message>
    <message>
        <source>Busway {n}</source>
        <translation>母线槽 {n}</translation>
    </message>
    <message>
        <source>Utility feed</source>
        <translation>市电进线</translation>
    </message>
    <message>
        <source>Utility feed {n}</source>
        <translation>市电进线 {n}</translation>
    </message>
    <message>
        <source>There is no row to put the rack in.</source>
        <translation>没有可放置该机柜的机柜列。</translation>
    </message>
    <message>
        <source>Row {row}, slot {slot} is taken by rack {rack}.</source>
        <translation>第 {row} 列的 {slot} 号位已被机柜 {rack} 占用。</translation>
    </message>
    <message>
        <source>Move rack {rack} to row {row}, slot {slot}</source>
        <translation>将机柜 {rack} 移至第 {row} 列 {slot} 号位</translation>
    </message>
    <message>
        <source>Move {unit}</source>
        <translation>移动 {unit}</translation>
    </message>
    <message>
        <source>Add {unit}</source>
        <translation>添加 {unit}</translation>
    </message>
    <message>
        <source>Add row {row}</source>
        <translation>添加机柜列 {row}</translation>
    </message>
    <message>
        <source>cold</source>
        <translation>寒冷</translation>
    </message>
    <message>
        <source>hot</source>
        <translation>炎热</translation>
    </message>
    <message>
        <source>Row {row}: fronts face a contained {aisle} aisle</source>
        <translation>第 {row} 列：机柜正面朝向封闭的{aisle}</translation>
    </message>
    <message>
        <source>Row {row}: fronts face an open {aisle} aisle</source>
        <translation>第 {row} 列：机柜正面朝向开放的{aisle}</translation>
    </message>
    <message>
        <source>≤ {a} kW</source>
        <translation>≤ {a} kW</translation>
    </message>
    <message>
        <source>{a}–{b} kW</source>
        <translation>{a}–{b} kW</translation>
    </message>
    <message>
        <source>&gt; {a} kW</source>
        <translation>&gt; {a} kW</translation>
    </message>
    <message>
        <source>{load} kW / not rated</source>
        <translation>{load} kW / 未标定容量</translation>
    </message>
    <message>
        <source>{load} / {cap} kW</source>
        <translation>{load} / {cap} kW</translation>
    </message>
    <message>
        <source>serves row {row}</source>
        <translation>服务第 {row} 列</translation>
    </message>
    <message>
        <source>serves the whole hall</source>
        <translation>服务整个机房</translation>
    </message>
    <message>
        <source>overloaded: add a unit, move racks to another row or choose a larger unit</source>
        <translation>过载：请增加设备、把机柜移到其他列，或选用更大容量的设备</translation>
    </message>
    <message>
        <source>Row {row}</source>
        <translation>第 {row} 列</translation>
    </message>
    <message>
        <source>cold aisle</source>
        <translation>冷通道</translation>
    </message>
    <message>
        <source>hot aisle</source>
        <translation>热通道</translation>
    </message>
    <message>
        <source>Row {row} · {aisle}, contained</source>
        <translation>第 {row} 列 · {aisle}，已封闭</translation>
    </message>
    <message>
        <source>Row {row} · {aisle}</source>
        <translation>第 {row} 列 · {aisle}</translation>
    </message>
    <message>
        <source>{m} m · × {n}</source>
        <translation>{m} m · × {n}</translation>
    </message>
    <message>
        <source>copper DAC</source>
        <translation>无源铜缆 (DAC)</translation>
    </message>
    <message>
        <source>active copper</source>
        <translation>有源铜缆 (ACC)</translation>
    </message>
    <message>
        <source>active electrical cable</source>
        <translation>有源电缆 (AEC)</translation>
    </message>
    <message>
        <source>active optical cable</source>
        <translation>有源光缆 (AOC)</translation>
    </message>
    <message>
        <source>twisted pair</source>
        <translation>双绞线</translation>
    </message>
    <message>
        <source>multimode fibre</source>
        <translation>多模光纤</translation>
    </message>
    <message>
        <source>single-mode fibre</source>
        <translation>单模光纤</translation>
    </message>
    <message>
        <source>no medium reaches</source>
        <translation>无可用介质</translation>
    </message>
</context>
<context>
    <name>fmt</name>
    <message>
        <source>{cur} (millions)</source>
        <translation>百万 {cur}</translation>
    </message>
    <message>
        <source>{v} ms</source>
        <translation>{v} ms</translation>
    </message>
    <message>
        <source>{v} s</source>
        <translation>{v} 秒</translation>
    </message>
    <message>
        <source>{v} h</source>
        <translation>{v} 小时</translation>
    </message>
    <message>
        <source>{v} days</source>
        <translation>{v} 天</translation>
    </message>
</context>
<context>
    <name>groups</name>
    <message>
        <source>Group {name}</source>
        <translation>组 {name}</translation>
    </message>
    <message>
        <source>Row {name}</source>
        <translation>第 {name} 列</translation>
    </message>
    <message>
        <source>{kw} kW at load</source>
        <translation>负载功率 {kw} kW</translation>
    </message>
    <message>
        <source>busiest uplink {p}</source>
        <translation>最忙上行链路 {p}</translation>
    </message>
</context>
<context>
    <name>interactions</name>
    <message>
        <source>{rack} has no {ru} free consecutive U for {what} ({free} U free of {total})</source>
        <translation>{rack} 没有可放置 {what} 的连续 {ru} 个空闲 U 位（共 {total} U，空闲 {free} U）</translation>
    </message>
    <message>
        <source>&apos;{id}&apos; is not in the catalog</source>
        <translation>设备目录中没有“{id}”</translation>
    </message>
    <message>
        <source>no server in the catalog carries the {gpu}: drop a server instead</source>
        <translation>设备目录中没有搭载 {gpu} 的服务器：请直接拖入服务器</translation>
    </message>
    <message>
        <source>added a {server} (a server with this GPU)</source>
        <translation>已添加 {server}（搭载该 GPU 的服务器）</translation>
    </message>
    <message>
        <source>a {kind} cannot be placed on the canvas</source>
        <translation>{kind} 不能放置到画布上</translation>
    </message>
    <message>
        <source>Add {name} to {rack} at U{u}</source>
        <translation>将 {name} 添加到 {rack} 的 U{u}</translation>
    </message>
    <message>
        <source>Add {name}</source>
        <translation>添加 {name}</translation>
    </message>
    <message>
        <source>Add rack {name}</source>
        <translation>添加机柜 {name}</translation>
    </message>
    <message>
        <source>a link needs two different devices</source>
        <translation>链路需要连接两台不同的设备</translation>
    </message>
    <message>
        <source>{name} has no ports</source>
        <translation>{name} 没有端口</translation>
    </message>
    <message>
        <source>cannot link {a} to {b}: {why}</source>
        <translation>无法连接 {a} 与 {b}：{why}</translation>
    </message>
    <message>
        <source>cannot link: {dev} port group &apos;{g}&apos; has all {n} ports in use</source>
        <translation>无法连接：{dev} 的端口组“{g}”的 {n} 个端口已全部占用</translation>
    </message>
    <message>
        <source>Link {a}:{ga} – {b}:{gb} ({n} × {speed})</source>
        <translation>连接 {a}:{ga} – {b}:{gb}（{n} × {speed}）</translation>
    </message>
    <message>
        <source>Move</source>
        <translation>移动</translation>
    </message>
    <message>
        <source>{dev}: U{u} of {rack} is taken</source>
        <translation>{dev}：{rack} 的 U{u} 已被占用</translation>
    </message>
</context>
<context>
    <name>ports</name>
    <message>
        <source>{a} is {ta} and {b} is {tb}: InfiniBand and Ethernet ports cannot be linked</source>
        <translation>{a} 为 {ta}，{b} 为 {tb}：InfiniBand 端口与以太网端口不能互连</translation>
    </message>
    <message>
        <source>{a} ({ta}) and {b} ({tb}) use different media (RJ45 copper vs pluggable cage)</source>
        <translation>{a}（{ta}）与 {b}（{tb}）介质不同（RJ45 电口 与 可插拔光模块笼）</translation>
    </message>
    <message>
        <source>{a} runs at {sa} and {b} at {sb}: more than a 1:{n} breakout apart</source>
        <translation>{a} 速率为 {sa}，{b} 为 {sb}：速率差超过 1:{n} 分支 (breakout)</translation>
    </message>
    <message>
        <source>{g}: all {n} ports in use</source>
        <translation>{g}：{n} 个端口已全部占用</translation>
    </message>
    <message>
        <source>the device has no ports</source>
        <translation>该设备没有端口</translation>
    </message>
</context>
<context>
    <name>template_names</name>
    <message>
        <source>single switch</source>
        <translation>单台交换机</translation>
    </message>
    <message>
        <source>rail-optimised leaf-spine</source>
        <translation>轨道优化叶脊</translation>
    </message>
    <message>
        <source>non-rail leaf-spine</source>
        <translation>非轨道叶脊</translation>
    </message>
    <message>
        <source>3-tier fat tree</source>
        <translation>三层胖树</translation>
    </message>
    <message>
        <source>dragonfly</source>
        <translation>蜻蜓 (Dragonfly)</translation>
    </message>
</context>
<context>
    <name>templates</name>
    <message>
        <source>one switch for a pilot of a few servers (25/100 GbE or one IB switch)</source>
        <translation>单台交换机，适用于少量服务器的试点（25/100 GbE 或一台 IB 交换机）</translation>
    </message>
    <message>
        <source>rail-optimised 2-tier leaf-spine in scalable units: one leaf per rail per SU</source>
        <translation>按可扩展单元 (SU) 构建的轨道优化两层叶脊 (Leaf-Spine) 网络：每个 SU 每条轨道一台叶交换机</translation>
    </message>
    <message>
        <source>non-rail 2-tier leaf-spine: all NICs of a server to one top-of-rack leaf</source>
        <translation>非轨道两层叶脊网络：服务器的所有网卡接到同一台柜顶 (ToR) 叶交换机</translation>
    </message>
    <message>
        <source>3-tier leaf/spine/core Clos (fat tree) in pods, rail-optimised when rails=yes</source>
        <translation>按 Pod 构建的三层 叶/脊/核心 Clos（胖树）网络，rails=yes 时为轨道优化</translation>
    </message>
    <message>
        <source>dragonfly: groups of all-to-all connected switches joined by global links</source>
        <translation>蜻蜓 (Dragonfly) 拓扑：组内交换机全互连，组间通过全局链路连接</translation>
    </message>
</context>
<context>
    <name>theme</name>
    <message>
        <source>no traffic</source>
        <translation>无流量</translation>
    </message>
    <message>
        <source>&lt; 25 %</source>
        <translation>&lt; 25 %</translation>
    </message>
    <message>
        <source>25–50 %</source>
        <translation>25–50 %</translation>
    </message>
    <message>
        <source>50–75 %</source>
        <translation>50–75 %</translation>
    </message>
    <message>
        <source>75–90 %</source>
        <translation>75–90 %</translation>
    </message>
    <message>
        <source>≥ 90 % (bottleneck)</source>
        <translation>≥ 90 %（瓶颈）</translation>
    </message>
    <message>
        <source>rack within budget</source>
        <translation>机柜在功率预算内</translation>
    </message>
    <message>
        <source>rack ≥ 90 % of budget</source>
        <translation>机柜达到预算的 90 % 以上</translation>
    </message>
    <message>
        <source>over budget or cooling too weak</source>
        <translation>超出预算或制冷能力不足</translation>
    </message>
    <message>
        <source>AIR</source>
        <translation>风冷</translation>
    </message>
    <message>
        <source>AIR+</source>
        <translation>风冷+</translation>
    </message>
    <message>
        <source>RDHx</source>
        <translation>背板</translation>
    </message>
    <message>
        <source>DLC</source>
        <translation>冷板</translation>
    </message>
    <message>
        <source>IMM</source>
        <translation>浸没</translation>
    </message>
    <message>
        <source>air</source>
        <translation>风冷</translation>
    </message>
    <message>
        <source>contained air</source>
        <translation>封闭通道风冷</translation>
    </message>
    <message>
        <source>rear-door heat exchanger</source>
        <translation>背板换热器（后门换热器）</translation>
    </message>
    <message>
        <source>cold plate (direct liquid)</source>
        <translation>冷板液冷</translation>
    </message>
    <message>
        <source>immersion</source>
        <translation>浸没式液冷</translation>
    </message>
    <message>
        <source>compute</source>
        <translation>计算节点</translation>
    </message>
    <message>
        <source>leaf</source>
        <translation>叶交换机</translation>
    </message>
    <message>
        <source>spine</source>
        <translation>脊交换机</translation>
    </message>
    <message>
        <source>core</source>
        <translation>核心交换机</translation>
    </message>
    <message>
        <source>storage</source>
        <translation>存储</translation>
    </message>
    <message>
        <source>storage switch</source>
        <translation>存储交换机</translation>
    </message>
    <message>
        <source>management</source>
        <translation>管理</translation>
    </message>
    <message>
        <source>other</source>
        <translation>其他</translation>
    </message>
</context>
<context>
    <name>units</name>
    <message>
        <source>USD/kWh</source>
        <translation>USD/kWh</translation>
    </message>
    <message>
        <source>USD/GPU·h</source>
        <translation>USD/GPU·h</translation>
    </message>
    <message>
        <source>USD/GPU·yr</source>
        <translation>USD/GPU·年</translation>
    </message>
    <message>
        <source>USD/yr</source>
        <translation>USD/年</translation>
    </message>
    <message>
        <source>%/yr</source>
        <translation>%/年</translation>
    </message>
    <message>
        <source>USD/kW·month</source>
        <translation>USD/kW·月</translation>
    </message>
    <message>
        <source>USD/MW</source>
        <translation>USD/MW</translation>
    </message>
    <message>
        <source>%</source>
        <translation>%</translation>
    </message>
    <message>
        <source>FTE</source>
        <translation>人</translation>
    </message>
    <message>
        <source>min</source>
        <translation>分钟</translation>
    </message>
    <message>
        <source>kW</source>
        <translation>kW</translation>
    </message>
    <message>
        <source>USD</source>
        <translation>USD</translation>
    </message>
    <message>
        <source>W</source>
        <translation>W</translation>
    </message>
    <message>
        <source>Gb/s</source>
        <translation>Gb/s</translation>
    </message>
    <message>
        <source>GB/s</source>
        <translation>GB/s</translation>
    </message>
    <message>
        <source>m</source>
        <translation>m</translation>
    </message>
    <message>
        <source>°C</source>
        <translation>°C</translation>
    </message>
    <message>
        <source>yr</source>
        <translation>年</translation>
    </message>
</context>
</TS>
