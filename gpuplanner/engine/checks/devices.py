"""A device with no network: a server, storage appliance or switch of a multi-device plan that no link
reaches (a storage system nobody can read from, a switch left over after an edit)."""

from __future__ import annotations

import numpy as np

from gpuplanner.engine.checks.findings import Finding, register_templates
from gpuplanner.engine.compiled import KIND_CODES, Compiled

register_templates(
    {
        "device-not-networked": {
            "message": {
                "en": "{n} devices have no network link at all, e.g. {name} ({kind}).",
                "zh": "有 {n} 台设备没有任何网络连接，例如 {name}（{kind_zh}）。",
            },
            "fix": {
                "en": "Connect them to a fabric (a storage system to the storage fabric) or remove them.",
                "zh": "将其接入相应网络（存储设备接入存储网络），或从方案中删除。",
            },
        },
    }
)
KIND_ZH = {"server": "服务器", "switch": "交换机", "storage": "存储设备", "other": "设备"}


def unnetworked_findings(c: Compiled) -> list[Finding]:
    n = len(c.devices.ids)
    if n < 2:
        return []
    linked = np.bincount(np.concatenate([c.links.a, c.links.b]).astype(np.int64), minlength=n) > 0
    kinds = np.asarray(c.devices.kind)
    networked_kinds = np.isin(kinds, [KIND_CODES["server"], KIND_CODES["switch"], KIND_CODES["storage"]])
    alone = np.flatnonzero(networked_kinds & ~linked)
    if not len(alone):
        return []
    names = {v: k for k, v in KIND_CODES.items()}
    kind = names.get(int(kinds[alone[0]]), "other")
    params = {"n": len(alone), "name": c.devices.names[alone[0]], "kind": kind, "kind_zh": KIND_ZH[kind]}
    return [Finding("warning", "device-not-networked", tuple(c.devices.ids[i] for i in alone[:50]), params)]
