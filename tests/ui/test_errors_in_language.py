"""Refusals in the window's language: an error carries a message id and values, and the window renders it
when it shows it — so the Chinese window shows Chinese refusals naming the value, while ``str(err)`` (the CLI
and the log) stays English."""

from __future__ import annotations

import re

import pytest
from PySide6.QtWidgets import QApplication, QFileDialog, QMessageBox

from gpuplanner.catalog.names import local_name
from gpuplanner.commands import AddRows
from gpuplanner.model import Device, Link
from tests.ui.conftest import drop_from_palette, focus_on, small_project

CJK = re.compile(r"[\u4e00-\u9fff]")
ENGLISH_WORDS = re.compile(r"\b(?:the|is|has|no|not|cannot|file|project)\b")


@pytest.fixture
def warnings(monkeypatch) -> list[str]:
    shown: list[str] = []
    monkeypatch.setattr(
        QMessageBox, "warning", lambda *a, **k: shown.append(a[2]) or QMessageBox.StandardButton.Ok
    )
    return shown


def _chinese(message: str) -> None:
    assert CJK.search(message), message
    assert not ENGLISH_WORDS.search(message), f"English words in the Chinese window: {message}"


def test_opening_a_damaged_file_says_so_in_chinese(chinese, make_window, warnings, tmp_path):
    bad = tmp_path / "损坏的项目.gpuplan"
    bad.write_bytes(b"SQLite format 3\x00" + bytes(range(256)) * 8)  # an SQLite header, then garbage
    w = make_window(small_project())
    current = w.doc.project
    assert not w.open_file(bad)
    assert len(warnings) == 1
    message = warnings[0]
    assert str(bad) in message  # names the file
    assert "项目文件已损坏" in message and "当前项目未做任何改动" in message, message
    assert w.doc.project is current


def test_a_file_that_is_not_a_project_names_it_and_says_what_to_do(chinese, make_window, warnings, tmp_path):
    text_file = tmp_path / "notes.gpuplan"
    text_file.write_text("hello", encoding="utf-8")
    w = make_window(small_project())
    assert not w.open_file(text_file)
    message = warnings[-1]
    assert str(text_file) in message
    assert "这不是 GPU Planner 项目" in message and "请打开由 GPU Planner 保存的 .gpuplan 文件" in message
    _chinese(message.replace(str(text_file), "").replace("GPU Planner", "").replace(".gpuplan", ""))


def test_saving_into_a_missing_folder_is_refused_in_chinese(
    chinese, make_window, warnings, tmp_path, monkeypatch
):
    target = tmp_path / "no-such-folder" / "plan.gpuplan"
    monkeypatch.setattr(QFileDialog, "getSaveFileName", lambda *a, **k: (str(target), ""))
    w = make_window(small_project())
    assert not w.save_as()
    message = warnings[-1]
    assert str(target) in message and "文件夹不存在" in message, message
    assert not target.exists()


def test_a_model_change_the_links_cannot_follow_is_refused_in_chinese(chinese, make_window):
    """The inspector's model list: a switch with a link on its 25G SFP28 uplinks becomes a model with no
    uplink group and no SFP28 port; the refusal (commands/devices.py) names the new model and the link, in
    Chinese."""
    p = small_project()
    leaf = next(d for d in p.devices.values() if d.role == "leaf")
    node = Device(
        id=p.new_id("devices"), name="mgmt-sw", type_id="nvidia-spectrum-4-sn5600", role="leaf", x=0, y=-400
    )
    AddRows("devices", [node]).apply(p)
    link = Link(
        id=p.new_id("links"), a_device=node.id, a_group="sfp28", b_device=leaf.id, b_group="ndr",
        speed_gbps=25.0, multiplicity=1,
    )  # fmt: skip
    AddRows("links", [link]).apply(p)
    w = make_window(p)
    w.scene.select_ids([node.id])
    QApplication.processEvents()
    ins = w.inspector
    ed = ins.editors[("devices", node.id, "type_id")]
    combo = ed.widget
    target = "arista-7816r4"  # no uplink group, no SFP28 port
    k = next(i for i in range(combo.count()) if f"({target})" in combo.itemText(i))
    depth = w.doc.undo_stack.count()
    combo.setCurrentIndex(k)
    combo.activated.emit(k)
    assert w.doc.project.devices[node.id].type_id == node.type_id  # refused, nothing changed
    assert w.doc.undo_stack.count() == depth
    message = ins.error.text()
    entry = p.catalog.entries[target]  # named in Chinese, as the model list names it
    assert local_name(entry, p.catalog, "zh") in message and entry.name not in message, message
    assert f"'{link.id}'" in message, message
    assert "没有同类端口组来承接链路" in message and "请先删除或移走这些链路" in message, message


def test_a_full_rack_refuses_a_drop_in_chinese(chinese, make_window):
    w = make_window(small_project())
    rack = next(r for r in w.doc.project.racks.values() if r.name == "R01-01")
    item = w.scene.rack_items[rack.id]
    messages: list[str] = []
    w.view.message.connect(messages.append)
    focus_on(w, item.sceneBoundingRect().center())
    drop_from_palette(w, "nvidia-dgx-h100", item.sceneBoundingRect().center())  # the last free 8 U
    n = len(w.doc.project.devices)
    drop_from_palette(w, "nvidia-dgx-h100", item.sceneBoundingRect().center())
    assert len(w.doc.project.devices) == n
    assert messages and "R01-01" in messages[-1] and "48" in messages[-1], messages
    _chinese(messages[-1].replace("R01-01", "").replace("DGX H100", ""))


def test_the_english_window_and_str_keep_english(make_window, warnings, tmp_path):
    text_file = tmp_path / "notes.gpuplan"
    text_file.write_text("hello", encoding="utf-8")
    w = make_window(small_project())
    assert not w.open_file(text_file)
    assert "not a GPU Planner project (the file holds something else)" in warnings[-1]
    from gpuplanner.storage import open_project

    with pytest.raises(Exception) as info:
        open_project(text_file)
    assert not CJK.search(str(info.value))


def test_the_template_dialog_refuses_in_chinese(chinese, make_window):
    """New from template with 64 DGX in one scalable unit: the generator's refusal (topology/fattree.py) is
    shown in Chinese with the figures (the leaf's ports, the downlinks it would need)."""
    from gpuplanner.core.errors import GenerationError
    from gpuplanner.model import Project
    from gpuplanner.topology.generators import generate
    from gpuplanner.ui.dialogs.template_dialog import TemplateDialog

    w = make_window(small_project())
    dlg = TemplateDialog(w.doc.project.catalog, w)
    dlg.servers.setValue(64)
    dlg.su_size.setValue(64)
    with pytest.raises(GenerationError) as info:  # the same request, outside the window: English
        generate(Project(w.doc.project.catalog), dlg.options())
    dlg.generate()
    message = dlg.error.text()
    assert dlg.project is None
    assert message.startswith("无法生成"), message
    assert "叶交换机" in message and "收敛比" in message, message
    numbers = re.findall(r"\d+", str(info.value))
    assert numbers and all(n in message for n in numbers), (numbers, message)
    _chinese(message)
    assert not CJK.search(str(info.value))


def test_an_engine_refusal_kept_as_text_shows_in_chinese_in_the_workload_dialog(chinese, make_window):
    """The engine keeps a workload's refusal as message data (``Results.workload_error``, an
    ``text.ErrorLine`` of the error raised with ``text.Msg``); the Workload dialog shows it in Chinese, with
    the field as the form labels it and the figures, and its English is the error's ``str``."""
    import dataclasses

    from gpuplanner.ui.dialogs.workload_dialog import WorkloadDialog

    p = small_project()
    wl = next(iter(p.tables["workloads"].values()))
    p.tables["workloads"][wl.id] = dataclasses.replace(wl, tp=3, dp=16)  # 32 heads do not split over 3
    w = make_window(p)
    english = str(w.doc.results.workload_error)
    assert english.startswith("field 'tp': 32 attention heads cannot be split over tp = 3"), english
    dlg = WorkloadDialog(w.doc, w)
    shown = dlg.status.text()
    assert wl.name in shown and "32 个注意力头无法按 tp = 3 切分" in shown, shown
    assert "请选择能整除注意力头数的 tp" in shown and "attention heads" not in shown, shown
    _chinese(shown.replace(wl.name, "").replace("tp", ""))
    dlg.deleteLater()


def test_a_model_refusal_of_a_value_reads_in_chinese_with_the_field_as_labelled(chinese):
    """``model/validate.py`` raises message data: the window's line is Chinese, names the table in Chinese,
    the field as the form labels it (not the file's column) once, and the value."""
    import dataclasses

    from gpuplanner.core.errors import ValidationError
    from gpuplanner.model.validate import validate_row
    from gpuplanner.ui import field_labels

    p = small_project()
    rack = next(iter(p.racks.values()))
    with pytest.raises(ValidationError) as info:
        validate_row("racks", dataclasses.replace(rack, power_budget_kw=1e9))
    shown = field_labels.plain_error(info.value)
    label = field_labels.label_of("power_budget_kw")
    assert CJK.search(label), label  # the Chinese label, e.g. "功率预算 (kW)"
    assert f"“{label}”应在 0 到 100,000 之间，现为 1000000000.0" in shown, shown
    assert "power_budget_kw" not in shown and shown.count(label) == 1, shown
    assert f"条目“{rack.id}”" in shown, shown
    _chinese(shown)


def test_a_refused_analysis_is_reported_in_chinese(chinese, make_window):
    """The runner keeps the engine's refusal as message data (``Outcome.error``); the window says it in its
    language: a scenario overriding a table no scenario may override."""
    import json

    from gpuplanner.model.rows import Scenario

    w = make_window(small_project())
    p = w.doc.project
    sc = Scenario(id=p.new_id("scenarios"), name="bad", overrides_json=json.dumps({"teams.name": "x"}))
    w.doc.push(AddRows("scenarios", [sc]))
    said: list[str] = []
    w.doc.analysisFailed.connect(said.append)
    w.doc.set_scenario("bad")
    QApplication.processEvents()
    assert said, "no refusal"
    assert "“bad”" in said[-1] and "teams.name" in said[-1], said
    _chinese(said[-1].replace("teams.name", ""))
