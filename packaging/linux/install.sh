#!/usr/bin/env bash
# Installs the bundle dist/gpuplanner/ for one user (default) or system-wide, with a menu entry, the icon and
# the .gpuplan file type:
#
#   bash packaging/linux/install.sh            # ~/.local/opt/gpuplanner, ~/.local/bin/gpuplanner, ~/.local/share
#   sudo bash packaging/linux/install.sh --system   # /opt/gpuplanner, /usr/local/bin, /usr/local/share
#   bash packaging/linux/install.sh --uninstall [--system]
#
# Only plain file copies plus update-mime-database / update-desktop-database (when present), so it also works
# where xdg-utils is missing. Honours $XDG_DATA_HOME for the per-user install.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
bundle="${GPUPLANNER_BUNDLE:-$root/dist/gpuplanner}"

mode=user action=install
for arg in "$@"; do
  case "$arg" in
    --system) mode=system ;;
    --uninstall) action=uninstall ;;
    *) echo "usage: $0 [--system] [--uninstall]" >&2; exit 2 ;;
  esac
done
if [ "$mode" = system ]; then
  opt=/opt/gpuplanner bin=/usr/local/bin share=/usr/local/share
else
  opt="$HOME/.local/opt/gpuplanner" bin="$HOME/.local/bin" share="${XDG_DATA_HOME:-$HOME/.local/share}"
fi

refresh() {
  command -v update-mime-database >/dev/null && update-mime-database "$share/mime" >/dev/null 2>&1 || true
  command -v update-desktop-database >/dev/null && update-desktop-database "$share/applications" >/dev/null 2>&1 || true
  command -v gtk-update-icon-cache >/dev/null && gtk-update-icon-cache -q -t "$share/icons/hicolor" 2>/dev/null || true
}

if [ "$action" = uninstall ]; then
  rm -rf "$opt"
  rm -f "$bin/gpuplanner" "$share/applications/gpuplanner.desktop" "$share/mime/packages/gpuplanner-mime.xml"
  rm -f "$share/icons/hicolor/256x256/apps/gpuplanner.png" "$share/icons/hicolor/48x48/apps/gpuplanner.png" \
        "$share/icons/hicolor/scalable/apps/gpuplanner.svg"
  refresh
  echo "removed GPU Planner ($mode)"
  exit 0
fi

[ -x "$bundle/gpuplanner" ] || { echo "no bundle at $bundle: run packaging/build.sh first" >&2; exit 2; }
mkdir -p "$(dirname "$opt")" "$bin" "$share/applications" "$share/mime/packages" \
  "$share/icons/hicolor/256x256/apps" "$share/icons/hicolor/48x48/apps" "$share/icons/hicolor/scalable/apps"
rm -rf "$opt"
cp -a "$bundle" "$opt"
ln -sf "$opt/gpuplanner" "$bin/gpuplanner"
# Exec= names the installed executable by its full path: ~/.local/bin is not on every session's PATH.
sed -e "s|^Exec=gpuplanner |Exec=$opt/gpuplanner |" -e "s|^TryExec=gpuplanner$|TryExec=$opt/gpuplanner|" \
  "$here/gpuplanner.desktop" > "$share/applications/gpuplanner.desktop"
cp "$here/gpuplanner-mime.xml" "$share/mime/packages/gpuplanner-mime.xml"
icons="$root/resources/icons"
cp "$icons/gpuplanner-256.png" "$share/icons/hicolor/256x256/apps/gpuplanner.png"
cp "$icons/gpuplanner-48.png" "$share/icons/hicolor/48x48/apps/gpuplanner.png"
cp "$icons/gpuplanner.svg" "$share/icons/hicolor/scalable/apps/gpuplanner.svg"
refresh
echo "installed GPU Planner ($mode): $opt, $bin/gpuplanner, menu entry and .gpuplan file type in $share"
