"""New from template with "keep": the same cluster on another fabric keeps the workload, the site and costs,
the teams, the phases and the project details (one undo step on a new document); without it, a fresh start."""

from __future__ import annotations

from pathlib import Path

from gpuplanner.ui import actions
from gpuplanner.ui.dialogs.template_dialog import TemplateDialog

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "cluster-256-h100.gpuplan"


def _regenerate_as_roce(w, monkeypatch, keep: bool) -> TemplateDialog:
    dlg = TemplateDialog(w.doc.project.catalog, w, current=w.doc.project)
    assert dlg.keep.isVisibleTo(dlg) and dlg.keep.isChecked()  # the example has a workload and details
    dlg.keep.setChecked(keep)
    dlg.fabric.setCurrentIndex(dlg.fabric.findData("ethernet"))
    dlg.generate()
    assert dlg.project is not None, dlg.error.text()
    monkeypatch.setattr(TemplateDialog, "exec", lambda self: 1)
    monkeypatch.setattr(TemplateDialog, "__init__", lambda self, *a, **k: self.__dict__.update(dlg.__dict__))
    actions._new_from_template(w)  # noqa: SLF001
    return dlg


def test_regenerate_on_roce_keeps_the_workload_and_costs(make_window, monkeypatch):
    w = make_window()
    assert w.open_file(EXAMPLE)
    old = w.doc.project
    old_workloads, old_info, old_site = dict(old.tables["workloads"]), old.info, old.site
    old_gpus = old.gpu_count()
    _regenerate_as_roce(w, monkeypatch, keep=True)
    p = w.doc.project
    assert p is not old
    # the form started from the example's generator options: same servers, same GPU count, now Ethernet
    assert p.gpu_count() == old_gpus
    compute = [f for f in p.tables["fabrics"].values() if f.kind == "compute"]
    assert compute and compute[0].technology == "ethernet"
    assert p.tables["workloads"] == old_workloads
    assert p.info.currency == old_info.currency == "CNY" and p.info.customer == old_info.customer
    assert p.info.name == old_info.name and p.info.language == old_info.language
    assert p.site == old_site
    res = w.doc.results
    assert res is not None and res.workload is not None and res.workload.estimate.tokens_per_s > 0
    assert w.results_panel.values["tokens"].text() not in ("", "–")
    assert "training workload" not in w.results_panel.note.text()
    # one undo step on a new document that needs saving
    assert w.doc.undo_stack.count() == 1 and w.is_modified() and w.doc.path is None
    w.doc.undo_stack.undo()
    assert not p.tables["workloads"] and not p.devices and p.info.currency == "USD"


def test_regenerate_without_keep_starts_from_scratch(make_window, monkeypatch):
    w = make_window()
    assert w.open_file(EXAMPLE)
    _regenerate_as_roce(w, monkeypatch, keep=False)
    p = w.doc.project
    assert p.devices and not p.tables["workloads"] and p.info.currency == "USD"
    assert p.info.name == "New cluster"
    assert "No training workload" in w.results_panel.note.text()  # none at all: the panel says how to add one


def test_keep_adapts_an_explicit_dp_to_the_new_gpu_count(window, monkeypatch):
    w = window  # 6 servers, Llama 3 8B with TP 8 × DP 6 = 48 GPUs, global batch 96
    dlg = TemplateDialog(w.doc.project.catalog, w, current=w.doc.project)
    assert dlg.keep.isChecked() and dlg.servers.value() == 6
    dlg.servers.setValue(8)
    dlg.su_size.setValue(8)
    dlg.generate()
    assert dlg.project is not None, dlg.error.text()
    monkeypatch.setattr(TemplateDialog, "exec", lambda self: 1)
    monkeypatch.setattr(TemplateDialog, "__init__", lambda self, *a, **k: self.__dict__.update(dlg.__dict__))
    actions._new_from_template(w)  # noqa: SLF001
    (wl,) = w.doc.project.tables["workloads"].values()
    assert wl.dp == 8 and w.doc.project.gpu_count() == 64
    assert "DP 6 → 8 for 64 GPUs" in w.statusBar().currentMessage()
    assert w.doc.results.workload is not None and w.doc.results.workload.estimate.tokens_per_s > 0


def test_keep_is_hidden_without_an_open_project(make_window):
    w = make_window()
    dlg = TemplateDialog(w.doc.project.catalog, w, current=w.doc.project)
    assert not dlg.keep.isVisibleTo(dlg) and not dlg.keeps()
