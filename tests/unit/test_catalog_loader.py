"""A broken user catalog yields precise errors and never stops the bundled catalog from loading."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from gpuplanner.catalog import bundled_catalog_dir, load_catalog, loader
from gpuplanner.catalog.loader import parse_entry

GOOD_GPU = """\
id: acme-x1
kind: gpu
vendor: ACME
model: X1
name: ACME X1
source: ACME X1 datasheet
as_of: "2025-01"
tdp_w: 500
mem_gb: 96
mem_bw_tbyte_per_s: 3.0
bf16_dense_tflops: 500
fp8_dense_tflops: 1000
scaleup_tech: nvlink4
scaleup_bw_gbyte_per_s: 900
pcie_gen: 5
"""


def _write(root: Path, rel: str, text: str) -> Path:
    p = root / rel
    p.parent.mkdir(parents=True, exist_ok=True)
    p.write_text(text, encoding="utf-8")
    return p


def test_good_user_entry_loads_and_overrides(tmp_path):
    _write(tmp_path, "gpu/acme-x1.yaml", GOOD_GPU)
    cat = load_catalog(user_dir=tmp_path)
    assert cat.get("acme-x1").tdp_w == 500
    assert not [e for e in cat.errors if "acme" in (e.file or "")]


def test_broken_entries_are_reported_precisely_and_rest_loads(tmp_path):
    bundled = load_catalog(include_user=False)
    _write(tmp_path, "gpu/acme-x1.yaml", GOOD_GPU.replace("tdp_w: 500", "tdp_w: -5"))
    _write(tmp_path, "gpu/acme-x2.yaml", "id: acme-x2\nkind: gpu\n  bad: [indent\n")
    _write(tmp_path, "gpu/acme-x3.yaml", GOOD_GPU.replace("acme-x1", "acme-x3").replace("tdp_w", "tdp_watts"))
    cat = load_catalog(user_dir=tmp_path)
    msgs = [(Path(e.file).name, e.field, e.one_line()) for e in cat.errors]
    assert any(f == "acme-x1.yaml" and fld == "tdp_w" and "-5" in m for f, fld, m in msgs)
    assert any(f == "acme-x2.yaml" and "line" in m for f, _, m in msgs)
    assert any(f == "acme-x3.yaml" and "tdp_watts" in m for f, _, m in msgs)
    assert "acme-x1" not in cat.entries and "acme-x3" not in cat.entries
    assert len(cat.entries) == len(bundled.entries)  # the bundled catalog still loads in full


def test_sparse_figure_is_caught_by_rules(tmp_path):
    p = _write(
        tmp_path, "gpu/acme-x1.yaml", GOOD_GPU.replace("fp8_dense_tflops: 1000", "fp8_dense_tflops: 250")
    )
    entry, errors = parse_entry(p, "gpu")
    assert entry is None and errors[0].field == "fp8_dense_tflops"


def test_estimate_requires_a_note(tmp_path):
    p = _write(tmp_path, "gpu/acme-x1.yaml", GOOD_GPU + "estimate: true\n")
    entry, errors = parse_entry(p, "gpu")
    assert entry is None and "estimate_note" in errors[0].message


def test_id_must_match_file_name(tmp_path):
    p = _write(tmp_path, "gpu/other.yaml", GOOD_GPU)
    entry, errors = parse_entry(p, "gpu")
    assert entry is None and errors[0].field == "id"


# -- the on-disk cache of loaded catalog folders --------------------------------------------------------


@pytest.fixture
def cache_dir(tmp_path, monkeypatch):
    d = tmp_path / "cache"
    monkeypatch.setenv("GPUPLANNER_CACHE_DIR", str(d))
    monkeypatch.delenv("GPUPLANNER_NO_CACHE", raising=False)
    return d


def _no_file_reads(monkeypatch):
    """Makes any YAML parse fail loudly: a load that still succeeds came from the cache."""

    def refuse(path, *a, **k):
        raise AssertionError(f"parsed {path} although the cache is fresh")

    monkeypatch.setattr(loader, "parse_entry", refuse)
    monkeypatch.setattr(loader, "parse_prices", refuse)


def _snapshot(cat):
    return (
        {k: (type(e), e, dict(e.raw), e.origin) for k, e in cat.entries.items()},
        dict(cat.prices),
        [(e.one_line(), e.file, e.entry, e.field, repr(e.value)) for e in cat.errors],
        list(cat.overridden),
    )


def _user_dir(root: Path) -> Path:
    _write(root, "gpu/acme-x1.yaml", GOOD_GPU)
    _write(
        root, "gpu/acme-x2.yaml", GOOD_GPU.replace("acme-x1", "acme-x2").replace("tdp_w: 500", "tdp_w: -5")
    )
    _write(root, "gpu/acme-x3.yaml", "id: acme-x3\nkind: gpu\n  bad: [indent\n")
    _write(root, "gpu/nvidia-h100-sxm.yaml", GOOD_GPU.replace("acme-x1", "nvidia-h100-sxm"))  # an override
    return root


def test_cache_gives_the_same_catalog_as_the_files(tmp_path, cache_dir, monkeypatch):
    user = _user_dir(tmp_path / "user")
    monkeypatch.setenv("GPUPLANNER_NO_CACHE", "1")
    uncached = _snapshot(load_catalog(user_dir=user))
    assert not cache_dir.exists()
    monkeypatch.delenv("GPUPLANNER_NO_CACHE")
    cold = _snapshot(load_catalog(user_dir=user))  # reads the files, writes the cache
    assert sorted(p.name for p in cache_dir.iterdir()) == ["catalog-bundled.json", "catalog-user.json"]
    _no_file_reads(monkeypatch)
    warm = _snapshot(load_catalog(user_dir=user))
    assert uncached == cold == warm
    assert len(warm[0]) > 90 and warm[0]["nvidia-h100-sxm"][1].tdp_w == 500  # bundled + the override
    assert {Path(e[1]).name for e in warm[2]} >= {"acme-x2.yaml", "acme-x3.yaml"}  # errors come back too


def test_changed_added_or_removed_yaml_invalidates_the_cache(tmp_path, cache_dir):
    root = tmp_path / "cat"
    p = _write(root, "gpu/acme-x1.yaml", GOOD_GPU)
    assert load_catalog(bundled_dir=root, include_user=False).get("acme-x1").tdp_w == 500
    # Same size, new content: caught by the mtime.
    p.write_text(GOOD_GPU.replace("tdp_w: 500", "tdp_w: 600"), encoding="utf-8")
    st = p.stat()
    os.utime(p, ns=(st.st_atime_ns, st.st_mtime_ns + 1_000_000))
    assert load_catalog(bundled_dir=root, include_user=False).get("acme-x1").tdp_w == 600
    # An edit that breaks the entry is reported with file, entry and field, not hidden by the cache.
    p.write_text(GOOD_GPU.replace("tdp_w: 500", "tdp_w: -5"), encoding="utf-8")
    cat = load_catalog(bundled_dir=root, include_user=False)
    assert "acme-x1" not in cat.entries
    assert [(Path(e.file).name, e.entry, e.field) for e in cat.errors] == [
        ("acme-x1.yaml", "acme-x1", "tdp_w")
    ]
    _write(root, "gpu/acme-x4.yaml", GOOD_GPU.replace("acme-x1", "acme-x4"))
    assert "acme-x4" in load_catalog(bundled_dir=root, include_user=False).entries
    (root / "gpu" / "acme-x4.yaml").unlink()
    assert "acme-x4" not in load_catalog(bundled_dir=root, include_user=False).entries


def test_cache_is_per_folder(tmp_path, cache_dir):
    a = _write(tmp_path / "a", "gpu/acme-x1.yaml", GOOD_GPU).parent.parent
    b = _write(tmp_path / "b", "gpu/acme-x1.yaml", GOOD_GPU.replace("tdp_w: 500", "tdp_w: 700")).parent.parent
    for folder in (a, b):  # same size, same mtime: only the folder differs
        os.utime(folder / "gpu" / "acme-x1.yaml", ns=(1, 1))
    assert load_catalog(bundled_dir=a, include_user=False).get("acme-x1").tdp_w == 500
    assert load_catalog(bundled_dir=b, include_user=False).get("acme-x1").tdp_w == 700
    cat = load_catalog(bundled_dir=a, include_user=False)
    assert cat.get("acme-x1").tdp_w == 500 and cat.get("acme-x1").origin == str(a / "gpu" / "acme-x1.yaml")


@pytest.mark.parametrize(
    "content",
    [
        b"",
        b"not json at all",
        json.dumps({"key": "x", "payload": None}).encode()[:-5],  # truncated
        json.dumps(["a", "list"]).encode(),
        b"[" * 100_000 + b"]" * 100_000,  # deeper than the parser's recursion limit
        b"\xff\xfe not utf-8",
        # A pickle that would run a command if it were unpickled (the old cache format).
        b"cos\nsystem\n(S'echo pwned > pwned.txt'\ntR.",
    ],
)
def test_corrupt_cache_file_is_ignored_and_rebuilt(tmp_path, cache_dir, monkeypatch, content):
    monkeypatch.chdir(tmp_path)
    root = tmp_path / "cat"
    _write(root, "gpu/acme-x1.yaml", GOOD_GPU)
    cache_dir.mkdir()
    (cache_dir / "catalog-bundled.json").write_bytes(content)
    cat = load_catalog(bundled_dir=root, include_user=False)
    assert cat.get("acme-x1").tdp_w == 500 and not cat.errors
    assert not (tmp_path / "pwned.txt").exists()
    _no_file_reads(monkeypatch)  # rewritten: the next load is served from it
    assert load_catalog(bundled_dir=root, include_user=False).get("acme-x1").tdp_w == 500


def test_cache_payload_of_a_wrong_shape_is_ignored(tmp_path, cache_dir):
    root = tmp_path / "cat"
    _write(root, "gpu/acme-x1.yaml", GOOD_GPU)
    load_catalog(bundled_dir=root, include_user=False)
    f = cache_dir / "catalog-bundled.json"
    stored = json.loads(f.read_bytes())
    stored["payload"] = {"entries": [("x", {"kind": "gpu"}, [])], "prices": []}  # right key, bad data
    f.write_text(json.dumps(stored))
    assert load_catalog(bundled_dir=root, include_user=False).get("acme-x1").tdp_w == 500


@pytest.mark.parametrize(
    "tamper",
    [
        lambda e: e.update(tdp_w=-5),  # the rules refuse a negative TDP
        lambda e: e.update(tdp_w="500"),  # a number as text
        lambda e: e.update(kind="nonsense"),
    ],
)
def test_tampered_cache_with_the_right_key_is_rechecked_and_ignored(tmp_path, cache_dir, tamper):
    """The cache is the user's file: an entry changed in it (key intact) is checked again, not trusted."""
    root = tmp_path / "cat"
    _write(root, "gpu/acme-x1.yaml", GOOD_GPU)
    load_catalog(bundled_dir=root, include_user=False)
    f = cache_dir / "catalog-bundled.json"
    stored = json.loads(f.read_bytes())
    (_origin, entry, _errs) = stored["payload"]["entries"][0]
    assert entry["tdp_w"] == 500  # the file holds the entry's data as JSON
    tamper(entry)
    f.write_text(json.dumps(stored))
    cat = load_catalog(bundled_dir=root, include_user=False)
    assert cat.get("acme-x1").tdp_w == 500 and not cat.errors  # read from the YAML again
    assert json.loads(f.read_bytes())["payload"]["entries"][0][1]["tdp_w"] == 500  # and rewritten


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs on this platform")
def test_fifo_in_place_of_the_cache_or_a_catalog_file_does_not_hang(tmp_path, cache_dir):
    """`open()` of a FIFO blocks until a writer comes; the loader must neither wait nor fail."""
    root = tmp_path / "cat"
    _write(root, "gpu/acme-x1.yaml", GOOD_GPU)
    os.mkfifo(root / "gpu" / "acme-fifo.yaml")
    cache_dir.mkdir()
    os.mkfifo(cache_dir / "catalog-bundled.json")
    code = (
        "from pathlib import Path; from gpuplanner.catalog.loader import load_catalog; "
        f"c = load_catalog(bundled_dir=Path({str(root)!r}), include_user=False); "
        "print(c.get('acme-x1').tdp_w); print([e.one_line() for e in c.errors])"
    )
    env = {**os.environ, "GPUPLANNER_CACHE_DIR": str(cache_dir)}
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=30, env=env)
    assert out.returncode == 0, out.stderr
    lines = out.stdout.splitlines()
    assert lines[0] == "500"
    assert "acme-fifo.yaml" in lines[1] and "named pipe" in lines[1]


def test_unwritable_cache_folder_is_no_error(tmp_path, monkeypatch):
    blocker = tmp_path / "file"
    blocker.write_text("a file where the cache folder should be")
    monkeypatch.setenv("GPUPLANNER_CACHE_DIR", str(blocker / "cache"))
    root = tmp_path / "cat"
    _write(root, "gpu/acme-x1.yaml", GOOD_GPU)
    assert load_catalog(bundled_dir=root, include_user=False).get("acme-x1").tdp_w == 500


def test_libyaml_and_pure_python_yaml_read_the_bundled_catalog_alike():
    yaml = pytest.importorskip("yaml")
    if not hasattr(yaml, "CSafeLoader"):
        pytest.skip("PyYAML without libyaml")
    files = sorted(bundled_catalog_dir().rglob("*.y*ml"))
    assert len(files) > 90
    for p in files:
        text = p.read_text(encoding="utf-8")
        assert yaml.load(text, Loader=yaml.CSafeLoader) == yaml.load(text, Loader=yaml.SafeLoader), p
