"""Site and costs: electricity price, climate, utility feed, target PUE, TCO years and the other site
parameters; results update when applied."""

from __future__ import annotations

from PySide6.QtWidgets import QWidget

from gpuplanner.ui.dialogs.row_dialog import RowDialog
from gpuplanner.ui.document import Document


class SiteDialog(RowDialog):
    table = "site"

    def __init__(self, doc: Document, parent: QWidget | None = None) -> None:
        groups = [
            (
                self.tr("Energy and climate"),
                ["electricity_usd_per_kwh", "climate", "ambient_temp_c", "target_pue", "load_factor"],
            ),
            (self.tr("Power feed"), ["utility_kw_available", "feed_headroom"]),
            (
                self.tr("Ownership costs"),
                [
                    "tco_years",
                    "maintenance_pct_per_year",
                    "staff_usd_per_year",
                    "nodes_per_staff",
                    "software_usd_per_gpu_year",
                ],
            ),
            (self.tr("Cloud comparison"), ["cloud_usd_per_gpu_hour", "expected_utilization"]),
            (
                self.tr("Floor and cabling"),
                ["hall_width_m", "hall_depth_m", "rack_pitch_m", "row_pitch_m", "cable_slack_m", "tray_height_m"],
            ),
        ]
        super().__init__(doc, doc.project.site, groups, parent)
        self.setWindowTitle(self.tr("Site and costs"))
