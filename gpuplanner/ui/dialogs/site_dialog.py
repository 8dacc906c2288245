"""Site and costs: electricity price, climate, utility feed, target PUE, TCO years and the other site
parameters; results update when applied. Under the form, the answer a facility planner comes for: IT kW,
facility kW and PUE, the utility feed the site needs against the one stated. Fields whose 0 or fraction
means something say so in their tooltip."""

from __future__ import annotations

from PySide6.QtWidgets import QWidget

from gpuplanner.engine.analysis import Results
from gpuplanner.ui import fmt
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
                self.tr("Site limits, budget and export rules"),
                ["it_kw_available", "positions_json", "budget_capex", "budget_tco", "region"],
            ),
            (
                self.tr("Ownership costs"),
                [
                    "tco_years",
                    "maintenance_pct_per_year",
                    "staff_usd_per_year",
                    "nodes_per_staff",
                    "staff_min_fte",
                    "support_years_in_price",
                    "software_usd_per_gpu_year",
                ],
            ),
            (
                self.tr("Cloud comparison"),
                ["cloud_price_source", "cloud_term", "cloud_usd_per_gpu_hour", "expected_utilization"],
            ),
            (
                self.tr("Facility and finance"),
                [
                    "facility_model",
                    "colo_usd_per_kw_month",
                    "build_usd_per_mw",
                    "discount_rate_pct",
                    "depreciation_years",
                    "insurance_pct_per_year",
                ],
            ),
            (self.tr("Electrical"), ["redundancy", "ups_runtime_min"]),
            (
                self.tr("Floor and cabling"),
                [
                    "hall_width_m",
                    "hall_depth_m",
                    "rack_pitch_m",
                    "row_pitch_m",
                    "cable_slack_m",
                    "tray_height_m",
                ],
            ),
        ]
        super().__init__(doc, doc.project.site, groups, parent)
        self.setWindowTitle(self.tr("Site and costs"))
        for name, tip in self.hints().items():
            self.editors[name].widget.setToolTip(tip)
            label = self.labels.get(name)
            if label is not None:
                label.setToolTip(tip)
        doc.resultsReady.connect(self.show_power)
        if doc.results is not None:
            self.show_power(doc.results)

    def hints(self) -> dict[str, str]:
        return {
            "utility_kw_available": self.tr(
                "The kW the utility can deliver to this site; 0 = not stated (no check)."
            ),
            "feed_headroom": self.tr(
                "Margin on top of the facility kW at maximum when sizing the feed: 0.20 = 20 %."
            ),
            "load_factor": self.tr("Average share of the maximum IT power drawn over a year: 0.80 = 80 %."),
            "it_kw_available": self.tr(
                "IT power the hall can take; the plan's IT kW at maximum plus the feed margin is checked against "
                "it. 0 = not stated."
            ),
            "positions_json": self.tr(
                'Rack positions on the floor, as [{"count": 24, "cooling": "air", "kw": 40}, …]; cooling is air, '
                "rear-door or liquid. [] = not stated."
            ),
            "budget_capex": self.tr("Capex budget in the project currency; 0 = not stated."),
            "budget_tco": self.tr("TCO budget in the project currency, over the TCO years; 0 = not stated."),
            "region": self.tr(
                "The customer's country (ISO code, e.g. CN) for the export rules; empty = none."
            ),
            "expected_utilization": self.tr(
                "Share of the hours the GPUs are busy, for the cloud comparison: 0.70 = 70 %."
            ),
            "target_pue": self.tr("A finding is raised when the predicted PUE is above this."),
            "hall_width_m": self.tr("0 = the hall's size is not stated (racks are not checked against it)."),
            "facility_model": self.tr(
                "colocation: rent per kW of IT power per month; build: own data hall at a cost per MW of IT; "
                "none: the facility is not costed."
            ),
            "colo_usd_per_kw_month": self.tr("0 = the sourced market rate (CBRE North America H2 2024)."),
            "build_usd_per_mw": self.tr("0 = the sourced build cost (Turner & Townsend cost index 2025–26)."),
            "support_years_in_price": self.tr(
                "Years of vendor support included in the hardware prices; maintenance is charged after them."
            ),
            "cloud_price_source": self.tr(
                "list: each GPU type's dated cloud prices (median of the offers); site: the price entered here."
            ),
            "software_usd_per_gpu_year": self.tr("e.g. NVIDIA AI Enterprise: 4,500 USD per GPU per year."),
            "redundancy": self.tr("UPS, transformer and generator redundancy: N, N+1 or 2N."),
            "climate": self.tr(
                "auto: the annual mean ambient temperature sets the free-cooling hours and so the PUE; "
                "a label (cold, temperate, hot) applies its fixed factor."
            ),
            "ambient_temp_c": self.tr("Annual mean outdoor temperature; used when the climate is auto."),
            "hall_depth_m": self.tr("0 = the hall's size is not stated (racks are not checked against it)."),
        }

    def show_power(self, res: Results) -> None:
        """The power answer for the site as applied: IT and facility kW, PUE, and the utility feed."""
        th, pw = res.thermal, res.power
        text = self.tr(
            "IT {it} kW at maximum → facility {fac} kW at PUE {pue}; the utility feed needs {feed} kW "
            "(with {pct} % headroom)."
        ).format(
            it=fmt.number(pw.it_kw_max, 1),
            fac=fmt.number(th.facility_kw_max, 1),
            pue=fmt.number(th.pue, 2),
            feed=fmt.number(th.feed_kw_needed, 0),
            pct=fmt.number(self.doc.project.site.feed_headroom * 100),
        )
        if th.utility_kw_available <= 0:
            text += " " + self.tr("No utility feed is stated.")
        elif th.feed_ok:
            text += " " + self.tr("The stated {kw} kW is enough.").format(
                kw=fmt.number(th.utility_kw_available, 0)
            )
        else:
            text += " " + self.tr("The stated {kw} kW is too small.").format(
                kw=fmt.number(th.utility_kw_available, 0)
            )
        self.status.setText(text)
