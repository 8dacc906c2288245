"""The allocator setting the router applies once per process (engine/fabric/routing_alloc.py)."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

CHECK = (
    "import resource, numpy as np\n"
    "from gpuplanner.engine.fabric.routing_alloc import keep_freed_memory\n"
    "on = keep_freed_memory()\n"
    "def churn():\n"
    "    for _ in range(5):\n"  # six 8 MB arrays alive together, then all freed (as in one route)
    "        held = [np.ones(1 << 20) for _ in range(6)]\n"
    "        del held\n"
    "churn()\n"
    "r0 = resource.getrusage(resource.RUSAGE_SELF).ru_minflt\n"
    "churn()\n"
    "print(on, resource.getrusage(resource.RUSAGE_SELF).ru_minflt - r0)\n"
)


def _run(switch: str | None) -> tuple[bool, int]:
    env = dict(os.environ)
    env.pop("GPUPLANNER_KEEP_FREED_MEMORY", None)
    if switch is not None:
        env["GPUPLANNER_KEEP_FREED_MEMORY"] = switch
    out = subprocess.run([sys.executable, "-c", CHECK], env=env, capture_output=True, text=True, check=True)
    on, faults = out.stdout.split()
    return on == "True", int(faults)


def _glibc() -> bool:
    try:
        return (os.confstr("CS_GNU_LIBC_VERSION") or "").startswith("glibc")
    except (ValueError, OSError, AttributeError):
        return False


@pytest.mark.skipif(not _glibc(), reason="the setting applies to glibc only")
def test_freed_arrays_are_reused_without_page_faults():
    on, faults = _run(None)
    assert on
    # 30 arrays of 2,048 pages each: with the library defaults every round faults all its pages again
    assert faults < 2048


@pytest.mark.skipif(not _glibc(), reason="the setting applies to glibc only")
def test_the_switch_leaves_the_defaults_and_pages_fault_again():
    on, faults = _run("0")
    assert not on
    assert faults > 4 * 2048  # measured: about 15,000 of the 61,440 pages fault again


def test_off_glibc_or_switched_off_it_reports_false():
    on, _ = _run("0")
    assert on is False
