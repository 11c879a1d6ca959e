<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN" sourcelanguage="en">
<context>
    <name>AboutDialog</name>
    <message>
        <source>About vramgui</source>
        <translation>关于 vramgui</translation>
    </message>
    <message>
        <source>Plan the GPU memory of a training run before booking GPUs. Offline; no data leaves this computer.</source>
        <translation>在租用 GPU 之前规划训练任务的显存。完全离线，数据不会离开本机。</translation>
    </message>
    <message>
        <source>The licence files are missing from this installation.</source>
        <translation>此安装中缺少许可证文件。</translation>
    </message>
    <message>
        <source>{0} {1} ({2} licence)</source>
        <translation>{0} {1}（{2} 许可证）</translation>
    </message>
</context>
<context>
    <name>AdviceBox</name>
    <message>
        <source>show {0}…</source>
        <translation>查看 {0} 种…</translation>
    </message>
</context>
<context>
    <name>BreakdownPanel</name>
    <message>
        <source>Breakdown of the chosen strategy: what is live at the step&apos;s peak, or the sum of components</source>
        <translation>所选策略的明细：训练步峰值时刻的驻留内容，或各组成部分之和</translation>
    </message>
    <message>
        <source>Live at the peak</source>
        <translation>峰值时驻留</translation>
    </message>
    <message>
        <source>Sum of components</source>
        <translation>组成部分之和</translation>
    </message>
    <message>
        <source>Step time</source>
        <translation>步时间</translation>
    </message>
    <message>
        <source>What one GPU holds at the moment of the training step that sets the peak, each term with its formula</source>
        <translation>单个 GPU 在决定峰值的训练步时刻所持有的内容，每一项附公式</translation>
    </message>
    <message>
        <source>The per-GPU sum P + G + O + A + fixed terms that the conventions publish</source>
        <translation>各约定公布的单卡总和 P + G + O + A + 固定项</translation>
    </message>
    <message>
        <source>The parts of one training step&apos;s time, each with its formula and source</source>
        <translation>一个训练步的时间的各组成部分，每项附公式和来源</translation>
    </message>
</context>
<context>
    <name>BreakdownTable</name>
    <message>
        <source>Component</source>
        <translation>组成部分</translation>
    </message>
    <message>
        <source>Per GPU</source>
        <translation>单卡</translation>
    </message>
    <message>
        <source>Formula (numbers filled in)</source>
        <translation>公式（代入数值）</translation>
    </message>
    <message>
        <source>Source: {0}</source>
        <translation>来源：{0}</translation>
    </message>
    <message>
        <source>Bytes</source>
        <translation>字节</translation>
    </message>
    <message>
        <source>&amp;Copy</source>
        <translation>复制(&amp;C)</translation>
    </message>
    <message>
        <source>Copy &amp;all</source>
        <translation>全部复制(&amp;A)</translation>
    </message>
</context>
<context>
    <name>ComparePresenter</name>
    <message>
        <source>At most %1 scenarios can be compared; remove one first.</source>
        <translation>最多可对比 %1 个方案，请先移除一个。</translation>
    </message>
    <message>
        <source>This scenario cannot be pinned: %1</source>
        <translation>无法固定此方案：%1</translation>
    </message>
    <message>
        <source>Not pinned again (the scenario is no longer valid): %1</source>
        <translation>未能重新固定（该方案已不再有效）：%1</translation>
    </message>
    <message>
        <source>Save comparison</source>
        <translation>保存对比</translation>
    </message>
    <message>
        <source>Cannot save comparison</source>
        <translation>无法保存对比</translation>
    </message>
    <message>
        <source>%1 was not saved: %2
The file on disk is unchanged.</source>
        <translation>%1 未保存：%2
磁盘上的文件未改变。</translation>
    </message>
    <message>
        <source>Comparison saved to %1</source>
        <translation>对比已保存到 %1</translation>
    </message>
    <message>
        <source>Open comparison</source>
        <translation>打开对比</translation>
    </message>
    <message>
        <source>Cannot open comparison</source>
        <translation>无法打开对比</translation>
    </message>
    <message>
        <source>Replace pinned scenarios</source>
        <translation>替换已固定的方案</translation>
    </message>
    <message>
        <source>Replace the %1 pinned scenarios with the %2 in %3?</source>
        <translation>用 %3 中的 %2 个方案替换已固定的 %1 个方案吗？</translation>
    </message>
    <message>
        <source>Opened comparison %1</source>
        <translation>已打开对比 %1</translation>
    </message>
    <message>
        <source>Export comparison chart</source>
        <translation>导出对比图表</translation>
    </message>
    <message>
        <source>PNG image (*.png)</source>
        <translation>PNG 图像 (*.png)</translation>
    </message>
    <message>
        <source>Could not export the chart: %1</source>
        <translation>无法导出图表：%1</translation>
    </message>
    <message>
        <source>Export comparison data</source>
        <translation>导出对比数据</translation>
    </message>
    <message>
        <source>CSV file (*.csv)</source>
        <translation>CSV 文件 (*.csv)</translation>
    </message>
    <message>
        <source>Could not export the data: %1</source>
        <translation>无法导出数据：%1</translation>
    </message>
    <message>
        <source>Per-GPU memory by scenario</source>
        <translation>各方案的单卡显存</translation>
    </message>
    <message>
        <source>Stacked per-GPU memory by component (the sum), in %1 (%2). Marks: the step peak, which decides the fit, and the usable GPU memory after the reserve. vramgui %3, convention per scenario.</source>
        <translation>按组成部分堆叠的单卡显存（总和），单位 %1（%2）。标记：决定能否装下的训练步峰值，以及扣除预留后的可用显存。vramgui %3，各方案使用各自的约定。</translation>
    </message>
    <message>
        <source>10^9 bytes</source>
        <translation>10^9 字节</translation>
    </message>
    <message>
        <source>2^30 bytes</source>
        <translation>2^30 字节</translation>
    </message>
    <message>
        <source>Per-GPU memory (%1)</source>
        <translation>单卡显存（%1）</translation>
    </message>
    <message>
        <source>Pin the current scenario to compare it with others (up to %1).</source>
        <translation>固定当前方案，与其他方案对比（最多 %1 个）。</translation>
    </message>
    <message>
        <source>Unknown (no GPU memory given)</source>
        <translation>未知（未指定显存）</translation>
    </message>
    <message>
        <source>Yes</source>
        <translation>是</translation>
    </message>
    <message>
        <source>No</source>
        <translation>否</translation>
    </message>
    <message>
        <source>not estimated</source>
        <translation>未估算</translation>
    </message>
    <message>
        <source>time unknown</source>
        <translation>时间未知</translation>
    </message>
    <message>
        <source>%1/step</source>
        <translation>%1/步</translation>
    </message>
    <message>
        <source>%1 · cost %2</source>
        <translation>%1 · 费用 %2</translation>
    </message>
    <message>
        <source>%1 unknown</source>
        <translation>%1 未知</translation>
    </message>
    <message>
        <source>cost %1</source>
        <translation>费用 %1</translation>
    </message>
    <message>
        <source>%1 %2 (%3)</source>
        <translation>%1 %2（%3）</translation>
    </message>
    <message>
        <source>Step time: %1</source>
        <translation>步时间：%1</translation>
    </message>
    <message>
        <source>Every scenario: %1</source>
        <translation>所有方案：%1</translation>
    </message>
    <message>
        <source>%1 (%2)</source>
        <translation>%1（%2）</translation>
    </message>
    <message>
        <source>Left to right: %1.</source>
        <translation>从左到右：%1。</translation>
    </message>
    <message>
        <source>; </source>
        <translation>；</translation>
    </message>
    <message>
        <source>vramgui comparisons (*.json);;All files (*)</source>
        <translation>vramgui 对比文件 (*.json);;所有文件 (*)</translation>
    </message>
    <message>
        <source>%1 cannot be opened:</source>
        <translation>无法打开 %1：</translation>
    </message>
    <message>
        <source>Pinned scenario %1:</source>
        <translation>固定的方案 %1：</translation>
    </message>
</context>
<context>
    <name>CompareWidget</name>
    <message>
        <source>Pin current scenario</source>
        <translation>固定当前方案</translation>
    </message>
    <message>
        <source>Add the scenario in the editor to the comparison</source>
        <translation>将编辑器中的方案加入对比</translation>
    </message>
    <message>
        <source>Rename</source>
        <translation>重命名</translation>
    </message>
    <message>
        <source>Rename the selected scenario (or double-click its name, or press F2)</source>
        <translation>重命名所选方案（也可双击其名称或按 F2）</translation>
    </message>
    <message>
        <source>Remove</source>
        <translation>移除</translation>
    </message>
    <message>
        <source>Remove the selected scenario from the comparison</source>
        <translation>从对比中移除所选方案</translation>
    </message>
    <message>
        <source>Load into editor</source>
        <translation>载入编辑器</translation>
    </message>
    <message>
        <source>Open the selected scenario in the editor (or double-click a figure)</source>
        <translation>在编辑器中打开所选方案（也可双击其中的数值）</translation>
    </message>
    <message>
        <source>Clear all</source>
        <translation>全部清除</translation>
    </message>
    <message>
        <source>Remove every pinned scenario</source>
        <translation>移除所有已固定的方案</translation>
    </message>
    <message>
        <source>Export PNG…</source>
        <translation>导出 PNG…</translation>
    </message>
    <message>
        <source>Save the chart as a PNG image, with every input in its caption</source>
        <translation>将图表保存为 PNG 图像，图注列出全部输入</translation>
    </message>
    <message>
        <source>Export CSV…</source>
        <translation>导出 CSV…</translation>
    </message>
    <message>
        <source>Save the table as a CSV file, with every input in its columns</source>
        <translation>将表格保存为 CSV 文件，各列包含全部输入</translation>
    </message>
    <message>
        <source>Scenario</source>
        <translation>方案</translation>
    </message>
    <message>
        <source>Fits</source>
        <translation>能否装下</translation>
    </message>
    <message>
        <source>Peak per GPU</source>
        <translation>单卡峰值</translation>
    </message>
    <message>
        <source>Sum per GPU</source>
        <translation>单卡总和</translation>
    </message>
    <message>
        <source>Headroom</source>
        <translation>余量</translation>
    </message>
    <message>
        <source>Max micro-batch</source>
        <translation>最大微批次</translation>
    </message>
    <message>
        <source>Accumulation steps</source>
        <translation>梯度累积步数</translation>
    </message>
    <message>
        <source>Step time</source>
        <translation>步时间</translation>
    </message>
    <message>
        <source>Throughput</source>
        <translation>吞吐量</translation>
    </message>
    <message>
        <source>Time to train</source>
        <translation>训练时长</translation>
    </message>
    <message>
        <source>Cost</source>
        <translation>费用</translation>
    </message>
    <message>
        <source>The peak of one training step: it decides the fit</source>
        <translation>一个训练步的峰值：由它决定能否装下</translation>
    </message>
    <message>
        <source>The per-GPU sum of components, as the conventions publish it (the stacked bar)</source>
        <translation>各约定公布的单卡组成部分之和（堆叠柱）</translation>
    </message>
    <message>
        <source>Double-click a name to rename it, or a figure to load the scenario</source>
        <translation>双击名称可重命名，双击数值可载入该方案</translation>
    </message>
    <message>
        <source>Usable GPU memory</source>
        <translation>可用显存</translation>
    </message>
</context>
<context>
    <name>Core</name>
    <message>
        <source>expected a whole number, got {value}</source>
        <translation>应为整数，而不是 {value}</translation>
    </message>
    <message>
        <source>expected a number, got {value}</source>
        <translation>应为数字，而不是 {value}</translation>
    </message>
    <message>
        <source>{value} is out of range</source>
        <translation>{value} 超出范围</translation>
    </message>
    <message>
        <source>unknown value {value}</source>
        <translation>未知取值 {value}</translation>
    </message>
    <message>
        <source>expected true or false, got {value}</source>
        <translation>应为 true 或 false，而不是 {value}</translation>
    </message>
    <message>
        <source>expected text, got {value}</source>
        <translation>应为文本，而不是 {value}</translation>
    </message>
    <message>
        <source>give a parameter count or an architecture</source>
        <translation>请给出参数量或模型结构</translation>
    </message>
    <message numerus="yes">
        <source>%n GPU(s) do not divide into tp × pp = {group}</source>
        <translation>
            <numerusform>%n 张 GPU 无法按 TP × PP = {group} 整除</numerusform>
        </translation>
    </message>
    <message>
        <source>{pp} pipeline stages for {layers} layers</source>
        <translation>{pp} 个流水线阶段多于 {layers} 层</translation>
    </message>
    <message>
        <source>{global_batch} is not a multiple of micro_batch × N_d = {micro} × {n_d} = {step}</source>
        <translation>{global_batch} 不是 微批次 × N_d = {micro} × {n_d} = {step} 的倍数</translation>
    </message>
    <message>
        <source>the megatron convention models no CPU offload</source>
        <translation>Megatron 口径不包含 CPU 卸载</translation>
    </message>
    <message>
        <source>parameter offload needs ZeRO stage 3</source>
        <translation>参数卸载需要 ZeRO 阶段 3</translation>
    </message>
    <message>
        <source>optimizer offload needs ZeRO stage 1, 2 or 3</source>
        <translation>优化器卸载需要 ZeRO 阶段 1、2 或 3</translation>
    </message>
    <message>
        <source>DeepSpeed&apos;s estimator has no case for parameter offload without optimizer offload</source>
        <translation>DeepSpeed 的估算器不支持只卸载参数、不卸载优化器的情况</translation>
    </message>
    <message>
        <source>{layers} layers is more than vramgui&apos;s limit of {limit}</source>
        <translation>{layers} 层超过了 vramgui 的上限 {limit}</translation>
    </message>
    <message>
        <source>cannot read {text} as a size</source>
        <translation>无法将 {text} 读作大小</translation>
    </message>
    <message>
        <source>unknown unit {unit} in {text}</source>
        <translation>{text} 中的单位 {unit} 未知</translation>
    </message>
    <message>
        <source>cannot read {text} as a count</source>
        <translation>无法将 {text} 读作数量</translation>
    </message>
    <message>
        <source>unknown suffix {suffix} in {text}</source>
        <translation>{text} 中的后缀 {suffix} 未知</translation>
    </message>
    <message>
        <source>{text} is negative</source>
        <translation>{text} 为负数</translation>
    </message>
    <message>
        <source>expected a size such as 80GB or 80GiB</source>
        <translation>应为大小，例如 80GB 或 80GiB</translation>
    </message>
    <message>
        <source>cannot read {text} as a bandwidth such as 300GB/s or 200Gb/s</source>
        <translation>无法将 {text} 读作带宽（例如 300GB/s 或 200Gb/s）</translation>
    </message>
    <message>
        <source>{text} has no unit: write {number}GB or {number}GiB ({number}B for bytes)</source>
        <translation>{text} 没有单位：请写 {number}GB 或 {number}GiB（字节请写 {number}B）</translation>
    </message>
    <message>
        <source>{text} has no unit: write {number}GB or {number}GiB</source>
        <translation>{text} 没有单位：请写 {number}GB 或 {number}GiB</translation>
    </message>
    <message>
        <source>{text} has no unit, and in GB or GiB it is out of range</source>
        <translation>{text} 没有单位，且按 GB 或 GiB 计都超出范围</translation>
    </message>
    <message>
        <source>expected a count such as 7B or 124M</source>
        <translation>应为数量，例如 7B 或 124M</translation>
    </message>
    <message>
        <source>{text} is not a whole number of parameters</source>
        <translation>{text} 不是整数个参数</translation>
    </message>
    <message>
        <source>unknown field ({hint})</source>
        <translation>未知字段（{hint}）</translation>
    </message>
    <message>
        <source>did you mean {name}?</source>
        <translation>是否想输入 {name}？</translation>
    </message>
    <message>
        <source>known fields here: {names}</source>
        <translation>此处可用的字段：{names}</translation>
    </message>
    <message>
        <source>{message} (allowed: {allowed})</source>
        <translation>{message}（允许：{allowed}）</translation>
    </message>
    <message>
        <source>unsupported field type {type}</source>
        <translation>不支持的字段类型 {type}</translation>
    </message>
    <message>
        <source>must be an object {{...}}, not {kind}</source>
        <translation>应为对象 {{...}}，而不是 {kind}</translation>
    </message>
    <message>
        <source>must be an integer, not {kind}</source>
        <translation>应为整数，而不是 {kind}</translation>
    </message>
    <message>
        <source>must be a number, not {kind}</source>
        <translation>应为数字，而不是 {kind}</translation>
    </message>
    <message>
        <source>must be a string, not {kind}</source>
        <translation>应为字符串，而不是 {kind}</translation>
    </message>
    <message>
        <source>must be true or false, not {kind}</source>
        <translation>应为 true 或 false，而不是 {kind}</translation>
    </message>
    <message>
        <source>must be at least 1, not {value}</source>
        <translation>至少应为 1，而不是 {value}</translation>
    </message>
    <message>
        <source>a scenario must be a JSON object {{...}}, not {kind}</source>
        <translation>方案必须是 JSON 对象 {{...}}，而不是 {kind}</translation>
    </message>
    <message>
        <source>this is a Hugging Face model config.json, not a vramgui scenario; import it as a model instead</source>
        <translation>这是 Hugging Face 模型的 config.json，不是 vramgui 方案；请将它作为模型导入</translation>
    </message>
    <message>
        <source>this is a vramgui estimate (what `vramgui estimate --json` and the self-test write): results, not inputs; open the scenario it was computed from</source>
        <translation>这是 vramgui 的估算结果（`vramgui estimate --json` 和自检写出的文件）：它保存的是结果而不是输入；请打开计算它所用的方案</translation>
    </message>
    <message>
        <source>this JSON object has none of a scenario&apos;s sections ({sections}): it is not a vramgui scenario</source>
        <translation>这个 JSON 对象不含方案的任何部分（{sections}）：它不是 vramgui 方案</translation>
    </message>
    <message numerus="yes">
        <source>… and %n more problem(s)</source>
        <translation>
            <numerusform>……另有 %n 个问题</numerusform>
        </translation>
    </message>
    <message>
        <source>{schema} is not a vramgui scenario (expected {expected})</source>
        <translation>{schema} 不是 vramgui 方案（应为 {expected}）</translation>
    </message>
    <message>
        <source>this file was written in scenario format {version}; this vramgui ({app_version}) reads format {supported} and older - please update</source>
        <translation>此文件使用方案格式 {version} 写入；当前 vramgui（{app_version}）只能读取格式 {supported} 及更早的版本，请更新</translation>
    </message>
    <message>
        <source>this file was written by vramgui {writer} in scenario format {version}; this vramgui ({app_version}) reads format {supported} and older - please update</source>
        <translation>此文件由 vramgui {writer} 使用方案格式 {version} 写入；当前 vramgui（{app_version}）只能读取格式 {supported} 及更早的版本，请更新</translation>
    </message>
    <message>
        <source>the file is larger than {limit} bytes: not a scenario</source>
        <translation>文件大于 {limit} 字节：不是方案文件</translation>
    </message>
    <message>
        <source>the file is not UTF-8 text: not a scenario</source>
        <translation>文件不是 UTF-8 文本：不是方案文件</translation>
    </message>
    <message>
        <source>the file is larger than {limit} bytes: not a comparison</source>
        <translation>文件大于 {limit} 字节：不是对比文件</translation>
    </message>
    <message>
        <source>the file is not UTF-8 text: not a comparison</source>
        <translation>文件不是 UTF-8 文本：不是对比文件</translation>
    </message>
    <message>
        <source>not valid JSON: {reason}</source>
        <translation>不是有效的 JSON：{reason}</translation>
    </message>
    <message>
        <source>a comparison must be a JSON object</source>
        <translation>对比文件必须是一个 JSON 对象</translation>
    </message>
    <message>
        <source>this is a scenario file, not a comparison: open it with File &gt; Open scenario</source>
        <translation>这是方案文件，不是对比文件：请用“文件 &gt; 打开方案”打开</translation>
    </message>
    <message>
        <source>the schema is {found}, not {expected}</source>
        <translation>schema 为 {found}，而不是 {expected}</translation>
    </message>
    <message>
        <source>written by a newer vramgui (comparison version {version}; this version reads up to {supported})</source>
        <translation>由更新版本的 vramgui 写入（对比文件版本 {version}；本版本最多读取版本 {supported}）</translation>
    </message>
    <message>
        <source>schema_version must be a whole number of at least 1</source>
        <translation>schema_version 必须是不小于 1 的整数</translation>
    </message>
    <message>
        <source>unknown field {names} (known fields here: {known})</source>
        <translation>未知字段 {names}（此处可用的字段：{known}）</translation>
    </message>
    <message>
        <source>&quot;pinned&quot; must be a list of scenarios</source>
        <translation>“pinned” 必须是方案列表</translation>
    </message>
    <message>
        <source>it holds {count} scenarios; at most {limit} can be compared</source>
        <translation>其中有 {count} 个方案；最多可对比 {limit} 个</translation>
    </message>
    <message>
        <source>{count} of its scenarios cannot be used</source>
        <translation>其中 {count} 个方案无法使用</translation>
    </message>
    <message>
        <source>plans are ranked by their step time, which needs the GPU&apos;s compute figures</source>
        <translation>方案按单步时间排序，需要 GPU 的算力参数</translation>
    </message>
    <message>
        <source>the cheapest plan is ranked by the cost of the whole run, which needs this</source>
        <translation>最便宜的方案按整个训练的成本排序，需要此项</translation>
    </message>
    <message>
        <source>{file}: not a DeepSpeed, accelerate, axolotl, LLaMA-Factory, torchtune or TrainingArguments config</source>
        <translation>{file}：不是 DeepSpeed、accelerate、axolotl、LLaMA-Factory、torchtune 或 TrainingArguments 配置</translation>
    </message>
    <message>
        <source>{key} in {file}: {problem}</source>
        <translation>{file} 中的 {key}：{problem}</translation>
    </message>
    <message>
        <source>{file} (named by {key}) is not a DeepSpeed config</source>
        <translation>{file}（由 {key} 指定）不是 DeepSpeed 配置</translation>
    </message>
    <message>
        <source>{keys}: a train batch of {total} does not split over {dp} data-parallel ranks × {steps} accumulation steps</source>
        <translation>{keys}：训练批次 {total} 不能均分到 {dp} 个数据并行进程 × {steps} 个梯度累积步数</translation>
    </message>
    <message>
        <source>the training config&apos;s {key} names {name}: no preset or local model folder of that name</source>
        <translation>训练配置的 {key} 指定了 {name}：没有同名的预设或本地模型文件夹</translation>
    </message>
    <message>
        <source>holds {kind}, not a mapping of settings</source>
        <translation>内容是 {kind}，而不是设置的映射</translation>
    </message>
    <message>
        <source>not valid YAML at line {line}, column {column}: {problem}</source>
        <translation>第 {line} 行第 {column} 列不是有效的 YAML：{problem}</translation>
    </message>
    <message>
        <source>its YAML aliases expand to more than {limit} elements</source>
        <translation>其 YAML 别名展开后超过 {limit} 个元素</translation>
    </message>
    <message>
        <source>line {line}: the tag {tag} is not plain YAML data (only mappings, lists, text and numbers are read)</source>
        <translation>第 {line} 行：标签 {tag} 不是普通 YAML 数据（只读取映射、列表、文本和数字）</translation>
    </message>
    <message>
        <source>the torchrun line cannot be split as a shell would: {problem}</source>
        <translation>无法像 shell 那样拆分 torchrun 命令行：{problem}</translation>
    </message>
    <message>
        <source>holds more than one YAML document</source>
        <translation>包含不止一个 YAML 文档</translation>
    </message>
    <message>
        <source>line {line}: a key that is not text or a number</source>
        <translation>第 {line} 行：键既不是文本也不是数字</translation>
    </message>
    <message>
        <source>cannot read the file: {reason}</source>
        <translation>无法读取文件：{reason}</translation>
    </message>
    <message>
        <source>not valid JSON: {detail} at line {line}, column {column}</source>
        <translation>不是有效的 JSON：第 {line} 行第 {column} 列：{detail}</translation>
    </message>
    <message>
        <source>{name} is not allowed (numbers must be finite)</source>
        <translation>不允许使用 {name}（数字必须是有限值）</translation>
    </message>
    <message>
        <source>the field {key} appears twice</source>
        <translation>字段 {key} 出现了两次</translation>
    </message>
    <message>
        <source>is nested more than {depth} levels deep</source>
        <translation>嵌套超过 {depth} 层</translation>
    </message>
    <message>
        <source>is nested too deeply</source>
        <translation>嵌套层数过深</translation>
    </message>
    <message>
        <source>holds more than {limit} elements</source>
        <translation>包含超过 {limit} 个元素</translation>
    </message>
    <message>
        <source>a value cannot be read: {detail}</source>
        <translation>无法读取某个值：{detail}</translation>
    </message>
    <message>
        <source>not UTF-8 text</source>
        <translation>不是 UTF-8 文本</translation>
    </message>
    <message>
        <source>{size} characters, more than the {limit} bytes read at most</source>
        <translation>{size} 个字符，超过最多读取的 {limit} 字节</translation>
    </message>
    <message>
        <source>{size} bytes, more than the {limit} bytes read at most</source>
        <translation>{size} 字节，超过最多读取的 {limit} 字节</translation>
    </message>
    <message>
        <source>the number {text}</source>
        <translation>数字 {text}</translation>
    </message>
    <message>
        <source>the string {text}</source>
        <translation>字符串 {text}</translation>
    </message>
    <message>
        <source>a string</source>
        <translation>字符串</translation>
    </message>
    <message>
        <source>a list</source>
        <translation>列表</translation>
    </message>
    <message>
        <source>an object</source>
        <translation>对象</translation>
    </message>
    <message>
        <source>{problem} (model_type {model_type})</source>
        <translation>{problem}（model_type {model_type}）</translation>
    </message>
    <message>
        <source>must be a whole number, got {value}</source>
        <translation>应为整数，而不是 {value}</translation>
    </message>
    <message>
        <source>must be true or false, got {value}</source>
        <translation>应为 true 或 false，而不是 {value}</translation>
    </message>
    <message>
        <source>is missing from config.json</source>
        <translation>在 config.json 中缺失</translation>
    </message>
    <message>
        <source>non-empty lists are not supported by vramgui&apos;s counter</source>
        <translation>vramgui 的参数计数不支持非空列表</translation>
    </message>
    <message>
        <source>is {value} but {other}, another name of the same setting, is {other_value}</source>
        <translation>为 {value}，但同一设置的另一名称 {other} 为 {other_value}</translation>
    </message>
    <message>
        <source>{value} builds modules vramgui&apos;s counter does not model</source>
        <translation>{value} 会构建 vramgui 参数计数未建模的模块</translation>
    </message>
    <message>
        <source>config.json must hold a JSON object</source>
        <translation>config.json 必须包含一个 JSON 对象</translation>
    </message>
    <message>
        <source>{path} must hold a JSON object, not {kind}</source>
        <translation>{path} 必须包含一个 JSON 对象，而不是 {kind}</translation>
    </message>
    <message>
        <source>missing or not a string: this does not look like a Hugging Face config.json</source>
        <translation>缺失或不是字符串：这看起来不像 Hugging Face 的 config.json</translation>
    </message>
    <message>
        <source>{model_type} is not supported</source>
        <translation>不支持 {model_type}</translation>
    </message>
    <message>
        <source>{model_type} is not supported (it needs trust_remote_code; vramgui never runs model code)</source>
        <translation>不支持 {model_type}（它需要 trust_remote_code；vramgui 从不运行模型代码）</translation>
    </message>
    <message>
        <source>read model_type {found} as {used}</source>
        <translation>已将 model_type {found} 按 {used} 读取</translation>
    </message>
    <message>
        <source>read model_type {found} as {used} (language model only)</source>
        <translation>已将 model_type {found} 按 {used} 读取（仅语言模型部分）</translation>
    </message>
    <message>
        <source>{file}: {problem}</source>
        <translation>{file}：{problem}</translation>
    </message>
    <message>
        <source>is truncated: {size} bytes, shorter than the 8-byte header length</source>
        <translation>文件被截断：只有 {size} 字节，短于 8 字节的头部长度字段</translation>
    </message>
    <message>
        <source>declares a {size}-byte header; more than the {cap} bytes read at most</source>
        <translation>声明了 {size} 字节的头部，超过最多读取的 {cap} 字节</translation>
    </message>
    <message>
        <source>is truncated: its header needs {need} bytes, the file has {size}</source>
        <translation>文件被截断：头部需要 {need} 字节，文件只有 {size} 字节</translation>
    </message>
    <message>
        <source>cannot be read: {reason}</source>
        <translation>无法读取：{reason}</translation>
    </message>
    <message>
        <source>is truncated inside its header</source>
        <translation>文件在头部内被截断</translation>
    </message>
    <message>
        <source>header is not a JSON object</source>
        <translation>头部不是 JSON 对象</translation>
    </message>
    <message>
        <source>entry {name} is not an object</source>
        <translation>条目 {name} 不是对象</translation>
    </message>
    <message>
        <source>tensor {name} has no dtype</source>
        <translation>张量 {name} 没有 dtype</translation>
    </message>
    <message>
        <source>tensor {name} has an invalid shape</source>
        <translation>张量 {name} 的形状无效</translation>
    </message>
    <message>
        <source>tensor {name} has invalid data_offsets</source>
        <translation>张量 {name} 的 data_offsets 无效</translation>
    </message>
    <message>
        <source>is truncated: tensor {name} ends at byte {end} of a {size}-byte data buffer</source>
        <translation>文件被截断：张量 {name} 结束于第 {end} 字节，而数据区只有 {size} 字节</translation>
    </message>
    <message>
        <source>tensor {name} has unknown dtype {dtype} (known: {known})</source>
        <translation>张量 {name} 的 dtype {dtype} 未知（已知：{known}）</translation>
    </message>
    <message>
        <source>tensor {name}: {dtype} {shape} needs {need} bytes, its offsets span {span}</source>
        <translation>张量 {name}：{dtype} {shape} 需要 {need} 字节，但其偏移范围为 {span} 字节</translation>
    </message>
    <message>
        <source>{index}: shard name {name} is not a file in the model folder</source>
        <translation>{index}：分片名 {name} 不是模型文件夹中的文件</translation>
    </message>
    <message>
        <source>{index} names {count} shards (at most {limit})</source>
        <translation>{index} 列出了 {count} 个分片（最多 {limit} 个）</translation>
    </message>
    <message>
        <source>more than {limit} safetensors files in {folder}</source>
        <translation>{folder} 中的 safetensors 文件超过 {limit} 个</translation>
    </message>
    <message>
        <source>the safetensors headers in {folder} exceed {limit} bytes together</source>
        <translation>{folder} 中 safetensors 头部的总大小超过 {limit} 字节</translation>
    </message>
    <message>
        <source>{index} has no weight_map object</source>
        <translation>{index} 没有 weight_map 对象</translation>
    </message>
    <message>
        <source>{index} maps {count} tensors (at most {limit})</source>
        <translation>{index} 映射了 {count} 个张量（最多 {limit} 个）</translation>
    </message>
    <message>
        <source>{missing}, and {index} has no usable metadata.total_size</source>
        <translation>{missing}，且 {index} 没有可用的 metadata.total_size</translation>
    </message>
    <message>
        <source>{missing}; total_size is {size} bytes but config.json names no dtype to turn bytes into parameters</source>
        <translation>{missing}；total_size 为 {size} 字节，但 config.json 未给出 dtype，无法将字节数换算为参数量</translation>
    </message>
    <message>
        <source>quantized checkpoint: packed integer weights hold several parameters per element</source>
        <translation>量化检查点：打包的整数权重每个元素包含多个参数</translation>
    </message>
    <message>
        <source>estimated: tensors stored in another dtype or buffers make this approximate</source>
        <translation>估算值：以其他 dtype 存储的张量或缓冲区会使结果不精确</translation>
    </message>
    <message>
        <source>{low} to {high}</source>
        <translation>{low} 到 {high}</translation>
    </message>
    <message>
        <source>0 &lt;= value &lt; 1</source>
        <translation>0 到 1（不含 1）</translation>
    </message>
    <message>
        <source>{choices}</source>
        <translation>{choices}</translation>
    </message>
    <message>
        <source>a multiple of tp × pp: {nearest}</source>
        <translation>TP × PP 的倍数：{nearest}</translation>
    </message>
    <message>
        <source>a multiple of {step}, nearest: {nearest}</source>
        <translation>{step} 的倍数，最接近的：{nearest}</translation>
    </message>
    <message>
        <source>none</source>
        <translation>无</translation>
    </message>
    <message>
        <source>none below stage 3</source>
        <translation>阶段 3 以下为无</translation>
    </message>
    <message>
        <source>none at stage 0</source>
        <translation>阶段 0 时为无</translation>
    </message>
    <message>
        <source>none unless offload.optimizer is cpu</source>
        <translation>除非卸载优化器（offload.optimizer 为 cpu），否则为无</translation>
    </message>
    <message>
        <source>a number with B, KB, MB, GB, TB, KiB, MiB, GiB or TiB</source>
        <translation>带 B、KB、MB、GB、TB、KiB、MiB、GiB 或 TiB 的数字</translation>
    </message>
    <message>
        <source>B, KB, MB, GB, TB, KiB, MiB, GiB, TiB</source>
        <translation>B、KB、MB、GB、TB、KiB、MiB、GiB、TiB</translation>
    </message>
    <message>
        <source>a number with optional K, M, B (or G), T</source>
        <translation>可带 K、M、B（或 G）、T 后缀的数字</translation>
    </message>
    <message>
        <source>K, M, B (or G), T</source>
        <translation>K、M、B（或 G）、T</translation>
    </message>
    <message>
        <source>&gt;= 0</source>
        <translation>&gt;= 0</translation>
    </message>
    <message>
        <source>a parameter count such as 7B</source>
        <translation>参数量，例如 7B</translation>
    </message>
    <message>
        <source>true or false</source>
        <translation>true 或 false</translation>
    </message>
    <message>
        <source>a number with B/s, KB/s, MB/s, GB/s, TB/s (bytes), Kb/s, Mb/s, Gb/s, Tb/s (bits) or GiB/s</source>
        <translation>数字加 B/s、KB/s、MB/s、GB/s、TB/s（字节）、Kb/s、Mb/s、Gb/s、Tb/s（比特）或 GiB/s</translation>
    </message>
    <message>
        <source>give --preset NAME, --config PATH or --params COUNT</source>
        <translation>请给出 --preset NAME、--config PATH 或 --params COUNT</translation>
    </message>
    <message>
        <source>a DeepSpeed JSON, an accelerate, axolotl, LLaMA-Factory or torchtune YAML, or a TrainingArguments JSON (trainer.args.to_json_string())</source>
        <translation>DeepSpeed JSON，accelerate、axolotl、LLaMA-Factory 或 torchtune YAML，或 TrainingArguments JSON（trainer.args.to_json_string()）</translation>
    </message>
    <message>
        <source>a GPU preset or its peak TFLOP/s</source>
        <translation>GPU 预设或其峰值 TFLOP/s</translation>
    </message>
    <message>
        <source>a token count such as 300B</source>
        <translation>词元数，如 300B</translation>
    </message>
    <message>
        <source>a price such as 2.5</source>
        <translation>价格，如 2.5</translation>
    </message>
    <message>
        <source>The megatron convention ignores the ZeRO stage: the distributed optimizer decides the sharding</source>
        <translation>Megatron 口径忽略 ZeRO 阶段：由分布式优化器决定如何切分</translation>
    </message>
    <message>
        <source>Used by the megatron convention only</source>
        <translation>仅 Megatron 口径使用</translation>
    </message>
    <message>
        <source>A vLLM setting: the chosen engine does not read it</source>
        <translation>vLLM 的设置：所选引擎不读取它</translation>
    </message>
    <message>
        <source>A llama.cpp setting: the chosen engine does not read it</source>
        <translation>llama.cpp 的设置：所选引擎不读取它</translation>
    </message>
    <message>
        <source>Not read while the KV cache memory is given (vLLM does not profile then)</source>
        <translation>已给定 KV 缓存显存时不读取（此时 vLLM 不做性能分析）</translation>
    </message>
    <message>
        <source>vLLM takes its GPU memory utilization share instead of a reserve</source>
        <translation>vLLM 按其 GPU 显存利用率占用显存，而不是预留比例</translation>
    </message>
    <message>
        <source>A training input: Serve mode does not read it (untick Serve mode to plan training)</source>
        <translation>训练输入：推理部署模式不读取它（取消勾选推理部署模式即可规划训练）</translation>
    </message>
    <message>
        <source>Used by the deepspeed convention only (host memory per node)</source>
        <translation>仅 DeepSpeed 口径使用（每节点主机内存）</translation>
    </message>
    <message>
        <source>DeepSpeed&apos;s estimator assumes 16-bit mixed precision with Adam: not used by this convention</source>
        <translation>DeepSpeed 的估算器假定使用 16 位混合精度和 Adam：此口径不使用该项</translation>
    </message>
    <message>
        <source>The megatron convention always keeps fp32 main parameters for 16-bit training</source>
        <translation>Megatron 口径在 16 位训练中始终保留 fp32 主参数</translation>
    </message>
    <message>
        <source>The megatron convention models no CPU offload</source>
        <translation>Megatron 口径不包含 CPU 卸载</translation>
    </message>
    <message>
        <source>Applies at ZeRO stage 3 only</source>
        <translation>仅在 ZeRO 阶段 3 时生效</translation>
    </message>
    <message>
        <source>DeepSpeed&apos;s ZeRO-3 term: used by the deepspeed convention at stage 3</source>
        <translation>DeepSpeed 的 ZeRO-3 项：仅 DeepSpeed 口径在阶段 3 时使用</translation>
    </message>
    <message>
        <source>Sequence parallelism needs tensor parallelism (TP &gt; 1)</source>
        <translation>序列并行需要张量并行（TP &gt; 1）</translation>
    </message>
    <message>
        <source>unknown dtype {value}</source>
        <translation>未知数据类型 {value}</translation>
    </message>
    <message>
        <source>unknown optimizer {value}</source>
        <translation>未知优化器 {value}</translation>
    </message>
    <message>
        <source>unknown stage {value}</source>
        <translation>未知阶段 {value}</translation>
    </message>
    <message>
        <source>unknown preset {name}</source>
        <translation>未知预设 {name}</translation>
    </message>
    <message>
        <source>must be a positive integer, got {value}</source>
        <translation>应为正整数，而不是 {value}</translation>
    </message>
    <message>
        <source>{value} is not a positive number</source>
        <translation>{value} 不是正数</translation>
    </message>
    <message>
        <source>{value} is not a whole number of GPUs</source>
        <translation>{value} 不是整数张 GPU</translation>
    </message>
    <message>
        <source>sequence parallelism splits the sequence over tp={tp}</source>
        <translation>序列并行会把序列切分到 TP = {tp} 份</translation>
    </message>
    <message>
        <source>{per_token} experts per token with {experts} experts</source>
        <translation>每个 token {per_token} 个专家，但共 {experts} 个专家</translation>
    </message>
    <message>
        <source>{global_batch} is not a multiple of micro_batch × GPUs = {micro} × {gpus} = {step}</source>
        <translation>{global_batch} 不是 微批次 × GPU 数 = {micro} × {gpus} = {step} 的倍数</translation>
    </message>
    <message>
        <source>a GPU memory size is needed to solve for what fits</source>
        <translation>需要显存大小才能求解能装下的配置</translation>
    </message>
    <message>
        <source>the micro-batch only changes activations, which need an architecture</source>
        <translation>微批次只影响激活值，而激活值需要模型结构</translation>
    </message>
    <message>
        <source>the sequence length only changes activations, which need an architecture</source>
        <translation>序列长度只影响激活值，而激活值需要模型结构</translation>
    </message>
    <message>
        <source>&gt;= 1</source>
        <translation>&gt;= 1</translation>
    </message>
    <message>
        <source>&gt; 0</source>
        <translation>&gt; 0</translation>
    </message>
    <message>
        <source>{low}..{high}</source>
        <translation>{low} 到 {high}</translation>
    </message>
    <message>
        <source>a divisor of {n}</source>
        <translation>{n} 的约数</translation>
    </message>
    <message>
        <source>a multiple of {n}</source>
        <translation>{n} 的倍数</translation>
    </message>
    <message>
        <source>tp × pp = {group} to {high}</source>
        <translation>TP × PP = {group} 到 {high}</translation>
    </message>
    <message>
        <source>a multiple of {step}; nearest valid global batches: {nearest}</source>
        <translation>{step} 的倍数；最接近的有效全局批次：{nearest}</translation>
    </message>
    <message>
        <source>{first} or {second}</source>
        <translation>{first} 或 {second}</translation>
    </message>
    <message>
        <source>&apos;ddp&apos; or 0, 1, 2, 3</source>
        <translation>&apos;ddp&apos; 或 0、1、2、3</translation>
    </message>
    <message>
        <source>0 &lt;= overhead_ratio &lt; 1</source>
        <translation>0 &lt;= overhead_ratio &lt; 1</translation>
    </message>
    <message>
        <source>a size such as 80GB or 80GiB, or a GPU preset</source>
        <translation>大小（例如 80GB 或 80GiB），或 GPU 预设</translation>
    </message>
    <message>
        <source>a preset or a config.json</source>
        <translation>预设或 config.json</translation>
    </message>
    <message>
        <source>close matches: {names}</source>
        <translation>相近的名称：{names}</translation>
    </message>
    <message>
        <source>known: {names}, ...</source>
        <translation>已知：{names} 等</translation>
    </message>
    <message>
        <source>not set in config.json, read as the transformers configuration class&apos;s defaults: {pairs}</source>
        <translation>config.json 未设置，按 transformers 配置类的默认值读取：{pairs}</translation>
    </message>
    <message>
        <source>PyTorch&apos;s 4-byte step counter per parameter tensor is not counted: no architecture known</source>
        <translation>未计入 PyTorch 每个参数张量 4 字节的步数计数器：模型结构未知</translation>
    </message>
    <message>
        <source>DeepSpeed&apos;s estimator assumes 16-bit mixed precision with Adam; dtype, recipe and optimizer are not used under this convention</source>
        <translation>DeepSpeed 的估算器假定使用 16 位混合精度和 Adam；在此口径下不使用数据类型、精度方案和优化器的设置</translation>
    </message>
    <message>
        <source>DeepSpeed publishes no stage-0 estimator: its stage-1/2 bytes, nothing partitioned</source>
        <translation>DeepSpeed 没有阶段 0 的估算器：采用其阶段 1/2 的字节数，不做切分</translation>
    </message>
    <message>
        <source>DeepSpeed&apos;s stage_1_and_2 estimator serves stages 1 and 2 alike</source>
        <translation>DeepSpeed 的 stage_1_and_2 估算器对阶段 1 和阶段 2 给出相同结果</translation>
    </message>
    <message>
        <source>largest layer unknown (no architecture and no --largest-layer): DeepSpeed&apos;s 4 × largest-layer term counted as 0</source>
        <translation>最大层未知（没有模型结构，也没有 --largest-layer）：DeepSpeed 的 4 × 最大层 一项按 0 计</translation>
    </message>
    <message>
        <source>Megatron&apos;s table is for Adam; {optimizer} states taken as {bytes} bytes per parameter</source>
        <translation>Megatron 的表格针对 Adam；{optimizer} 的状态按每个参数 {bytes} 字节计</translation>
    </message>
    <message>
        <source>the megatron convention always keeps fp32 main parameters for 16-bit training; recipe ignored</source>
        <translation>Megatron 口径在 16 位训练中始终保留 fp32 主参数；忽略精度方案</translation>
    </message>
    <message>
        <source>most loaded pipeline stage is the first stage: embedding + ⌈L/pp⌉ layers ({params} parameters before /tp)</source>
        <translation>负载最重的流水线阶段是第一个：嵌入层 + ⌈L/pp⌉ 层（除以 tp 前 {params} 个参数）</translation>
    </message>
    <message>
        <source>most loaded pipeline stage is the last stage: ⌊L/pp⌋ layers + final norm + output layer ({params} parameters before /tp)</source>
        <translation>负载最重的流水线阶段是最后一个：⌊L/pp⌋ 层 + 最终归一化层 + 输出层（除以 tp 前 {params} 个参数）</translation>
    </message>
    <message>
        <source>activations not estimated: {reason}</source>
        <translation>未估算激活值：{reason}</translation>
    </message>
    <message>
        <source>parameters are offloaded: the GPU still gathers each layer&apos;s parameters while it runs; set the ZeRO-3 live parameters (--live-params, DeepSpeed&apos;s stage3_max_live_parameters, default 1e9) to count them under Other</source>
        <translation>参数已卸载：GPU 在运行每一层时仍需收集该层的参数；设置 ZeRO-3 驻留参数（--live-params，即 DeepSpeed 的 stage3_max_live_parameters，默认 1e9）可将其计入“其他”</translation>
    </message>
    <message>
        <source>{flag} {value} is ignored: it is what is solved for</source>
        <translation>{flag} {value} 被忽略：它正是要求解的量</translation>
    </message>
    <message>
        <source>--offload-optimizer/--offload-params are ignored: every strategy is tried</source>
        <translation>--offload-optimizer/--offload-params 被忽略：会尝试每一种策略</translation>
    </message>
    <message>
        <source>not written ({tool} has no setting for it; the training script decides): {flags}</source>
        <translation>未写入（{tool} 没有对应的设置，由训练脚本决定）：{flags}</translation>
    </message>
    <message>
        <source>the global batch is not held fixed while solving (it is dropped, as it need not divide)</source>
        <translation>求解时不固定全局批次（它不一定能整除，因此不予考虑）</translation>
    </message>
    <message>
        <source>no architecture known</source>
        <translation>模型结构未知</translation>
    </message>
    <message>
        <source>not estimable: {reason}</source>
        <translation>无法估算：{reason}</translation>
    </message>
    <message>
        <source>n/a</source>
        <translation>不适用</translation>
    </message>
    <message>
        <source>0 (offloaded)</source>
        <translation>0（已卸载）</translation>
    </message>
    <message>
        <source>0: parameter partition offloaded to CPU memory</source>
        <translation>0：参数分片已卸载到主机内存</translation>
    </message>
    <message>
        <source>0: gradient partition offloaded to CPU memory</source>
        <translation>0：梯度分片已卸载到主机内存</translation>
    </message>
    <message>
        <source>0: optimizer states (with master weights) offloaded to CPU memory</source>
        <translation>0：优化器状态（含主权重）已卸载到主机内存</translation>
    </message>
    <message>
        <source>0: fp32 master weights offloaded to CPU memory</source>
        <translation>0：FP32 主权重已卸载到主机内存</translation>
    </message>
    <message>
        <source>0: no master copy</source>
        <translation>0：无主权重副本</translation>
    </message>
    <message>
        <source>0: gradients go to the host</source>
        <translation>0：梯度放在主机内存</translation>
    </message>
    <message>
        <source>0: optimizer states on the host</source>
        <translation>0：优化器状态在主机内存</translation>
    </message>
    <message>
        <source>0: fp32 master weights on the host</source>
        <translation>0：FP32 主权重在主机内存</translation>
    </message>
    <message>
        <source>0: gradient partition on the host</source>
        <translation>0：梯度分片在主机内存</translation>
    </message>
    <message>
        <source>0: parameter partition on the host</source>
        <translation>0：参数分片在主机内存</translation>
    </message>
    <message>
        <source>params</source>
        <translation>参数</translation>
    </message>
    <message>
        <source>gradients</source>
        <translation>梯度</translation>
    </message>
    <message>
        <source>0 (no fixed terms given)</source>
        <translation>0（未指定固定项）</translation>
    </message>
    <message numerus="yes">
        <source>%n layer(s) × {quantity}</source>
        <translation>
            <numerusform>%n 层 × {quantity}</numerusform>
        </translation>
    </message>
    <message>
        <source>{value} outside the layers (embedding, logits, loss)</source>
        <translation>层外 {value}（嵌入、logits、损失）</translation>
    </message>
    <message>
        <source>{terms} (largest layer kind; layers differ) → {total} in all</source>
        <translation>{terms}（按最大的层类型；各层不同）→ 共 {total}</translation>
    </message>
    <message>
        <source>{core} per layer (Korthikanti et al. 2022) × {held} + embedding/output terms</source>
        <translation>每层 {core}（Korthikanti 等，2022）× {held} + 嵌入/输出项</translation>
    </message>
    <message>
        <source>Σ saved tensors per layer × {held} + embedding/output terms (per-tensor, see terms)</source>
        <translation>每层保存张量之和 Σ × {held} + 嵌入/输出项（逐张量，见各项）</translation>
    </message>
    <message>
        <source>({terms}) × GPUs per node</source>
        <translation>({terms}) × 每节点 GPU 数</translation>
    </message>
    <message>
        <source>Φ · max(4·total_gpus, 16) · 1.5</source>
        <translation>Φ · max(4·GPU 总数, 16) · 1.5</translation>
    </message>
    <message>
        <source>Φ · 4 · GPUs per node · 1.5 (model initialised in fp32 on the host)</source>
        <translation>Φ · 4 · 每节点 GPU 数 · 1.5（模型在主机上以 fp32 初始化）</translation>
    </message>
    <message>
        <source>Φ · {k} / nodes · 1.5</source>
        <translation>Φ · {k} / 节点数 · 1.5</translation>
    </message>
    <message>
        <source>Φ · max(4·GPUs per node, {k} / nodes) · 1.5</source>
        <translation>Φ · max(4·每节点 GPU 数, {k} / 节点数) · 1.5</translation>
    </message>
    <message>
        <source>L_largest · 4 · GPUs per node · 1.5</source>
        <translation>L_largest · 4 · 每节点 GPU 数 · 1.5</translation>
    </message>
    <message>
        <source>Φ · 4 · GPUs per node · 1.5</source>
        <translation>Φ · 4 · 每节点 GPU 数 · 1.5</translation>
    </message>
    <message>
        <source>DDP</source>
        <translation>DDP</translation>
    </message>
    <message>
        <source>ZeRO-{stage}</source>
        <translation>ZeRO-{stage}</translation>
    </message>
    <message>
        <source>{base} + CPU optimizer offload</source>
        <translation>{base} + 优化器 CPU 卸载</translation>
    </message>
    <message>
        <source>{base} + CPU optimizer and parameter offload</source>
        <translation>{base} + 优化器和参数 CPU 卸载</translation>
    </message>
    <message>
        <source>{base} + CPU parameter offload</source>
        <translation>{base} + 参数 CPU 卸载</translation>
    </message>
    <message>
        <source>{base}
+ offload (opt.)</source>
        <translation>{base}
+ 卸载（优化器）</translation>
    </message>
    <message>
        <source>{base}
+ offload (all)</source>
        <translation>{base}
+ 卸载（全部）</translation>
    </message>
    <message>
        <source>{base}
+ offload (params)</source>
        <translation>{base}
+ 卸载（参数）</translation>
    </message>
    <message>
        <source>Megatron distributed optimizer</source>
        <translation>Megatron 分布式优化器</translation>
    </message>
    <message>
        <source>Megatron (no distributed optimizer)</source>
        <translation>Megatron（无分布式优化器）</translation>
    </message>
    <message>
        <source>Megatron
distributed optimizer</source>
        <translation>Megatron
分布式优化器</translation>
    </message>
    <message>
        <source>Megatron
no distributed optimizer</source>
        <translation>Megatron
无分布式优化器</translation>
    </message>
    <message>
        <source>Parameters</source>
        <translation>参数</translation>
    </message>
    <message>
        <source>Gradients</source>
        <translation>梯度</translation>
    </message>
    <message>
        <source>Optimizer states</source>
        <translation>优化器状态</translation>
    </message>
    <message>
        <source>Master weights (fp32, part of optimizer states)</source>
        <translation>主权重（FP32，属于优化器状态）</translation>
    </message>
    <message>
        <source>Activations</source>
        <translation>激活值</translation>
    </message>
    <message>
        <source>Other (fixed terms)</source>
        <translation>其他（固定项）</translation>
    </message>
    <message>
        <source>{value} is not attention, all-linear or a comma list of module names</source>
        <translation>{value} 不是 attention、all-linear 或以逗号分隔的模块名列表</translation>
    </message>
    <message>
        <source>this model has no Linear layer named {name}</source>
        <translation>此模型没有名为 {name} 的 Linear 层</translation>
    </message>
    <message>
        <source>the LoRA targets match no Linear layer of this model</source>
        <translation>LoRA 目标未匹配此模型的任何 Linear 层</translation>
    </message>
    <message>
        <source>LoRA and QLoRA count their adapters from the architecture: choose a preset or a config.json</source>
        <translation>LoRA 和 QLoRA 按模型结构计算适配器：请选择预设或 config.json</translation>
    </message>
    <message>
        <source>attention, all-linear, or names among: {names}</source>
        <translation>attention、all-linear，或以下名称：{names}</translation>
    </message>
    <message>
        <source>attention, all-linear, or module names separated by commas (q_proj,v_proj)</source>
        <translation>attention、all-linear，或以逗号分隔的模块名（q_proj,v_proj）</translation>
    </message>
    <message>
        <source>{value} frozen base ({storage})</source>
        <translation>{value} 冻结的基座（{storage}）</translation>
    </message>
    <message>
        <source>{adapters} + frozen base ({storage})/N_d</source>
        <translation>{adapters} + 冻结的基座（{storage}）/N_d</translation>
    </message>
    <message>
        <source>{value} one quantised weight dequantised to the compute dtype</source>
        <translation>{value} 一个量化权重反量化为计算数据类型</translation>
    </message>
    <message>
        <source>Only for LoRA and QLoRA fine-tuning</source>
        <translation>仅用于 LoRA 和 QLoRA 微调</translation>
    </message>
    <message>
        <source>QLoRA keeps its base in NF4</source>
        <translation>QLoRA 的基座固定为 NF4</translation>
    </message>
    <message>
        <source>Only for a 4-bit (NF4) base</source>
        <translation>仅用于 4 位（NF4）基座</translation>
    </message>
    <message>
        <source>fine-tuning: the {convention} convention publishes no LoRA figures; the adapters&apos; states are counted as the ZeRO paper counts parameters</source>
        <translation>微调：{convention} 约定没有公布 LoRA 数据；适配器的状态按 ZeRO 论文计算参数的方式计入</translation>
    </message>
    <message>
        <source>the adapters and the frozen base are scaled from the architecture to the parameter count given</source>
        <translation>适配器和冻结的基座按给定参数量从模型结构等比例换算</translation>
    </message>
    <message>
        <source>the modules bitsandbytes leaves unquantised (embeddings, LM head, norms, routers) are counted in the model&apos;s dtype; peft&apos;s prepare_model_for_kbit_training casts them to fp32 (not counted)</source>
        <translation>bitsandbytes 不量化的模块（嵌入、LM 头、归一化、路由器）按模型的数据类型计入；peft 的 prepare_model_for_kbit_training 会把它们转为 fp32（未计入）</translation>
    </message>
    <message>
        <source>routed experts (transformers 5&apos;s fused 3-D parameters) are no nn.Linear: bitsandbytes leaves them in the model&apos;s dtype and LoRA gives them no adapter</source>
        <translation>路由专家（transformers 5 的融合三维参数）不是 nn.Linear：bitsandbytes 保留其原数据类型，LoRA 也不为其添加适配器</translation>
    </message>
    <message>
        <source>8-bit optimizer states of the adapters are counted on the GPU; bitsandbytes&apos; paged optimizers can page them to host memory under pressure (not modelled)</source>
        <translation>适配器的 8 位优化器状态计入 GPU；bitsandbytes 的分页优化器在显存紧张时可将其换出到主机（CPU）一侧（未建模）</translation>
    </message>
    <message>
        <source>LoRA activations are measured for Llama-style blocks; for this block style the frozen layers are counted as in full training (an upper bound)</source>
        <translation>LoRA 激活值是针对 Llama 式块测得的；对此块结构，冻结层按全量训练计入（上限）</translation>
    </message>
    <message>
        <source>{index} names {first} and {second}, which are the same file: a checkpoint keeps each shard in a file of its own</source>
        <translation>{index} 中的 {first} 和 {second} 是同一个文件：检查点的每个分片应各自为一个文件</translation>
    </message>
    <message>
        <source>the safetensors headers in {folder} hold more than {limit} JSON elements in all, more than vramgui reads</source>
        <translation>{folder} 中 safetensors 头部的 JSON 元素总数超过 {limit}，超出 vramgui 的读取上限</translation>
    </message>
    <message>
        <source>ZeRO-3 needs more model-state memory per GPU here than ZeRO-2 ({stage3} vs {stage2} bytes): DeepSpeed&apos;s fixed term for the gathered largest layer (4 × {layer} parameters) is more than what sharding the 16-bit parameters saves</source>
        <translation>此处 ZeRO-3 每 GPU 所需的模型状态显存多于 ZeRO-2（{stage3} 对 {stage2} 字节）：DeepSpeed 为聚合最大层设的固定项（4 × {layer} 个参数）大于分片 16 位参数所节省的量</translation>
    </message>
    <message>
        <source>end of forward</source>
        <translation>前向结束</translation>
    </message>
    <message>
        <source>start of backward (loss gradient)</source>
        <translation>反向开始（损失梯度）</translation>
    </message>
    <message>
        <source>end of backward</source>
        <translation>反向结束</translation>
    </message>
    <message>
        <source>end of forward, later micro-batch</source>
        <translation>前向结束（后续微批次）</translation>
    </message>
    <message>
        <source>start of backward, later micro-batch</source>
        <translation>反向开始（后续微批次）</translation>
    </message>
    <message>
        <source>optimizer step</source>
        <translation>优化器步骤</translation>
    </message>
    <message>
        <source>root all-gather, start of forward</source>
        <translation>根模块全收集，前向开始</translation>
    </message>
    <message>
        <source>tied-weight gradient sum, end of backward</source>
        <translation>绑定权重梯度求和，反向结束</translation>
    </message>
    <message>
        <source>root reduce-scatter, end of backward</source>
        <translation>根模块归约分散，反向结束</translation>
    </message>
    <message>
        <source>forward</source>
        <translation>前向</translation>
    </message>
    <message>
        <source>loss grad.</source>
        <translation>损失梯度</translation>
    </message>
    <message>
        <source>backward</source>
        <translation>反向</translation>
    </message>
    <message>
        <source>forward (accum.)</source>
        <translation>前向（累积）</translation>
    </message>
    <message>
        <source>loss grad. (accum.)</source>
        <translation>损失梯度（累积）</translation>
    </message>
    <message>
        <source>opt. step</source>
        <translation>优化器步骤</translation>
    </message>
    <message>
        <source>root gather</source>
        <translation>根收集</translation>
    </message>
    <message>
        <source>tied sum</source>
        <translation>绑定求和</translation>
    </message>
    <message>
        <source>root RS</source>
        <translation>根归约分散</translation>
    </message>
    <message>
        <source>first step</source>
        <translation>第一步</translation>
    </message>
    <message>
        <source>steady state</source>
        <translation>稳定状态</translation>
    </message>
    <message>
        <source>peak at the {phase}, {step}</source>
        <translation>峰值出现在{phase}，{step}</translation>
    </message>
    <message>
        <source>Loss gradient</source>
        <translation>损失梯度</translation>
    </message>
    <message>
        <source>Backward temporaries</source>
        <translation>反向临时张量</translation>
    </message>
    <message>
        <source>Optimizer-step temporaries</source>
        <translation>优化器步骤临时张量</translation>
    </message>
    <message>
        <source>Communication buckets</source>
        <translation>通信桶</translation>
    </message>
    <message>
        <source>ZeRO-3 gathered parameters</source>
        <translation>ZeRO-3 聚合的参数</translation>
    </message>
    <message>
        <source>FSDP2 root all-gather</source>
        <translation>FSDP2 根模块全收集</translation>
    </message>
    <message>
        <source>Tied-weight gradient sum</source>
        <translation>绑定权重梯度求和</translation>
    </message>
    <message>
        <source>FSDP2 root reduce-scatter</source>
        <translation>FSDP2 根模块归约分散</translation>
    </message>
    <message>
        <source>CUDA context and workspaces</source>
        <translation>CUDA 上下文与工作区</translation>
    </message>
    <message>
        <source>two fp32 (b·s, v) gradients beside the saved log-softmax (HF ForCausalLMLoss)</source>
        <translation>保存的 log-softmax 之外的两个 fp32 (b·s, v) 梯度（HF ForCausalLMLoss）</translation>
    </message>
    <message>
        <source>0: a chunked cross-entropy keeps no full logits</source>
        <translation>0：分块交叉熵不保留完整的 logits</translation>
    </message>
    <message>
        <source>0: the loss is on another pipeline stage</source>
        <translation>0：损失在另一个流水线阶段上</translation>
    </message>
    <message>
        <source>one layer replayed ({layer} bytes saved by one layer) with its largest gradient temporaries</source>
        <translation>重算一层（一层保存 {layer} 字节）及其最大的梯度临时张量</translation>
    </message>
    <message>
        <source>gradients flowing through the first layer</source>
        <translation>流经第一层的梯度</translation>
    </message>
    <message>
        <source>0: {why}</source>
        <translation>0：{why}</translation>
    </message>
    <message>
        <source>the root is gathered and reduce-scattered on its own only under FSDP2 (ZeRO-3, paper convention)</source>
        <translation>仅在 FSDP2（ZeRO-3，论文约定）下根模块才单独全收集与归约分散</translation>
    </message>
    <message>
        <source>a frozen base&apos;s root has no gradient; its gathered copy is in the working set</source>
        <translation>冻结基座的根模块没有梯度；其收集后的副本计入工作集</translation>
    </message>
    <message>
        <source>the embedding and the LM head sit on different pipeline stages (not modelled)</source>
        <translation>嵌入层与 LM 头位于不同的流水线阶段（未建模）</translation>
    </message>
    <message>
        <source>untied embeddings: the LM head has its own gradient</source>
        <translation>未绑定的嵌入：LM 头有自己的梯度</translation>
    </message>
    <message>
        <source>the root and the first layer unsharded, each beside its all-gather output, before any activation</source>
        <translation>在任何激活之前，根模块与第一层已取消分片，各自旁边还有其全收集输出</translation>
    </message>
    <message>
        <source>the root&apos;s gradients copied into the reduce-scatter input, and the embedding&apos;s gradient still referenced (gloo&apos;s own copy of the input is not counted: NCCL writes into the output)</source>
        <translation>根模块的梯度复制进归约分散的输入，嵌入层的梯度仍被引用（不计 gloo 自己对输入的拷贝：NCCL 直接写入输出）</translation>
    </message>
    <message>
        <source>the LM head&apos;s gradient and the embedding&apos;s, summed out of place into the tied weight&apos;s gradient (counted under gradients)</source>
        <translation>LM 头的梯度与嵌入层的梯度，非原地相加为绑定权重的梯度（计入梯度）</translation>
    </message>
    <message>
        <source>the LM head&apos;s gradient, the embedding&apos;s and their out-of-place sum (the tied weight&apos;s gradient is held apart: accumulated or sharded)</source>
        <translation>LM 头的梯度、嵌入层的梯度及二者的非原地之和（绑定权重的梯度另行保存：已累积或已分片）</translation>
    </message>
    <message>
        <source>with bucket views under no_sync the earlier micro-batches&apos; gradients live beside the buckets until the synced backward copies them in</source>
        <translation>使用桶视图时，在 no_sync 下较早微批次的梯度与桶并存，直到同步的反向传播将其复制进桶</translation>
    </message>
    <message>
        <source>a fused optimizer allocates no temporaries</source>
        <translation>融合优化器不分配临时张量</translation>
    </message>
    <message>
        <source>the optimizer&apos;s update needs no state-sized temporary (no state, or 8-bit blockwise kernels)</source>
        <translation>优化器更新不需要与状态同大小的临时张量（无状态，或 8 位分块内核）</translation>
    </message>
    <message>
        <source>the optimizer steps on the host</source>
        <translation>优化器在主机上执行步骤</translation>
    </message>
    <message>
        <source>no communication buckets on one GPU</source>
        <translation>单个 GPU 上没有通信桶</translation>
    </message>
    <message>
        <source>0: Megatron&apos;s gradient buffer is the gradients themselves</source>
        <translation>0：Megatron 的梯度缓冲区就是梯度本身</translation>
    </message>
    <message>
        <source>0: parameters are not sharded (ZeRO-3 only)</source>
        <translation>0：参数未分片（仅 ZeRO-3）</translation>
    </message>
    <message>
        <source>0: the layer size is unknown without an architecture or a largest layer</source>
        <translation>0：没有架构或最大层时层大小未知</translation>
    </message>
    <message>
        <source>default: 500 MiB CUDA context + 32 MiB cuBLAS workspace (set the CUDA context to change it)</source>
        <translation>默认：500 MiB CUDA 上下文 + 32 MiB cuBLAS 工作区（设置 CUDA 上下文可更改）</translation>
    </message>
    <message>
        <source>as given</source>
        <translation>按输入值</translation>
    </message>
    <message>
        <source>Only for DDP (ZeRO stage 0) outside the megatron convention</source>
        <translation>仅用于 megatron 约定之外的 DDP（ZeRO 阶段 0）</translation>
    </message>
    <message>
        <source>The optimizer steps on the host (optimizer offload): no temporaries on the GPU</source>
        <translation>优化器在主机上执行步骤（优化器卸载）：GPU 上没有临时张量</translation>
    </message>
    <message>
        <source>DeepSpeed and Megatron-LM step with their own fused Adam: no temporaries</source>
        <translation>DeepSpeed 和 Megatron-LM 使用各自的融合 Adam：没有临时张量</translation>
    </message>
    <message>
        <source>Only for ZeRO stages 1-3 outside the megatron convention</source>
        <translation>仅用于 megatron 约定之外的 ZeRO 阶段 1-3</translation>
    </message>
    <message>
        <source>DeepSpeed&apos;s knob: used under the deepspeed convention or with ZeRO-3 live parameters given</source>
        <translation>DeepSpeed 的参数：在 deepspeed 约定下或给出 ZeRO-3 活动参数时使用</translation>
    </message>
    <message>
        <source>the step peak leaves out activations and the loss gradient (no architecture)</source>
        <translation>训练步峰值未计入激活值和损失梯度（没有架构）</translation>
    </message>
    <message>
        <source>with pipeline stages the peak is computed on the stage that holds the most activations</source>
        <translation>有流水线阶段时，峰值按保存激活值最多的阶段计算</translation>
    </message>
    <message>
        <source>Ways to make it fit:</source>
        <translation>让它装得下的办法：</translation>
    </message>
    <message>
        <source>Little headroom; ways to keep at least {share} % of usable memory free:</source>
        <translation>余量很小；保留至少 {share} % 可用显存的办法：</translation>
    </message>
    <message>
        <source>{change}: peak {peak}, {free} free</source>
        <translation>{change}：峰值 {peak}，剩余 {free}</translation>
    </message>
    <message>
        <source>{change}: peak {peak}, {free} free, step {step}</source>
        <translation>{change}：峰值 {peak}，剩余 {free}，单步 {step}</translation>
    </message>
    <message>
        <source>{change}: peak {peak}, {free} free, step {step}, run cost {cost}</source>
        <translation>{change}：峰值 {peak}，剩余 {free}，单步 {step}，训练成本 {cost}</translation>
    </message>
    <message>
        <source>use {n} GPUs instead of {was}</source>
        <translation>使用 {n} 个 GPU，而不是 {was} 个</translation>
    </message>
    <message>
        <source>{strategy} on {n} GPUs instead of {was}</source>
        <translation>在 {n} 个 GPU 上使用 {strategy}，而不是 {was} 个</translation>
    </message>
    <message>
        <source>micro-batch {n} instead of {was}</source>
        <translation>微批次 {n}，而不是 {was}</translation>
    </message>
    <message>
        <source>micro-batch {n} instead of {was}, {steps} accumulation steps (same global batch)</source>
        <translation>微批次 {n}，而不是 {was}，梯度累积 {steps} 步（全局批次不变）</translation>
    </message>
    <message>
        <source>sequence length {n} instead of {was}</source>
        <translation>序列长度 {n}，而不是 {was}</translation>
    </message>
    <message>
        <source>{strategy} instead of {was}</source>
        <translation>{strategy}，而不是 {was}</translation>
    </message>
    <message>
        <source>selective activation recompute</source>
        <translation>选择性激活重计算</translation>
    </message>
    <message>
        <source>full activation recompute</source>
        <translation>完全激活重计算</translation>
    </message>
    <message>
        <source>a chunked cross-entropy loss (no full fp32 logits) instead of the HF loss</source>
        <translation>使用分块交叉熵损失（不生成完整的 fp32 logits），而不是 HF 损失</translation>
    </message>
    <message>
        <source>full activation recompute and {change}</source>
        <translation>完全激活重计算，并且{change}</translation>
    </message>
    <message>
        <source>tensor parallel {tp} on {n} GPUs instead of {was_tp} on {was}</source>
        <translation>在 {n} 个 GPU 上张量并行 {tp}，而不是在 {was} 个 GPU 上 {was_tp}</translation>
    </message>
    <message>
        <source>tensor parallel {tp} instead of {was_tp}</source>
        <translation>张量并行 {tp}，而不是 {was_tp}</translation>
    </message>
    <message>
        <source>{pp} pipeline stages on {n} GPUs instead of {was_pp} on {was}</source>
        <translation>在 {n} 个 GPU 上使用 {pp} 个流水线阶段，而不是在 {was} 个 GPU 上 {was_pp} 个</translation>
    </message>
    <message>
        <source>{pp} pipeline stages instead of {was_pp}</source>
        <translation>{pp} 个流水线阶段，而不是 {was_pp} 个</translation>
    </message>
    <message>
        <source>context parallel {cp} on {n} GPUs instead of {was_cp} on {was}</source>
        <translation>在 {n} 个 GPU 上上下文并行 {cp}，而不是在 {was} 个 GPU 上 {was_cp}</translation>
    </message>
    <message>
        <source>context parallel {cp} instead of {was_cp}</source>
        <translation>上下文并行 {cp}，而不是 {was_cp}</translation>
    </message>
    <message>
        <source>expert parallel {ep} on {n} GPUs instead of {was_ep} on {was}</source>
        <translation>在 {n} 个 GPU 上专家并行 {ep}，而不是在 {was} 个 GPU 上 {was_ep}</translation>
    </message>
    <message>
        <source>expert parallel {ep} instead of {was_ep}</source>
        <translation>专家并行 {ep}，而不是 {was_ep}</translation>
    </message>
    <message>
        <source>{change}, {steps} accumulation steps (the same {samples} samples per step)</source>
        <translation>{change}，{steps} 个梯度累积步（每步仍为 {samples} 个样本）</translation>
    </message>
    <message>
        <source>{change}, with {strategy} instead of {was}</source>
        <translation>{change}，并使用 {strategy} 而不是 {was}</translation>
    </message>
    <message>
        <source>LoRA fine-tuning (rank {rank}) instead of full training</source>
        <translation>LoRA 微调（秩 {rank}），而不是全量训练</translation>
    </message>
    <message>
        <source>QLoRA fine-tuning (4-bit base, rank {rank}) instead of full training</source>
        <translation>QLoRA 微调（4 位基座，秩 {rank}），而不是全量训练</translation>
    </message>
    <message>
        <source>No single change found that fits (tried GPUs, micro-batch, sequence, strategy, offload, recompute, TP, PP, CP, EP).</source>
        <translation>没有找到能装下的单项修改（已尝试 GPU 数量、微批次、序列长度、策略、卸载、重计算、TP、PP、CP、EP）。</translation>
    </message>
    <message numerus="yes">
        <source>%n GPU(s) do not divide into tp × cp × pp = {group}</source>
        <translation>
            <numerusform>%n 个 GPU 不能整除 tp × cp × pp = {group}</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n GPU(s) do not divide into etp × ep × pp = {group} (the experts&apos; grid)</source>
        <translation>
            <numerusform>%n 个 GPU 不能整除 etp × ep × pp = {group}（专家的网格）</numerusform>
        </translation>
    </message>
    <message>
        <source>a multiple of {group}, nearest: {nearest}</source>
        <translation>{group} 的倍数，最近的为：{nearest}</translation>
    </message>
    <message>
        <source>one of {sizes}</source>
        <translation>以下之一：{sizes}</translation>
    </message>
    <message>
        <source>expert parallelism needs a mixture-of-experts architecture (routed experts)</source>
        <translation>专家并行需要混合专家架构（路由专家）</translation>
    </message>
    <message>
        <source>{experts} routed experts do not split evenly over ep = {ep} ranks</source>
        <translation>{experts} 个路由专家不能均分到 ep = {ep} 个进程</translation>
    </message>
    <message>
        <source>context parallelism over {cp} ranks cuts each sequence into 2 × cp = {chunks} chunks (causal load balancing)</source>
        <translation>{cp} 个进程的上下文并行把每条序列切成 2 × cp = {chunks} 块（因果负载均衡）</translation>
    </message>
    <message>
        <source>context parallelism runs the attention as ring attention over flash kernels (TransformerEngine); eager attention is not modelled with it</source>
        <translation>上下文并行以基于 flash 内核的环形注意力运行（TransformerEngine）；未对其与 eager 注意力的组合建模</translation>
    </message>
    <message>
        <source>needs pipeline parallelism (pp &gt; 1)</source>
        <translation>需要流水线并行（pp &gt; 1）</translation>
    </message>
    <message>
        <source>first and last stages hold {layers} layers of the model&apos;s {total}</source>
        <translation>第一个和最后一个阶段共有 {layers} 层，而模型共 {total} 层</translation>
    </message>
    <message numerus="yes">
        <source>the %n layer(s) left for the {stages} other stages do not split evenly</source>
        <translation>
            <numerusform>留给其余 {stages} 个阶段的 %n 层不能均分</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n layer(s) left over, and no other pipeline stage takes them</source>
        <translation>
            <numerusform>剩下 %n 层，没有其他流水线阶段接收</numerusform>
        </translation>
    </message>
    <message>
        <source>{layers} layers on pipeline stage {stage} do not split into {vpp} virtual stages</source>
        <translation>流水线阶段 {stage} 上的 {layers} 层不能分成 {vpp} 个虚拟阶段</translation>
    </message>
    <message>
        <source>most loaded pipeline stage is stage {stage} of {pp} ({layers} layers): {params} parameters per GPU before data-parallel sharding</source>
        <translation>负载最重的流水线阶段是 {pp} 个中的第 {stage} 个（{layers} 层）：数据并行分片前每 GPU {params} 个参数</translation>
    </message>
    <message>
        <source>routed experts: {experts} parameters per GPU (/ep·etp = /{group}); their gradients and optimizer states shard over the expert data-parallel size N_e = GPUs/(etp·ep·pp) = {edp}, the rest over N_d = {n_d}</source>
        <translation>路由专家：每 GPU {experts} 个参数（/ep·etp = /{group}）；其梯度和优化器状态按专家数据并行规模 N_e = GPU 数/(etp·ep·pp) = {edp} 分片，其余按 N_d = {n_d}</translation>
    </message>
    <message>
        <source>context parallelism: each GPU keeps the activations of s/cp = {tokens} tokens; weights are replicated over cp and the states shard over N_d = dp·cp = {n_d}</source>
        <translation>上下文并行：每个 GPU 保存 s/cp = {tokens} 个 token 的激活值；权重在 cp 上复制，状态按 N_d = dp·cp = {n_d} 分片</translation>
    </message>
    <message>
        <source>interleaved 1F1B with {vpp} model chunks per rank: the first stage holds {chunks} chunk forwards in flight ({layers} layers&apos; activations)</source>
        <translation>每个进程 {vpp} 个模型块的交错 1F1B：第一个阶段同时有 {chunks} 个块的前向在途（{layers} 层的激活值）</translation>
    </message>
    <message>
        <source>Only for mixture-of-experts architectures</source>
        <translation>仅用于混合专家架构</translation>
    </message>
    <message>
        <source>Only with expert parallelism (ep &gt; 1)</source>
        <translation>仅在专家并行（ep &gt; 1）时使用</translation>
    </message>
    <message>
        <source>Only with pipeline parallelism (pp &gt; 1)</source>
        <translation>仅在流水线并行（pp &gt; 1）时使用</translation>
    </message>
    <message>
        <source>Needs an architecture: a parameter count alone has no layers to place</source>
        <translation>需要模型结构：仅有参数量时没有可分配的层</translation>
    </message>
    <message>
        <source>{value} FP8 weight copies ({recipe}: {elements} Linear weight elements, copy + transpose)</source>
        <translation>{value} FP8 权重副本（{recipe}：{elements} 个 Linear 权重元素，副本 + 转置）</translation>
    </message>
    <message>
        <source>{value} FP8 scaling state ({recipe}: {gemms} FP8 GEMMs)</source>
        <translation>{value} FP8 缩放状态（{recipe}：{gemms} 个 FP8 GEMM）</translation>
    </message>
    <message>
        <source>FP8 ({recipe}): FP8 weight copies, scaling state and FP8 Linear inputs follow TransformerEngine&apos;s code; not measured here</source>
        <translation>FP8（{recipe}）：FP8 权重副本、缩放状态和 FP8 Linear 输入按 TransformerEngine 的代码计算；此处未经测量</translation>
    </message>
    <message>
        <source>Only with bf16 or fp16: FP8 Linears run inside a 16-bit model</source>
        <translation>仅用于 bf16 或 fp16：FP8 Linear 在 16 位模型中运行</translation>
    </message>
    <message>
        <source>Only with the fused implementation (Megatron-Core / TransformerEngine): Hugging Face transformers runs no FP8 Linears</source>
        <translation>仅用于融合实现（Megatron-Core / TransformerEngine）：Hugging Face transformers 不运行 FP8 Linear</translation>
    </message>
    <message>
        <source>Only with full training: FP8 under LoRA or QLoRA is not modelled</source>
        <translation>仅用于全量训练：未对 LoRA 或 QLoRA 下的 FP8 建模</translation>
    </message>
    <message>
        <source>LoRA on {targets}</source>
        <translation>LoRA 作用于 {targets}</translation>
    </message>
    <message>
        <source>custom model</source>
        <translation>自定义模型</translation>
    </message>
    <message>
        <source>global batch {n}</source>
        <translation>全局批次 {n}</translation>
    </message>
    <message>
        <source>micro-batch {n}</source>
        <translation>微批次 {n}</translation>
    </message>
    <message>
        <source>no global batch</source>
        <translation>未设全局批次</translation>
    </message>
    <message>
        <source>reserve {r} %</source>
        <translation>预留 {r} %</translation>
    </message>
    <message>
        <source>seq {n}</source>
        <translation>序列 {n}</translation>
    </message>
    <message>
        <source>{n} GPUs</source>
        <translation>{n} 张 GPU</translation>
    </message>
    <message>
        <source>{n} GPUs ({nodes} × {per})</source>
        <translation>{n} 张 GPU（{nodes} × {per}）</translation>
    </message>
    <message>
        <source>{n} GPUs per node</source>
        <translation>每节点 {n} 张 GPU</translation>
    </message>
    <message>
        <source>{params} parameters</source>
        <translation>{params} 参数</translation>
    </message>
    <message>
        <source>{total} per GPU</source>
        <translation>单卡 {total}</translation>
    </message>
    <message numerus="yes">
        <source>%n micro-batch(es) in flight</source>
        <translation>
            <numerusform>%n 个在途微批次</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n shard file(s) missing ({first}{more})</source>
        <translation>
            <numerusform>缺少 %n 个分片文件（{first}{more}）</numerusform>
        </translation>
    </message>
    <message>
        <source>, ...</source>
        <translation> 等</translation>
    </message>
    <message numerus="yes">
        <source>%n attention head(s)</source>
        <translation>
            <numerusform>%n 个注意力头</numerusform>
        </translation>
    </message>
    <message>
        <source>tensor-parallel size {tp} does not divide {heads}</source>
        <translation>张量并行规模 {tp} 无法整除 {heads}</translation>
    </message>
    <message>
        <source>{kv_heads} key/value heads do not divide {heads}</source>
        <translation>{kv_heads} 个键/值头无法整除 {heads}</translation>
    </message>
    <message>
        <source>{path}: {reason}</source>
        <translation>{path}：{reason}</translation>
    </message>
    <message>
        <source>GGUF architecture {arch} is not one vramgui reads</source>
        <translation>vramgui 无法读取 GGUF 架构 {arch}</translation>
    </message>
    <message>
        <source>the GGUF file&apos;s tensors weigh {file} bytes; vramgui&apos;s {weights} layout of this model: {ours} ({diff})</source>
        <translation>GGUF 文件的张量共 {file} 字节；vramgui 按 {weights} 布局计算此模型为 {ours}（{diff}）</translation>
    </message>
    <message>
        <source>{value} token embedding</source>
        <translation>{value} 词嵌入</translation>
    </message>
    <message>
        <source>{value}: the token embedding stays in host memory</source>
        <translation>{value}：词嵌入留在主机内存中</translation>
    </message>
    <message>
        <source>{value} LM head</source>
        <translation>{value} 输出层（LM head）</translation>
    </message>
    <message>
        <source>layer type {value} is not one vramgui reads (sliding_attention, full_attention)</source>
        <translation>层类型 {value} 不是 vramgui 能读取的类型（sliding_attention、full_attention）</translation>
    </message>
    <message>
        <source>lists {count} layer types for {layers} layers</source>
        <translation>为 {layers} 层列出了 {count} 个层类型</translation>
    </message>
    <message>
        <source>{value} is not a pattern of s (sliding) and f (full) layers</source>
        <translation>{value} 不是由 s（滑动窗口）和 f（全注意力）组成的层模式</translation>
    </message>
    <message>
        <source>{value} names sliding layers but no sliding window is set</source>
        <translation>{value} 指定了滑动窗口层，但未设置滑动窗口</translation>
    </message>
    <message>
        <source>config.json has no {key}: {model_type}&apos;s default {value} applies ({source})</source>
        <translation>config.json 中没有 {key}：采用 {model_type} 的默认值 {value}（{source}）</translation>
    </message>
    <message>
        <source>s and f, at most {layers} letters, repeated over the layers (s needs a sliding window)</source>
        <translation>由 s 和 f 组成，最多 {layers} 个字母，按层循环重复（s 需要设置滑动窗口）</translation>
    </message>
    <message>
        <source>serving needs the model&apos;s architecture (its KV cache and weight layout), not only a count</source>
        <translation>推理部署需要模型结构（其 KV 缓存与权重布局），仅有参数量不够</translation>
    </message>
    <message>
        <source>{engine} has no {dtype} KV cache</source>
        <translation>{engine} 没有 {dtype} 类型的 KV 缓存</translation>
    </message>
    <message>
        <source>{engine} does not serve {weights} weights</source>
        <translation>{engine} 不支持 {weights} 格式的权重</translation>
    </message>
    <message>
        <source>{gpus} GPUs do not divide into replicas of tp = {tp}</source>
        <translation>{gpus} 张 GPU 无法分成 tp = {tp} 的副本</translation>
    </message>
    <message>
        <source>llama.cpp splits layers, not tensors: vramgui sizes it on one GPU</source>
        <translation>llama.cpp 按层而非按张量切分：vramgui 只按单张 GPU 估算</translation>
    </message>
    <message>
        <source>{heads} attention heads do not split over tp = {tp}</source>
        <translation>{heads} 个注意力头无法按 tp = {tp} 切分</translation>
    </message>
    <message>
        <source>vLLM sizes its KV pool from the GPU&apos;s memory: none is given</source>
        <translation>vLLM 依据 GPU 显存确定 KV 池大小：未给出显存</translation>
    </message>
    <message>
        <source>a serving solve needs the GPU&apos;s memory</source>
        <translation>推理部署的反向求解需要 GPU 显存</translation>
    </message>
    <message>
        <source>a {dtype} KV row needs whole blocks of 32 elements; this model&apos;s rows are not</source>
        <translation>{dtype} 类型的 KV 行必须由完整的 32 元素块组成；此模型的行长度不满足</translation>
    </message>
    <message>
        <source>vLLM also subtracts the non-torch memory its profile run measures (NCCL, cuBLAS workspaces); give it with --extra</source>
        <translation>vLLM 还会减去其分析运行中测得的非 torch 显存（NCCL、cuBLAS 工作区）；请用 --extra 给出</translation>
    </message>
    <message>
        <source>llama.cpp keeps no separate sliding-window cache for {model_type}: every layer holds n_ctx cells</source>
        <translation>llama.cpp 不为 {model_type} 单独保留滑动窗口缓存：每层都占用 n_ctx 个单元</translation>
    </message>
    <message>
        <source>--preset, --config or a scenario with an architecture</source>
        <translation>--preset、--config，或带模型结构的方案</translation>
    </message>
    <message>
        <source>--gpu, --gpu-memory or --kv-cache-memory-bytes</source>
        <translation>--gpu、--gpu-memory 或 --kv-cache-memory-bytes</translation>
    </message>
    <message>
        <source>A serving input: read by vramgui serve, not by the training estimate</source>
        <translation>推理部署输入：由 vramgui serve 读取，训练估算不使用</translation>
    </message>
    <message>
        <source>{value} Linear weights ({format}, {bits} bits a weight)</source>
        <translation>{value} 线性层权重（{format}，每个权重 {bits} 位）</translation>
    </message>
    <message>
        <source>{value} norms, routers and the rest</source>
        <translation>{value} 归一化层、路由器及其余部分</translation>
    </message>
    <message>
        <source>{value} the largest block&apos;s live tensors</source>
        <translation>{value} 最大层中同时存活的张量</translation>
    </message>
    <message>
        <source>{value} logits</source>
        <translation>{value} logits</translation>
    </message>
    <message>
        <source>{value} sliding-window attention mask</source>
        <translation>{value} 滑动窗口注意力掩码</translation>
    </message>
    <message>
        <source>{value} bytes: {batch} × {blocks} blocks per request</source>
        <translation>{value} 字节：{batch} × 每个请求 {blocks} 个块</translation>
    </message>
    <message>
        <source>{value} bytes: the blocks vLLM allocates</source>
        <translation>{value} 字节：vLLM 分配的块</translation>
    </message>
    <message>
        <source>{value} bytes: {cells} cells × {layers} full layers</source>
        <translation>{value} 字节：{cells} 个单元 × {layers} 个全注意力层</translation>
    </message>
    <message>
        <source>{value} bytes: {cells} cells × {layers} sliding layers</source>
        <translation>{value} 字节：{cells} 个单元 × {layers} 个滑动窗口层</translation>
    </message>
    <message>
        <source>{value}: DynamicCache K and V of every token kept</source>
        <translation>{value}：DynamicCache 保存每个词元的 K 与 V</translation>
    </message>
    <message>
        <source>{value} CUDA context and workspaces</source>
        <translation>{value} CUDA 上下文与工作区</translation>
    </message>
    <message>
        <source>{value} extra (--extra)</source>
        <translation>{value} 额外部分（--extra）</translation>
    </message>
    <message>
        <source>vLLM&apos;s MLA kernels (FlashMLA, CUTLASS MLA) need a block size of 64 or 128, not {block}: pass --block-size</source>
        <translation>vLLM 的 MLA 内核（FlashMLA、CUTLASS MLA）需要 64 或 128 的块大小，而不是 {block}：请传入 --block-size</translation>
    </message>
    <message>
        <source>does not change a training step&apos;s GPU memory</source>
        <translation>不影响训练一步的显存</translation>
    </message>
    <message>
        <source>not a setting vramgui reads</source>
        <translation>不是 vramgui 读取的设置</translation>
    </message>
    <message>
        <source>&quot;auto&quot;: filled from {tool}&apos;s own settings</source>
        <translation>&quot;auto&quot;：由 {tool} 自己的设置填入</translation>
    </message>
    <message>
        <source>already covered by {other}</source>
        <translation>已由 {other} 涵盖</translation>
    </message>
    <message>
        <source>not used without {other}</source>
        <translation>没有 {other} 时不使用</translation>
    </message>
    <message>
        <source>changes memory, but vramgui has no input for it</source>
        <translation>会改变显存，但 vramgui 没有对应的输入</translation>
    </message>
    <message>
        <source>a value vramgui cannot read</source>
        <translation>vramgui 无法读取的值</translation>
    </message>
    <message>
        <source>&quot;auto&quot;: the trainer fills it at run time; nothing in the file says the value</source>
        <translation>&quot;auto&quot;：由训练程序在运行时填入；文件中没有给出该值</translation>
    </message>
    <message>
        <source>&quot;auto&quot; follows the model&apos;s hidden size: no model architecture is known</source>
        <translation>&quot;auto&quot; 取决于模型的隐藏层大小：没有已知的模型结构</translation>
    </message>
    <message>
        <source>applies at ZeRO stage 3 (full sharding) only</source>
        <translation>仅在 ZeRO-3（完全切分）时生效</translation>
    </message>
    <message>
        <source>hybrid sharding (sharded within a node, replicated across nodes) has no vramgui input</source>
        <translation>混合切分（节点内切分、节点间复制）在 vramgui 中没有对应的输入</translation>
    </message>
    <message>
        <source>a paged optimizer moves its states to the host under memory pressure; counted on the GPU here</source>
        <translation>分页优化器在显存紧张时把状态换出到主机（CPU）；此处全部计入显存</translation>
    </message>
    <message>
        <source>Liger&apos;s other fused kernels (RMSNorm, SwiGLU, RoPE) keep less than vramgui counts</source>
        <translation>Liger 的其他融合算子（RMSNorm、SwiGLU、RoPE）保留的激活值少于 vramgui 的计算</translation>
    </message>
    <message>
        <source>autocast over the model as loaded: the recipe depends on the dtype the model was loaded in (give --precision)</source>
        <translation>对按加载精度的模型做 autocast：精度方案取决于模型加载时的数据类型（请给出 --precision）</translation>
    </message>
    <message>
        <source>this run trains on the CPU; vramgui plans GPU memory</source>
        <translation>此运行在 CPU 上训练；vramgui 规划的是显存</translation>
    </message>
    <message>
        <source>a quantized base is trained with an adapter only; vramgui has no input for it here</source>
        <translation>量化的基座只能配合适配器训练；vramgui 在此没有对应的输入</translation>
    </message>
    <message>
        <source>no cap: the longest sample of the data set sets the sequence length (give --seq-len)</source>
        <translation>没有上限：序列长度由数据集中最长的样本决定（请给出 --seq-len）</translation>
    </message>
    <message>
        <source>a regular expression of module names; give --lora-targets</source>
        <translation>模块名的正则表达式；请给出 --lora-targets</translation>
    </message>
    <message>
        <source>{tool}&apos;s default</source>
        <translation>{tool} 的默认值</translation>
    </message>
    <message>
        <source>&quot;auto&quot;: bf16 on a GPU that has it (Ampere or newer)</source>
        <translation>&quot;auto&quot;：在支持 bf16 的 GPU（Ampere 及更新）上为 bf16</translation>
    </message>
    <message>
        <source>{tool} loads and trains the model in this dtype: 16-bit weights and optimizer states</source>
        <translation>{tool} 以此数据类型加载并训练模型：16 位权重和优化器状态</translation>
    </message>
    <message>
        <source>peft keeps adapters in fp32 (autocast_adapter_dtype)</source>
        <translation>peft 以 fp32 保存适配器（autocast_adapter_dtype）</translation>
    </message>
    <message>
        <source>LLaMA-Factory casts trainable parameters to fp32 unless pure_bf16</source>
        <translation>除非设置 pure_bf16，LLaMA-Factory 会把可训练参数转为 fp32</translation>
    </message>
    <message>
        <source>torchao NF4 quantizes its scalers too</source>
        <translation>torchao 的 NF4 也会量化其缩放因子</translation>
    </message>
    <message>
        <source>train_batch_size / (data-parallel size × accumulation steps)</source>
        <translation>train_batch_size / (数据并行规模 × 梯度累积步数)</translation>
    </message>
    <message>
        <source>micro-batch {micro} × {steps} accumulation steps × data-parallel size {dp}</source>
        <translation>微批次 {micro} × 梯度累积步数 {steps} × 数据并行规模 {dp}</translation>
    </message>
    <message>
        <source>&quot;auto&quot; = hidden² = {h}²</source>
        <translation>&quot;auto&quot; = hidden² = {h}²</translation>
    </message>
    <message>
        <source>&quot;auto&quot; = 0.9 × hidden² = 0.9 × {h}²</source>
        <translation>&quot;auto&quot; = 0.9 × hidden² = 0.9 × {h}²</translation>
    </message>
    <message>
        <source>Megatron-LM keeps fp32 main parameters and gradients: its own accounting</source>
        <translation>Megatron-LM 保留 fp32 主参数和梯度：采用其自身的口径</translation>
    </message>
    <message>
        <source>the model&apos;s shape: the model is the one --preset or --config gives</source>
        <translation>模型的形状：模型以 --preset 或 --config 给出的为准</translation>
    </message>
    <message>
        <source>{name} is the preset {preset}</source>
        <translation>{name} 即预设 {preset}</translation>
    </message>
    <message>
        <source>{name} is a local model folder</source>
        <translation>{name} 是本地模型文件夹</translation>
    </message>
    <message>
        <source>no preset or local folder for this model; give --preset or --config</source>
        <translation>此模型没有对应的预设或本地文件夹；请给出 --preset 或 --config</translation>
    </message>
    <message>
        <source>not used: {option} gives the model</source>
        <translation>未使用：模型由 {option} 给出</translation>
    </message>
    <message>
        <source>{path} not found: resolved against the working directory {base}, as {tool} does</source>
        <translation>找不到 {path}：与 {tool} 一样按工作目录 {base} 解析</translation>
    </message>
    <message>
        <source>Compute</source>
        <translation>计算</translation>
    </message>
    <message>
        <source>Recomputation</source>
        <translation>重计算</translation>
    </message>
    <message>
        <source>Tensor-parallel communication</source>
        <translation>张量并行通信</translation>
    </message>
    <message>
        <source>Context-parallel communication</source>
        <translation>上下文并行通信</translation>
    </message>
    <message>
        <source>Expert-parallel all-to-all</source>
        <translation>专家并行 all-to-all</translation>
    </message>
    <message>
        <source>Data-parallel communication</source>
        <translation>数据并行通信</translation>
    </message>
    <message>
        <source>Pipeline bubble</source>
        <translation>流水线气泡</translation>
    </message>
    <message>
        <source>Pipeline sends</source>
        <translation>流水线发送</translation>
    </message>
    <message>
        <source>Optimizer step</source>
        <translation>优化器步骤</translation>
    </message>
    <message>
        <source>Offload (PCIe and CPU)</source>
        <translation>卸载（PCIe 与 CPU）</translation>
    </message>
    <message>
        <source>0 (none in this layout)</source>
        <translation>0（此布局中没有）</translation>
    </message>
    <message>
        <source>{terms}</source>
        <translation>{terms}</translation>
    </message>
    <message>
        <source>the node&apos;s GPU link</source>
        <translation>节点内 GPU 互连</translation>
    </message>
    <message>
        <source>the network</source>
        <translation>网络</translation>
    </message>
    <message numerus="yes">
        <source>%n micro-batch(es) × forward ({flops} FLOP at {rate} TFLOP/s, {size} memory-bound): {value}</source>
        <translation>
            <numerusform>%n 个微批次 × 前向（{flops} FLOP，{rate} TFLOP/s；访存受限 {size}）：{value}</numerusform>
        </translation>
    </message>
    <message>
        <source>backward {mb} × {each}: {value}</source>
        <translation>反向 {mb} × {each}：{value}</translation>
    </message>
    <message>
        <source>full: {mb} × the blocks&apos; forward again ({flops} FLOP): {value}</source>
        <translation>完全：{mb} × 再做一遍各层前向（{flops} FLOP）：{value}</translation>
    </message>
    <message>
        <source>selective: {mb} × QKᵀ, softmax and PV again ({flops} FLOP): {value}</source>
        <translation>选择性：{mb} × 再做一遍 QKᵀ、softmax 与 PV（{flops} FLOP）：{value}</translation>
    </message>
    <message>
        <source>{count} × {kind} of {size} over {ranks} GPUs on {link} at {rate}: {value}</source>
        <translation>{count} × {kind}，{size}，{ranks} 个 GPU，经{link}，{rate}：{value}</translation>
    </message>
    <message>
        <source>{mb} × {layers} blocks × ring of {size} over {ranks} GPUs on {link}, less {hidden} hidden behind attention: {value}</source>
        <translation>{mb} × {layers} 层 × 环形传递 {size}，{ranks} 个 GPU，经{link}，减去被注意力计算掩盖的 {hidden}：{value}</translation>
    </message>
    <message>
        <source>(p − 1)/v = {stages}/{v} micro-batch times of {each}: {value}</source>
        <translation>(p − 1)/v = {stages}/{v} 个微批次时间，每个 {each}：{value}</translation>
    </message>
    <message>
        <source>{count} sends of {size} on {link} at {rate}: {value}</source>
        <translation>{count} 次发送，每次 {size}，经{link}，{rate}：{value}</translation>
    </message>
    <message>
        <source>hidden behind the backward: {value}</source>
        <translation>被反向计算掩盖：{value}</translation>
    </message>
    <message>
        <source>hidden behind the compute ({share} of the gathers prefetched; the rest waited for): {value}</source>
        <translation>被计算掩盖（{share} 的收集被预取；其余需等待）：{value}</translation>
    </message>
    <message>
        <source>{size} read and written at {rate}: {value}</source>
        <translation>以 {rate} 读写 {size}：{value}</translation>
    </message>
    <message>
        <source>{size} over PCIe at {rate}: {value}</source>
        <translation>经 PCIe 以 {rate} 传输 {size}：{value}</translation>
    </message>
    <message>
        <source>CPU optimizer: {size} of host memory at {rate}: {value}</source>
        <translation>CPU 优化器：以 {rate} 访问主机内存 {size}：{value}</translation>
    </message>
    <message>
        <source>{flops} FLOP / ({gpus} GPUs × {rate} TFLOP/s achieved): {value}</source>
        <translation>{flops} FLOP / （{gpus} 个 GPU × 实测 {rate} TFLOP/s）：{value}</translation>
    </message>
    <message>
        <source>step time from the achieved TFLOP/s given: the whole step counted as compute</source>
        <translation>步骤时间按给定的实测 TFLOP/s 计算：整个步骤计为计算</translation>
    </message>
    <message>
        <source>no step time: the GPU&apos;s compute figures are not known (choose a GPU preset, or give --peak-tflops and --memory-bandwidth)</source>
        <translation>无步骤时间：GPU 的算力数据未知（请选择 GPU 预设，或给出 --peak-tflops 与 --memory-bandwidth）</translation>
    </message>
    <message>
        <source>compute at the efficiency of Megatron-LM&apos;s fused kernels (validated on A100 runs): Hugging Face&apos;s eager modules add unfused elementwise and launch time, so read this step time as a lower bound and MFU as an upper one</source>
        <translation>计算按 Megatron-LM 融合算子的效率估计（在 A100 实测运行上验证）：Hugging Face 的 eager 模块还有未融合的逐元素运算和内核启动开销，因此这里的步时间应视为下限，MFU 视为上限</translation>
    </message>
    <message>
        <source>step time from the parameter count alone (6Φ FLOPs per token): no architecture, so no attention, tensor-, context-, expert- or pipeline-parallel messages to size</source>
        <translation>步骤时间仅由参数量得出（每个 token 6Φ FLOP）：没有架构，因此无法估计注意力以及张量、上下文、专家、流水线并行的通信量</translation>
    </message>
</context>
<context>
    <name>Fields</name>
    <message>
        <source>Parameters</source>
        <translation>参数</translation>
    </message>
    <message>
        <source>Block style</source>
        <translation>块结构</translation>
    </message>
    <message>
        <source>Model type</source>
        <translation>模型类型</translation>
    </message>
    <message>
        <source>Layers</source>
        <translation>层数</translation>
    </message>
    <message>
        <source>Hidden size</source>
        <translation>隐藏层大小</translation>
    </message>
    <message>
        <source>Attention heads</source>
        <translation>注意力头数</translation>
    </message>
    <message>
        <source>KV heads</source>
        <translation>KV 头数</translation>
    </message>
    <message>
        <source>Head dimension</source>
        <translation>注意力头维度</translation>
    </message>
    <message>
        <source>FFN size</source>
        <translation>FFN 大小</translation>
    </message>
    <message>
        <source>Vocabulary</source>
        <translation>词表大小</translation>
    </message>
    <message>
        <source>Tied embeddings</source>
        <translation>共享输入/输出嵌入</translation>
    </message>
    <message>
        <source>Attention bias</source>
        <translation>注意力偏置</translation>
    </message>
    <message>
        <source>Attention output bias</source>
        <translation>注意力输出偏置</translation>
    </message>
    <message>
        <source>MLP bias</source>
        <translation>MLP 偏置</translation>
    </message>
    <message>
        <source>Norm</source>
        <translation>归一化</translation>
    </message>
    <message>
        <source>Max positions</source>
        <translation>最大位置数</translation>
    </message>
    <message>
        <source>Learned positions</source>
        <translation>可学习位置编码</translation>
    </message>
    <message>
        <source>Experts</source>
        <translation>专家数</translation>
    </message>
    <message>
        <source>Experts per token</source>
        <translation>每个 token 的专家数</translation>
    </message>
    <message>
        <source>Shared experts</source>
        <translation>共享专家数</translation>
    </message>
    <message>
        <source>Expert FFN size</source>
        <translation>专家 FFN 大小</translation>
    </message>
    <message>
        <source>Dense layers</source>
        <translation>稠密层数</translation>
    </message>
    <message>
        <source>Norms per layer</source>
        <translation>每层归一化数</translation>
    </message>
    <message>
        <source>QK norm</source>
        <translation>QK 归一化</translation>
    </message>
    <message>
        <source>QK norm per head</source>
        <translation>逐头 QK 归一化</translation>
    </message>
    <message>
        <source>Attention sinks</source>
        <translation>注意力汇聚（sink）</translation>
    </message>
    <message>
        <source>Final norm</source>
        <translation>最终归一化</translation>
    </message>
    <message>
        <source>Output layer bias</source>
        <translation>输出层偏置</translation>
    </message>
    <message>
        <source>Fused QKV</source>
        <translation>融合 QKV</translation>
    </message>
    <message>
        <source>Fused gate/up</source>
        <translation>融合 gate/up</translation>
    </message>
    <message>
        <source>Parallel attention</source>
        <translation>并行注意力</translation>
    </message>
    <message>
        <source>MoE layer step</source>
        <translation>MoE 层间隔</translation>
    </message>
    <message>
        <source>Shared expert FFN size</source>
        <translation>共享专家 FFN 大小</translation>
    </message>
    <message>
        <source>Shared expert gate</source>
        <translation>共享专家门控</translation>
    </message>
    <message>
        <source>Router bias</source>
        <translation>路由器偏置</translation>
    </message>
    <message>
        <source>Query LoRA rank</source>
        <translation>查询 LoRA 秩</translation>
    </message>
    <message>
        <source>KV LoRA rank</source>
        <translation>KV LoRA 秩</translation>
    </message>
    <message>
        <source>RoPE head dimension</source>
        <translation>RoPE 头维度</translation>
    </message>
    <message>
        <source>Value head dimension</source>
        <translation>值头维度</translation>
    </message>
    <message>
        <source>Attention dropout</source>
        <translation>注意力 dropout</translation>
    </message>
    <message>
        <source>Dropout on the attention probabilities; empty: GPT-2 0.1, others 0</source>
        <translation>注意力概率上的 dropout；留空：GPT-2 为 0.1，其他为 0</translation>
    </message>
    <message>
        <source>Residual dropout</source>
        <translation>残差 dropout</translation>
    </message>
    <message>
        <source>Dropout on the attention and MLP outputs; empty: GPT-2 0.1, others 0</source>
        <translation>注意力和 MLP 输出上的 dropout；留空：GPT-2 为 0.1，其他为 0</translation>
    </message>
    <message>
        <source>Embedding dropout</source>
        <translation>嵌入 dropout</translation>
    </message>
    <message>
        <source>Dropout on the embedding output; empty: GPT-2 0.1, others 0</source>
        <translation>嵌入输出上的 dropout；留空：GPT-2 为 0.1，其他为 0</translation>
    </message>
    <message>
        <source>KV cache in training</source>
        <translation>训练时的 KV 缓存</translation>
    </message>
    <message>
        <source>config use_cache: GPT-2 copies K and V into a cache (not when checkpointing)</source>
        <translation>配置中的 use_cache：GPT-2 会把 K 和 V 复制到缓存（启用检查点时不会）</translation>
    </message>
    <message>
        <source>Largest layer</source>
        <translation>最大层</translation>
    </message>
    <message>
        <source>DeepSpeed ZeRO-3&apos;s largest layer, in parameters; from the architecture when empty</source>
        <translation>DeepSpeed ZeRO-3 的最大层，单位为参数个数；留空时由模型结构得出</translation>
    </message>
    <message>
        <source>Dtype</source>
        <translation>数据类型</translation>
    </message>
    <message>
        <source>Dtype of weights, gradients and activations</source>
        <translation>权重、梯度和激活值的数据类型</translation>
    </message>
    <message>
        <source>Recipe</source>
        <translation>精度方案</translation>
    </message>
    <message>
        <source>mixed: fp32 master weights beside the dtype; pure: the dtype alone; amp: fp32 weights, autocast computes in the dtype</source>
        <translation>mixed：在该数据类型之外保留 fp32 主权重；pure：仅用该数据类型；amp：fp32 权重，autocast 以该数据类型计算</translation>
    </message>
    <message>
        <source>Optimizer</source>
        <translation>优化器</translation>
    </message>
    <message>
        <source>Optimizer implementation</source>
        <translation>优化器实现</translation>
    </message>
    <message>
        <source>torch.optim&apos;s implementation: foreach (CUDA default) allocates one state-sized temporary at the step, fused none, for-loop about two of the largest tensor</source>
        <translation>torch.optim 的实现：foreach（CUDA 默认）在优化器步骤分配一个与状态同大小的临时张量，fused 不分配，for-loop 约为最大张量的两倍</translation>
    </message>
    <message>
        <source>Micro-batch</source>
        <translation>微批次</translation>
    </message>
    <message>
        <source>Samples per GPU per forward/backward</source>
        <translation>每张 GPU 每次前向/反向传播的样本数</translation>
    </message>
    <message>
        <source>Sequence length</source>
        <translation>序列长度</translation>
    </message>
    <message>
        <source>Tokens per sample</source>
        <translation>每个样本的 token 数</translation>
    </message>
    <message>
        <source>Global batch</source>
        <translation>全局批次</translation>
    </message>
    <message>
        <source>Samples per optimizer step (gives the accumulation steps); empty: one micro-batch per GPU</source>
        <translation>每个优化器步的样本数（决定梯度累积步数）；留空：每张 GPU 一个微批次</translation>
    </message>
    <message>
        <source>Recompute</source>
        <translation>重计算</translation>
    </message>
    <message>
        <source>Activation recomputation</source>
        <translation>激活值重计算</translation>
    </message>
    <message>
        <source>Attention</source>
        <translation>注意力</translation>
    </message>
    <message>
        <source>eager keeps the attention scores, flash does not</source>
        <translation>eager 会保存注意力分数，flash 不会</translation>
    </message>
    <message>
        <source>Implementation</source>
        <translation>实现方式</translation>
    </message>
    <message>
        <source>Activation accounting profile</source>
        <translation>激活值的统计方式</translation>
    </message>
    <message>
        <source>Loss</source>
        <translation>损失函数</translation>
    </message>
    <message>
        <source>hf: Hugging Face&apos;s cross-entropy (fp32 log-softmax and its gradient over the vocabulary); chunked: a fused cross-entropy that never materialises fp32 logits (Liger, Megatron)</source>
        <translation>hf：Hugging Face 的交叉熵（整个词表上的 fp32 log-softmax 及其梯度）；chunked：从不生成 fp32 logits 的融合交叉熵（Liger、Megatron）</translation>
    </message>
    <message>
        <source>Number of GPUs</source>
        <translation>GPU 数量</translation>
    </message>
    <message>
        <source>GPUs in all</source>
        <translation>GPU 总数</translation>
    </message>
    <message>
        <source>GPUs per node</source>
        <translation>每节点 GPU 数</translation>
    </message>
    <message>
        <source>GPUs per node, for host memory per node (the last node may be partial)</source>
        <translation>每节点 GPU 数，用于按节点计算主机端占用（最后一个节点可以不满）</translation>
    </message>
    <message>
        <source>ZeRO stage</source>
        <translation>ZeRO 阶段</translation>
    </message>
    <message>
        <source>ZeRO stage, 0 = DDP</source>
        <translation>ZeRO 阶段，0 = DDP</translation>
    </message>
    <message>
        <source>Tensor parallel</source>
        <translation>张量并行</translation>
    </message>
    <message>
        <source>Tensor-parallel size</source>
        <translation>张量并行规模</translation>
    </message>
    <message>
        <source>Pipeline parallel</source>
        <translation>流水线并行</translation>
    </message>
    <message>
        <source>Pipeline-parallel size</source>
        <translation>流水线并行规模</translation>
    </message>
    <message>
        <source>Sequence parallel</source>
        <translation>序列并行</translation>
    </message>
    <message>
        <source>Megatron sequence parallelism: shards norm and dropout activations over the TP group</source>
        <translation>Megatron 序列并行：在 TP 组内切分归一化和 dropout 的激活值</translation>
    </message>
    <message>
        <source>Distributed optimizer</source>
        <translation>分布式优化器</translation>
    </message>
    <message>
        <source>Megatron&apos;s distributed optimizer: optimizer states sharded over data-parallel ranks</source>
        <translation>Megatron 的分布式优化器：优化器状态在数据并行各进程间切分</translation>
    </message>
    <message>
        <source>DDP gradients as bucket views</source>
        <translation>DDP 梯度作为桶视图</translation>
    </message>
    <message>
        <source>PyTorch DDP gradient_as_bucket_view: gradients live inside the reducer&apos;s buckets (off: a second gradient-sized copy, PyTorch&apos;s and accelerate&apos;s default)</source>
        <translation>PyTorch DDP 的 gradient_as_bucket_view：梯度存放在 reducer 的桶内（关闭时另有一份与梯度同大小的副本，这是 PyTorch 和 accelerate 的默认设置）</translation>
    </message>
    <message>
        <source>Optimizer states to CPU memory (ZeRO-Offload)</source>
        <translation>将优化器状态放到主机内存（ZeRO-Offload）</translation>
    </message>
    <message>
        <source>Parameters to CPU memory (ZeRO-3 only)</source>
        <translation>将参数放到主机内存（仅限 ZeRO-3）</translation>
    </message>
    <message>
        <source>zero.Init</source>
        <translation>zero.Init</translation>
    </message>
    <message>
        <source>DeepSpeed zero.Init: the model is created already partitioned (host memory per node)</source>
        <translation>DeepSpeed zero.Init：模型创建时即已切分（影响每节点主机内存）</translation>
    </message>
    <message>
        <source>GPU name</source>
        <translation>GPU 名称</translation>
    </message>
    <message>
        <source>The GPU&apos;s name (informational)</source>
        <translation>GPU 名称（仅供参考）</translation>
    </message>
    <message>
        <source>Memory per GPU</source>
        <translation>单卡显存</translation>
    </message>
    <message>
        <source>Memory per GPU: 80GB (10^9 bytes), 80GiB (2^30 bytes), 24576MiB; empty: fit not judged</source>
        <translation>单卡显存：80GB（10^9 字节）、80GiB（2^30 字节）、24576MiB；留空：不判断能否装下</translation>
    </message>
    <message>
        <source>Reserve</source>
        <translation>预留</translation>
    </message>
    <message>
        <source>Fraction of GPU memory kept back (the seed&apos;s overhead_ratio)</source>
        <translation>预留的显存比例（教程中的 overhead_ratio）</translation>
    </message>
    <message>
        <source>Anything else per GPU</source>
        <translation>每张 GPU 的其他任何占用</translation>
    </message>
    <message>
        <source>Convention</source>
        <translation>口径</translation>
    </message>
    <message>
        <source>Whose accounting: the ZeRO paper, DeepSpeed&apos;s estimator or Megatron-LM</source>
        <translation>采用哪种计算口径：ZeRO 论文、DeepSpeed 的估算器或 Megatron-LM</translation>
    </message>
    <message>
        <source>CUDA context</source>
        <translation>CUDA 上下文</translation>
    </message>
    <message>
        <source>Model name</source>
        <translation>模型名称</translation>
    </message>
    <message>
        <source>A label for the model</source>
        <translation>模型的名称标签</translation>
    </message>
    <message>
        <source>Parameter count: 7B, 124M, 7.5e9 (no activations without an architecture)</source>
        <translation>参数量：7B、124M、7.5e9（没有模型结构时不估算激活值）</translation>
    </message>
    <message>
        <source>CUDA context and library workspaces per GPU; empty: the step peak&apos;s default (532 MiB)</source>
        <translation>每个 GPU 的 CUDA 上下文和库工作区；留空：使用训练步峰值的默认值（532 MiB）</translation>
    </message>
    <message>
        <source>Communication buffers</source>
        <translation>通信缓冲区</translation>
    </message>
    <message>
        <source>DDP/ZeRO communication buckets per GPU; empty: the framework&apos;s own (DDP buckets, ZeRO buckets)</source>
        <translation>每个 GPU 的 DDP/ZeRO 通信桶；留空：使用框架自身的桶（DDP 桶、ZeRO 桶）</translation>
    </message>
    <message>
        <source>ZeRO-3 live parameters</source>
        <translation>ZeRO-3 驻留参数</translation>
    </message>
    <message>
        <source>ZeRO-3 parameters gathered at once (DeepSpeed&apos;s stage3_max_live_parameters); empty: DeepSpeed&apos;s default 1e9 under the deepspeed convention, FSDP2&apos;s per-layer units otherwise. Under DeepSpeed a gather is prefetched under compute only while the gathered parameters stay below it (0: none is): it also moves the step time</source>
        <translation>ZeRO-3 同时聚合的参数量（DeepSpeed 的 stage3_max_live_parameters）；留空：deepspeed 约定下为 DeepSpeed 默认值 1e9，其他约定下按 FSDP2 的逐层单元。在 DeepSpeed 下，只有已聚合的参数低于此值时才会在计算期间预取下一次聚合（0：从不预取）：它也会改变单步时间</translation>
    </message>
    <message>
        <source>DeepSpeed stage3_prefetch_bucket_size, in parameters; empty: DeepSpeed&apos;s default 5e7. 0 prefetches nothing, so every gather waits (DeepSpeed before 0.5.6): it also moves the step time</source>
        <translation>DeepSpeed 的 stage3_prefetch_bucket_size（参数个数）；留空：DeepSpeed 默认值 5e7。0 表示不预取，每次聚合都要等待（DeepSpeed 0.5.6 之前）：它也会改变单步时间</translation>
    </message>
    <message>
        <source>ZeRO-3 prefetch bucket</source>
        <translation>ZeRO-3 预取桶</translation>
    </message>
    <message>
        <source>ZeRO reduce bucket</source>
        <translation>ZeRO 归约桶</translation>
    </message>
    <message>
        <source>DeepSpeed reduce_bucket_size (ZeRO 1-3), in elements; empty: DeepSpeed&apos;s default 5e8</source>
        <translation>DeepSpeed 的 reduce_bucket_size（ZeRO 1-3，元素个数）；留空：DeepSpeed 默认值 5e8</translation>
    </message>
    <message>
        <source>Extra memory</source>
        <translation>额外显存</translation>
    </message>
    <message>
        <source>Optimizer offload</source>
        <translation>优化器卸载</translation>
    </message>
    <message>
        <source>Parameter offload</source>
        <translation>参数卸载</translation>
    </message>
    <message>
        <source>{0}: {1}</source>
        <translation>{0}：{1}</translation>
    </message>
    <message>
        <source> (allowed: {0})</source>
        <translation>（允许：{0}）</translation>
    </message>
    <message>
        <source>{0} cannot be opened:</source>
        <translation>无法打开 {0}：</translation>
    </message>
    <message>
        <source>{0}: {1} problems in the scenario:</source>
        <translation>{0}：方案中有 {1} 个问题：</translation>
    </message>
    <message>
        <source>(document)</source>
        <translation>（文档）</translation>
    </message>
    <message>
        <source>Nothing was changed.</source>
        <translation>未做任何更改。</translation>
    </message>
    <message>
        <source>Method</source>
        <translation>微调方式</translation>
    </message>
    <message>
        <source>full: every parameter trained; lora: low-rank adapters over a frozen base (peft); qlora: LoRA over a 4-bit NF4 base (bitsandbytes)</source>
        <translation>full：训练全部参数；lora：在冻结基座上加低秩适配器（peft）；qlora：在 4 位 NF4 基座上做 LoRA（bitsandbytes）</translation>
    </message>
    <message>
        <source>LoRA rank</source>
        <translation>LoRA 秩</translation>
    </message>
    <message>
        <source>Rank r of each adapter: r·(in + out) trainable parameters per adapted Linear</source>
        <translation>每个适配器的秩 r：每个被适配的 Linear 有 r·(in + out) 个可训练参数</translation>
    </message>
    <message>
        <source>LoRA targets</source>
        <translation>LoRA 目标</translation>
    </message>
    <message>
        <source>attention: the q, k, v and output projections; all-linear: every Linear of the blocks (peft&apos;s all-linear: the LM head excluded); or a comma list of module names, e.g. q_proj,v_proj</source>
        <translation>attention：q、k、v 和输出投影；all-linear：块内所有 Linear（peft 的 all-linear，不含 LM 头）；或以逗号分隔的模块名，例如 q_proj,v_proj</translation>
    </message>
    <message>
        <source>LoRA dropout</source>
        <translation>LoRA dropout</translation>
    </message>
    <message>
        <source>Dropout on each adapter&apos;s input (peft&apos;s lora_dropout; above 0 it keeps a mask and a copy)</source>
        <translation>每个适配器输入上的 dropout（peft 的 lora_dropout；大于 0 时会保留掩码和一份副本）</translation>
    </message>
    <message>
        <source>Base weights</source>
        <translation>基座权重</translation>
    </message>
    <message>
        <source>Storage of the frozen base: a float dtype, int8 (bitsandbytes LLM.int8: int8 weights + fp32 row scales) or nf4 (4-bit, fp32 absmax per 64 weights); auto: the weights&apos; dtype (qlora: nf4)</source>
        <translation>冻结基座的存储格式：浮点类型、int8（bitsandbytes LLM.int8：int8 权重 + fp32 行缩放）或 nf4（4 位，每 64 个权重一个 fp32 absmax）；auto：权重的数据类型（qlora 为 nf4）</translation>
    </message>
    <message>
        <source>Double quantisation</source>
        <translation>双重量化</translation>
    </message>
    <message>
        <source>bitsandbytes bnb_4bit_use_double_quant: the NF4 absmax quantised to 8 bits with an fp32 scale per 256 blocks (about 0.37 bits per weight saved)</source>
        <translation>bitsandbytes 的 bnb_4bit_use_double_quant：NF4 的 absmax 量化为 8 位，每 256 个块一个 fp32 缩放（每个权重约节省 0.37 位）</translation>
    </message>
    <message>
        <source>Adapter dtype</source>
        <translation>适配器数据类型</translation>
    </message>
    <message>
        <source>Dtype of the adapters, their gradients and states: fp32 (peft&apos;s autocast_adapter_dtype, the default) or bf16</source>
        <translation>适配器及其梯度和状态的数据类型：fp32（peft 的 autocast_adapter_dtype，默认）或 bf16</translation>
    </message>
    <message>
        <source>Expert capacity</source>
        <translation>专家容量</translation>
    </message>
    <message>
        <source>Expert capacity factor in percent (Megatron moe_expert_capacity_factor 1.25 = 125): tokens over capacity are dropped; empty: dropless</source>
        <translation>专家容量因子的百分数（Megatron 的 moe_expert_capacity_factor 1.25 = 125）：超出容量的 token 被丢弃；留空：不丢弃</translation>
    </message>
    <message>
        <source>Routing imbalance</source>
        <translation>路由不均衡</translation>
    </message>
    <message>
        <source>Routed tokens the most loaded expert-parallel rank receives, in percent of a balanced share (100: balanced routing)</source>
        <translation>负载最重的专家并行进程收到的路由 token，占均衡份额的百分数（100：均衡路由）</translation>
    </message>
    <message>
        <source>Expert parallel</source>
        <translation>专家并行</translation>
    </message>
    <message>
        <source>Expert-parallel size: the routed experts are split over this many GPUs (Megatron-Core EP)</source>
        <translation>专家并行规模：路由专家分布到这么多个 GPU 上（Megatron-Core EP）</translation>
    </message>
    <message>
        <source>Expert tensor parallel</source>
        <translation>专家张量并行</translation>
    </message>
    <message>
        <source>Tensor-parallel size inside each routed expert; empty: the tensor-parallel size</source>
        <translation>每个路由专家内部的张量并行规模；留空：与张量并行规模相同</translation>
    </message>
    <message>
        <source>Context parallel</source>
        <translation>上下文并行</translation>
    </message>
    <message>
        <source>Context-parallel size: each sample&apos;s sequence is split over this many GPUs (ring attention, Megatron-Core / TransformerEngine)</source>
        <translation>上下文并行规模：每个样本的序列分到这么多个 GPU 上（环形注意力，Megatron-Core / TransformerEngine）</translation>
    </message>
    <message>
        <source>Virtual pipeline stages</source>
        <translation>虚拟流水线阶段</translation>
    </message>
    <message>
        <source>Model chunks per pipeline rank for the interleaved 1F1B schedule; 1: not interleaved</source>
        <translation>交错 1F1B 调度下每个流水线进程的模型块数；1：不交错</translation>
    </message>
    <message>
        <source>First stage layers</source>
        <translation>第一阶段层数</translation>
    </message>
    <message>
        <source>Layers on the first pipeline stage (Megatron decoder_first_pipeline_num_layers); empty: even split</source>
        <translation>第一个流水线阶段的层数（Megatron 的 decoder_first_pipeline_num_layers）；留空：均分</translation>
    </message>
    <message>
        <source>Last stage layers</source>
        <translation>最后阶段层数</translation>
    </message>
    <message>
        <source>Layers on the last pipeline stage (Megatron decoder_last_pipeline_num_layers); empty: even split</source>
        <translation>最后一个流水线阶段的层数（Megatron 的 decoder_last_pipeline_num_layers）；留空：均分</translation>
    </message>
    <message>
        <source>FP8 recipe</source>
        <translation>FP8 方案</translation>
    </message>
    <message>
        <source>FP8 Linear layers through TransformerEngine (Megatron-Core, fused implementation, bf16/fp16): delayed or current per-tensor scaling, or MXFP8 blocks; FP8 weight copies, scaling state and FP8 Linear inputs follow TransformerEngine&apos;s code, not measured</source>
        <translation>通过 TransformerEngine 使用 FP8 Linear 层（Megatron-Core、融合实现、bf16/fp16）：延迟或当前逐张量缩放，或 MXFP8 分块；FP8 权重副本、缩放状态和 FP8 Linear 输入按 TransformerEngine 的代码计算，未经测量</translation>
    </message>
    <message>
        <source>{0}: expected a percentage, got {1} (allowed: 0 to 99.99 %)</source>
        <translation>{0}：应为百分比，而不是 {1}（允许：0 到 99.99 %）</translation>
    </message>
    <message>
        <source>{0}: {1} % is out of range (allowed: 0 to 99.99 %)</source>
        <translation>{0}：{1} % 超出范围（允许：0 到 99.99 %）</translation>
    </message>
    <message>
        <source>8-bit Adam</source>
        <translation>8 位 Adam</translation>
    </message>
    <message>
        <source>= FFN size</source>
        <translation>= FFN 大小</translation>
    </message>
    <message>
        <source>= attention heads</source>
        <translation>= 注意力头数</translation>
    </message>
    <message>
        <source>= expert FFN size × shared experts</source>
        <translation>= 专家 FFN 大小 × 共享专家数</translation>
    </message>
    <message>
        <source>= head dimension</source>
        <translation>= 注意力头维度</translation>
    </message>
    <message>
        <source>= hidden size ÷ heads</source>
        <translation>= 隐藏层大小 ÷ 头数</translation>
    </message>
    <message>
        <source>Activation accounting profile: Hugging Face eager modules, or fused kernels (Megatron-style) that keep fewer intermediates.</source>
        <translation>激活值的统计方式：Hugging Face 的 eager 模块，或保存中间结果更少的融合算子（Megatron 风格）。</translation>
    </message>
    <message>
        <source>Activation checkpointing: full keeps only each layer&apos;s input; selective recomputes the attention scores (Korthikanti et al. 2022).</source>
        <translation>激活检查点：完全重计算只保留每层的输入；选择性重计算只重算注意力分数（Korthikanti 等，2022）。</translation>
    </message>
    <message>
        <source>Adam 8-bit</source>
        <translation>8 位 Adam</translation>
    </message>
    <message>
        <source>Create the model partitioned (zero.Init)</source>
        <translation>创建模型时即切分（zero.Init）</translation>
    </message>
    <message>
        <source>DDP (no sharding)</source>
        <translation>DDP（不切分）</translation>
    </message>
    <message>
        <source>DDP: 2Φ + 2Φ + KΦ per GPU. ZeRO-1: 2Φ + 2Φ + KΦ/N_d. ZeRO-2: 2Φ + (2+K)Φ/N_d. ZeRO-3: (2+2+K)Φ/N_d (Rajbhandari et al. 2020).</source>
        <translation>单卡显存：DDP 为 2Φ + 2Φ + KΦ；ZeRO-1 为 2Φ + 2Φ + KΦ/N_d；ZeRO-2 为 2Φ + (2+K)Φ/N_d；ZeRO-3 为 (2+2+K)Φ/N_d（Rajbhandari 等，2020）。</translation>
    </message>
    <message>
        <source>DeepSpeed convention</source>
        <translation>DeepSpeed 口径</translation>
    </message>
    <message>
        <source>Distributed optimizer (Megatron)</source>
        <translation>分布式优化器（Megatron）</translation>
    </message>
    <message>
        <source>Eager attention stores the a·s² score and softmax matrices; flash attention does not.</source>
        <translation>Eager 注意力会保存 a·s² 的分数矩阵和 softmax 矩阵；Flash Attention 不保存。</translation>
    </message>
    <message>
        <source>FP8 current scaling</source>
        <translation>FP8 即时缩放</translation>
    </message>
    <message>
        <source>FP8 delayed scaling</source>
        <translation>FP8 延迟缩放</translation>
    </message>
    <message>
        <source>GPT-style (LayerNorm, GELU MLP)</source>
        <translation>GPT 式（LayerNorm，GELU MLP）</translation>
    </message>
    <message>
        <source>GPT-style blocks</source>
        <translation>GPT 式块</translation>
    </message>
    <message>
        <source>Hugging Face</source>
        <translation>Hugging Face</translation>
    </message>
    <message>
        <source>Hugging Face activations</source>
        <translation>Hugging Face 激活值</translation>
    </message>
    <message>
        <source>Hugging Face cross-entropy</source>
        <translation>Hugging Face 交叉熵</translation>
    </message>
    <message>
        <source>Hugging Face loss</source>
        <translation>Hugging Face 损失函数</translation>
    </message>
    <message>
        <source>Intermediate size of the MLP.</source>
        <translation>MLP 的中间层大小。</translation>
    </message>
    <message>
        <source>Key/value heads (fewer than the query heads: grouped-query attention).</source>
        <translation>键/值头数（少于查询头数时为分组查询注意力 GQA）。</translation>
    </message>
    <message>
        <source>Llama-style (RMSNorm, gated MLP)</source>
        <translation>Llama 式（RMSNorm，门控 MLP）</translation>
    </message>
    <message>
        <source>Llama-style blocks</source>
        <translation>Llama 式块</translation>
    </message>
    <message>
        <source>LoRA on all linear layers</source>
        <translation>LoRA 作用于全部线性层</translation>
    </message>
    <message>
        <source>LoRA on attention</source>
        <translation>LoRA 作用于注意力层</translation>
    </message>
    <message>
        <source>Megatron-LM convention</source>
        <translation>Megatron-LM 口径</translation>
    </message>
    <message>
        <source>Mixed precision keeps an fp32 master copy of the weights in the optimizer states: with Adam, K = 12 bytes per parameter (4 master + 4 momentum + 4 variance), so 2Φ + 2Φ + KΦ = 16Φ.</source>
        <translation>混合精度在优化器状态中保存一份 fp32 主权重：使用 Adam 时每个参数 K = 12 字节（4 主权重 + 4 动量 + 4 方差），因此 2Φ + 2Φ + KΦ = 16Φ。</translation>
    </message>
    <message>
        <source>Model width h.</source>
        <translation>模型宽度 h。</translation>
    </message>
    <message>
        <source>N, the GPUs of the run; the data-parallel size N_d = N ÷ (TP × PP).</source>
        <translation>N，本次训练的 GPU 总数；数据并行规模 N_d = N ÷ (TP × PP)。</translation>
    </message>
    <message>
        <source>NF4 (4-bit)</source>
        <translation>NF4（4 位）</translation>
    </message>
    <message>
        <source>Number of transformer blocks.</source>
        <translation>Transformer 块的数量。</translation>
    </message>
    <message>
        <source>Offload optimizer states to CPU</source>
        <translation>将优化器状态卸载到 CPU</translation>
    </message>
    <message>
        <source>Offload parameters to CPU</source>
        <translation>将参数卸载到 CPU</translation>
    </message>
    <message>
        <source>Pipeline stages: each holds 1/PP of the layers.</source>
        <translation>流水线阶段数：每个阶段持有 1/PP 的层。</translation>
    </message>
    <message>
        <source>QLoRA (4-bit NF4 base)</source>
        <translation>QLoRA（4 位 NF4 基座）</translation>
    </message>
    <message>
        <source>Query heads a. Each head is h ÷ a wide, rounded down, unless Head dimension is set (More architecture fields).</source>
        <translation>查询头数 a。每个头的宽度为 h ÷ a（向下取整），除非设置了注意力头维度（见“更多结构字段”）。</translation>
    </message>
    <message>
        <source>SGD + momentum</source>
        <translation>SGD + 动量</translation>
    </message>
    <message>
        <source>SGD with momentum</source>
        <translation>带动量的 SGD</translation>
    </message>
    <message>
        <source>Sequence parallel (SP)</source>
        <translation>序列并行（SP）</translation>
    </message>
    <message>
        <source>Sequences per optimizer step. Accumulation steps = global batch ÷ (micro-batch × N_d). Empty: one micro-batch per step.</source>
        <translation>每个优化器步的序列数。梯度累积步数 = 全局批次 ÷ (微批次 × N_d)。留空：每步一个微批次。</translation>
    </message>
    <message>
        <source>Sets K, the optimizer-state bytes per parameter (Adam mixed precision: K = 12).</source>
        <translation>决定 K，即每个参数的优化器状态字节数（混合精度 Adam：K = 12）。</translation>
    </message>
    <message>
        <source>Tensor-parallel size: splits each layer&apos;s weights and most activations.</source>
        <translation>张量并行规模：切分每层的权重和大部分激活值。</translation>
    </message>
    <message>
        <source>The transformer block: it fixes which weights and activations a layer holds.</source>
        <translation>Transformer 块的类型：决定每层包含哪些权重和激活值。</translation>
    </message>
    <message>
        <source>Type of the weights, gradients and activations: 2 bytes per parameter for fp16/bf16, 4 for fp32.</source>
        <translation>权重、梯度和激活值的数据类型：fp16/bf16 每个参数 2 字节，fp32 为 4 字节。</translation>
    </message>
    <message>
        <source>Usable = memory × (1 − reserve).</source>
        <translation>可用显存 = 显存 × (1 − 预留比例)。</translation>
    </message>
    <message>
        <source>Vocabulary size V.</source>
        <translation>词表大小 V。</translation>
    </message>
    <message>
        <source>Whose accounting to follow: the ZeRO paper (the seed&apos;s 16Φ), DeepSpeed&apos;s estimators, or Megatron-LM&apos;s.</source>
        <translation>采用哪种计算口径：ZeRO 论文（教程中的 16Φ）、DeepSpeed 的估算器，或 Megatron-LM 的。</translation>
    </message>
    <message>
        <source>ZeRO paper</source>
        <translation>ZeRO 论文</translation>
    </message>
    <message>
        <source>ZeRO paper convention</source>
        <translation>ZeRO 论文口径</translation>
    </message>
    <message>
        <source>ZeRO-1 (optimizer states)</source>
        <translation>ZeRO-1（优化器状态）</translation>
    </message>
    <message>
        <source>ZeRO-2 (+ gradients)</source>
        <translation>ZeRO-2（+ 梯度）</translation>
    </message>
    <message>
        <source>ZeRO-3 / FSDP (+ parameters)</source>
        <translation>ZeRO-3 / FSDP（+ 参数）</translation>
    </message>
    <message>
        <source>ZeRO-Infinity parameter offload (ZeRO-3 only).</source>
        <translation>ZeRO-Infinity 参数卸载（仅限 ZeRO-3）。</translation>
    </message>
    <message>
        <source>ZeRO-Offload: optimizer states (KΦ) live in host memory.</source>
        <translation>ZeRO-Offload：优化器状态（KΦ）存放在主机内存中。</translation>
    </message>
    <message>
        <source>all parameters trained</source>
        <translation>训练全部参数</translation>
    </message>
    <message>
        <source>amp (fp32 weights, autocast)</source>
        <translation>amp（fp32 权重，autocast）</translation>
    </message>
    <message>
        <source>auto (the weights&apos; dtype)</source>
        <translation>auto（权重的数据类型）</translation>
    </message>
    <message>
        <source>automatic mixed precision</source>
        <translation>自动混合精度</translation>
    </message>
    <message>
        <source>base weights in the dtype</source>
        <translation>基座权重沿用数据类型</translation>
    </message>
    <message>
        <source>chunked (fused) cross-entropy</source>
        <translation>分块（融合）交叉熵</translation>
    </message>
    <message>
        <source>chunked loss</source>
        <translation>分块损失函数</translation>
    </message>
    <message>
        <source>default</source>
        <translation>默认</translation>
    </message>
    <message>
        <source>default: the framework&apos;s buckets</source>
        <translation>默认：框架自身的桶</translation>
    </message>
    <message>
        <source>default: {0}</source>
        <translation>默认：{0}</translation>
    </message>
    <message>
        <source>eager</source>
        <translation>Eager</translation>
    </message>
    <message>
        <source>eager attention</source>
        <translation>朴素注意力</translation>
    </message>
    <message>
        <source>flash / SDPA</source>
        <translation>Flash / SDPA</translation>
    </message>
    <message>
        <source>for-loop optimizer step</source>
        <translation>逐张量循环优化器步</translation>
    </message>
    <message>
        <source>foreach optimizer step</source>
        <translation>多张量批量优化器步</translation>
    </message>
    <message>
        <source>from the architecture</source>
        <translation>由模型结构得出</translation>
    </message>
    <message>
        <source>full</source>
        <translation>完全</translation>
    </message>
    <message>
        <source>full (every parameter)</source>
        <translation>full（全部参数）</translation>
    </message>
    <message>
        <source>full recomputation</source>
        <translation>完全重计算</translation>
    </message>
    <message>
        <source>fused kernels</source>
        <translation>融合算子</translation>
    </message>
    <message>
        <source>fused optimizer step</source>
        <translation>融合优化器步</translation>
    </message>
    <message>
        <source>fused-kernel activations</source>
        <translation>融合内核激活值</translation>
    </message>
    <message>
        <source>int8 (LLM.int8)</source>
        <translation>int8（LLM.int8）</translation>
    </message>
    <message>
        <source>mixed (fp32 master copy)</source>
        <translation>混合精度（fp32 主权重）</translation>
    </message>
    <message>
        <source>mixed precision</source>
        <translation>混合精度</translation>
    </message>
    <message>
        <source>no FP8</source>
        <translation>不用 FP8</translation>
    </message>
    <message>
        <source>no recomputation</source>
        <translation>不重计算</translation>
    </message>
    <message>
        <source>none</source>
        <translation>无</translation>
    </message>
    <message>
        <source>optional</source>
        <translation>可选</translation>
    </message>
    <message>
        <source>pure (dtype only)</source>
        <translation>纯精度（仅该类型）</translation>
    </message>
    <message>
        <source>pure precision (no master weights)</source>
        <translation>纯精度（无主权重）</translation>
    </message>
    <message>
        <source>selective</source>
        <translation>选择性</translation>
    </message>
    <message>
        <source>selective recomputation</source>
        <translation>选择性重计算</translation>
    </message>
    <message>
        <source>A GPU from the catalog (its memory as the vendor states it), or custom memory.</source>
        <translation>模型库中的 GPU（显存按厂商标称），或自定义显存。</translation>
    </message>
    <message>
        <source>A model from the catalog: its architecture gives Φ exactly and sizes the activations. Type to search.</source>
        <translation>模型库中的模型：其结构可精确给出 Φ 并用于估算激活值。输入文字即可搜索。</translation>
    </message>
    <message>
        <source>Defined by</source>
        <translation>定义方式</translation>
    </message>
    <message>
        <source>Preset</source>
        <translation>预设</translation>
    </message>
    <message>
        <source>Where Φ comes from. A parameter count alone sizes the model states (16Φ for mixed-precision Adam) but not the activations, which need the architecture.</source>
        <translation>Φ 的来源。仅凭参数量可以估算模型状态（混合精度 Adam 为 16Φ），但无法估算激活值，激活值需要模型结构。</translation>
    </message>
    <message>
        <source>architecture fields</source>
        <translation>结构字段</translation>
    </message>
    <message>
        <source>parameter count Φ</source>
        <translation>参数量 Φ</translation>
    </message>
    <message>
        <source>the preset or import</source>
        <translation>预设或导入</translation>
    </message>
    <message>
        <source>Sliding window</source>
        <translation>滑动窗口</translation>
    </message>
    <message>
        <source>Tokens a sliding-window layer attends to (config sliding_window); empty: none</source>
        <translation>滑动窗口层关注的词元数（config 中的 sliding_window）；留空：无滑动窗口</translation>
    </message>
    <message>
        <source>full attention</source>
        <translation>全注意力</translation>
    </message>
    <message>
        <source>Layer types</source>
        <translation>层类型</translation>
    </message>
    <message>
        <source>Per-layer attention as a repeating pattern: s sliding, f full (Gemma 2: sf, Gemma 3: sssssf); empty: every layer alike</source>
        <translation>逐层注意力类型的循环模式：s 为滑动窗口，f 为全注意力（Gemma 2：sf，Gemma 3：sssssf）；留空：所有层相同</translation>
    </message>
    <message>
        <source>every layer alike</source>
        <translation>所有层相同</translation>
    </message>
    <message>
        <source>Serve mode</source>
        <translation>推理部署模式</translation>
    </message>
    <message>
        <source>Plan serving the model (as vramgui serve does) instead of training it: the serving inputs apply, the training-only inputs do nothing</source>
        <translation>规划模型的推理部署（与 vramgui serve 相同）而不是训练：推理部署输入生效，仅用于训练的输入不起作用</translation>
    </message>
    <message>
        <source>Plan serving instead of training</source>
        <translation>规划推理部署而不是训练</translation>
    </message>
    <message>
        <source>Context length</source>
        <translation>上下文长度</translation>
    </message>
    <message>
        <source>Tokens per sequence, prompt and output together (vLLM max_model_len)</source>
        <translation>每个序列的词元数，提示与输出合计（vLLM 的 max_model_len）</translation>
    </message>
    <message>
        <source>Concurrent sequences</source>
        <translation>并发序列数</translation>
    </message>
    <message>
        <source>Sequences served at once, each of the full context length</source>
        <translation>同时服务的序列数，每个都达到完整上下文长度</translation>
    </message>
    <message>
        <source>Weight format</source>
        <translation>权重格式</translation>
    </message>
    <message>
        <source>How the weights are stored: 16-bit, FP8, bitsandbytes int8/NF4, GPTQ/AWQ 4-bit (group 128), or a GGUF file type</source>
        <translation>权重的存储方式：16 位、FP8、bitsandbytes int8/NF4、GPTQ/AWQ 4 位（分组 128）或某种 GGUF 文件类型</translation>
    </message>
    <message>
        <source>KV cache dtype</source>
        <translation>KV 缓存数据类型</translation>
    </message>
    <message>
        <source>auto: the model&apos;s 16-bit dtype; fp8 (vLLM); q8_0, q4_0 (llama.cpp)</source>
        <translation>auto：模型的 16 位数据类型；fp8（vLLM）；q8_0、q4_0（llama.cpp）</translation>
    </message>
    <message>
        <source>Engine</source>
        <translation>推理引擎</translation>
    </message>
    <message>
        <source>Whose allocation is reproduced: transformers (hf), vLLM or llama.cpp</source>
        <translation>复现哪个引擎的显存分配：transformers（hf）、vLLM 或 llama.cpp</translation>
    </message>
    <message>
        <source>Hugging Face transformers</source>
        <translation>Hugging Face transformers 库</translation>
    </message>
    <message>
        <source>GPU memory utilization</source>
        <translation>GPU 显存利用率</translation>
    </message>
    <message>
        <source>vLLM --gpu-memory-utilization: the share of each GPU&apos;s memory vLLM may use</source>
        <translation>vLLM --gpu-memory-utilization：vLLM 可使用的每张 GPU 显存比例</translation>
    </message>
    <message>
        <source>Max batched tokens</source>
        <translation>最大批处理词元数</translation>
    </message>
    <message>
        <source>vLLM --max-num-batched-tokens: the tokens of its profile run; empty: vLLM&apos;s default (8192 on GPUs of 70 GiB or more but A100, else 2048)</source>
        <translation>vLLM --max-num-batched-tokens：其分析运行的词元数；留空：vLLM 的默认值（70 GiB 及以上且非 A100 的 GPU 为 8192，否则为 2048）</translation>
    </message>
    <message>
        <source>vLLM&apos;s default</source>
        <translation>vLLM 默认值</translation>
    </message>
    <message>
        <source>KV cache memory</source>
        <translation>KV 缓存显存</translation>
    </message>
    <message>
        <source>vLLM --kv-cache-memory-bytes: the KV pool per GPU given directly (no profiling, utilization ignored); empty: what is left</source>
        <translation>vLLM --kv-cache-memory-bytes：直接给定每张 GPU 的 KV 池（不做分析，忽略利用率）；留空：使用剩余显存</translation>
    </message>
    <message>
        <source>what is left</source>
        <translation>剩余显存</translation>
    </message>
    <message>
        <source>Block size</source>
        <translation>块大小</translation>
    </message>
    <message>
        <source>vLLM --block-size: tokens per KV cache page</source>
        <translation>vLLM --block-size：每个 KV 缓存页的词元数</translation>
    </message>
    <message>
        <source>Micro-batch tokens</source>
        <translation>微批词元数</translation>
    </message>
    <message>
        <source>llama.cpp --ubatch-size: tokens per prefill step; the SWA cache keeps this many beyond the window</source>
        <translation>llama.cpp --ubatch-size：每步预填充的词元数；SWA 缓存在窗口之外再保留这么多</translation>
    </message>
    <message>
        <source>from the GPU preset</source>
        <translation>来自 GPU 预设</translation>
    </message>
    <message>
        <source>Dense bf16/fp16 tensor-core peak, TFLOP/s (not the sparsity figure)</source>
        <translation>稠密 bf16/fp16 张量核心峰值，TFLOP/s（非稀疏数值）</translation>
    </message>
    <message>
        <source>Dense FP8 tensor-core peak, TFLOP/s; empty: the GPU has none</source>
        <translation>稠密 FP8 张量核心峰值，TFLOP/s；留空：该 GPU 不支持</translation>
    </message>
    <message>
        <source>Dense TF32 tensor-core peak, TFLOP/s (fp32 training&apos;s matrix products)</source>
        <translation>稠密 TF32 张量核心峰值，TFLOP/s（fp32 训练的矩阵乘）</translation>
    </message>
    <message>
        <source>Peak BF16/FP16 TFLOP/s</source>
        <translation>BF16/FP16 峰值 TFLOP/s</translation>
    </message>
    <message>
        <source>Peak FP8 TFLOP/s</source>
        <translation>FP8 峰值 TFLOP/s</translation>
    </message>
    <message>
        <source>Peak TF32 TFLOP/s</source>
        <translation>TF32 峰值 TFLOP/s</translation>
    </message>
    <message>
        <source>Peak FP32 TFLOP/s</source>
        <translation>FP32 峰值 TFLOP/s</translation>
    </message>
    <message>
        <source>Plain fp32 peak (no tensor cores), TFLOP/s</source>
        <translation>普通 fp32 峰值（不用张量核心），TFLOP/s</translation>
    </message>
    <message>
        <source>Memory bandwidth</source>
        <translation>显存带宽</translation>
    </message>
    <message>
        <source>GPU memory bandwidth: 3.35TB/s, 2039GB/s</source>
        <translation>GPU 显存带宽：3.35TB/s、2039GB/s</translation>
    </message>
    <message>
        <source>GPU link</source>
        <translation>GPU 互连</translation>
    </message>
    <message>
        <source>The preset&apos;s GPU-to-GPU link inside a node, per GPU and direction (NVLink, else PCIe): 450GB/s</source>
        <translation>预设中节点内 GPU 之间的互连，每个 GPU 每个方向（NVLink，否则 PCIe）：450GB/s</translation>
    </message>
    <message>
        <source>Host link</source>
        <translation>主机链路</translation>
    </message>
    <message>
        <source>PCIe between the GPU and the host, per direction (offload): 63GB/s for PCIe 5.0 x16</source>
        <translation>GPU 与主机之间的 PCIe，每个方向（卸载）：PCIe 5.0 x16 为 63GB/s</translation>
    </message>
    <message>
        <source>Network port</source>
        <translation>网络端口</translation>
    </message>
    <message>
        <source>The network port per GPU of the preset&apos;s reference system (DGX H100: 400 Gb/s InfiniBand), per direction; empty: 200 Gb/s HDR</source>
        <translation>预设参考系统中每个 GPU 的网络端口（DGX H100：400 Gb/s InfiniBand），每个方向；留空：200 Gb/s HDR</translation>
    </message>
    <message>
        <source>Network bandwidth per GPU and direction between nodes: 200Gb/s, 50GB/s; empty: the GPU preset&apos;s network port, else one 200 Gb/s InfiniBand HDR port per GPU (25 GB/s)</source>
        <translation>节点之间每个 GPU 每个方向的网络带宽：200Gb/s、50GB/s；留空：GPU 预设的网络端口，否则每个 GPU 一个 200 Gb/s InfiniBand HDR 端口（25 GB/s）</translation>
    </message>
    <message>
        <source>Training tokens</source>
        <translation>训练 token 数</translation>
    </message>
    <message>
        <source>Tokens of the whole run (300B, 1T): days to train, GPU-hours and cost</source>
        <translation>整个训练的 token 数（300B、1T）：用于训练天数、GPU 小时与费用</translation>
    </message>
    <message>
        <source>Price per GPU-hour</source>
        <translation>每 GPU 小时价格</translation>
    </message>
    <message>
        <source>What one GPU costs for one hour, in any currency: the run&apos;s cost</source>
        <translation>一个 GPU 一小时的价格（任意货币）：用于计算训练费用</translation>
    </message>
    <message>
        <source>Achieved TFLOP/s</source>
        <translation>实测 TFLOP/s</translation>
    </message>
    <message>
        <source>TFLOP/s per GPU a run reached, recomputation included (as Narayanan et al. 2021 count them), in place of the predicted step time</source>
        <translation>一次训练实际达到的每 GPU TFLOP/s（含重计算，按 Narayanan 等 2021 的计法），代替预测的步骤时间</translation>
    </message>
    <message>
        <source>predicted</source>
        <translation>预测</translation>
    </message>
    <message>
        <source>Bandwidth inside a node</source>
        <translation>节点内带宽</translation>
    </message>
    <message>
        <source>GPU-to-GPU bandwidth inside a node, per GPU and direction: 300GB/s; empty: the GPU preset&apos;s link</source>
        <translation>节点内 GPU 之间的带宽，每个 GPU 每个方向：300GB/s；留空：GPU 预设的互连</translation>
    </message>
    <message>
        <source>Bandwidth between nodes</source>
        <translation>节点间带宽</translation>
    </message>
</context>
<context>
    <name>Form</name>
    <message>
        <source>Allowed: {0}</source>
        <translation>允许：{0}</translation>
    </message>
</context>
<context>
    <name>FormGroups</name>
    <message>
        <source>{0} set</source>
        <translation>已设 {0} 项</translation>
    </message>
</context>
<context>
    <name>FormulasDialog</name>
    <message>
        <source>Formulas and sources</source>
        <translation>公式与来源</translation>
    </message>
    <message>
        <source>Model states per GPU</source>
        <translation>单卡模型状态</translation>
    </message>
    <message>
        <source>Φ is the number of parameters, N_d the data-parallel size (GPUs ÷ (TP × PP)), and K the optimizer-state bytes per parameter. Mixed-precision Adam keeps fp16/bf16 weights (2Φ) and gradients (2Φ) and, in the optimizer, an fp32 master copy, momentum and variance (K = 4 + 4 + 4 = 12): 2Φ + 2Φ + 12Φ = 16Φ bytes.</source>
        <translation>Φ 为参数量，N_d 为数据并行规模（GPU 数 ÷ (TP × PP)），K 为每个参数的优化器状态字节数。混合精度 Adam 保存 fp16/bf16 权重（2Φ）和梯度（2Φ），并在优化器中保存 fp32 主权重、动量和方差（K = 4 + 4 + 4 = 12）：2Φ + 2Φ + 12Φ = 16Φ 字节。</translation>
    </message>
    <message>
        <source>Strategy</source>
        <translation>策略</translation>
    </message>
    <message>
        <source>Bytes per GPU</source>
        <translation>单卡字节数</translation>
    </message>
    <message>
        <source>7B, Adam, N_d = 8</source>
        <translation>7B，Adam，N_d = 8</translation>
    </message>
    <message>
        <source>Largest trainable model: Φ_max = usable ÷ bytes per parameter, where usable = GPU memory × (1 − reserve). 8 × 80 GB with 20 % reserved: 4B parameters under DDP, 32B under ZeRO-3.</source>
        <translation>可训练的最大模型：Φ_max = 可用显存 ÷ 每个参数的字节数，其中可用显存 = 显存 × (1 − 预留)。8 × 80 GB、预留 20 % 时：DDP 下为 4B 参数，ZeRO-3 下为 32B。</translation>
    </message>
    <message>
        <source>Gradient accumulation: steps = global batch ÷ (micro-batch × N_d). It does not lower the memory of one step; it reaches a large global batch with a small micro-batch.</source>
        <translation>梯度累积：步数 = 全局批次 ÷ (微批次 × N_d)。它不会降低单步的显存，而是用较小的微批次达到较大的全局批次。</translation>
    </message>
    <message>
        <source>Activations depend on the architecture, micro-batch b, sequence length s, hidden size h, heads a and layers L; the per-layer terms follow Korthikanti et al. 2022 (34sbh + 5as²b bytes per layer in fp16 without recomputation), adjusted for the implementation, recomputation, flash attention, TP and SP.</source>
        <translation>激活值取决于模型结构、微批次 b、序列长度 s、隐藏层大小 h、注意力头数 a 和层数 L；每层各项遵循 Korthikanti 等人 2022 年的论文（fp16、不重计算时每层 34sbh + 5as²b 字节），并按实现方式、重计算、Flash Attention、TP 和 SP 调整。</translation>
    </message>
    <message>
        <source>Sources</source>
        <translation>来源</translation>
    </message>
    <message>
        <source>Rajbhandari et al., ZeRO: Memory Optimizations Toward Training Trillion Parameter Models, SC 2020 (arXiv:1910.02054), §3 and Figure 1.</source>
        <translation>Rajbhandari 等，ZeRO: Memory Optimizations Toward Training Trillion Parameter Models，SC 2020（arXiv:1910.02054），第 3 节与图 1。</translation>
    </message>
    <message>
        <source>Ren et al., ZeRO-Offload, USENIX ATC 2021; Rajbhandari et al., ZeRO-Infinity, SC 2021.</source>
        <translation>Ren 等，ZeRO-Offload，USENIX ATC 2021；Rajbhandari 等，ZeRO-Infinity，SC 2021。</translation>
    </message>
    <message>
        <source>Korthikanti et al., Reducing Activation Recomputation in Large Transformer Models, 2022 (arXiv:2205.05198).</source>
        <translation>Korthikanti 等，Reducing Activation Recomputation in Large Transformer Models，2022（arXiv:2205.05198）。</translation>
    </message>
    <message>
        <source>DeepSpeed: estimate_zero2_model_states_mem_needs / estimate_zero3_model_states_mem_needs; Megatron-LM distributed optimizer documentation.</source>
        <translation>DeepSpeed：estimate_zero2_model_states_mem_needs / estimate_zero3_model_states_mem_needs；Megatron-LM 分布式优化器文档。</translation>
    </message>
    <message>
        <source>The current scenario, term by term</source>
        <translation>当前方案，逐项展开</translation>
    </message>
</context>
<context>
    <name>ImageFiles</name>
    <message>
        <source>the chart could not be encoded as PNG</source>
        <translation>无法将图表编码为 PNG</translation>
    </message>
</context>
<context>
    <name>ImportSummaryDialog</name>
    <message>
        <source>Key</source>
        <translation>键</translation>
    </message>
    <message>
        <source>What vramgui did with it</source>
        <translation>vramgui 如何处理</translation>
    </message>
</context>
<context>
    <name>InputPanel</name>
    <message>
        <source>Search presets…</source>
        <translation>搜索预设…</translation>
    </message>
    <message>
        <source>Import…</source>
        <translation>导入…</translation>
    </message>
    <message>
        <source>Import a Hugging Face config.json, or a model folder containing one</source>
        <translation>导入 Hugging Face 的 config.json，或包含它的模型文件夹</translation>
    </message>
    <message>
        <source>More architecture fields</source>
        <translation>更多结构字段</translation>
    </message>
    <message>
        <source>Essentials</source>
        <translation>基本设置</translation>
    </message>
    <message>
        <source>Model</source>
        <translation>模型</translation>
    </message>
    <message>
        <source>Training</source>
        <translation>训练</translation>
    </message>
    <message>
        <source>Fine-tuning</source>
        <translation>微调</translation>
    </message>
    <message>
        <source>Hardware</source>
        <translation>硬件</translation>
    </message>
    <message>
        <source>Strategy</source>
        <translation>策略</translation>
    </message>
    <message>
        <source>Time and cost</source>
        <translation>时间与费用</translation>
    </message>
    <message>
        <source>Overheads</source>
        <translation>固定开销</translation>
    </message>
    <message>
        <source>sequences</source>
        <translation>条序列</translation>
    </message>
    <message>
        <source>tokens</source>
        <translation>个 token</translation>
    </message>
    <message>
        <source>GPUs</source>
        <translation>张 GPU</translation>
    </message>
    <message>
        <source>Serving</source>
        <translation>推理部署</translation>
    </message>
</context>
<context>
    <name>Inputs</name>
    <message>
        <source>{0}: not given</source>
        <translation>{0}：未指定</translation>
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
        <source>, </source>
        <translation>，</translation>
    </message>
</context>
<context>
    <name>MainPresenter</name>
    <message>
        <source>= {gb}: vendors&apos; “{k}GB” is {k} GiB</source>
        <translation>= {gb}：厂商标称的“{k}GB”即 {k} GiB</translation>
    </message>
    <message>
        <source>= {gib}</source>
        <translation>= {gib}</translation>
    </message>
    <message>
        <source>1 node</source>
        <translation>1 个节点</translation>
    </message>
    <message>
        <source>{0:,} nodes</source>
        <translation>{0:,} 个节点</translation>
    </message>
    <message>
        <source>{0:,} nodes, the last with {1:,} GPUs</source>
        <translation>{0:,} 个节点，最后一个节点有 {1:,} 张 GPU</translation>
    </message>
    <message>
        <source>Custom memory</source>
        <translation>自定义显存</translation>
    </message>
    <message>
        <source>(none: custom model)</source>
        <translation>（无：自定义模型）</translation>
    </message>
    <message>
        <source>{0} (imported)</source>
        <translation>{0}（已导入）</translation>
    </message>
    <message>
        <source>Cannot import {0}: {1}</source>
        <translation>无法导入 {0}：{1}</translation>
    </message>
    <message>
        <source>Internal error, please report it: {0}</source>
        <translation>内部错误，请报告：{0}</translation>
    </message>
    <message>
        <source>To edit the architecture, set Defined by to the architecture fields</source>
        <translation>要编辑模型结构，请将“定义方式”设为“结构字段”</translation>
    </message>
    <message>
        <source>Counted from the architecture; to type a count, set Defined by to the parameter count Φ</source>
        <translation>由模型结构计算得出；要直接输入数量，请将“定义方式”设为“参数量 Φ”</translation>
    </message>
    <message>
        <source>{0}, {1} active</source>
        <translation>{0}，激活 {1}</translation>
    </message>
    <message>
        <source>Not updated: {0}</source>
        <translation>未更新：{0}</translation>
    </message>
</context>
<context>
    <name>MainWindow</name>
    <message>
        <source>Export chart as PNG</source>
        <translation>导出图表为 PNG</translation>
    </message>
    <message>
        <source>PNG images (*.png)</source>
        <translation>PNG 图像 (*.png)</translation>
    </message>
    <message>
        <source>Export failed</source>
        <translation>导出失败</translation>
    </message>
    <message>
        <source>Could not write {0}: {1}</source>
        <translation>无法写入 {0}：{1}</translation>
    </message>
    <message>
        <source>Chart saved to {0}</source>
        <translation>图表已保存到 {0}</translation>
    </message>
    <message>
        <source>Export data as CSV</source>
        <translation>导出数据为 CSV</translation>
    </message>
    <message>
        <source>CSV files (*.csv)</source>
        <translation>CSV 文件 (*.csv)</translation>
    </message>
    <message>
        <source>Data saved to {0}</source>
        <translation>数据已保存到 {0}</translation>
    </message>
    <message>
        <source>Open scenario</source>
        <translation>打开方案</translation>
    </message>
    <message>
        <source>vramgui scenarios (*.json);;All files (*)</source>
        <translation>vramgui 方案 (*.json);;所有文件 (*)</translation>
    </message>
    <message>
        <source>Cannot open scenario</source>
        <translation>无法打开方案</translation>
    </message>
    <message>
        <source>Opened {0}</source>
        <translation>已打开 {0}</translation>
    </message>
    <message>
        <source>Save scenario</source>
        <translation>保存方案</translation>
    </message>
    <message>
        <source>Untitled</source>
        <translation>未命名</translation>
    </message>
    <message>
        <source>{0}[*] - vramgui</source>
        <translation>{0}[*] - vramgui</translation>
    </message>
    <message>
        <source>Unsaved changes</source>
        <translation>未保存的更改</translation>
    </message>
    <message>
        <source>The scenario “{0}” has changes that are not saved. Save them?</source>
        <translation>方案“{0}”有未保存的更改。是否保存？</translation>
    </message>
    <message>
        <source>vramgui scenarios (*.json)</source>
        <translation>vramgui 方案 (*.json)</translation>
    </message>
    <message>
        <source>Cannot save scenario</source>
        <translation>无法保存方案</translation>
    </message>
    <message>
        <source>{0} was not saved: {1}
The file on disk is unchanged.</source>
        <translation>{0} 未能保存：{1}
磁盘上的文件保持不变。</translation>
    </message>
    <message>
        <source>Saved {0}</source>
        <translation>已保存 {0}</translation>
    </message>
    <message>
        <source>Open training config</source>
        <translation>打开训练配置</translation>
    </message>
    <message>
        <source>Training configs (*.json *.yaml *.yml);;All files (*)</source>
        <translation>训练配置 (*.json *.yaml *.yml);;所有文件 (*)</translation>
    </message>
    <message>
        <source>Cannot open training config</source>
        <translation>无法打开训练配置</translation>
    </message>
    <message>
        <source>Read from {0}</source>
        <translation>读取自 {0}</translation>
    </message>
    <message>
        <source>Opened the training config {0}</source>
        <translation>已打开训练配置 {0}</translation>
    </message>
    <message>
        <source>{0} config: {1}</source>
        <translation>{0} 配置：{1}</translation>
    </message>
    <message>
        <source>Model</source>
        <translation>模型</translation>
    </message>
    <message>
        <source>{0} = {1}</source>
        <translation>{0} = {1}</translation>
    </message>
    <message>
        <source> ({0})</source>
        <translation>（{0}）</translation>
    </message>
    <message>
        <source>Taken ({0})</source>
        <translation>已采用（{0}）</translation>
    </message>
    <message>
        <source>Unresolved: changes memory, not read ({0})</source>
        <translation>未解析：会改变显存但无法读取（{0}）</translation>
    </message>
    <message>
        <source>{0}: {1}</source>
        <translation>{0}：{1}</translation>
    </message>
    <message>
        <source>Ignored ({0})</source>
        <translation>已忽略（{0}）</translation>
    </message>
    <message>
        <source>Export plan</source>
        <translation>导出计划</translation>
    </message>
    <message>
        <source>DeepSpeed config (*.json);;accelerate config (*.yaml);;torchrun command (*.sh)</source>
        <translation>DeepSpeed 配置 (*.json);;accelerate 配置 (*.yaml);;torchrun 命令 (*.sh)</translation>
    </message>
    <message>
        <source>Plan exported</source>
        <translation>计划已导出</translation>
    </message>
    <message>
        <source>Saved to {0}.</source>
        <translation>已保存到 {0}。</translation>
    </message>
    <message>
        <source>Plan exported to {0}</source>
        <translation>计划已导出到 {0}</translation>
    </message>
    <message>
        <source>&amp;Clear list</source>
        <translation>清除列表(&amp;C)</translation>
    </message>
    <message>
        <source>Import model config</source>
        <translation>导入模型配置</translation>
    </message>
    <message>
        <source>Model configs (config.json *.json);;All files (*)</source>
        <translation>模型配置 (config.json *.json);;所有文件 (*)</translation>
    </message>
    <message>
        <source>Import model folder</source>
        <translation>导入模型文件夹</translation>
    </message>
    <message>
        <source>Memory per GPU (GB)</source>
        <translation>单卡显存（GB）</translation>
    </message>
    <message>
        <source>Peak memory per GPU against the number of GPUs</source>
        <translation>单卡峰值显存随 GPU 数量的变化</translation>
    </message>
    <message>
        <source>Largest trainable model against the number of GPUs</source>
        <translation>可训练的最大模型随 GPU 数量的变化</translation>
    </message>
    <message>
        <source>Largest model (billion parameters)</source>
        <translation>最大模型（十亿参数）</translation>
    </message>
    <message>
        <source>Memory per GPU against the context length</source>
        <translation>单卡显存随上下文长度的变化</translation>
    </message>
    <message>
        <source>Context length, tokens (log₂ scale)</source>
        <translation>上下文长度，token（log₂ 刻度）</translation>
    </message>
    <message>
        <source>{0:,} tokens</source>
        <translation>{0:,} 个 token</translation>
    </message>
    <message>
        <source>By strategy</source>
        <translation>按策略</translation>
    </message>
    <message>
        <source>Time and cost</source>
        <translation>时间与费用</translation>
    </message>
    <message>
        <source>By GPU count</source>
        <translation>按 GPU 数量</translation>
    </message>
    <message>
        <source>One training step</source>
        <translation>一个训练步</translation>
    </message>
    <message>
        <source>Largest model</source>
        <translation>最大模型</translation>
    </message>
    <message>
        <source>Plans</source>
        <translation>计划</translation>
    </message>
    <message>
        <source>Compare</source>
        <translation>对比</translation>
    </message>
    <message>
        <source>Serving</source>
        <translation>推理部署</translation>
    </message>
    <message>
        <source>Breakdown of the chosen strategy</source>
        <translation>所选策略的显存明细</translation>
    </message>
    <message>
        <source>Copy table</source>
        <translation>复制表格</translation>
    </message>
    <message>
        <source>Copy the table as tab-separated text (pastes into a spreadsheet)</source>
        <translation>以制表符分隔的文本复制表格（可粘贴到电子表格）</translation>
    </message>
    <message>
        <source>Memory per GPU ({0})</source>
        <translation>单卡显存（{0}）</translation>
    </message>
    <message>
        <source>Chart copied to the clipboard</source>
        <translation>图表已复制到剪贴板</translation>
    </message>
    <message>
        <source>Table copied to the clipboard</source>
        <translation>表格已复制到剪贴板</translation>
    </message>
    <message>
        <source>&amp;File</source>
        <translation>文件(&amp;F)</translation>
    </message>
    <message>
        <source>&amp;Open scenario…</source>
        <translation>打开方案(&amp;O)…</translation>
    </message>
    <message>
        <source>&amp;Save scenario</source>
        <translation>保存方案(&amp;S)</translation>
    </message>
    <message>
        <source>Save scenario &amp;as…</source>
        <translation>方案另存为(&amp;A)…</translation>
    </message>
    <message>
        <source>Open &amp;training config…</source>
        <translation>打开训练配置(&amp;T)…</translation>
    </message>
    <message>
        <source>Plan the run a DeepSpeed, accelerate, axolotl, LLaMA-Factory, torchtune or TrainingArguments config describes</source>
        <translation>规划 DeepSpeed、accelerate、axolotl、LLaMA-Factory、torchtune 或 TrainingArguments 配置所描述的训练任务</translation>
    </message>
    <message>
        <source>E&amp;xport plan…</source>
        <translation>导出计划(&amp;X)…</translation>
    </message>
    <message>
        <source>Write the plan as a DeepSpeed JSON, an accelerate YAML or a torchrun command</source>
        <translation>将计划写成 DeepSpeed JSON、accelerate YAML 或 torchrun 命令</translation>
    </message>
    <message>
        <source>&amp;Import config.json…</source>
        <translation>导入 config.json(&amp;I)…</translation>
    </message>
    <message>
        <source>Read the model from a Hugging Face config.json</source>
        <translation>从 Hugging Face 的 config.json 读取模型</translation>
    </message>
    <message>
        <source>Import model &amp;folder…</source>
        <translation>导入模型文件夹(&amp;F)…</translation>
    </message>
    <message>
        <source>&amp;Export chart as PNG…</source>
        <translation>导出图表为 PNG(&amp;E)…</translation>
    </message>
    <message>
        <source>Export &amp;data as CSV…</source>
        <translation>导出数据为 CSV(&amp;D)…</translation>
    </message>
    <message>
        <source>&amp;Copy chart to clipboard</source>
        <translation>复制图表到剪贴板(&amp;C)</translation>
    </message>
    <message>
        <source>&amp;Pin scenario for comparison</source>
        <translation>固定方案以便对比(&amp;P)</translation>
    </message>
    <message>
        <source>Add the current scenario to the Compare tab</source>
        <translation>将当前方案加入“对比”标签页</translation>
    </message>
    <message>
        <source>Open co&amp;mparison…</source>
        <translation>打开对比(&amp;M)…</translation>
    </message>
    <message>
        <source>Replace the pinned scenarios with a saved comparison</source>
        <translation>用已保存的对比替换已固定的方案</translation>
    </message>
    <message>
        <source>Save compariso&amp;n…</source>
        <translation>保存对比(&amp;N)…</translation>
    </message>
    <message>
        <source>Save the pinned scenarios in one file</source>
        <translation>将已固定的方案保存到一个文件</translation>
    </message>
    <message>
        <source>&amp;Quit</source>
        <translation>退出(&amp;Q)</translation>
    </message>
    <message>
        <source>Open &amp;recent</source>
        <translation>最近打开(&amp;R)</translation>
    </message>
    <message>
        <source>PNG export &amp;width</source>
        <translation>PNG 导出宽度(&amp;W)</translation>
    </message>
    <message>
        <source>{0} px</source>
        <translation>{0} 像素</translation>
    </message>
    <message>
        <source>&amp;View</source>
        <translation>视图(&amp;V)</translation>
    </message>
    <message>
        <source>Units: &amp;GB (10⁹ bytes)</source>
        <translation>单位：GB（10⁹ 字节）(&amp;G)</translation>
    </message>
    <message>
        <source>Units: G&amp;iB (2³⁰ bytes)</source>
        <translation>单位：GiB（2³⁰ 字节）(&amp;I)</translation>
    </message>
    <message>
        <source>Chart: by &amp;strategy</source>
        <translation>图表：按策略(&amp;S)</translation>
    </message>
    <message>
        <source>Chart: one training s&amp;tep</source>
        <translation>图表：一个训练步(&amp;T)</translation>
    </message>
    <message>
        <source>Chart: by GPU &amp;count</source>
        <translation>图表：按 GPU 数量(&amp;C)</translation>
    </message>
    <message>
        <source>Chart: time &amp;and cost</source>
        <translation>图表：时间与费用(&amp;A)</translation>
    </message>
    <message>
        <source>Chart: ser&amp;ving</source>
        <translation>图表：推理部署(&amp;V)</translation>
    </message>
    <message>
        <source>C&amp;ompare pinned scenarios</source>
        <translation>对比已固定的方案(&amp;O)</translation>
    </message>
    <message>
        <source>Chart: largest &amp;model</source>
        <translation>图表：最大模型(&amp;M)</translation>
    </message>
    <message>
        <source>Chart: &amp;plans that fit</source>
        <translation>图表：装得下的计划(&amp;P)</translation>
    </message>
    <message>
        <source>&amp;Help</source>
        <translation>帮助(&amp;H)</translation>
    </message>
    <message>
        <source>&amp;Formulas and sources</source>
        <translation>公式与来源(&amp;F)</translation>
    </message>
    <message>
        <source>&amp;About vramgui</source>
        <translation>关于 vramgui(&amp;A)</translation>
    </message>
    <message>
        <source>&amp;Language</source>
        <translation>语言(&amp;L)</translation>
    </message>
    <message>
        <source>System default</source>
        <translation>跟随系统</translation>
    </message>
    <message>
        <source>Language applied: {0}</source>
        <translation>已切换语言：{0}</translation>
    </message>
</context>
<context>
    <name>PeakMarks</name>
    <message>
        <source>step peak (decides fits)</source>
        <translation>训练步峰值（决定能否装下）</translation>
    </message>
    <message>
        <source>{0} does not fit</source>
        <translation>{0} 装不下</translation>
    </message>
</context>
<context>
    <name>PinnedTable</name>
    <message>
        <source>The time of one optimizer step over the whole global batch</source>
        <translation>整个全局批次上一次优化器步的时间</translation>
    </message>
    <message>
        <source>Tokens per second of the whole job</source>
        <translation>整个作业每秒处理的 token 数</translation>
    </message>
    <message>
        <source>The training tokens given, at this throughput</source>
        <translation>按此吞吐量训练所给的 token 数所需的时间</translation>
    </message>
    <message>
        <source>GPU-hours times the GPU-hour price given</source>
        <translation>GPU 小时数乘以所给的每 GPU 小时价格</translation>
    </message>
</context>
<context>
    <name>PlanChart</name>
    <message>
        <source>Plans searched: step peak against step time</source>
        <translation>已搜索的计划：训练步峰值与步时间</translation>
    </message>
    <message>
        <source>Step time, seconds (log scale)</source>
        <translation>步时间，秒（对数刻度）</translation>
    </message>
    <message>
        <source>Step peak per GPU (GB)</source>
        <translation>单卡训练步峰值（GB）</translation>
    </message>
    <message>
        <source>capacity {0:,.1f} {1}</source>
        <translation>容量 {0:,.1f} {1}</translation>
    </message>
    <message>
        <source>usable {0:,.1f} {1}</source>
        <translation>可用 {0:,.1f} {1}</translation>
    </message>
</context>
<context>
    <name>PlanPanel</name>
    <message>
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
    <message>
        <source>Stop the search; the plans are not searched again until you ask</source>
        <translation>停止搜索；在您再次要求之前不会重新搜索计划</translation>
    </message>
    <message>
        <source>Search plans</source>
        <translation>搜索计划</translation>
    </message>
    <message>
        <source>Search every layout, ZeRO stage, recomputation, micro-batch and offload for the plans that fit</source>
        <translation>在所有布局、ZeRO 阶段、重计算、微批次与卸载组合中搜索装得下的计划</translation>
    </message>
</context>
<context>
    <name>Plans</name>
    <message>
        <source>Internal error, please report it: {0}</source>
        <translation>内部错误，请报告：{0}</translation>
    </message>
    <message>
        <source>Searching plans on {0} GPUs…</source>
        <translation>正在 {0} 个 GPU 上搜索计划…</translation>
    </message>
    <message>
        <source>Search cancelled: the chart shows the plans of an earlier scenario.</source>
        <translation>搜索已取消：图表显示的是先前方案的计划。</translation>
    </message>
    <message>
        <source>Search cancelled.</source>
        <translation>搜索已取消。</translation>
    </message>
    <message>
        <source>The plans are searched when this tab is shown.</source>
        <translation>显示此标签页时才会搜索计划。</translation>
    </message>
    <message>
        <source>DP {0}</source>
        <translation>DP {0}</translation>
    </message>
    <message>
        <source>{0}, {1}</source>
        <translation>{0}，{1}</translation>
    </message>
    <message>
        <source>Fastest plan that fits</source>
        <translation>装得下的最快计划</translation>
    </message>
    <message>
        <source>Fits</source>
        <translation>装得下</translation>
    </message>
    <message>
        <source>Does not fit</source>
        <translation>装不下</translation>
    </message>
    <message>
        <source>Step time {0} · peak {1} per GPU</source>
        <translation>步时间 {0} · 单卡峰值 {1}</translation>
    </message>
    <message>
        <source>Click to apply this plan</source>
        <translation>点击应用此计划</translation>
    </message>
    <message>
        <source>{gpus} GPUs, global batch {batch}: {plans} plans searched over {layouts} layouts, {fit} fit.</source>
        <translation>{gpus} 个 GPU，全局批次 {batch}：在 {layouts} 种布局中搜索了 {plans} 个计划，其中 {fit} 个装得下。</translation>
    </message>
    <message>
        <source>No layout of {0} GPUs takes the global batch {1} (the data-parallel size must divide it): change the number of GPUs or the global batch.</source>
        <translation>{0} 个 GPU 的任何布局都无法承接全局批次 {1}（数据并行规模必须整除它）：请更改 GPU 数量或全局批次。</translation>
    </message>
    <message>
        <source>Nothing fits on {0} GPUs: even the most frugal plan (full recomputation, the most sharded strategy with offload) needs {1} at the step&apos;s peak, more than the usable {2}. Try more GPUs, a shorter sequence or a smaller global batch.</source>
        <translation>{0} 个 GPU 上没有装得下的计划：即使最节省的计划（完全重计算、切分最彻底并带卸载的策略）在训练步峰值也需要 {1}，超过可用的 {2}。请尝试更多 GPU、更短的序列或更小的全局批次。</translation>
    </message>
    <message>
        <source>Step peak per GPU ({0})</source>
        <translation>单卡训练步峰值（{0}）</translation>
    </message>
    <message>
        <source>fits ({0})</source>
        <translation>装得下（{0}）</translation>
    </message>
    <message>
        <source>does not fit ({0})</source>
        <translation>装不下（{0}）</translation>
    </message>
    <message>
        <source>fastest that fits</source>
        <translation>装得下的最快计划</translation>
    </message>
    <message>
        <source>Fastest that fits: {0}, {1} per step, peak {2}.</source>
        <translation>装得下的最快计划：{0}，每步 {1}，峰值 {2}。</translation>
    </message>
    <message>
        <source>fastest: {0}</source>
        <translation>最快：{0}</translation>
    </message>
    <message>
        <source>Searching plans on {0} GPUs: layout {1} of {2}</source>
        <translation>正在 {0} 个 GPU 上搜索计划：布局 {1} / {2}</translation>
    </message>
    <message>
        <source>Searching plans on {0} GPUs: ranking the layouts that fit, {1} of {2}</source>
        <translation>正在 {0} 个 GPU 上搜索计划：为装得下的布局排序，{1} / {2}</translation>
    </message>
</context>
<context>
    <name>Results</name>
    <message>
        <source>GPU</source>
        <translation>GPU</translation>
    </message>
    <message>
        <source>{model} on {n} × {gpu}</source>
        <translation>{model}，{n} × {gpu}</translation>
    </message>
    <message>
        <source>{total} per GPU</source>
        <translation>单卡 {total}</translation>
    </message>
    <message>
        <source>Fit not judged: enter the GPU memory</source>
        <translation>未判断能否装下：请输入显存</translation>
    </message>
    <message>
        <source>Fits: {usable} usable of {capacity} ({reserve:g} % reserved)</source>
        <translation>能装下：可用显存 {usable}，共 {capacity}（预留 {reserve:g} %）</translation>
    </message>
    <message>
        <source>Does not fit: {usable} usable of {capacity} ({reserve:g} % reserved)</source>
        <translation>装不下：可用显存 {usable}，共 {capacity}（预留 {reserve:g} %）</translation>
    </message>
    <message>
        <source>{h} free</source>
        <translation>剩余 {h}</translation>
    </message>
    <message>
        <source>{h} short</source>
        <translation>缺少 {h}</translation>
    </message>
    <message>
        <source>1 (no global batch set)</source>
        <translation>1（未设置全局批次）</translation>
    </message>
    <message>
        <source>{k} (global batch {g} = micro-batch {b} × N_d {dp} × {k})</source>
        <translation>{k}（全局批次 {g} = 微批次 {b} × N_d {dp} × {k}）</translation>
    </message>
    <message>
        <source>— (needs the architecture: choose a preset or import a config)</source>
        <translation>—（需要模型结构：请选择预设或导入配置）</translation>
    </message>
    <message>
        <source>none fits</source>
        <translation>都装不下</translation>
    </message>
    <message>
        <source>{n} × {s:,} tokens</source>
        <translation>{n} × {s:,} token</translation>
    </message>
    <message>
        <source>{h} per node</source>
        <translation>每节点 {h}</translation>
    </message>
    <message>
        <source>no offload</source>
        <translation>无卸载</translation>
    </message>
    <message>
        <source>{trainable} ({share} % of {params})</source>
        <translation>{trainable}（占 {params} 的 {share} %）</translation>
    </message>
    <message>
        <source>not estimated</source>
        <translation>未估算</translation>
    </message>
    <message>
        <source>Total per GPU</source>
        <translation>单卡总计</translation>
    </message>
    <message>
        <source>{phase}, {step}</source>
        <translation>{phase}，{step}</translation>
    </message>
    <message>
        <source>at the {phase}, {step}</source>
        <translation>出现在{phase}，{step}</translation>
    </message>
    <message>
        <source>Total: {t}</source>
        <translation>总计：{t}</translation>
    </message>
    <message>
        <source>Step peak: {peak} ({moment}) — sum of components: {total}</source>
        <translation>训练步峰值：{peak}（{moment}）— 组成部分之和：{total}</translation>
    </message>
    <message>
        <source>peak {0}</source>
        <translation>峰值 {0}</translation>
    </message>
    <message>
        <source>sum {0}</source>
        <translation>总和 {0}</translation>
    </message>
    <message>
        <source>sum of components (the conventions&apos; figure): {total}</source>
        <translation>组成部分之和（各约定的数字）：{total}</translation>
    </message>
    <message>
        <source>P + G + O + A + fixed terms per GPU, as the ZeRO paper, DeepSpeed and Megatron-LM count it. No moment of a training step holds exactly this: the fit and the headroom are judged by the step&apos;s peak.</source>
        <translation>ZeRO 论文、DeepSpeed 和 Megatron-LM 计算的单卡 P + G + O + A + 固定项。训练步中没有任何时刻恰好持有这么多：能否装下和余量都按训练步的峰值判断。</translation>
    </message>
    <message>
        <source>Peak {peak} per GPU</source>
        <translation>单卡峰值 {peak}</translation>
    </message>
    <message>
        <source>peak
{0}</source>
        <translation>峰值
{0}</translation>
    </message>
    <message>
        <source>{0}, as given (Extra memory)</source>
        <translation>{0}，按输入值（额外显存）</translation>
    </message>
    <message>
        <source>explicit input</source>
        <translation>显式输入</translation>
    </message>
    <message>
        <source>{part} live now, of {whole}</source>
        <translation>此刻驻留 {part}，共 {whole}</translation>
    </message>
    <message>
        <source>Not live at this moment: {0}</source>
        <translation>此刻未驻留：{0}</translation>
    </message>
    <message>
        <source>Peak per GPU</source>
        <translation>单卡峰值</translation>
    </message>
    <message>
        <source>{0} (not limited by GPU memory)</source>
        <translation>{0}（不受显存限制）</translation>
    </message>
    <message>
        <source>Activations alone exceed the usable memory at {s:,} tokens, micro-batch {b}: {act} of {usable} per GPU, so no model fits at any number of GPUs. A shorter sequence, recomputation or tensor / sequence parallelism lowers them.</source>
        <translation>在 {s:,} 个 token、微批次 {b} 时，仅激活值就超出了可用显存：每卡 {act}，可用 {usable}，因此无论多少 GPU 都装不下任何模型。缩短序列、使用重计算或张量 / 序列并行可降低激活值。</translation>
    </message>
    <message>
        <source>Activations and fixed terms exceed the usable memory at {s:,} tokens, micro-batch {b}: {need} of {usable} per GPU ({parts}), so no model fits at any number of GPUs.</source>
        <translation>在 {s:,} 个 token、微批次 {b} 时，激活值与固定项超出了可用显存：每卡 {need}，可用 {usable}（{parts}），因此无论多少 GPU 都装不下任何模型。</translation>
    </message>
    <message>
        <source>No model fits at any number of GPUs, not even one parameter: what a step holds whatever the model&apos;s size (activations, communication buckets, ZeRO-3 gathered parameters, the CUDA context) exceeds the {usable} usable per GPU.</source>
        <translation>无论多少 GPU 都装不下任何模型，哪怕只有一个参数：与模型大小无关的单步占用（激活值、通信桶、ZeRO-3 聚合的参数、CUDA 上下文）超出了每卡 {usable} 的可用显存。</translation>
    </message>
    <message>
        <source>Enter the GPU memory to solve for the largest trainable model.</source>
        <translation>请输入显存，以求解可训练的最大模型。</translation>
    </message>
    <message>
        <source>{field} = {value}</source>
        <translation>{field} = {value}</translation>
    </message>
    <message>
        <source>Click to apply: {0}</source>
        <translation>点击应用：{0}</translation>
    </message>
    <message numerus="yes">
        <source>%n minute(s)</source>
        <translation>
            <numerusform>%n 分钟</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n hour(s)</source>
        <translation>
            <numerusform>%n 小时</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n day(s)</source>
        <translation>
            <numerusform>%n 天</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n GPU-hour(s)</source>
        <translation>
            <numerusform>%n GPU 小时</numerusform>
        </translation>
    </message>
    <message>
        <source>{0} ms</source>
        <translation>{0} 毫秒</translation>
    </message>
    <message>
        <source>{0} s</source>
        <translation>{0} 秒</translation>
    </message>
    <message>
        <source>{0} tokens/s</source>
        <translation>{0} token/秒</translation>
    </message>
    <message>
        <source>unknown: the GPU has no compute figures (choose a GPU preset, or enter {peak} and {bandwidth})</source>
        <translation>未知：该 GPU 没有算力数据（请选择 GPU 预设，或填写「{peak}」和「{bandwidth}」）</translation>
    </message>
    <message>
        <source>unknown (no compute figures)</source>
        <translation>未知（没有算力数据）</translation>
    </message>
    <message>
        <source>{step} · MFU {mfu} %</source>
        <translation>{step} · MFU {mfu} %</translation>
    </message>
    <message>
        <source>Enter {0} for the days, GPU-hours and cost.</source>
        <translation>填写「{0}」即可得到天数、GPU 小时数和费用。</translation>
    </message>
    <message>
        <source>{days} · {hours}</source>
        <translation>{days} · {hours}</translation>
    </message>
    <message>
        <source>{0} · cost {1}</source>
        <translation>{0} · 费用 {1}</translation>
    </message>
    <message>
        <source>{step} per step · {rate} · MFU {mfu} %</source>
        <translation>每步 {step} · {rate} · MFU {mfu} %</translation>
    </message>
    <message>
        <source>{per_gpu} per GPU · {tflops} model TFLOP/s per GPU
MFU {mfu} % · HFU {hfu} % (with recomputation) of the {peak} TFLOP/s {dtype} dense peak
{model} model FLOPs and {hardware} hardware FLOPs per step</source>
        <translation>每 GPU {per_gpu} · 每 GPU {tflops} 模型 TFLOP/s
MFU {mfu} % · HFU {hfu} %（含重计算），相对 {dtype} 稠密峰值 {peak} TFLOP/s
每步 {model} 模型 FLOPs、{hardware} 硬件 FLOPs</translation>
    </message>
    <message>
        <source>Step time</source>
        <translation>步时间</translation>
    </message>
    <message>
        <source>unknown</source>
        <translation>未知</translation>
    </message>
    <message>
        <source>{strategy}
{part}: {time} ({share} % of the step)
{derivation}</source>
        <translation>{strategy}
{part}：{time}（占该步 {share} %）
{derivation}</translation>
    </message>
    <message>
        <source>Time per step (s)</source>
        <translation>每步时间（秒）</translation>
    </message>
    <message>
        <source>No step time: the GPU has no compute figures. Choose a GPU preset (a memory size alone says nothing of its speed).</source>
        <translation>没有步时间：该 GPU 没有算力数据。请选择 GPU 预设（仅凭显存大小无法得知其速度）。</translation>
    </message>
    <message numerus="yes">
        <source>%n accumulation step(s)</source>
        <translation>
            <numerusform>%n 个梯度累积步</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>Serve</name>
    <message>
        <source>Weights</source>
        <translation>权重</translation>
    </message>
    <message>
        <source>KV cache</source>
        <translation>KV 缓存</translation>
    </message>
    <message>
        <source>KV cache pool (vLLM)</source>
        <translation>KV 缓存池（vLLM）</translation>
    </message>
    <message>
        <source>Prefill activations</source>
        <translation>预填充激活值</translation>
    </message>
    <message>
        <source>CUDA context</source>
        <translation>CUDA 上下文</translation>
    </message>
    <message>
        <source>Other (extra memory)</source>
        <translation>其他（额外显存）</translation>
    </message>
    <message>
        <source>GPU</source>
        <translation>GPU</translation>
    </message>
    <message>
        <source>Serving {model} on {n} × {gpu}</source>
        <translation>在 {n} × {gpu} 上部署 {model}</translation>
    </message>
    <message>
        <source>{engine} · {weights} weights · {kv} KV cache</source>
        <translation>{engine} · {weights} 权重 · {kv} KV 缓存</translation>
    </message>
    <message>
        <source>Fit not judged: enter the GPU memory</source>
        <translation>未判断能否装下：请输入 GPU 显存</translation>
    </message>
    <message>
        <source>Fits: {batch} × {context:,} tokens</source>
        <translation>可装下：{batch} × {context:,} 个 token</translation>
    </message>
    <message>
        <source>Does not fit: {batch} × {context:,} tokens</source>
        <translation>装不下：{batch} × {context:,} 个 token</translation>
    </message>
    <message>
        <source>{h} free</source>
        <translation>剩余 {h}</translation>
    </message>
    <message>
        <source>{h} short</source>
        <translation>缺少 {h}</translation>
    </message>
    <message>
        <source>{batch} × {context:,} tokens need {kv} of KV cache</source>
        <translation>{batch} × {context:,} 个 token 需要 {kv} KV 缓存</translation>
    </message>
    <message>
        <source>{b:,} bytes a token (all layers, one GPU)</source>
        <translation>每个 token {b:,} 字节（全部层，单卡）</translation>
    </message>
    <message>
        <source>needed: {n} (weights, KV cache, activations, fixed terms)</source>
        <translation>所需：{n}（权重、KV 缓存、激活值、固定项）</translation>
    </message>
    <message>
        <source>Weights:</source>
        <translation>权重：</translation>
    </message>
    <message>
        <source>Replicas:</source>
        <translation>副本数：</translation>
    </message>
    <message>
        <source>{r} (tp {tp} each)</source>
        <translation>{r}（每个 tp {tp}）</translation>
    </message>
    <message>
        <source>+ KV cache, {0} × the context</source>
        <translation>+ KV 缓存，{0} × 上下文</translation>
    </message>
    <message>
        <source>KV cache tokens:</source>
        <translation>KV 缓存 token 数：</translation>
    </message>
    <message>
        <source>Max concurrency:</source>
        <translation>最大并发：</translation>
    </message>
    <message>
        <source>{tokens:,} ({blocks:,} blocks of {size})</source>
        <translation>{tokens:,}（{blocks:,} 个块，每块 {size}）</translation>
    </message>
    <message>
        <source>{x:.2f}× at {context:,} tokens a request</source>
        <translation>每个请求 {context:,} 个 token 时为 {x:.2f}×</translation>
    </message>
    <message>
        <source>needed: {n}; vLLM takes {pool} for its KV cache pool</source>
        <translation>所需：{n}；vLLM 为其 KV 缓存池占用 {pool}</translation>
    </message>
    <message>
        <source>KV cells:</source>
        <translation>KV 单元数：</translation>
    </message>
    <message>
        <source>{cells:,} (sliding-window cache {swa:,})</source>
        <translation>{cells:,}（滑动窗口缓存 {swa:,}）</translation>
    </message>
    <message>
        <source>{cells:,}</source>
        <translation>{cells:,}</translation>
    </message>
    <message>
        <source>{total} per GPU</source>
        <translation>每卡 {total}</translation>
    </message>
    <message>
        <source>Peak {total} per GPU</source>
        <translation>每卡峰值 {total}</translation>
    </message>
    <message>
        <source>Serving: {0}</source>
        <translation>推理部署：{0}</translation>
    </message>
    <message>
        <source>Headroom:</source>
        <translation>余量：</translation>
    </message>
    <message>
        <source>KV per token:</source>
        <translation>每 token 的 KV：</translation>
    </message>
    <message>
        <source>used by the sequences</source>
        <translation>序列占用</translation>
    </message>
    <message>
        <source>Peak per GPU</source>
        <translation>每卡峰值</translation>
    </message>
    <message>
        <source>weights</source>
        <translation>权重</translation>
    </message>
    <message>
        <source>needed (with activations)</source>
        <translation>所需（含激活值）</translation>
    </message>
    <message>
        <source>vLLM: max concurrency {0:.2f}×</source>
        <translation>vLLM：最大并发 {0:.2f}×</translation>
    </message>
</context>
<context>
    <name>StepChart</name>
    <message>
        <source>Memory per GPU through one training step</source>
        <translation>一个训练步中的单卡显存</translation>
    </message>
    <message>
        <source>Memory per GPU (GB)</source>
        <translation>单卡显存（GB）</translation>
    </message>
    <message>
        <source>capacity {0:,.1f} {1}</source>
        <translation>容量 {0:,.1f} {1}</translation>
    </message>
    <message>
        <source>usable {0:,.1f} {1}</source>
        <translation>可用 {0:,.1f} {1}</translation>
    </message>
    <message>
        <source>Memory per GPU ({0})</source>
        <translation>单卡显存（{0}）</translation>
    </message>
</context>
<context>
    <name>StrategyChart</name>
    <message>
        <source>Memory per GPU by strategy</source>
        <translation>各策略的单卡显存</translation>
    </message>
    <message>
        <source>Memory per GPU (GB)</source>
        <translation>单卡显存（GB）</translation>
    </message>
    <message>
        <source>capacity {0:,.1f} {1}</source>
        <translation>容量 {0:,.1f} {1}</translation>
    </message>
    <message>
        <source>usable {0:,.1f} {1}</source>
        <translation>可用 {0:,.1f} {1}</translation>
    </message>
    <message>
        <source>Memory per GPU ({0})</source>
        <translation>单卡显存（{0}）</translation>
    </message>
</context>
<context>
    <name>SummaryPanel</name>
    <message>
        <source>Headroom:</source>
        <translation>余量：</translation>
    </message>
    <message>
        <source>Accumulation steps:</source>
        <translation>梯度累积步数：</translation>
    </message>
    <message>
        <source>Largest micro-batch:</source>
        <translation>最大微批次：</translation>
    </message>
    <message>
        <source>Host memory:</source>
        <translation>主机内存：</translation>
    </message>
    <message>
        <source>Step time:</source>
        <translation>步时间：</translation>
    </message>
    <message>
        <source>Throughput:</source>
        <translation>吞吐量：</translation>
    </message>
    <message>
        <source>Trainable:</source>
        <translation>可训练：</translation>
    </message>
    <message>
        <source>Training:</source>
        <translation>训练：</translation>
    </message>
    <message>
        <source>Chosen strategy: {0}</source>
        <translation>所选策略：{0}</translation>
    </message>
</context>
<context>
    <name>SweepChart</name>
    <message>
        <source>Number of GPUs (log₂ scale)</source>
        <translation>GPU 数量（log₂ 坐标）</translation>
    </message>
    <message>
        <source>capacity {0:,.1f} {1}</source>
        <translation>容量 {0:,.1f} {1}</translation>
    </message>
    <message>
        <source>usable {0:,.1f} {1}</source>
        <translation>可用 {0:,.1f} {1}</translation>
    </message>
    <message>
        <source>{0:,} GPUs</source>
        <translation>{0:,} 张 GPU</translation>
    </message>
</context>
<context>
    <name>TimeChart</name>
    <message>
        <source>Time per training step by strategy</source>
        <translation>各策略每个训练步的时间</translation>
    </message>
    <message>
        <source>Time per step (s)</source>
        <translation>每步时间（秒）</translation>
    </message>
</context>
</TS>
