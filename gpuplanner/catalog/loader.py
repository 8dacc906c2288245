"""Loads the bundled catalog and the user's catalog folder.

A broken file or entry never stops the rest from loading: it is recorded in ``Catalog.errors`` with its
file, entry and field, and left out. User entries override bundled ones with the same id.

``load_catalog`` keeps what it read of each folder in an on-disk cache (``catalog/cache.py``) keyed by
every file's path, size and mtime: a start with unchanged files skips YAML and JSON Schema altogether.
PyYAML and jsonschema are therefore imported only when a file is actually read.
"""

from __future__ import annotations

import dataclasses
import json
import os
from collections.abc import Iterable, Iterator
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

from gpuplanner.catalog import cache as disk_cache
from gpuplanner.catalog.rules import check_entry, check_references
from gpuplanner.catalog.schema_lite import supported, valid
from gpuplanner.catalog.types import KIND_DIRS, KIND_TYPES, CatalogEntry, Price, ServerType
from gpuplanner.core.errors import CatalogError
from gpuplanner.core.safeio import read_regular
from gpuplanner.text import Msg

E = TypeVar("E", bound=CatalogEntry)

if TYPE_CHECKING:
    import jsonschema

# Fields renamed since entries were first written: a project's copy or a user file with the old name loads.
# ``switching_tbps`` always held the one-direction sum of the port rates, whatever the vendor printed.
RENAMED_FIELDS: dict[str, dict[str, str]] = {"switch": {"switching_tbps": "switching_tbps_unidirectional"}}

ENV_BUNDLED = "GPUPLANNER_CATALOG_DIR"
ENV_USER = "GPUPLANNER_USER_CATALOG"


def bundled_catalog_dir() -> Path:
    env = os.environ.get(ENV_BUNDLED)
    if env:
        return Path(env)
    here = Path(__file__).resolve().parent.parent  # gpuplanner/
    for candidate in (here.parent / "catalogs", here / "_data" / "catalogs"):
        if candidate.is_dir():
            return candidate
    return here.parent / "catalogs"


def user_catalog_dir() -> Path:
    env = os.environ.get(ENV_USER)
    if env:
        return Path(env)
    from platformdirs import user_data_dir

    return Path(user_data_dir("gpuplanner", "gpuplanner")) / "catalogs"


@cache
def _schema(kind: str) -> dict[str, Any]:
    path = bundled_catalog_dir() / "schema" / f"{kind}.json"
    schema: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return schema


@cache
def _validator(kind: str) -> jsonschema.Draft202012Validator:
    """Built once per kind: building one per entry cost as much as validating it."""
    import jsonschema

    return jsonschema.Draft202012Validator(_schema(kind))


def _schema_files() -> list[Path]:
    return sorted((bundled_catalog_dir() / "schema").glob("*.json"))


@cache
def _yaml_loader() -> type:
    """libyaml's safe loader when PyYAML was built with it (about 10× faster), else the pure-Python one."""
    import yaml

    return getattr(yaml, "CSafeLoader", yaml.SafeLoader)


def _schema_errors(kind: str, data: dict[str, Any], origin: str, entry_id: str) -> list[CatalogError]:
    out = []
    for e in sorted(_validator(kind).iter_errors(data), key=lambda e: list(e.absolute_path)):
        field = ".".join(str(p) for p in e.absolute_path) or None
        msg = e.message
        if e.validator == "additionalProperties":
            msg = f"unknown field ({e.message}); see catalogs/README.md for the fields of '{kind}'"
        out.append(CatalogError(msg, file=origin, entry=entry_id, field=field, value=e.instance))
    return out


def _read_yaml(path: Path) -> Any:
    import yaml

    try:  # a regular file only: a FIFO named *.yaml in a catalog folder must not hang every start
        text = read_regular(path, 16 * 1024 * 1024).decode("utf-8")
    except FileNotFoundError as exc:
        raise CatalogError(Msg("error.file.not_found"), file=str(path)) from exc
    except (OSError, UnicodeDecodeError) as exc:
        raise CatalogError(f"cannot read: {getattr(exc, 'strerror', None) or exc}", file=str(path)) from exc
    try:
        return yaml.load(text, Loader=_yaml_loader())  # a safe loader: plain data only
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f" at line {mark.line + 1}, column {mark.column + 1}" if mark else ""
        raise CatalogError(f"not valid YAML{where}: {getattr(exc, 'problem', exc)}", file=str(path)) from exc


def parse_entry(
    path: Path, expected_kind: str | None = None
) -> tuple[CatalogEntry | None, list[CatalogError]]:
    """Reads one entry file; returns the entry (or None) and the problems found."""
    origin = str(path)
    try:
        data = _read_yaml(path)
    except CatalogError as exc:
        return None, [exc]
    if not isinstance(data, dict):
        return None, [CatalogError("expected a mapping of fields at the top level", file=origin)]
    return entry_from_dict(data, origin=origin, expected_kind=expected_kind, file_stem=path.stem)


def entry_from_dict(
    data: dict[str, Any], *, origin: str, expected_kind: str | None = None, file_stem: str | None = None
) -> tuple[CatalogEntry | None, list[CatalogError]]:
    """Schema + semantic checks of one entry given as a dict (a file's content, or a project's copy)."""
    entry_id = str(data.get("id", file_stem or "?"))
    kind = data.get("kind")
    if kind not in KIND_TYPES:
        return None, [
            CatalogError(
                f"unknown kind {kind!r}; one of {sorted(KIND_TYPES)}",
                file=origin,
                entry=entry_id,
                field="kind",
            )
        ]
    data = dict(data)
    for old, new in RENAMED_FIELDS.get(kind, {}).items():
        if old in data and new not in data:
            data[new] = data.pop(old)
    if "as_of" in data and not isinstance(data["as_of"], str):
        data["as_of"] = str(data["as_of"])  # YAML reads 2024-05-01 as a date
    ec = data.get("export_control")
    if isinstance(ec, dict):
        data["export_control"] = {
            k: (str(v) if k in ("as_of", "licence_required_since") and not isinstance(v, str) else v)
            for k, v in ec.items()
        }
    errors = _schema_errors(kind, data, origin, entry_id)
    if expected_kind and kind != expected_kind:
        errors.append(
            CatalogError(
                f"kind '{kind}' in the folder of '{expected_kind}'", file=origin, entry=entry_id, field="kind"
            )
        )
    if file_stem and data.get("id") and data["id"] != file_stem:
        errors.append(
            CatalogError(
                f"id '{data['id']}' differs from the file name '{file_stem}'",
                file=origin,
                entry=entry_id,
                field="id",
            )
        )
    if errors:
        return None, errors
    entry = KIND_TYPES[kind].from_dict(data, origin=origin)
    rule_errors = check_entry(entry)
    return (None if rule_errors else entry), rule_errors


def parse_prices(path: Path) -> tuple[list[Price], list[CatalogError]]:
    origin = str(path)
    try:
        data = _read_yaml(path)
    except CatalogError as exc:
        return [], [exc]
    if isinstance(data, dict):
        for item in data.get("entries") or []:
            if isinstance(item, dict) and "as_of" in item and not isinstance(item["as_of"], str):
                item["as_of"] = str(item["as_of"])
    errors = [
        CatalogError(e.message, file=origin, field=".".join(str(p) for p in e.absolute_path) or None)
        for e in _validator("prices").iter_errors(data)
    ]
    if errors:
        return [], errors
    prices = [
        Price(
            id=p["id"],
            price_usd=float(p["price_usd"]),
            unit=p.get("unit", "each"),
            source=p["source"],
            as_of=str(p["as_of"]),
            estimate=bool(p.get("estimate", False)),
            note=p.get("note", ""),
            origin=origin,
        )
        for p in data["entries"]
    ]
    return prices, []


def _entry_files(root: Path) -> Iterator[tuple[Path, str | None]]:
    for kind, folder in KIND_DIRS.items():
        d = root / folder
        if d.is_dir():
            for p in sorted(d.glob("*.y*ml")):
                yield p, kind
    # Loose files at the top of a user folder (e.g. imported from NetBox) are allowed too.
    for p in sorted(root.glob("*.y*ml")):
        yield p, None


def _price_files(root: Path) -> list[Path]:
    prices_dir = root / "prices"
    return sorted(prices_dir.glob("*.y*ml")) if prices_dir.is_dir() else []


# What reading one folder yields, in file order: (file, entry or None, problems) per entry file and
# (file, prices, problems) per price file. ``Catalog.add_dir`` merges it; the disk cache stores it.
_EntryResults = list[tuple[str, CatalogEntry | None, list[CatalogError]]]
_PriceResults = list[tuple[str, list[Price], list[CatalogError]]]


def _read_dir(
    entry_files: list[tuple[Path, str | None]], price_files: list[Path]
) -> tuple[_EntryResults, _PriceResults]:
    entries = [(str(path), *parse_entry(path, kind)) for path, kind in entry_files]
    prices = [(str(path), *parse_prices(path)) for path in price_files]
    return entries, prices


def _error_to_plain(e: CatalogError) -> tuple[Any, ...]:
    return (e.message, e.file, e.entry, e.field, e.value, e.hint)


def _error_from_plain(t: tuple[Any, ...]) -> CatalogError:
    message, file, entry, field, value, hint = t
    if not all(isinstance(x, str | None) for x in (message, file, entry, field, hint)):
        raise ValueError("cached problem of a wrong type")
    return CatalogError(message, file=file, entry=entry, field=field, value=value, hint=hint)


def _to_plain(entries: _EntryResults, prices: _PriceResults) -> dict[str, Any]:
    """Builtins only: an entry is its validated data (``raw``), rebuilt by ``from_dict`` on the way back."""
    return {
        "entries": [
            (origin, None if e is None else dict(e.raw), [_error_to_plain(x) for x in errs])
            for origin, e, errs in entries
        ],
        "prices": [
            (origin, [dataclasses.asdict(p) for p in ps], [_error_to_plain(x) for x in errs])
            for origin, ps, errs in prices
        ],
    }


def _checked_entry(data: Any, origin: str) -> CatalogEntry | None:
    """An entry rebuilt from the cache passes the same semantic rules as one read from its file (the
    cache file is the user's to edit: a changed one with the right key must not bring in a bad entry)."""
    if data is None:
        return None
    kind = data["kind"]
    schema = _schema(kind)
    ok = valid(data, schema) if supported(schema) else not _schema_errors(kind, data, origin, "")
    if not ok:
        raise ValueError(f"cached entry {data.get('id')!r} does not match the schema of '{kind}'")
    entry = KIND_TYPES[kind].from_dict(data, origin=origin)
    if check_entry(entry):
        raise ValueError(f"cached entry {entry.id} breaks the catalog rules")
    return entry


def _checked_price(d: dict[str, Any]) -> Price:
    price = Price(**d)
    strings = (price.id, price.unit, price.source, price.as_of, price.note, price.origin)
    number = price.price_usd
    if not all(isinstance(x, str) for x in strings) or not isinstance(price.estimate, bool):
        raise ValueError("cached price of a wrong type")
    if isinstance(number, bool) or not isinstance(number, int | float) or not 0 <= number < 1e12:
        raise ValueError("cached price out of range")
    return price


def _from_plain(plain: dict[str, Any]) -> tuple[_EntryResults, _PriceResults]:
    entries: _EntryResults = [
        (origin, _checked_entry(data, origin), [_error_from_plain(x) for x in errs])
        for origin, data, errs in plain["entries"]
    ]
    prices: _PriceResults = [
        (origin, [_checked_price(d) for d in ps], [_error_from_plain(x) for x in errs])
        for origin, ps, errs in plain["prices"]
    ]
    return entries, prices


def _read_dir_cached(
    root: Path, slot: str, entry_files: list[tuple[Path, str | None]], price_files: list[Path]
) -> tuple[_EntryResults, _PriceResults]:
    # The key is taken before the files are read: a file changed meanwhile makes the next start miss.
    key = disk_cache.cache_key(root, [*_schema_files(), *(p for p, _ in entry_files), *price_files])
    plain = disk_cache.read(slot, key)
    if plain is not None:
        try:
            return _from_plain(plain)
        except Exception:  # a payload of an unexpected shape: read the files instead
            pass
    entries, prices = _read_dir(entry_files, price_files)
    disk_cache.write(slot, key, _to_plain(entries, prices))
    return entries, prices


class Catalog:
    """All entries by id, with their prices and the problems met while loading."""

    def __init__(self) -> None:
        self.entries: dict[str, CatalogEntry] = {}
        self.prices: dict[str, Price] = {}
        self.errors: list[CatalogError] = []
        self.overridden: list[str] = []
        # Where each entry came from: "bundled", "user" or "pack:<name>" (`catalog list --source`).
        self.sources: dict[str, str] = {}

    def add_dir(
        self, root: Path, *, user: bool = False, cache_slot: str | None = None, source: str | None = None
    ) -> None:
        """Adds the entries and prices of ``root``; with ``cache_slot``, through the disk cache."""
        if not root.is_dir():
            return
        entry_files = list(_entry_files(root))
        price_files = _price_files(root)
        if cache_slot:
            entries, prices = _read_dir_cached(root, cache_slot, entry_files, price_files)
        else:
            entries, prices = _read_dir(entry_files, price_files)
        for origin, entry, errors in entries:
            self.errors.extend(errors)
            if entry is not None:
                if entry.id in self.entries:
                    if not user:
                        self.errors.append(
                            CatalogError("duplicate id", file=origin, entry=entry.id, field="id")
                        )
                        continue
                    self.overridden.append(entry.id)
                self.entries[entry.id] = entry
                self.sources[entry.id] = source or ("user" if user else "bundled")
        for _origin, price_list, errors in prices:
            self.errors.extend(errors)
            self.prices.update({p.id: p for p in price_list})

    def add_entries(self, entries: Iterable[CatalogEntry]) -> None:
        for e in entries:
            self.entries[e.id] = e

    def finish(self) -> Catalog:
        """Drops entries whose references do not resolve (recording why)."""
        while True:
            ref_errors = check_references(self.entries)
            if not ref_errors:
                break
            self.errors.extend(ref_errors)
            for e in ref_errors:
                if e.entry is not None:
                    self.entries.pop(e.entry, None)
        self._inherit_export_control()
        return self

    def _inherit_export_control(self) -> None:
        """A server without its own export rule carries its GPU's (marked ``inherited_from``)."""
        for e in list(self.entries.values()):
            if isinstance(e, ServerType) and e.export_control is None and e.gpu:
                ec = getattr(self.entries.get(e.gpu), "export_control", None)
                if ec:
                    self.entries[e.id] = dataclasses.replace(
                        e, export_control={**ec, "inherited_from": e.gpu}
                    )

    def export_control_of(self, entry_id: str) -> dict[str, Any] | None:
        """The export rule of an entry: its own, or for a server its GPU's; None when none is known."""
        e = self.entries.get(entry_id)
        ec = getattr(e, "export_control", None)
        if ec is None and isinstance(e, ServerType) and e.gpu:
            gpu_ec = getattr(self.entries.get(e.gpu), "export_control", None)
            ec = {**gpu_ec, "inherited_from": e.gpu} if gpu_ec else None
        return ec

    # -- look-ups -------------------------------------------------------------------------------------
    def get(self, entry_id: str) -> CatalogEntry:
        try:
            return self.entries[entry_id]
        except KeyError:
            raise CatalogError(
                Msg("error.catalog.no_entry", {"entry_id": entry_id}),
                entry=entry_id,
                hint=Msg("error.catalog.no_entry.hint"),
            ) from None

    def get_typed(self, entry_id: str, cls: type[E]) -> E:
        """``get`` for a caller that knows the kind it needs: an entry of another kind is a CatalogError
        naming it, not an AttributeError further on."""
        entry = self.get(entry_id)
        if not isinstance(entry, cls):
            raise CatalogError(
                f"catalog entry '{entry_id}' is a {entry.kind}, not a {cls.kind_name}", entry=entry_id
            )
        return entry

    def __contains__(self, entry_id: object) -> bool:
        return entry_id in self.entries

    def of_kind(self, kind: str) -> list[CatalogEntry]:
        return sorted((e for e in self.entries.values() if e.kind == kind), key=lambda e: e.id)

    def price_usd(self, entry_id: str) -> float | None:
        p = self.prices.get(entry_id)
        return p.price_usd if p else None


def load_catalog(
    *, user_dir: Path | None = None, bundled_dir: Path | None = None, include_user: bool = True
) -> Catalog:
    cat = Catalog()
    # One cache file per folder role; another folder in the same role simply misses and replaces it.
    cat.add_dir(bundled_dir or bundled_catalog_dir(), cache_slot="bundled")
    if include_user:
        root = user_dir or user_catalog_dir()
        # Installed packs first, then the user's own files: an entry the user wrote wins over a pack's.
        for name, folder in installed_pack_dirs(root):
            cat.add_dir(folder, user=True, cache_slot=f"pack-{name}", source=f"pack:{name}")
        cat.add_dir(root, user=True, cache_slot="user")
    return cat.finish()


PACKS_SUBDIR = "packs"


def installed_pack_dirs(user_root: Path) -> list[tuple[str, Path]]:
    """(name, folder) of every pack installed under ``user_root/packs`` (a folder with a manifest)."""
    packs = user_root / PACKS_SUBDIR
    if not packs.is_dir():
        return []
    return [
        (d.name, d)
        for d in sorted(packs.iterdir())
        if d.is_dir() and not d.name.startswith(".") and (d / "manifest.json").is_file()
    ]


@cache
def default_catalog() -> Catalog:
    """The bundled + user catalog, loaded once per process."""
    return load_catalog()
