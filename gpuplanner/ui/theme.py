"""Colours and badges shared by the canvas, the legend, the plots and the rack elevation.

Link utilisation is shown in buckets (so that a repaint is needed only when a link changes bucket):
grey (no traffic) → green → yellow → amber → red at and past the bottleneck. Racks get a status colour
(ok / near budget / over budget or cooling cannot take the load) and a cooling badge per method.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from PySide6.QtCore import QCoreApplication
from PySide6.QtGui import QColor

# Upper edges (exclusive) of the utilisation buckets 1..4; bucket 0 = no traffic, 5 = bottleneck.
UTIL_EDGES = np.array([0.25, 0.5, 0.75, 0.9])
BUCKET_COLORS = (
    QColor(150, 156, 166),  # 0 no traffic
    QColor(46, 160, 67),  # 1 < 25 %
    QColor(154, 190, 40),  # 2 25–50 %
    QColor(232, 160, 20),  # 3 50–75 %
    QColor(230, 100, 20),  # 4 75–90 %
    QColor(215, 40, 40),  # 5 ≥ 90 %: the bottleneck
)
N_BUCKETS = len(BUCKET_COLORS)


def tr(text: str) -> str:
    return QCoreApplication.translate("theme", text)


def bucket_labels() -> list[str]:
    return [
        tr("no traffic"),
        tr("< 25 %"),
        tr("25–50 %"),
        tr("50–75 %"),
        tr("75–90 %"),
        tr("≥ 90 % (bottleneck)"),
    ]


def util_buckets(util: np.ndarray) -> np.ndarray:
    """Bucket index per link (uint8): 0 when there is no traffic, else 1 + position among UTIL_EDGES."""
    u = np.nan_to_num(np.asarray(util, dtype=np.float64), nan=0.0)
    out = (np.searchsorted(UTIL_EDGES, u, side="right") + 1).astype(np.uint8)
    out[u <= 0.0] = 0
    return out


def bucket_color(bucket: int) -> QColor:
    return BUCKET_COLORS[int(bucket)]


# -- racks ----------------------------------------------------------------------------------------------
RACK_OK, RACK_NEAR, RACK_BAD = 0, 1, 2
RACK_STATUS_COLORS = (QColor(60, 70, 84), QColor(200, 130, 0), QColor(200, 40, 40))
RACK_FILL = QColor(244, 246, 249)
NEAR_BUDGET = 0.9


def rack_status_labels() -> list[str]:
    return [tr("rack within budget"), tr("rack ≥ 90 % of budget"), tr("over budget or cooling too weak")]


@dataclass(frozen=True)
class Badge:
    text: str
    color: QColor


def cooling_badge(method: str) -> Badge:
    """Short badge for a cooling method (air / rear-door / cold-plate / immersion)."""
    table = {
        "air": (tr("AIR"), QColor(90, 150, 220)),
        "air-contained": (tr("AIR+"), QColor(60, 120, 200)),
        "rear-door": (tr("RDHx"), QColor(40, 160, 170)),
        "cold-plate": (tr("DLC"), QColor(120, 80, 200)),
        "immersion": (tr("IMM"), QColor(170, 60, 150)),
    }
    text, color = table.get(method, (method[:4].upper() or "?", QColor(120, 120, 120)))
    return Badge(text, color)


def cooling_method_name(method: str) -> str:
    names = {
        "air": tr("air"),
        "air-contained": tr("contained air"),
        "rear-door": tr("rear-door heat exchanger"),
        "cold-plate": tr("cold plate (direct liquid)"),
        "immersion": tr("immersion"),
    }
    return names.get(method, method)


# -- devices --------------------------------------------------------------------------------------------
ROLE_COLORS = {
    "compute": QColor(214, 228, 250),
    "leaf": QColor(214, 240, 220),
    "spine": QColor(200, 232, 210),
    "core": QColor(186, 222, 198),
    "storage": QColor(250, 232, 204),
    "storage-switch": QColor(244, 222, 190),
    "management": QColor(230, 230, 236),
    "other": QColor(236, 236, 236),
}
ROLE_BORDER = QColor(70, 80, 96)
SELECTION = QColor(30, 110, 250)
ERROR_TEXT = QColor(190, 30, 30)


def role_color(role: str) -> QColor:
    return ROLE_COLORS.get(role, ROLE_COLORS["other"])


def role_name(role: str) -> str:
    names = {
        "compute": tr("compute"),
        "leaf": tr("leaf"),
        "spine": tr("spine"),
        "core": tr("core"),
        "storage": tr("storage"),
        "storage-switch": tr("storage switch"),
        "management": tr("management"),
        "other": tr("other"),
    }
    return names.get(role, role)
