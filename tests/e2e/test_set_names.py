"""`gpuplanner set` addresses a workload, phase or partition by the name the window and `analyze` show, spaces
and dots included ("workload.Llama 3 70B fine-tuning.active=false", "workload.Llama 3.1 8B.model=…"); the key
used to stop at the first space ("… is not KEY=VALUE") and a dotted name was an unknown key."""

from __future__ import annotations

from gpuplanner.cli import main
from gpuplanner.storage import open_project


def test_names_with_spaces_and_dots(tmp_path, capsys):
    plan = tmp_path / "p.gpuplan"
    assert main(["generate", "ib-su-32-node", "-o", str(plan)]) == 0
    (name,) = [w.name for w in open_project(plan).tables["workloads"].values()]
    assert " " in name  # "Llama 3 70B continued pre-training"
    assert main(["set", str(plan), f"workload.{name}.active=false"]) == 0
    assert (
        main(["set", str(plan), "workload.Llama 3.1 8B chat.model=llama3-8b", "site.target_pue = 1.25"]) == 0
    )
    capsys.readouterr()
    p = open_project(plan)
    by_name = {w.name: w for w in p.tables["workloads"].values()}
    assert by_name[name].active is False
    assert by_name["Llama 3.1 8B chat"].model_id == "llama3-8b"
    assert p.site.target_pue == 1.25
    assert main(["set", str(plan), " =3"]) == 2
    assert "is not KEY=VALUE" in capsys.readouterr().err
