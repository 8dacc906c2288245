"""File → Add from template…: a second pod (its own server type, fabric technology and partition) added to
the open project as one undo step, and the results panel showing each workload on its own GPUs and each
site limit against the plan."""

from __future__ import annotations

import dataclasses

from gpuplanner.commands import AddRows
from gpuplanner.model import Workload
from gpuplanner.ui import actions
from gpuplanner.ui.dialogs.template_dialog import TemplateDialog


def _add_pod(
    w, monkeypatch, *, server: str, servers: int, fabric: str, partition: str, fill: bool
) -> TemplateDialog:
    dlg = TemplateDialog(w.doc.project.catalog, w, into=w.doc.project)
    assert dlg.partition.isVisibleTo(dlg) and not dlg.keep.isVisibleTo(dlg)
    dlg.server.setCurrentIndex(dlg.server.findData(server))
    dlg.servers.setValue(servers)
    dlg.template.setCurrentIndex(dlg.template.findData("leaf-spine"))
    dlg.fabric.setCurrentIndex(dlg.fabric.findData(fabric))
    dlg.partition.setText(partition)
    dlg.fill.setChecked(fill)
    dlg.generate()
    assert dlg.result() and dlg.plan is not None, dlg.error.text()
    with monkeypatch.context() as m:  # (undoing the whole fixture would drop conftest's QMessageBox patch)
        m.setattr(TemplateDialog, "exec", lambda self: 1)
        m.setattr(TemplateDialog, "__init__", lambda self, *a, **k: self.__dict__.update(dlg.__dict__))
        actions._add_from_template(w)  # noqa: SLF001
    return dlg


def test_add_a_serving_pod_beside_training(window, monkeypatch):
    w = window
    p = w.doc.project
    p.tables["site"]["site"] = dataclasses.replace(
        p.site, it_kw_available=80.0, positions_json='[{"count": 12, "cooling": "liquid", "kw": 120}]'
    )
    before_gpus, before_racks = p.gpu_count(), len(p.racks)
    steps = w.doc.undo_stack.count()
    _add_pod(
        w, monkeypatch, server="nvidia-dgx-h200", servers=2, fabric="ethernet", partition="infer", fill=True
    )
    assert w.doc.undo_stack.count() == steps + 1
    pod = [d for d in p.devices.values() if d.partition == "infer"]
    assert len(pod) == 2 and all(d.type_id == "nvidia-dgx-h200" and d.name.startswith("infer-") for d in pod)
    assert p.gpu_count() == before_gpus + 16 and len(p.racks) > before_racks
    techs = {f.name: f.technology for f in p.tables["fabrics"].values()}
    assert techs["infer compute"] == "ethernet" and "infiniband" in techs.values()
    AddRows(
        "workloads",
        [
            Workload(
                id="w9",
                name="chat",
                kind="inference",
                model_id="llama3-8b",
                partition="infer",
                users=100,
                ttft_target_s=1.0,
            )
        ],
    ).apply(p)
    w.doc.force_sync() if hasattr(w.doc, "force_sync") else w.doc.request_analysis()
    res = w.doc.results
    names = {e.name: e for e in res.workloads}
    assert names["chat"].gpus == 16 and names["Llama 3 8B"].gpus == p.gpu_count()
    text = w.results_panel.workloads.text()
    assert "chat (infer, 16 GPUs)" in text and "users" in text
    assert "IT power" in text and "EXCEEDED" in text  # 80 kW cannot hold 8 DGX servers
    w.doc.undo_stack.undo()  # the pod goes in one step (the workload was added outside the stack)
    assert not any(d.partition == "infer" for d in p.devices.values()) and p.gpu_count() == before_gpus


def test_add_from_template_refuses_a_taken_partition(window, monkeypatch):
    w = window
    _add_pod(
        w, monkeypatch, server="nvidia-dgx-h200", servers=1, fabric="ethernet", partition="infer", fill=False
    )
    dlg = TemplateDialog(w.doc.project.catalog, w, into=w.doc.project)
    dlg.server.setCurrentIndex(dlg.server.findData("nvidia-dgx-h200"))
    dlg.servers.setValue(1)
    dlg.partition.setText("infer")
    dlg.generate()
    assert not dlg.result() and "infer" in dlg.error.text()


def test_new_serving_workload_from_the_plan_menu(window, monkeypatch):
    from gpuplanner.ui.dialogs.workload_dialog import WorkloadDialog

    w = window
    _add_pod(
        w, monkeypatch, server="nvidia-dgx-h200", servers=2, fabric="ethernet", partition="infer", fill=False
    )
    p = w.doc.project
    n = len(p.tables["workloads"])
    dlg = WorkloadDialog(w.doc, w, kind="inference")
    assert dlg.is_new and dlg.editors["kind"].get() == "inference"
    dlg.editors["model_id"].set("llama3-8b")
    dlg.editors["partition"].set("infer")
    dlg.editors["users"].set(500.0)
    dlg.editors["ttft_target_s"].set(1.0)
    assert dlg.apply()
    assert len(p.tables["workloads"]) == n + 1  # beside the training job, not instead of it
    serving = next(x for x in p.tables["workloads"].values() if x.kind == "inference")
    assert serving.partition == "infer" and serving.users == 500.0
    assert "concurrent users" in dlg.status.text() and "16 GPUs" in dlg.status.text()
    assert w.doc.results.workload is not None and w.doc.results.workload.name == "Llama 3 8B"
