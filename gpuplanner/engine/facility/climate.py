"""Climate → the scale of the cooling overhead (PUE − 1): by the site's climate label, or, with climate 'auto',
from the site's annual mean ambient temperature through the hours of free (economiser) cooling.

    free-cooling share f(T) = Φ((T_econ − T_mean) / σ)     hourly dry-bulb ~ normal around the annual mean
    overhead factor         = (1 − s · f(T_mean)) / (1 − s · f(T_ref))

T_econ, σ, s and T_ref are in ``catalogs/assumptions/facility.yaml`` (``free_cooling``) with their sources; the
labels' factors are ``climate_overhead_factor``. Simple and stated, not a bin-by-bin ASHRAE calculation.
"""

from __future__ import annotations

import math

from gpuplanner.engine.facility.power import Assumptions
from gpuplanner.model.rows import Site


def free_cooling_share(mean_c: float, econ_c: float, sigma_k: float) -> float:
    """Share of the year's hours with dry-bulb at or below ``econ_c``."""
    if sigma_k <= 0:
        return 1.0 if mean_c <= econ_c else 0.0
    return 0.5 * (1.0 + math.erf((econ_c - mean_c) / (sigma_k * math.sqrt(2.0))))


def climate_factor(site: Site, a: Assumptions) -> float:
    if site.climate != "auto":
        return float(a.value("climate_overhead_factor").get(site.climate, 1.0))
    fc = a.value("free_cooling")
    s = float(fc["overhead_share_saved"])
    f = free_cooling_share(site.ambient_temp_c, float(fc["economiser_c"]), float(fc["sigma_k"]))
    f_ref = free_cooling_share(float(fc["reference_mean_c"]), float(fc["economiser_c"]), float(fc["sigma_k"]))
    return (1.0 - s * f) / (1.0 - s * f_ref)


def climate_json(site: Site, a: Assumptions) -> dict:
    fc = a.value("free_cooling")
    f = free_cooling_share(site.ambient_temp_c, float(fc["economiser_c"]), float(fc["sigma_k"]))
    return {
        "climate": site.climate,
        "ambient_temp_c": site.ambient_temp_c,
        "free_cooling_hours_per_year": round(8760.0 * f),
        "cooling_overhead_factor": climate_factor(site, a),
        "uses_ambient": site.climate == "auto",
    }
