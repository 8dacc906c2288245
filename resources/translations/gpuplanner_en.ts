<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="en">
<context>
    <name>AdvisorDialog</name>
    <message numerus="yes">
        <source>%Ln design(s) on the front; {cands} candidates, {pruned} pruned by bounds, {ev} planned and analysed in {s} s.</source>
        <translation>
            <numerusform>%Ln design on the front; {cands} candidates, {pruned} pruned by bounds, {ev} planned and analysed in {s} s.</numerusform>
            <numerusform>%Ln designs on the front; {cands} candidates, {pruned} pruned by bounds, {ev} planned and analysed in {s} s.</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>CompareDialog</name>
    <message numerus="yes">
        <source>{same} of %Ln figure(s) are the same.</source>
        <translation>
            <numerusform>{same} of %Ln figure is the same.</numerusform>
            <numerusform>{same} of %Ln figures are the same.</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>Counts</name>
    <message numerus="yes">
        <source>%Ln GPU(s)</source>
        <translation>
            <numerusform>%Ln GPU</numerusform>
            <numerusform>%Ln GPUs</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%Ln rack(s)</source>
        <translation>
            <numerusform>%Ln rack</numerusform>
            <numerusform>%Ln racks</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%Ln finding(s)</source>
        <translation>
            <numerusform>%Ln finding</numerusform>
            <numerusform>%Ln findings</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Delete %Ln selected item(s) and their links?</source>
        <translation>
            <numerusform>Delete %Ln selected item and their links?</numerusform>
            <numerusform>Delete %Ln selected items and their links?</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%Ln GPU(s):</source>
        <translation>
            <numerusform>%Ln GPU:</numerusform>
            <numerusform>%Ln GPUs:</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Delete %Ln item(s)</source>
        <translation>
            <numerusform>Delete %Ln item</numerusform>
            <numerusform>Delete %Ln items</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Paste %Ln item(s)</source>
        <translation>
            <numerusform>Paste %Ln item</numerusform>
            <numerusform>Paste %Ln items</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Set {field} of %Ln item(s)</source>
        <translation>
            <numerusform>Set {field} of %Ln item</numerusform>
            <numerusform>Set {field} of %Ln items</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>&lt;b&gt;%Ln rack(s) selected&lt;/b&gt; — an edit applies to all of them</source>
        <translation>
            <numerusform>&lt;b&gt;%Ln rack selected&lt;/b&gt; — an edit applies to all of them</numerusform>
            <numerusform>&lt;b&gt;%Ln racks selected&lt;/b&gt; — an edit applies to all of them</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>&lt;b&gt;%Ln device(s) selected&lt;/b&gt; — an edit applies to all of them</source>
        <translation>
            <numerusform>&lt;b&gt;%Ln device selected&lt;/b&gt; — an edit applies to all of them</numerusform>
            <numerusform>&lt;b&gt;%Ln devices selected&lt;/b&gt; — an edit applies to all of them</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>&lt;b&gt;%Ln link(s) selected&lt;/b&gt; — an edit applies to all of them</source>
        <translation>
            <numerusform>&lt;b&gt;%Ln link selected&lt;/b&gt; — an edit applies to all of them</numerusform>
            <numerusform>&lt;b&gt;%Ln links selected&lt;/b&gt; — an edit applies to all of them</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>&lt;b&gt;%Ln item(s) selected&lt;/b&gt; — select items of one kind to edit them together</source>
        <translation>
            <numerusform>&lt;b&gt;%Ln item selected&lt;/b&gt; — select items of one kind to edit them together</numerusform>
            <numerusform>&lt;b&gt;%Ln items selected&lt;/b&gt; — select items of one kind to edit them together</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>FloorWords</name>
    <message numerus="yes">
        <source>%Ln cable run(s) leave the rack: {media}</source>
        <translation>
            <numerusform>%Ln cable run leaves the rack: {media}</numerusform>
            <numerusform>%Ln cable runs leave the rack: {media}</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%Ln run(s) too long for any medium the ports take</source>
        <translation>
            <numerusform>%Ln run is too long for any medium the ports take</numerusform>
            <numerusform>%Ln runs are too long for any medium the ports take</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>{rack}: %Ln run(s) too long for any medium</source>
        <translation>
            <numerusform>{rack}: %Ln run is too long for any medium</numerusform>
            <numerusform>{rack}: %Ln runs are too long for any medium</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%Ln rack(s)</source>
        <translation>
            <numerusform>%Ln rack</numerusform>
            <numerusform>%Ln racks</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%Ln row(s)</source>
        <translation>
            <numerusform>%Ln row</numerusform>
            <numerusform>%Ln rows</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%Ln unit(s) on the floor</source>
        <translation>
            <numerusform>%Ln unit on the floor</numerusform>
            <numerusform>%Ln units on the floor</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%Ln over their rating</source>
        <translation>
            <numerusform>%Ln over its rating</numerusform>
            <numerusform>%Ln over their rating</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%Ln item(s) selected</source>
        <translation>
            <numerusform>%Ln item selected</numerusform>
            <numerusform>%Ln items selected</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Move %Ln item(s) on the floor</source>
        <translation>
            <numerusform>Move %Ln item on the floor</numerusform>
            <numerusform>Move %Ln items on the floor</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Delete %Ln floor unit(s)</source>
        <translation>
            <numerusform>Delete %Ln floor unit</numerusform>
            <numerusform>Delete %Ln floor units</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>Inspector</name>
    <message numerus="yes">
        <source>%Ln link end(s) moved to the new model&apos;s port groups: {moves}.</source>
        <translation>
            <numerusform>%Ln link end moved to the new model&apos;s port groups: {moves}.</numerusform>
            <numerusform>%Ln link ends moved to the new model&apos;s port groups: {moves}.</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>MainWindow</name>
    <message numerus="yes">
        <source>%Ln GPU(s) at the end of phase “{phase}”</source>
        <translation>
            <numerusform>%Ln GPU at the end of phase “{phase}”</numerusform>
            <numerusform>%Ln GPUs at the end of phase “{phase}”</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%Ln GPU(s)</source>
        <translation>
            <numerusform>%Ln GPU</numerusform>
            <numerusform>%Ln GPUs</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>PhasesTeamsDialog</name>
    <message numerus="yes">
        <source>Put the %Ln selected item(s) (racks with their devices, and their links) in phase:</source>
        <translation>
            <numerusform>Put the %Ln selected item (racks with their devices, and their links) in phase:</numerusform>
            <numerusform>Put the %Ln selected items (racks with their devices, and their links) in phase:</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>PlotsPanel</name>
    <message numerus="yes">
        <source>%Ln GPU(s) today: {tps} tokens/s, MFU {mfu} % (red line). Layout tp={tp} pp={pp} cp={cp}.</source>
        <translation>
            <numerusform>%Ln GPU today: {tps} tokens/s, MFU {mfu} % (red line). Layout tp={tp} pp={pp} cp={cp}.</numerusform>
            <numerusform>%Ln GPUs today: {tps} tokens/s, MFU {mfu} % (red line). Layout tp={tp} pp={pp} cp={cp}.</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>RackElevation</name>
    <message numerus="yes">
        <source>{row} (%Ln rack(s))</source>
        <translation>
            <numerusform>{row} (%Ln rack)</numerusform>
            <numerusform>{row} (%Ln racks)</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>TemplateDialog</name>
    <message numerus="yes">
        <source>Generate {t} with %Ln server(s)</source>
        <translation>
            <numerusform>Generate {t} with %Ln server</numerusform>
            <numerusform>Generate {t} with %Ln servers</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Workload “{w}”: DP {dp} was left as it was; TP × PP × CP = {m} does not fit %Ln GPU(s).</source>
        <translation>
            <numerusform>Workload “{w}”: DP {dp} was left as it was; TP × PP × CP = {m} does not fit %Ln GPU.</numerusform>
            <numerusform>Workload “{w}”: DP {dp} was left as it was; TP × PP × CP = {m} does not fit %Ln GPUs.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Workload “{w}”: DP {old} → {new} for %Ln GPU(s).</source>
        <translation>
            <numerusform>Workload “{w}”: DP {old} → {new} for %Ln GPU.</numerusform>
            <numerusform>Workload “{w}”: DP {old} → {new} for %Ln GPUs.</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>WorkloadDialog</name>
    <message numerus="yes">
        <source>%Ln GPU(s): up to {users} concurrent users ({rate} requests/s), first token {ttft} s, {tpot} ms per token.</source>
        <translation>
            <numerusform>%Ln GPU: up to {users} concurrent users ({rate} requests/s), first token {ttft} s, {tpot} ms per token.</numerusform>
            <numerusform>%Ln GPUs: up to {users} concurrent users ({rate} requests/s), first token {ttft} s, {tpot} ms per token.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>The load asked for needs %Ln GPU(s).</source>
        <translation>
            <numerusform>The load asked for needs %Ln GPU.</numerusform>
            <numerusform>The load asked for needs %Ln GPUs.</numerusform>
        </translation>
    </message>
</context>
</TS>
