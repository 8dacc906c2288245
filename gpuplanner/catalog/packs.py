"""Catalog packs: a zip of catalog YAML files with a manifest, to bring newer hardware to an offline laptop.

A pack (``*.gpcat``) holds ``manifest.json`` — format, name, version, date, author and the SHA-256 of every
other file — and YAML files laid out as a catalog folder (``gpu/x.yaml``, ``server/y.yaml``,
``prices/z.yaml``). ``build_pack`` checks the folder with the same schema, rules and references as
``catalog validate`` before writing. ``install_pack`` refuses a pack whose files do not match its manifest
(hash, missing or extra file), whose names leave the catalog layout (``../``, absolute paths, other
extensions), whose files are too large, or whose entries fail validation — naming the file — and only then
moves it, whole, to ``<user catalog>/packs/<name>/``. A pack with the same name is replaced.
"""

from __future__ import annotations

import contextlib
import datetime as _dt
import hashlib
import json
import os
import re
import shutil
import tempfile
import zipfile
from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from typing import Any

from gpuplanner.catalog.loader import PACKS_SUBDIR, Catalog, load_catalog
from gpuplanner.catalog.rules import check_references
from gpuplanner.catalog.types import KIND_DIRS
from gpuplanner.core.errors import CatalogError
from gpuplanner.core.safeio import current_umask
from gpuplanner.text import Msg

PACK_FORMAT = 1
MANIFEST = "manifest.json"
MAX_PACK_BYTES = 50 * 1024 * 1024
MAX_FILE_BYTES = 1024 * 1024  # the largest bundled entry is ~6 kB
MAX_FILES = 5000
_NAME_RE = re.compile(r"^[a-z0-9][a-z0-9._-]{0,63}$")
_ALLOWED_DIRS = {*KIND_DIRS.values(), "prices"}


@dataclass(frozen=True)
class PackInfo:
    name: str
    version: str
    date: str
    author: str
    files: dict[str, str]  # path in the pack → SHA-256 hex
    path: Path | None = None  # where it was written or installed


def _sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def _check_member_name(name: str, origin: str) -> None:
    """A member is ``<kind folder>/<file>.yaml`` (or ``.yml``): no other place, no escape from the folder."""
    p = PurePosixPath(name)
    bad = (
        not name
        or "\\" in name
        or name.startswith("/")
        or re.match(r"^[A-Za-z]:", name)
        or any(part in ("", ".", "..") for part in name.split("/"))
    )
    if bad:
        raise CatalogError(
            "refused: a file name in the pack leaves the catalog folder", file=origin, entry=name, value=name
        )
    if len(p.parts) != 2 or p.parts[0] not in _ALLOWED_DIRS or p.suffix not in (".yaml", ".yml"):
        raise CatalogError(
            "refused: not a catalog file (expected <kind>/<name>.yaml, kind one of "
            f"{', '.join(sorted(_ALLOWED_DIRS))})",
            file=origin,
            entry=name,
            value=name,
        )


def _catalog_files(root: Path) -> list[Path]:
    """Every file under ``root`` that goes into a pack; anything else there is an error, not skipped."""
    files = []
    for p in sorted(root.rglob("*")):
        if p.is_dir():
            continue
        rel = p.relative_to(root).as_posix()
        if rel == MANIFEST or any(part.startswith(".") for part in p.relative_to(root).parts):
            continue  # editor and OS litter (.DS_Store, .swp) stays out of the pack
        _check_member_name(rel, str(p))
        files.append(p)
    if not files:
        raise CatalogError("no catalog files (<kind>/<name>.yaml) in the folder", file=str(root))
    return files


def _validate_folder(root: Path, origin: str, user_root: Path | None = None) -> Catalog:
    """Schema, rules and references of a catalog folder, against the bundled catalog (plus the user's
    catalog and packs when ``user_root`` is given); raises naming the first problem's file."""
    cat = Catalog()
    cat.add_dir(root, user=True)
    base = load_catalog(user_dir=user_root) if user_root else load_catalog(include_user=False)
    checked = dict(base.entries)
    checked.update(cat.entries)
    errors = cat.errors + [e for e in check_references(checked) if e.entry in cat.entries]
    errors += [
        CatalogError(
            f"price for '{p.id}', which is not in the catalog", file=p.origin, entry=p.id, field="id"
        )
        for p in cat.prices.values()
        if p.id not in checked
    ]
    if errors:
        first = errors[0]
        rel = first.file
        if rel and Path(rel).is_absolute():
            with contextlib.suppress(ValueError):
                rel = Path(rel).relative_to(root).as_posix()
        more = f" (and {len(errors) - 1} more problems)" if len(errors) > 1 else ""
        raise CatalogError(
            f"refused: {first.message}{more}",
            file=f"{origin}: {rel}" if rel else origin,
            entry=first.entry,
            field=first.field,
            value=first.value,
        )
    return cat


def build_pack(
    src: Path,
    out: Path,
    *,
    name: str | None = None,
    version: str = "1",
    author: str = "",
    date: str | None = None,
) -> PackInfo:
    """Validates ``src`` and writes it as a pack to ``out`` (atomically)."""
    src = Path(src)
    if not src.is_dir():
        raise CatalogError(Msg("error.catalog.not_folder"), file=str(src))
    name = name or Path(out).stem
    if not _NAME_RE.match(name):
        raise CatalogError(
            "pack name must be lowercase letters, digits, '.', '_' or '-'", field="name", value=name
        )
    files = _catalog_files(src)
    for p in files:
        if p.stat().st_size > MAX_FILE_BYTES:
            raise CatalogError(f"file larger than {MAX_FILE_BYTES // 1024} kB", file=str(p))
    _validate_folder(src, str(src))
    contents = {p.relative_to(src).as_posix(): p.read_bytes() for p in files}
    manifest = {
        "format": PACK_FORMAT,
        "name": name,
        "version": str(version),
        "date": date or _dt.date.today().isoformat(),
        "author": author,
        "files": {rel: _sha256(data) for rel, data in contents.items()},
    }
    out = Path(out)
    out.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=out.name + ".", suffix=".tmp", dir=out.parent)
    os.close(fd)
    try:
        with zipfile.ZipFile(tmp, "w", compression=zipfile.ZIP_DEFLATED) as zf:
            zf.writestr(MANIFEST, json.dumps(manifest, indent=2, ensure_ascii=False) + "\n")
            for rel, data in contents.items():
                zf.writestr(rel, data)
        os.chmod(tmp, 0o666 & ~current_umask())
        os.replace(tmp, out)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    return _info(manifest, out)


def _info(manifest: dict[str, Any], path: Path | None) -> PackInfo:
    return PackInfo(
        name=manifest["name"],
        version=str(manifest["version"]),
        date=str(manifest["date"]),
        author=str(manifest.get("author", "")),
        files=dict(manifest["files"]),
        path=path,
    )


def _read_manifest(zf: zipfile.ZipFile, origin: str) -> dict[str, Any]:
    try:
        raw = zf.read(MANIFEST)
    except KeyError:
        raise CatalogError(f"refused: no {MANIFEST} in the pack", file=origin) from None
    if len(raw) > MAX_FILE_BYTES:
        raise CatalogError(f"refused: {MANIFEST} is too large", file=origin)
    try:
        m = json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise CatalogError(f"refused: {MANIFEST} is not valid JSON ({exc})", file=origin) from None
    if not isinstance(m, dict):
        raise CatalogError(f"refused: {MANIFEST} is not a JSON object", file=origin)
    for key in ("format", "name", "version", "date", "files"):
        if key not in m:
            raise CatalogError(f"refused: {MANIFEST} lacks '{key}'", file=origin, field=key)
    if m["format"] != PACK_FORMAT:
        raise CatalogError(
            f"refused: pack format {m['format']!r}; this version reads format {PACK_FORMAT}",
            file=origin,
            field="format",
        )
    if not isinstance(m["name"], str) or not _NAME_RE.match(m["name"]):
        raise CatalogError(
            "refused: bad pack name in the manifest", file=origin, field="name", value=m["name"]
        )
    files = m["files"]
    if not isinstance(files, dict) or not all(
        isinstance(k, str) and isinstance(v, str) and re.fullmatch(r"[0-9a-f]{64}", v)
        for k, v in files.items()
    ):
        raise CatalogError(
            f"refused: {MANIFEST} 'files' must map each file to its SHA-256 (64 hex digits)",
            file=origin,
            field="files",
        )
    return m


def read_pack(path: Path) -> tuple[PackInfo, dict[str, bytes]]:
    """Opens a pack and checks it against its manifest; returns the manifest and the files' bytes."""
    origin = str(path)
    try:
        size = Path(path).stat().st_size
    except FileNotFoundError:
        raise CatalogError(Msg("error.file.not_found"), file=origin) from None
    except OSError as exc:
        raise CatalogError(f"cannot read: {exc.strerror or exc}", file=origin) from None
    if size > MAX_PACK_BYTES:
        raise CatalogError(f"refused: pack larger than {MAX_PACK_BYTES // 2**20} MB", file=origin)
    try:
        zf = zipfile.ZipFile(path)
    except (zipfile.BadZipFile, OSError) as exc:
        raise CatalogError(f"refused: not a catalog pack (not a zip file: {exc})", file=origin) from None
    with zf:
        infos = zf.infolist()
        if len(infos) > MAX_FILES:
            raise CatalogError(f"refused: more than {MAX_FILES} files in the pack", file=origin)
        manifest = _read_manifest(zf, origin)
        listed = manifest["files"]
        contents: dict[str, bytes] = {}
        for info in infos:
            member = info.filename
            if member == MANIFEST:
                continue
            if info.is_dir():
                _check_member_name(member.rstrip("/") + "/x.yaml", origin)  # a folder must be a kind folder
                continue
            _check_member_name(member, origin)
            if (info.external_attr >> 16) & 0o170000 == 0o120000:
                raise CatalogError("refused: symbolic link in the pack", file=f"{origin}: {member}")
            if info.file_size > MAX_FILE_BYTES:
                raise CatalogError(
                    f"refused: file larger than {MAX_FILE_BYTES // 1024} kB", file=f"{origin}: {member}"
                )
            if member not in listed:
                raise CatalogError("refused: file not listed in the manifest", file=f"{origin}: {member}")
            if member in contents:
                raise CatalogError("refused: file appears twice in the pack", file=f"{origin}: {member}")
            try:
                data = zf.read(info)
            except (zipfile.BadZipFile, OSError, RuntimeError) as exc:
                raise CatalogError(f"refused: damaged file ({exc})", file=f"{origin}: {member}") from None
            if len(data) > MAX_FILE_BYTES:
                raise CatalogError("refused: file larger than it claims", file=f"{origin}: {member}")
            if _sha256(data) != listed[member]:
                raise CatalogError(
                    "refused: SHA-256 differs from the manifest (the file was changed after packing)",
                    file=f"{origin}: {member}",
                )
            try:
                data.decode("utf-8")
            except UnicodeDecodeError:
                raise CatalogError("refused: not UTF-8 text", file=f"{origin}: {member}") from None
            contents[member] = data
        missing = sorted(set(listed) - set(contents))
        if missing:
            raise CatalogError(
                "refused: file in the manifest is missing from the pack", file=f"{origin}: {missing[0]}"
            )
    return _info(manifest, Path(path)), contents


def install_pack(path: Path, user_root: Path) -> PackInfo:
    """Checks a pack completely, then installs it into ``user_root/packs/<name>`` (replacing that pack)."""
    info, contents = read_pack(Path(path))
    user_root = Path(user_root)
    user_root.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix=".pack-staging-", dir=user_root))
    try:
        for rel, data in contents.items():
            target = staging / rel
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(data)
        # The same checks as `catalog validate`; a file that is not YAML fails here, named.
        _validate_folder(staging, str(path), user_root)
        manifest = {
            "format": PACK_FORMAT,
            "name": info.name,
            "version": info.version,
            "date": info.date,
            "author": info.author,
            "files": info.files,
            "installed_from": Path(path).name,
        }
        (staging / "manifest.json").write_text(json.dumps(manifest, indent=2, ensure_ascii=False) + "\n")
        dest_dir = user_root / PACKS_SUBDIR
        dest_dir.mkdir(exist_ok=True)
        dest = dest_dir / info.name
        old = None
        if dest.exists():
            old = dest_dir / f".old-{info.name}-{os.getpid()}"
            os.replace(dest, old)
        os.replace(staging, dest)
        if old is not None:
            shutil.rmtree(old, ignore_errors=True)
    finally:
        if staging.exists():
            shutil.rmtree(staging, ignore_errors=True)
    return PackInfo(info.name, info.version, info.date, info.author, info.files, dest)


def installed_packs(user_root: Path) -> list[PackInfo]:
    from gpuplanner.catalog.loader import installed_pack_dirs

    out = []
    for _name, folder in installed_pack_dirs(Path(user_root)):
        try:
            m = json.loads((folder / MANIFEST).read_text(encoding="utf-8"))
            out.append(_info(m, folder))
        except (OSError, ValueError, KeyError):
            continue
    return out


def remove_pack(name: str, user_root: Path) -> Path:
    folder = Path(user_root) / PACKS_SUBDIR / name
    if not _NAME_RE.match(name) or not (folder / MANIFEST).is_file():
        raise CatalogError(f"no installed pack '{name}'", hint="see `gpuplanner catalog packs`")
    shutil.rmtree(folder)
    return folder
