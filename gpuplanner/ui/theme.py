"""Colours and badges shared by the canvas, the legend, the plots and the rack elevation.

Link utilisation is shown in buckets (so that a repaint is needed only when a link changes bucket):
grey (no traffic) → green → yellow → amber → red at and past the bottleneck. Racks get a status colour
(ok / near budget / over budget or cooling cannot take the load) and a cooling badge per method.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from PySide6.QtGui import QColor

from gpuplanner.ui.i18n import translate

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


def bucket_labels() -> list[str]:
    return [
        translate("theme", "no traffic"),
        translate("theme", "< 25 %"),
        translate("theme", "25–50 %"),
        translate("theme", "50–75 %"),
        translate("theme", "75–90 %"),
        translate("theme", "≥ 90 % (bottleneck)"),
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
    return [
        translate("theme", "rack within budget"),
        translate("theme", "rack ≥ 90 % of budget"),
        translate("theme", "over budget or cooling too weak"),
    ]


@dataclass(frozen=True)
class Badge:
    text: str
    color: QColor


def cooling_badge(method: str) -> Badge:
    """Short badge for a cooling method (air / rear-door / cold-plate / immersion)."""
    table = {
        "air": (translate("theme", "AIR"), QColor(90, 150, 220)),
        "air-contained": (translate("theme", "AIR+"), QColor(60, 120, 200)),
        "rear-door": (translate("theme", "RDHx"), QColor(40, 160, 170)),
        "cold-plate": (translate("theme", "DLC"), QColor(120, 80, 200)),
        "immersion": (translate("theme", "IMM"), QColor(170, 60, 150)),
    }
    text, color = table.get(method, (method[:4].upper() or "?", QColor(120, 120, 120)))
    return Badge(text, color)


def cooling_method_name(method: str) -> str:
    names = {
        "air": translate("theme", "air"),
        "air-contained": translate("theme", "contained air"),
        "rear-door": translate("theme", "rear-door heat exchanger"),
        "cold-plate": translate("theme", "cold plate (direct liquid)"),
        "immersion": translate("theme", "immersion"),
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
        "compute": translate("theme", "compute"),
        "leaf": translate("theme", "leaf"),
        "spine": translate("theme", "spine"),
        "core": translate("theme", "core"),
        "storage": translate("theme", "storage"),
        "storage-switch": translate("theme", "storage switch"),
        "management": translate("theme", "management"),
        "other": translate("theme", "other"),
    }
    return names.get(role, role)
