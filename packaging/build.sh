#!/usr/bin/env bash
# Builds the one-folder bundle dist/gpuplanner/ with PyInstaller (packaging/gpuplanner.spec) and prints its size.
#
#   bash packaging/build.sh              # uses `python3` on PATH, or $PYTHON (e.g. PYTHON=.venv/bin/python)
#
# The Python it runs must have GPU Planner's dependencies installed (pip install -e . or pip install .);
# PyInstaller comes from the `package` extra and is installed here when missing. Outputs: dist/gpuplanner/
# (the bundle) and build/pyinstaller/ (PyInstaller's work folder); both are gitignored.
set -euo pipefail
cd "$(dirname "$0")/.."
PYTHON="${PYTHON:-python3}"

if ! "$PYTHON" -c "import PyInstaller" 2>/dev/null; then
  echo "PyInstaller missing: installing the 'package' extra"
  "$PYTHON" -m pip install -q "pyinstaller>=6.10"
fi
"$PYTHON" -c "import gpuplanner, PySide6" || {
  echo "build.sh: $PYTHON cannot import gpuplanner and PySide6; run: $PYTHON -m pip install -e '.[package]'" >&2
  exit 2
}

# The PNG/ICO icons are committed; re-render them only when the SVG is newer.
if [ resources/icons/gpuplanner.svg -nt resources/icons/gpuplanner-256.png ]; then
  "$PYTHON" packaging/make_icons.py
fi
qm_count=$(find resources/translations -name '*.qm' 2>/dev/null | wc -l)
echo "bundling $qm_count translation file(s) from resources/translations"

start=$(date +%s)
"$PYTHON" -m PyInstaller --noconfirm --clean --log-level WARN \
  --distpath dist --workpath build/pyinstaller packaging/gpuplanner.spec
echo "built in $(( $(date +%s) - start )) s"

bundle=dist/gpuplanner
# Linux: the Python build here carries debug info (libpython3.11 is 23 MB, 5 MB without). Strip only the
# interpreter's own files: strip rewrites the wheels' patchelf-ed libraries into ones that no longer load
# ("ELF load command address/offset not page-aligned"), so PyInstaller's strip option stays off.
if [ "$(uname -s)" = Linux ] && command -v strip >/dev/null; then
  find "$bundle/_internal" -maxdepth 1 -name 'libpython3*.so*' -exec strip --strip-debug {} +
  find "$bundle/_internal" -path '*/lib-dynload/*.so' -exec strip --strip-debug {} +
fi
exe="$bundle/gpuplanner"
[ -x "$exe" ] || exe="$bundle/gpuplanner.exe"
"$exe" --version
echo "bundle: $bundle  size: $(du -sh "$bundle" | cut -f1)  files: $(find "$bundle" -type f | wc -l)"
