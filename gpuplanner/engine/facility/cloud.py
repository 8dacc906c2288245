"""Cloud GPU prices per GPU type (``catalogs/assumptions/cloud.yaml``) and the price the plan is compared with.

For a GPU type and a term (on_demand, reserved_1y, reserved_3y) the offers that publish that term give the
median, min and max price per GPU-hour. An offer without the term but with an on-demand price gives a derived
price (on-demand × (1 − typical discount), flagged as an estimate) only when no offer publishes the term.
Offers in another currency than USD are converted with the project's exchange rate when that is the
currency (a CNY project also uses the CNY offers of Chinese clouds); otherwise they are left out.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from gpuplanner.engine.facility.power import Assumptions, load_assumptions

TERMS = ("on_demand", "reserved_1y", "reserved_3y")


@dataclass(frozen=True)
class CloudPrice:
    gpu_id: str
    term: str
    usd_per_gpu_hour: float  # median of the offers; NaN = no offer
    min_usd: float
    max_usd: float
    offers: int
    derived: bool  # True when the term's prices were derived from on-demand prices
    providers: list[str] = field(default_factory=list)
    sources: list[str] = field(default_factory=list)
    as_of: str = ""


def _offer_usd(offer: dict, term: str, currency: str, usd_rate: float) -> float | None:
    price = offer.get(term)
    if price is None:
        return None
    cur = str(offer.get("currency", "USD"))
    if cur == "USD":
        return float(price)
    if cur == currency and usd_rate > 0:
        return float(price) / usd_rate
    return None


def cloud_price(
    gpu_id: str,
    term: str = "on_demand",
    currency: str = "USD",
    usd_rate: float = 1.0,
    assumptions: Assumptions | None = None,
) -> CloudPrice:
    a = assumptions or load_assumptions("cloud")
    offers = a.entries.get(gpu_id, {}).get("value") or []
    term = term if term in TERMS else "on_demand"
    rows = [(o, p) for o in offers if (p := _offer_usd(o, term, currency, usd_rate)) is not None]
    derived = False
    if not rows and term != "on_demand":
        off = float(a.value("reserved_discount_typical")[term])
        rows = [
            (o, p * (1.0 - off))
            for o in offers
            if (p := _offer_usd(o, "on_demand", currency, usd_rate)) is not None
        ]
        derived = bool(rows)
    if not rows:
        nan = float("nan")
        return CloudPrice(gpu_id, term, nan, nan, nan, 0, False)
    prices = np.array([p for _, p in rows])
    return CloudPrice(
        gpu_id=gpu_id,
        term=term,
        usd_per_gpu_hour=float(np.median(prices)),
        min_usd=float(prices.min()),
        max_usd=float(prices.max()),
        offers=len(rows),
        derived=derived,
        providers=[str(o.get("provider", "")) for o, _ in rows],
        sources=[f"{o.get('source', '')} ({o.get('as_of', '')})" for o, _ in rows],
        as_of=max(str(o.get("as_of", "")) for o, _ in rows),
    )
