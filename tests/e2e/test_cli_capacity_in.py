"""`estimate --inference --gpus N --capacity-in users`: the capacity of the GPUs judged in concurrent users (as
`analyze` judges a workload that states only users, and the advisor such a goal) serves at least as many users
as the default judged in requests/s, which serves at least as many requests/s; the JSON says so only when asked;
a bad value is refused by name."""

from __future__ import annotations

import json

from gpuplanner.cli import main

# a long prompt, short answer: the layout with the most requests/s (disaggregated) serves fewer users than an
# aggregated one whose requests take longer (users = rate x time in the system)
SERVE = ["estimate", "--inference", "--model", "llama3-70b", "--gpu", "nvidia-h100-sxm", "--gpus", "32",
         "--precision", "fp8", "--prompt", "8192", "--output", "256", "--ttft", "2", "--tpot", "0.05",
         "--serving", "best", "--json"]  # fmt: skip


def test_users_capacity_serves_more_users_and_requests_capacity_more_requests(capsys):
    assert main(SERVE) == 0
    by_requests = json.loads(capsys.readouterr().out)
    assert main([*SERVE, "--capacity-in", "users"]) == 0
    by_users = json.loads(capsys.readouterr().out)
    assert "capacity_in" not in by_requests and by_users["capacity_in"] == "users"
    r, u = by_requests["serving"], by_users["serving"]
    assert u["max_concurrent_users"] > r["max_concurrent_users"] * 1.05  # the case differs: the test can fail
    assert r["max_requests_per_s"] >= u["max_requests_per_s"]
    assert main([*SERVE, "--capacity-in", "requests"]) == 0
    assert json.loads(capsys.readouterr().out) == by_requests  # the default, stated


def test_a_bad_value_is_refused_by_name(capsys):
    assert main([*SERVE, "--capacity-in", "tokens"]) == 2
    err = capsys.readouterr().err
    assert "--capacity-in" in err and "Traceback" not in err
