"""Issue 22's customer request planned in the window alone: the inspector (project details), Site and
costs (limits, budget, region), File → Add from template… twice (B200 on InfiniBand for training, H200 on
Ethernet for serving, racks filled under the positions' kW), the workload dialog and Plan → New serving
workload…; then the Chinese proposal, written from the window's project, answers each point."""

from __future__ import annotations

import json

from PySide6.QtWidgets import QApplication

from gpuplanner.engine.summary import results_json
from gpuplanner.model import Project
from gpuplanner.ui import actions
from gpuplanner.ui.dialogs.site_dialog import SiteDialog
from gpuplanner.ui.dialogs.template_dialog import TemplateDialog
from gpuplanner.ui.dialogs.workload_dialog import WorkloadDialog


def _pod(w, monkeypatch, *, template, server, servers, fabric, partition, storage=False):
    dlg = TemplateDialog(w.doc.project.catalog, w, into=w.doc.project)
    dlg.template.setCurrentIndex(dlg.template.findData(template))
    dlg.server.setCurrentIndex(dlg.server.findData(server))
    dlg.servers.setValue(servers)
    dlg.fabric.setCurrentIndex(dlg.fabric.findData(fabric))
    dlg.storage.setChecked(storage)
    dlg.partition.setText(partition)
    dlg.fill.setChecked(True)
    dlg.generate()
    assert dlg.result(), dlg.error.text()
    with monkeypatch.context() as m:
        m.setattr(TemplateDialog, "exec", lambda self: 1)
        m.setattr(TemplateDialog, "__init__", lambda self, *a, **k: self.__dict__.update(dlg.__dict__))
        actions._add_from_template(w)  # noqa: SLF001


def _inspector_set(w, table, name, value):
    w.inspector.show_ids([])
    QApplication.processEvents()
    ed = w.inspector.editors[(table, table, name)]
    ed.set(value)
    assert (
        w.inspector.commit(table, table, name) or getattr(w.doc.project.tables[table][table], name) == value
    )


def test_the_request_built_in_the_window(make_window, monkeypatch, tmp_path):
    w = make_window(Project())
    _inspector_set(w, "project", "currency", "CNY")
    _inspector_set(w, "project", "usd_exchange_rate", 7.2)
    _inspector_set(w, "project", "language", "zh")
    _inspector_set(w, "project", "customer", "某客户")
    site = SiteDialog(w.doc, w)
    site.editors["it_kw_available"].set(1500.0)
    site.editors["positions_json"].set(
        json.dumps([{"count": 24, "cooling": "air", "kw": 40}, {"count": 8, "cooling": "liquid", "kw": 120}])
    )
    site.editors["budget_capex"].set(300e6)
    site.editors["region"].set("CN")
    assert site.apply()
    _pod(
        w,
        monkeypatch,
        template="rail-leaf-spine",
        server="nvidia-dgx-b200",
        servers=64,
        fabric="infiniband",
        partition="train",
        storage=True,
    )
    _pod(
        w,
        monkeypatch,
        template="leaf-spine",
        server="nvidia-dgx-h200",
        servers=8,
        fabric="ethernet",
        partition="infer",
    )
    train = WorkloadDialog(w.doc, w)
    for name, value in (
        ("model_id", "llama3-70b"),
        ("partition", "train"),
        ("total_tokens", 10e12),
        ("tp", 8),
        ("pp", 4),
        ("global_batch", 512),
    ):
        train.editors[name].set(value)
    assert train.apply()
    serve = WorkloadDialog(w.doc, w, kind="inference")
    for name, value in (
        ("model_id", "llama3-70b"),
        ("partition", "infer"),
        ("users", 2000.0),
        ("ttft_target_s", 1.0),
    ):
        serve.editors[name].set(value)
    assert serve.apply()

    p, res = w.doc.project, w.doc.results
    d = results_json(p, res)
    wl = {x["kind"]: x for x in d["workloads"]}
    assert wl["training"]["gpus"] == 512 and wl["training"]["time_to_train_days"] > 0
    assert wl["inference"]["gpus"] == 64 and wl["inference"]["meets_target"] is True
    assert wl["inference"]["ttft_s"] < 1.0 and wl["inference"]["max_concurrent_users"] >= 2000
    lim = {x["name"]: x for x in d["limits"]}
    assert lim["rack_positions"]["within"] and lim["positions_liquid_120kw"]["plan"] == 8
    assert lim["it_power_kw"]["limit"] == 1500 and lim["budget_capex"]["limit"] == 300e6
    text = w.results_panel.workloads.text()
    assert "train, 512" in text and "infer, 64" in text

    from gpuplanner.reports import build_report

    pdf = tmp_path / "方案.pdf"
    build_report(p, pdf, lang="zh")
    import pypdf

    body = "".join(pg.extract_text() for pg in pypdf.PdfReader(str(pdf)).pages).replace("\n", "")
    for needle in (
        "预计训练",
        "并发用户",
        "场地可提供 1,500.0 kW",
        "120 kW 液冷机位 8 个中用 8 个",
        "预算 3.00 亿元",
        "出口管制（CN）",
    ):
        assert needle in body, needle
