"""GraphML of the topology (networkx): a node per device (name, role, catalog type, rack, U, canvas x/y, GPUs)
and an edge per link (link id as the edge key, multiplicity, speed, medium, length, tier, utilisation). yEd,
Gephi, networkx and igraph read it."""

from __future__ import annotations

import re

import networkx as nx
import numpy as np

_XML_INVALID = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff]")


def _t(s) -> str:
    return _XML_INVALID.sub(" ", str(s or ""))


def project_graph(project, results) -> nx.MultiGraph:
    c = results.compiled
    g = nx.MultiGraph(name=_t(project.info.name))
    racks = project.racks
    gpus = dict(zip(c.devices.ids, c.devices.gpu_count.tolist(), strict=True))
    for d in project.devices.values():
        g.add_node(
            d.id,
            name=_t(d.name),
            role=d.role,
            type_id=d.type_id,
            rack=_t(racks[d.rack_id].name) if d.rack_id in racks else "",
            u_position=int(d.u_position or 0),
            x=float(d.x),
            y=float(d.y),
            gpus=int(gpus.get(d.id, 0)),
            partition=_t(d.partition),
        )
    lk = c.links
    util = np.nan_to_num(results.link_util)
    for i, lid in enumerate(lk.ids):
        link = project.links[lid]
        g.add_edge(
            link.a_device,
            link.b_device,
            key=lid,
            multiplicity=int(lk.multiplicity[i]),
            speed_gbps=float(lk.speed_gbps[i]),
            medium=results.fabric.cables.medium[i],
            length_m=float(lk.length_m[i]),
            tier=results.fabric.link_tier[i],
            utilization=float(util[i]),
            a_group=link.a_group,
            b_group=link.b_group,
        )
    return g


def graphml_text(project, results) -> str:
    return "\n".join(nx.generate_graphml(project_graph(project, results), prettyprint=True)) + "\n"
