"""The compute traffic of a project routed by the per-flow oracle, from the project's own tables and catalog
entries (not from the engine's compiled arrays or routing graph).

What the engine models, written out here once more so that the two can disagree:

* Switches (catalog kind ``switch``) forward. Every other device's link end is an endpoint of its own: a
  NIC port, or a bundle of ports when the link row has multiplicity > 1.
* Links whose port group on either end has role management, storage, frontend or inband carry no compute
  traffic (``engine/fabric_graph.NOT_ROUTED``); all other links do.
* GPUs are numbered server by server in the project's device order; GPU g of a server with G GPUs and E
  compute endpoints (its links from a ``compute`` port group, in link-table order) sends and receives on
  endpoint ``g * E // G``. A server without compute links has GPUs whose traffic is not routed.
* A flow between two GPUs of one server travels over NVLink/HCCS: not routed. Flows naming GPUs the
  project does not have are ignored.
"""

from __future__ import annotations

from collections import defaultdict

import numpy as np

from gpuplanner.engine.perf.traffic import KIND_CODES
from tests.oracles.ecmp_oracle import EcmpOracle, to_multigraph

NOT_ROUTED = {"management", "storage", "frontend", "inband"}


class ProjectNetwork:
    """The routing multigraph of one project, its link ids, and each GPU's endpoint node and server."""

    def __init__(self, project) -> None:
        cat = project.catalog
        devices = list(project.devices.values())
        is_switch = {d.id: cat.get(d.type_id).kind == "switch" for d in devices}
        node_of_switch = {d.id: i for i, d in enumerate(x for x in devices if is_switch[x.id])}
        n = len(node_of_switch)
        link_a: list[int] = []
        link_b: list[int] = []
        self.link_ids: list[str] = []
        compute_eps: dict[str, list[int]] = defaultdict(list)  # server id → its compute endpoint nodes

        def role(dev_id: str, group: str) -> str:
            pg = cat.get(project.devices[dev_id].type_id).port_group(group)
            return pg.role if pg is not None else ""

        for lk in project.links.values():
            ra, rb = role(lk.a_device, lk.a_group), role(lk.b_device, lk.b_group)
            if ra in NOT_ROUTED or rb in NOT_ROUTED:
                continue
            ends = []
            for dev, r in ((lk.a_device, ra), (lk.b_device, rb)):
                if is_switch[dev]:
                    ends.append(node_of_switch[dev])
                else:
                    ends.append(n)
                    if r == "compute":
                        compute_eps[dev].append(n)
                    n += 1
            link_a.append(ends[0])
            link_b.append(ends[1])
            self.link_ids.append(lk.id)
        transit = np.zeros(n, bool)
        transit[: len(node_of_switch)] = True
        self.n_nodes = n
        self.link_a = np.array(link_a, np.int64)
        self.link_b = np.array(link_b, np.int64)
        self.transit = transit
        self.gpu_endpoint: list[int] = []
        self.gpu_server: list[str] = []
        for d in devices:
            gpus = int(getattr(cat.get(d.type_id), "gpu_count", 0) or 0)
            eps = compute_eps.get(d.id, [])
            for g in range(gpus):
                self.gpu_endpoint.append(eps[g * len(eps) // gpus] if eps else -1)
                self.gpu_server.append(d.id)
        self.oracle = EcmpOracle(to_multigraph(n, self.link_a, self.link_b, transit), len(link_a))

    def route_flows(self, flows) -> dict[str, dict[str, tuple[float, float]]]:
        """Per collective kind: link id → (bytes a→b, bytes b→a) of the flows' inter-server traffic."""
        n_gpus = len(self.gpu_endpoint)
        names = {code: name for name, code in KIND_CODES.items()}
        out: dict[str, np.ndarray] = {}
        for s, d, v, k in zip(
            flows.src_gpu.tolist(),
            flows.dst_gpu.tolist(),
            flows.bytes_per_step.tolist(),
            flows.kind.tolist(),
            strict=True,
        ):
            if s >= n_gpus or d >= n_gpus or self.gpu_server[s] == self.gpu_server[d]:
                continue
            es, ed = self.gpu_endpoint[s], self.gpu_endpoint[d]
            if es < 0 or ed < 0 or es == ed:
                continue
            load = out.setdefault(names[k], np.zeros((len(self.link_ids), 2)))
            self.oracle.route(es, ed, v, load)
        return {
            kind: {lid: (float(ab), float(ba)) for lid, (ab, ba) in zip(self.link_ids, load, strict=True)}
            for kind, load in out.items()
        }
