"""A positive-integer option of `estimate --inference` (--max-seqs, --max-batched-tokens) given 0, -3 or "abc":
exit 2, a message naming the option (and the bound, in the language asked for), nothing on stdout, no traceback."""

from __future__ import annotations

import os
import subprocess
import sys


def assert_refused(serve: list[str], option: str, bad: str, lang: str) -> None:
    env = {**os.environ, "GPUPLANNER_LANG": lang}
    run = subprocess.run(
        [sys.executable, "-m", "gpuplanner", *serve, f"{option}={bad}"],
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
    )
    assert run.returncode == 2, run.stderr
    assert "Traceback" not in run.stderr and "internal error" not in run.stderr, run.stderr
    assert option in run.stderr and run.stdout == "", run.stderr
    if bad != "abc":
        want = "at least 1" if lang == "en" else "不小于 1"
        assert want in run.stderr and f"{bad}" in run.stderr, run.stderr
