"""Builds the corpus of damaged and hostile project files that tests/e2e/test_hostile_files.py runs through
every command (and tests/ui/test_hostile_open.py through the window's open path).

    python tests/data/hostile/make_corpus.py OUT_FOLDER      # writes the files, prints their names

The files are generated, not committed: each is a ~150 KB SQLite file and the script is the record of what
each one is. Every case starts from a small project made by the same generator users use, then damages
it in one way. FIFOs and locked files need a live process or a special file and are made by the tests.
Deterministic: the random bytes and bit flips use fixed seeds.

Each case is ``name -> (maker, expectation)``; expectation is "refuse" (exit 2, one line), "either"
(a damage that may fall in unused space: refused or opened, never a traceback) or "open" (a hostile but
valid project: every command must succeed with well-formed output).
"""

from __future__ import annotations

import dataclasses
import json
import random
import shutil
import sqlite3
import sys
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from gpuplanner.model import Project  # noqa: E402
from gpuplanner.storage import save_project  # noqa: E402
from gpuplanner.topology import GenerateOptions, generate_into  # noqa: E402

Maker = Callable[[Path, Path], None]  # (a good base file, the file to write)


def _base(path: Path, name: str = "base") -> None:
    p = Project()
    generate_into(p, GenerateOptions(servers=2, template="single-switch", management_fabric=True))
    p.tables["project"]["project"] = dataclasses.replace(p.info, name=name)
    save_project(p, path)


def _hostile_names(path: Path) -> None:
    """Valid, but every free text is something that breaks naive writers: a newline that would start a
    new topology.conf line, spreadsheet formulas, tabs, NUL-free control characters, right-to-left text,
    markup, and a very long name."""
    p = Project()
    generate_into(p, GenerateOptions(servers=2, template="single-switch"))
    evil = {
        "project": "Cluster\nSwitchName=evil Switches=all",
        "customer": '=HYPERLINK("http://x","y")',
        "consultant": "+1-2@3\t<b>bold</b> & ‮gnp.exe",
    }
    p.tables["project"]["project"] = dataclasses.replace(
        p.info, name=evil["project"], customer=evil["customer"], consultant=evil["consultant"]
    )
    names = ["=cmd|' /C calc'!A0", "@SUM(1+1)", "-2+3", "node\tone\r\ntwo", "服务器「一」" * 3, "x" * 5000]
    for dev, name in zip(p.devices.values(), names, strict=False):
        p.tables["devices"][dev.id] = dataclasses.replace(dev, name=name)
    for rack in p.racks.values():
        p.tables["racks"][rack.id] = dataclasses.replace(rack, name="R\n01 <svg onload=alert(1)>")
    save_project(p, path)


def _copy_then(sql: list[str], *, pragma: str = "") -> Maker:
    def make(base: Path, out: Path) -> None:
        shutil.copyfile(base, out)
        conn = sqlite3.connect(out)
        try:
            if pragma:
                conn.execute(pragma)
            for s in sql:
                conn.execute(s)
            conn.commit()
        finally:
            conn.close()

    return make


def _truncate(fraction: float | None = None, size: int | None = None) -> Maker:
    def make(base: Path, out: Path) -> None:
        data = base.read_bytes()
        n = size if size is not None else int(len(data) * (fraction or 0))
        out.write_bytes(data[:n])

    return make


def _random(n: int, seed: int, header: bool = False) -> Maker:
    def make(base: Path, out: Path) -> None:
        rng = random.Random(seed)
        data = bytes(rng.randrange(256) for _ in range(n))
        out.write_bytes((b"SQLite format 3\x00" + data[16:]) if header else data)

    return make


def _flip(seed: int, count: int) -> Maker:
    def make(base: Path, out: Path) -> None:
        rng = random.Random(seed)
        data = bytearray(base.read_bytes())
        for _ in range(count):
            i = rng.randrange(len(data))
            data[i] ^= 1 << rng.randrange(8)
        out.write_bytes(bytes(data))

    return make


def _bytes(data: bytes) -> Maker:
    def make(base: Path, out: Path) -> None:
        out.write_bytes(data)

    return make


def _set_json(table: str, text: str) -> Maker:
    def make(base: Path, out: Path) -> None:
        shutil.copyfile(base, out)
        conn = sqlite3.connect(out)
        conn.execute(
            f"UPDATE [{table}] SET json = ? WHERE rowid = (SELECT min(rowid) FROM [{table}])", (text,)
        )
        conn.commit()
        conn.close()

    return make


def _price(value: str) -> Maker:
    def make(base: Path, out: Path) -> None:
        shutil.copyfile(base, out)
        conn = sqlite3.connect(out)
        rowid, text = conn.execute("SELECT rowid, json FROM catalog_prices LIMIT 1").fetchone()
        d = json.loads(text)
        bad = json.dumps(d).replace(json.dumps(d["price_usd"]), value, 1)
        conn.execute("UPDATE catalog_prices SET json = ? WHERE rowid = ?", (bad, rowid))
        conn.commit()
        conn.close()

    return make


def _duplicate(table: str) -> Maker:
    return _copy_then(
        [
            f"CREATE TABLE t2 AS SELECT * FROM [{table}]",
            f"DROP TABLE [{table}]",
            f"ALTER TABLE t2 RENAME TO [{table}]",
            f"INSERT INTO [{table}] SELECT * FROM [{table}] LIMIT 1",
        ]
    )


TABLES = [
    "project",
    "site",
    "racks",
    "devices",
    "links",
    "fabrics",
    "phases",
    "floor_items",
    "goal",
    "catalog_entries",
]

CASES: dict[str, tuple[Maker, str]] = {
    # not a project at all
    "empty.gpuplan": (_bytes(b""), "refuse"),
    "text.gpuplan": (_bytes(b"hello, I am a text file\n" * 10), "refuse"),
    "random.gpuplan": (_random(4096, 1), "refuse"),
    "random-sqlite-header.gpuplan": (_random(8192, 2, header=True), "refuse"),
    "header-only.gpuplan": (_bytes(b"SQLite format 3\x00"), "refuse"),
    "other-program.gpuplan": (_copy_then([], pragma="PRAGMA application_id=1"), "refuse"),
    # truncated
    "truncated-100b.gpuplan": (_truncate(size=100), "refuse"),
    "truncated-third.gpuplan": (_truncate(1 / 3), "refuse"),
    "truncated-most.gpuplan": (_truncate(0.9), "refuse"),
    # bit flips: some land in unused space and the file still opens
    **{f"bitflip-{seed}.gpuplan": (_flip(seed, 4), "either") for seed in range(6)},
    "bitflip-many.gpuplan": (_flip(99, 400), "either"),
    # versions
    "version-future.gpuplan": (_copy_then([], pragma="PRAGMA user_version=99"), "refuse"),
    "version-negative.gpuplan": (_copy_then([], pragma="PRAGMA user_version=-1"), "refuse"),
    "version-min-int.gpuplan": (_copy_then([], pragma="PRAGMA user_version=-2147483648"), "refuse"),
    "version-0.gpuplan": (_copy_then([], pragma="PRAGMA user_version=0"), "refuse"),
    # missing tables
    **{f"missing-{t}.gpuplan": (_copy_then([f"DROP TABLE [{t}]"]), "refuse") for t in TABLES},
    "missing-id-column.gpuplan": (
        _copy_then(
            [
                "CREATE TABLE l2 AS SELECT a_device, b_device FROM links",
                "DROP TABLE links",
                "ALTER TABLE l2 RENAME TO links",
            ]
        ),
        "refuse",
    ),
    # wrong types
    "type-text-multiplicity.gpuplan": (_copy_then(["UPDATE links SET multiplicity = 'many'"]), "refuse"),
    "type-blob-name.gpuplan": (_copy_then(["UPDATE devices SET name = x'00ff'"]), "refuse"),
    "type-int-bool.gpuplan": (_copy_then(["UPDATE aisle_rows SET contained = 7"]), "either"),
    "type-text-tco.gpuplan": (_copy_then(["UPDATE site SET tco_years = 'five'"]), "refuse"),
    "type-null-required.gpuplan": (_copy_then(["UPDATE site SET electricity_usd_per_kwh = NULL"]), "refuse"),
    # NaN (SQLite stores NULL), inf, huge and negative values
    "nan-price.gpuplan": (_price("NaN"), "refuse"),
    "inf-price.gpuplan": (_price("Infinity"), "refuse"),
    "huge-price.gpuplan": (_price("1e300"), "refuse"),
    "negative-price.gpuplan": (_price("-5"), "refuse"),
    "inf-floor.gpuplan": (_copy_then(["UPDATE racks SET floor_x_m = 1e999"]), "refuse"),
    "huge-floor.gpuplan": (_copy_then(["UPDATE racks SET floor_x_m = 1e308"]), "either"),
    "huge-multiplicity.gpuplan": (_copy_then(["UPDATE links SET multiplicity = 1000000000"]), "either"),
    "huge-u-position.gpuplan": (_copy_then(["UPDATE devices SET u_position = 40000"]), "either"),
    "huge-tco-years.gpuplan": (_copy_then(["UPDATE site SET tco_years = 1000000000"]), "either"),
    "huge-int64.gpuplan": (_copy_then(["UPDATE links SET multiplicity = 9223372036854775807"]), "either"),
    "negative-multiplicity.gpuplan": (_copy_then(["UPDATE links SET multiplicity = -1"]), "refuse"),
    "negative-electricity.gpuplan": (
        _copy_then(["UPDATE site SET electricity_usd_per_kwh = -0.1"]),
        "refuse",
    ),
    "negative-u-position.gpuplan": (_copy_then(["UPDATE devices SET u_position = -3"]), "refuse"),
    # dangling references
    "dangling-rack.gpuplan": (_copy_then(["UPDATE devices SET rack_id = 'rack-404'"]), "refuse"),
    "dangling-link-device.gpuplan": (_copy_then(["UPDATE links SET a_device = 'dev-404'"]), "refuse"),
    "dangling-port-group.gpuplan": (_copy_then(["UPDATE links SET a_group = 'no-such-group'"]), "refuse"),
    "dangling-type.gpuplan": (
        _copy_then(["UPDATE devices SET type_id = 'acme-unknown'", "DELETE FROM catalog_entries"]),
        "refuse",
    ),
    "dangling-phase.gpuplan": (_copy_then(["UPDATE racks SET phase_id = 'ph-404'"]), "refuse"),
    "self-link.gpuplan": (_copy_then(["UPDATE links SET b_device = a_device"]), "refuse"),
    # duplicate ids
    **{
        f"duplicate-{t}.gpuplan": (_duplicate(t), "refuse")
        for t in ("devices", "links", "racks", "catalog_entries")
    },
    "two-site-rows.gpuplan": (_duplicate("site"), "refuse"),
    # catalog copies that are not entries
    "catalog-list.gpuplan": (_set_json("catalog_entries", "[1, 2, 3]"), "refuse"),
    "catalog-string.gpuplan": (_set_json("catalog_entries", '"gpu"'), "refuse"),
    "catalog-bad-json.gpuplan": (_set_json("catalog_entries", "{oops"), "refuse"),
    "catalog-deep-json.gpuplan": (_set_json("catalog_entries", "[" * 100_000 + "]" * 100_000), "refuse"),
    "catalog-wrong-kind.gpuplan": (_set_json("catalog_entries", '{"id": "x", "kind": "toaster"}'), "refuse"),
    "catalog-negative-power.gpuplan": (
        _copy_then(["UPDATE catalog_entries SET json = json_set(json, '$.power_max_w', -1)"]),
        "refuse",
    ),
    "price-list.gpuplan": (_set_json("catalog_prices", "[]"), "refuse"),
    "price-text.gpuplan": (_price('"12000"'), "refuse"),
    # the design goal (one row; the advisor reads it): every bad value refused naming the field
    "two-goal-rows.gpuplan": (_duplicate("goal"), "refuse"),
    "goal-bad-kind.gpuplan": (_copy_then(["UPDATE goal SET kind = 'mining'"]), "refuse"),
    "goal-inf-deadline.gpuplan": (
        _copy_then(["UPDATE goal SET kind = 'training', deadline_days = 1e999"]),
        "refuse",
    ),
    "goal-negative-deadline.gpuplan": (_copy_then(["UPDATE goal SET deadline_days = -60"]), "refuse"),
    "goal-text-tokens.gpuplan": (_copy_then(["UPDATE goal SET total_tokens = 'lots'"]), "refuse"),
    "goal-null-limit.gpuplan": (_copy_then(["UPDATE goal SET facility_kw_max = NULL"]), "refuse"),
    "goal-huge-max-servers.gpuplan": (
        _copy_then(["UPDATE goal SET max_servers = 9223372036854775807"]),
        "refuse",
    ),
    "goal-bad-oversubs.gpuplan": (_copy_then(["UPDATE goal SET oversubs = '0.5,abc'"]), "refuse"),
    "goal-unknown-template.gpuplan": (_copy_then(["UPDATE goal SET templates = 'torus'"]), "refuse"),
    "goal-long-list.gpuplan": (
        _copy_then(["UPDATE goal SET servers = '" + ",".join(f"x{i}" for i in range(5000)) + "'"]),
        "refuse",
    ),
    "goal-serving-without-rate.gpuplan": (
        _copy_then(["UPDATE goal SET kind = 'inference', requests_per_s = 0"]),
        "refuse",
    ),
    "goal-lowercase-region.gpuplan": (_copy_then(["UPDATE goal SET region = 'cn'"]), "refuse"),
    # fp4 is modelled for serving goals only: a training goal in fp4 is refused, a serving one opens
    "goal-fp4-training.gpuplan": (
        _copy_then(["UPDATE goal SET kind = 'training', precision = 'fp4'"]),
        "refuse",
    ),
    "goal-fp4-serving.gpuplan": (
        _copy_then(["UPDATE goal SET kind = 'inference', requests_per_s = 20, precision = 'fp4'"]),
        "open",
    ),
    # a file of format 2 (before the goal table): migrated on opening, no goal set
    "format-2-no-goal.gpuplan": (_copy_then(["DROP TABLE goal"], pragma="PRAGMA user_version=2"), "open"),
    # a goal naming a model no catalog knows: the plan opens; the advisor names the model when asked
    "goal-unknown-model.gpuplan": (
        _copy_then(["UPDATE goal SET kind = 'training', model_id = 'acme-9000b'"]),
        "open",
    ),
    # hostile but valid
    "hostile-names.gpuplan": (lambda base, out: _hostile_names(out), "open"),
    "good.gpuplan": (lambda base, out: shutil.copyfile(base, out), "open"),
}


def build(folder: Path) -> dict[str, str]:
    """Writes every case into ``folder``; returns name -> expectation."""
    folder.mkdir(parents=True, exist_ok=True)
    base = folder / ".base.gpuplan"
    _base(base)
    for name, (make, _) in CASES.items():
        make(base, folder / name)
    base.unlink()
    return {name: expect for name, (_, expect) in CASES.items()}


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit("usage: make_corpus.py OUT_FOLDER")
    for name, expect in build(Path(sys.argv[1])).items():
        print(f"{expect:7} {name}")
