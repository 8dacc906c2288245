"""Level of detail: zoom thresholds, and the overview drawing of racks and devices at low zoom.

Below ``OVERVIEW_BELOW`` the per-item graphics (one Python paint per device) are made fully transparent
(Qt then skips the whole subtree in C++) and racks and devices are drawn as plain rectangles into the link
layer's cached tiles instead. Labels appear only from ``LABEL_SCALE`` on, port-group pads from
``PADS_SCALE``. The arrays here are rebuilt only when racks or devices change, never per paint.
"""

from __future__ import annotations

import numpy as np
from PySide6.QtCore import QRectF, Qt
from PySide6.QtGui import QBrush, QColor, QPainter, QPen

from gpuplanner.ui import theme
from gpuplanner.ui.canvas.geometry import RACK_HEADER_H, DeviceGeometry

OVERVIEW_BELOW = 0.12
DEVICE_TEXT_SCALE = 0.3
LABEL_SCALE = 0.55
PADS_SCALE = 0.6


class OverviewData:
    """Rack frames with a status colour and device rectangles with a role colour, as arrays."""

    def __init__(self) -> None:
        self.rack_ids: list[str] = []
        self.rack_xywh = np.zeros((0, 4))
        self.rack_status = np.zeros(0, dtype=np.int8)
        self.geom: DeviceGeometry | None = None
        self._role_geom: DeviceGeometry | None = None
        self._role_version = -1
        self._role_names: list[str] = []
        self._role_code = np.zeros(0, dtype=np.int32)
        # Racks and devices outside the phase the canvas shows (drawn neither as items nor in the overview).
        self.rack_off = np.zeros(0, dtype=bool)
        self.device_off = np.zeros(0, dtype=bool)
        # Racks and devices inside a collapsed group (drawn as the group's block instead).
        self.rack_group_off = np.zeros(0, dtype=bool)
        self.device_group_off = np.zeros(0, dtype=bool)

    def set_racks(self, ids: list[str], xywh: np.ndarray, status: np.ndarray) -> None:
        self.rack_ids = ids
        self.rack_xywh = xywh.reshape(-1, 4)
        self.rack_status = status
        self.rack_off = np.zeros(len(ids), dtype=bool)

    def bounds(self) -> QRectF:
        rects = []
        if len(self.rack_xywh):
            r = self.rack_xywh
            rects.append(
                (
                    r[:, 0].min(),
                    (r[:, 1] - RACK_HEADER_H).min(),
                    (r[:, 0] + r[:, 2]).max(),
                    (r[:, 1] + r[:, 3]).max(),
                )
            )
        g = self.geom
        if g is not None and len(g.ids):
            rects.append((g.x.min(), g.y.min(), (g.x + g.w).max(), (g.y + g.h).max()))
        if not rects:
            return QRectF()
        a = np.array(rects)
        return QRectF(
            a[:, 0].min(), a[:, 1].min(), a[:, 2].max() - a[:, 0].min(), a[:, 3].max() - a[:, 1].min()
        )

    def paint_racks(self, p: QPainter, rect: QRectF, scale: float) -> None:
        r = self.rack_xywh
        if not len(r):
            return
        top = r[:, 1] - RACK_HEADER_H
        mask = (r[:, 0] + r[:, 2] >= rect.left()) & (r[:, 0] <= rect.right())
        mask &= (r[:, 1] + r[:, 3] >= rect.top()) & (top <= rect.bottom())
        if len(self.rack_off) == len(r):
            mask &= ~self.rack_off
        if len(self.rack_group_off) == len(r):
            mask &= ~self.rack_group_off
        for status in np.unique(self.rack_status[mask]):
            rows = np.flatnonzero(mask & (self.rack_status == status))
            color = theme.RACK_STATUS_COLORS[int(status)]
            p.setPen(QPen(color, 0))
            p.setBrush(QBrush(theme.RACK_FILL))
            x, y, w, h = (r[rows, k].tolist() for k in range(4))  # floats, not numpy scalars: 5× faster
            p.drawRects([QRectF(*v) for v in zip(x, y, w, h, strict=True)])
            p.setPen(Qt.PenStyle.NoPen)
            p.setBrush(QBrush(color))
            hh = RACK_HEADER_H * 0.6
            p.drawRects([QRectF(a, t, b, hh) for a, t, b in zip(x, top[rows].tolist(), w, strict=True)])

    def paint_devices(self, p: QPainter, rect: QRectF, scale: float) -> None:
        g = self.geom
        if g is None or not len(g.ids):
            return
        mask = (
            (g.x + g.w >= rect.left())
            & (g.x <= rect.right())
            & (g.y + g.h >= rect.top())
            & (g.y <= rect.bottom())
        )
        if len(self.device_off) == len(mask):
            mask &= ~self.device_off
        if len(self.device_group_off) == len(mask):
            mask &= ~self.device_group_off
        rows = np.flatnonzero(mask)
        if not len(rows):
            return
        if self._role_geom is not g or self._role_version != g.version:  # role codes, once per geometry
            names = sorted(set(g.role))
            code = {r: k for k, r in enumerate(names)}
            self._role_names = names
            self._role_code = np.array([code[r] for r in g.role], dtype=np.int32)
            self._role_geom, self._role_version = g, g.version
        codes = self._role_code[rows]
        outline = QPen(theme.ROLE_BORDER, 0) if scale * 40 >= 4 else Qt.PenStyle.NoPen
        for k in np.unique(codes):
            idx = rows[codes == k]
            color = QColor(theme.role_color(self._role_names[int(k)])).darker(115)
            p.setPen(outline)
            p.setBrush(QBrush(color))
            cols = (g.x[idx].tolist(), g.y[idx].tolist(), g.w[idx].tolist(), g.h[idx].tolist())
            p.drawRects([QRectF(*v) for v in zip(*cols, strict=True)])
