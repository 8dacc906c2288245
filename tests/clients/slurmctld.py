"""A throw-away Slurm controller that loads our files, for tests.

Recipe (measured with Debian 12's slurm-wlm 22.05; `.ci/run` installs `slurmctld slurm-client`):
- a scratch folder holds slurm.conf, topology.conf, gres.conf and the StateSaveLocation;
- no munge and no slurmd: ``AuthType=auth/none`` and ``CredType=cred/none``; every node gets
  ``NodeAddr=127.0.0.1`` (else slurmctld retries name look-ups of the plan's host names for minutes);
- ``SlurmUser`` is the current user and the ports are free ones, so tests can run side by side;
- ``slurmctld -D -i -f slurm.conf`` runs in the foreground of a background process (``-i`` ignores state
  left in the scratch folder); ``scontrol ping`` until the controller answers UP; then
  ``scontrol show topology`` / ``scontrol show partition`` read back what it loaded;
- it is stopped by its own pid (SIGTERM, then SIGKILL after 10 s).
A controller that rejects a file exits at once: its log (``fatal: …``) is raised as ``ControllerFailed``.
"""

from __future__ import annotations

import getpass
import os
import re
import shutil
import socket
import subprocess
import time
from pathlib import Path

import hostlist

SLURMCTLD = shutil.which("slurmctld") or "/usr/sbin/slurmctld"
SCONTROL = shutil.which("scontrol") or "/usr/bin/scontrol"


def available() -> bool:
    return os.path.exists(SLURMCTLD) and os.path.exists(SCONTROL)


def version() -> str:
    out = subprocess.run([SLURMCTLD, "-V"], capture_output=True, text=True, timeout=10)
    return out.stdout.strip()


class ControllerFailed(AssertionError):
    pass


def _free_ports(n: int) -> list[int]:
    socks, ports = [], []
    for _ in range(n):
        s = socket.socket()
        s.bind(("127.0.0.1", 0))
        socks.append(s)
        ports.append(s.getsockname()[1])
    for s in socks:
        s.close()
    return ports


def with_loopback_addresses(fragment: str) -> str:
    """NodeName lines of ``fragment`` with NodeAddr=127.0.0.1 for every node (one address per name)."""
    out = []
    for line in fragment.splitlines():
        m = re.match(r"NodeName=(\S+)", line)
        if m and m.group(1).upper() != "DEFAULT":
            n = len(hostlist.expand_hostlist(m.group(1)))
            line += " NodeAddr=" + ",".join(["127.0.0.1"] * n)
        out.append(line)
    return "\n".join(out) + "\n"


class Controller:
    """``with Controller(folder, nodes_conf, topology_conf=…) as ctl: ctl.scontrol('show', 'topology')``."""

    def __init__(
        self,
        folder: Path,
        nodes_conf: str,
        *,
        topology_conf: str | None = None,
        plugin: str = "topology/tree",
        gres_conf: str | None = None,
        extra: str = "",
    ) -> None:
        self.folder = Path(folder)
        self.folder.mkdir(parents=True, exist_ok=True)
        state = self.folder / "state"
        state.mkdir(exist_ok=True)
        port, dport = _free_ports(2)
        conf = [
            "ClusterName=gpuplannertest",
            "SlurmctldHost=localhost(127.0.0.1)",
            f"SlurmctldPort={port}",
            f"SlurmdPort={dport}",
            f"SlurmUser={getpass.getuser()}",
            "AuthType=auth/none",
            "CredType=cred/none",
            f"StateSaveLocation={state}",
            f"SlurmdSpoolDir={state}/d",
            f"SlurmctldPidFile={self.folder}/slurmctld.pid",
            f"SlurmctldLogFile={self.folder}/slurmctld.log",
            "SlurmctldDebug=info",
            "ReturnToService=2",
            "SchedulerType=sched/backfill",
            "ProctrackType=proctrack/linuxproc",
            "TaskPlugin=task/none",
            "MpiDefault=none",
            "JobCompType=jobcomp/none",
            f"TopologyPlugin={plugin if topology_conf is not None else 'topology/none'}",
            extra,
            "Include " + str(self.folder / "nodes.conf"),
        ]
        (self.folder / "nodes.conf").write_text(with_loopback_addresses(nodes_conf))
        (self.folder / "slurm.conf").write_text("\n".join(conf) + "\n")
        if topology_conf is not None:
            (self.folder / "topology.conf").write_text(topology_conf)
        if gres_conf is not None:
            (self.folder / "gres.conf").write_text(gres_conf)
        self.env = {**os.environ, "SLURM_CONF": str(self.folder / "slurm.conf")}
        self.proc: subprocess.Popen | None = None

    @property
    def log(self) -> str:
        p = self.folder / "slurmctld.log"
        return p.read_text(errors="replace") if p.exists() else ""

    def __enter__(self) -> Controller:
        self.proc = subprocess.Popen(
            [SLURMCTLD, "-D", "-i", "-f", str(self.folder / "slurm.conf")],
            env=self.env,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
        )
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                out = self.proc.stdout.read() if self.proc.stdout else ""
                raise ControllerFailed(f"slurmctld exited {self.proc.returncode}:\n{out}\n{self.log}")
            r = subprocess.run([SCONTROL, "ping"], env=self.env, capture_output=True, text=True, timeout=20)
            if "is UP" in r.stdout:
                return self
            time.sleep(0.3)
        self.stop()
        raise ControllerFailed(f"slurmctld did not answer within 60 s:\n{self.log}")

    def __exit__(self, *exc) -> None:
        self.stop()

    def stop(self) -> None:
        if self.proc is None or self.proc.poll() is not None:
            return
        self.proc.terminate()
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait(timeout=10)

    def scontrol(self, *args: str) -> str:
        r = subprocess.run(
            [SCONTROL, *args], env=self.env, capture_output=True, text=True, timeout=60, check=False
        )
        if r.returncode:
            raise AssertionError(f"scontrol {' '.join(args)}: {r.stderr or r.stdout}")
        return r.stdout

    def records(self, *args: str) -> list[dict[str, str]]:
        """``scontrol -o …`` records as Key → value (one record a line)."""
        out = []
        for line in self.scontrol("-o", *args).splitlines():
            rec: dict[str, str] = {}
            for m in re.finditer(r"(\w+)=(\S*)", line):
                rec.setdefault(m.group(1), m.group(2))
            if rec:
                out.append(rec)
        return out
