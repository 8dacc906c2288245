"""Names of catalog entries in the report's language: the builder lives in ``gpuplanner.catalog.names`` (the
desktop and the checks' messages name entries the same way); this module keeps the imports written before
the move working."""

from __future__ import annotations

from gpuplanner.catalog.names import (
    described,
    figures,
    kind_word,
    local_name,
    says_its_kind,
    short_model,
)

__all__ = ["described", "figures", "kind_word", "local_name", "says_its_kind", "short_model"]
