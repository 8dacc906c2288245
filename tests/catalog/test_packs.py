"""Catalog packs: pack → install on a clean user folder → list → a plan uses it; tampered packs refused."""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest
import yaml

from gpuplanner.catalog import load_catalog
from gpuplanner.catalog.packs import MAX_FILE_BYTES, build_pack, install_pack, installed_packs, read_pack
from gpuplanner.core.errors import CatalogError

ROOT = Path(__file__).resolve().parents[2]
SERVER_ID = "acme-hgx-h100-pack-test"


def _server(power_max_w: float) -> dict:
    data = yaml.safe_load((ROOT / "catalogs" / "server" / "nvidia-dgx-h100.yaml").read_text(encoding="utf-8"))
    data.update(id=SERVER_ID, vendor="ACME", model="HGX H100 test", name="ACME HGX H100 (pack test)")
    data["power_max_w"] = power_max_w
    data["psu_rating_w"] = max(data["psu_rating_w"], power_max_w)
    return data


def _folder(tmp: Path, power_max_w: float = 10200) -> Path:
    d = tmp / f"src-{int(power_max_w)}"
    (d / "server").mkdir(parents=True)
    (d / "server" / f"{SERVER_ID}.yaml").write_text(yaml.safe_dump(_server(power_max_w), allow_unicode=True))
    (d / "prices").mkdir()
    (d / "prices" / "acme-2026.yaml").write_text(
        yaml.safe_dump(
            {
                "kind": "prices",
                "currency": "USD",
                "entries": [
                    {"id": SERVER_ID, "price_usd": 250000, "source": "test quote", "as_of": "2026-10"}
                ],
            }
        )
    )
    return d


def run(*args: str, user: Path) -> subprocess.CompletedProcess:
    env = dict(os.environ, GPUPLANNER_USER_CATALOG=str(user), GPUPLANNER_NO_CACHE="1")
    return subprocess.run(
        [sys.executable, "-m", "gpuplanner", *args],
        capture_output=True,
        text=True,
        cwd=ROOT,
        env=env,
        timeout=300,
    )


def test_pack_round_trip_and_project_keeps_its_copy(tmp_path):
    user = tmp_path / "user"  # a clean user catalog folder
    pack = tmp_path / "acme-2026q4.gpcat"
    r = run(
        "catalog",
        "pack",
        str(_folder(tmp_path)),
        "-o",
        str(pack),
        "--author",
        "ACME",
        "--version",
        "1",
        user=user,
    )
    assert r.returncode == 0, r.stderr
    m = json.loads(zipfile.ZipFile(pack).read("manifest.json"))
    assert m["name"] == "acme-2026q4" and m["author"] == "ACME" and m["version"] == "1"
    data = zipfile.ZipFile(pack).read(f"server/{SERVER_ID}.yaml")
    assert m["files"][f"server/{SERVER_ID}.yaml"] == hashlib.sha256(data).hexdigest()

    r = run("catalog", "install", str(pack), user=user)
    assert r.returncode == 0, r.stderr
    listed = json.loads(run("catalog", "list", "server", "--source", "--json", user=user).stdout)
    origin = {e["id"]: e["from"] for e in listed}
    assert origin[SERVER_ID] == "pack:acme-2026q4"
    assert origin["nvidia-dgx-h100"] == "bundled"
    assert next(e for e in listed if e["id"] == SERVER_ID)["price_usd"] == 250000

    plan = tmp_path / "p.gpuplan"
    r = run(
        "generate", "rail-leaf-spine", "--server", SERVER_ID, "--servers", "4", "-o", str(plan), user=user
    )
    assert r.returncode == 0, r.stderr
    before = json.loads(run("analyze", str(plan), "--json", user=user).stdout)

    # Version 2 of the pack changes the server's maximum power; the old project keeps its own copy.
    pack2 = tmp_path / "v2" / "acme-2026q4.gpcat"
    assert (
        run(
            "catalog", "pack", str(_folder(tmp_path, 12000)), "-o", str(pack2), "--version", "2", user=user
        ).returncode
        == 0
    )
    assert run("catalog", "install", str(pack2), user=user).returncode == 0
    assert [p.version for p in installed_packs(user)] == ["2"]
    after = json.loads(run("analyze", str(plan), "--json", user=user).stdout)
    assert after["it_kw_max"] == pytest.approx(before["it_kw_max"])
    fresh = tmp_path / "fresh.gpuplan"
    assert (
        run(
            "generate",
            "rail-leaf-spine",
            "--server",
            SERVER_ID,
            "--servers",
            "4",
            "-o",
            str(fresh),
            user=user,
        ).returncode
        == 0
    )
    new = json.loads(run("analyze", str(fresh), "--json", user=user).stdout)
    assert new["it_kw_max"] == pytest.approx(before["it_kw_max"] + 4 * (12000 - 10200) / 1000, rel=0.01)


@pytest.fixture
def good_pack(tmp_path) -> Path:
    out = tmp_path / "good.gpcat"
    build_pack(_folder(tmp_path), out, author="t", date="2026-10-01")
    return out


def _rewrite(src: Path, dst: Path, *, change=None, extra=None, manifest=None) -> Path:
    """Copies a pack member by member, optionally changing one member, adding others or a new manifest."""
    with zipfile.ZipFile(src) as zin, zipfile.ZipFile(dst, "w") as zout:
        for info in zin.infolist():
            data = zin.read(info)
            if info.filename == "manifest.json" and manifest is not None:
                data = json.dumps(manifest(json.loads(data))).encode()
            if change and info.filename == change[0]:
                data = change[1](data)
            zout.writestr(info.filename, data)
        for name, data in (extra or {}).items():
            zout.writestr(name, data)
    return dst


def _refused(pack: Path, user: Path, *needles: str) -> str:
    with pytest.raises(CatalogError) as exc:
        install_pack(pack, user)
    text = exc.value.one_line()
    for n in needles:
        assert n in text, text
    assert not (user / "packs").exists() or not any((user / "packs").iterdir()), "nothing may be installed"
    return text


def test_installs_into_user_folder(good_pack, tmp_path):
    user = tmp_path / "u"
    info = install_pack(good_pack, user)
    assert info.path == user / "packs" / "good"
    cat = load_catalog(user_dir=user)
    assert cat.sources[SERVER_ID] == "pack:good" and cat.price_usd(SERVER_ID) == 250000
    assert [p.name for p in installed_packs(user)] == ["good"]
    assert not [p for p in user.iterdir() if p.name.startswith(".")], "staging folder left behind"


def test_hash_mismatch_refused_naming_the_file(good_pack, tmp_path):
    name = f"server/{SERVER_ID}.yaml"
    bad = _rewrite(good_pack, tmp_path / "bad.gpcat", change=(name, lambda d: d.replace(b"10200", b"10300")))
    _refused(bad, tmp_path / "u", name, "SHA-256")


def test_extra_file_refused(good_pack, tmp_path):
    bad = _rewrite(good_pack, tmp_path / "bad.gpcat", extra={"gpu/sneaky.yaml": b"id: sneaky\n"})
    _refused(bad, tmp_path / "u", "gpu/sneaky.yaml", "not listed")


@pytest.mark.parametrize(
    "member", ["../evil.yaml", "server/../../evil.yaml", "/etc/evil.yaml", "server\\..\\x.yaml"]
)
def test_path_traversal_refused(good_pack, tmp_path, member):
    def add(m):
        m["files"][member] = hashlib.sha256(b"x: 1\n").hexdigest()
        return m

    bad = _rewrite(good_pack, tmp_path / "bad.gpcat", extra={member: b"x: 1\n"}, manifest=add)
    _refused(bad, tmp_path / "u", "leaves the catalog folder")
    assert not (tmp_path / "evil.yaml").exists()


def test_non_yaml_refused(good_pack, tmp_path):
    for member, data, needle in [
        ("server/run.sh", b"rm -rf /\n", "not a catalog file"),
        ("gpu/broken.yaml", b"id: [unclosed\n", "not valid YAML"),
        ("gpu/binary.yaml", b"\xff\xfe\x00junk", "not UTF-8"),
    ]:

        def add(m, member=member, data=data):
            m["files"][member] = hashlib.sha256(data).hexdigest()
            return m

        bad = _rewrite(good_pack, tmp_path / f"bad-{needle[:3]}.gpcat", extra={member: data}, manifest=add)
        _refused(bad, tmp_path / "u", member, needle)


def test_oversized_and_missing_and_not_a_zip(good_pack, tmp_path):
    big = b"# " + b"x" * (MAX_FILE_BYTES + 10) + b"\n"

    def add(m):
        m["files"]["gpu/big.yaml"] = hashlib.sha256(big).hexdigest()
        return m

    _refused(
        _rewrite(good_pack, tmp_path / "big.gpcat", extra={"gpu/big.yaml": big}, manifest=add),
        tmp_path / "u",
        "gpu/big.yaml",
        "larger",
    )

    def phantom(m):
        m["files"]["gpu/phantom.yaml"] = "0" * 64
        return m

    _refused(
        _rewrite(good_pack, tmp_path / "miss.gpcat", manifest=phantom),
        tmp_path / "u",
        "gpu/phantom.yaml",
        "missing",
    )
    junk = tmp_path / "junk.gpcat"
    junk.write_bytes(os.urandom(500))
    _refused(junk, tmp_path / "u", "junk.gpcat", "not a zip")


def test_invalid_entry_refused_naming_file_and_field(tmp_path):
    src = _folder(tmp_path)
    f = src / "server" / f"{SERVER_ID}.yaml"
    d = yaml.safe_load(f.read_text())
    d["psu_redundancy"] = "5+5"  # does not add up to psu_count
    f.write_text(yaml.safe_dump(d))
    with pytest.raises(CatalogError) as exc:
        build_pack(src, tmp_path / "x.gpcat")
    assert f"server/{SERVER_ID}.yaml" in exc.value.one_line() and "psu_redundancy" in exc.value.one_line()
    assert not (tmp_path / "x.gpcat").exists()


def test_price_for_unknown_entry_refused(tmp_path):
    src = _folder(tmp_path)
    f = src / "prices" / "acme-2026.yaml"
    f.write_text(f.read_text().replace(SERVER_ID, "no-such-server"))
    with pytest.raises(CatalogError) as exc:
        build_pack(src, tmp_path / "x.gpcat")
    assert "prices/acme-2026.yaml" in exc.value.one_line() and "no-such-server" in exc.value.one_line()


def test_read_pack_returns_manifest(good_pack):
    info, files = read_pack(good_pack)
    assert info.date == "2026-10-01" and set(files) == set(info.files) == {
        f"server/{SERVER_ID}.yaml",
        "prices/acme-2026.yaml",
    }
