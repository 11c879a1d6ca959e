<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN" sourcelanguage="en">
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
        <source>Stacked per-GPU memory by component, in %1 (%2). Marks: usable GPU memory after the reserve. vramgui %3, convention per scenario.</source>
        <translation>按组成部分堆叠的单卡显存，单位 %1（%2）。虚线：扣除预留后的可用显存。vramgui %3，口径以各方案设置为准。</translation>
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
        <source>Activations</source>
        <translation>激活值</translation>
    </message>
    <message>
        <source>Other</source>
        <translation>其他</translation>
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
        <source>CPU offload</source>
        <translation>CPU 卸载</translation>
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
        <source>Remove</source>
        <translation>移除</translation>
    </message>
    <message>
        <source>Load into editor</source>
        <translation>载入编辑器</translation>
    </message>
    <message>
        <source>Clear all</source>
        <translation>全部清除</translation>
    </message>
    <message>
        <source>Export PNG…</source>
        <translation>导出 PNG…</translation>
    </message>
    <message>
        <source>Export CSV…</source>
        <translation>导出 CSV…</translation>
    </message>
    <message>
        <source>Scenario</source>
        <translation>方案</translation>
    </message>
    <message>
        <source>Total per GPU</source>
        <translation>单卡总计</translation>
    </message>
    <message>
        <source>Fits</source>
        <translation>能否装下</translation>
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
        <source>Double-click a name to rename it, or a figure to load the scenario</source>
        <translation>双击名称可重命名，双击数值可载入该方案</translation>
    </message>
    <message>
        <source>Usable GPU memory</source>
        <translation>可用显存</translation>
    </message>
</context>
</TS>
