#!/usr/bin/env bash
# Builds the .deb and .tar.gz from a configured, built tree and checks what users get:
# lintian (errors and warnings fail), the AppStream file and the desktop entry as
# installed, every file the desktop needs, and dependencies taken from the binaries.
#   packaging/check-package.sh BUILD_DIR      (tools/test.sh runs it on build/release)
# Prints the package's size; leaves the packages in BUILD_DIR.
set -euo pipefail
build=$(cd "$1" && pwd)
cd "$build"
rm -f opscope_*.deb opscope-*.tar.gz
cpack -G "DEB;TGZ" >/dev/null
deb=$(ls opscope_*_*.deb)
tgz=$(ls opscope-*.tar.gz)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
dpkg-deb -x "$deb" "$tmp/root"
failed=0
fail() { echo "check-package: $*" >&2; failed=1; }

app=org.opscope.opscope
need=(
  usr/bin/opscope usr/bin/opscope-cluster
  usr/share/applications/$app.desktop usr/share/metainfo/$app.metainfo.xml
  usr/share/mime/packages/opscope.xml usr/share/icons/hicolor/scalable/apps/$app.svg
  usr/share/man/man1/opscope.1.gz usr/share/man/man1/opscope-cluster.1.gz
  usr/share/doc/opscope/copyright usr/share/doc/opscope/changelog.gz
  usr/share/opscope/sample.pt.trace.json.gz
)
for s in 16 22 24 32 48 64 128 256 512; do need+=(usr/share/icons/hicolor/${s}x${s}/apps/$app.png); done
for f in "${need[@]}"; do [ -f "$tmp/root/$f" ] || fail "the package lacks /$f"; done
ls "$tmp"/root/usr/lib/*-linux-gnu/opscope/opscope-gui.so >/dev/null 2>&1 || fail "the package lacks the GUI module"
# Each PNG is the size its folder says (the renderer, not a copy of one size).
for s in 16 48 512; do
  got=$(file -b "$tmp/root/usr/share/icons/hicolor/${s}x${s}/apps/$app.png" | grep -o '[0-9]* x [0-9]*' || true)
  [ "$got" = "$s x $s" ] || fail "the ${s}x${s} icon is $got"
done

# The binary finds its GUI module relative to itself, wherever the tree is unpacked.
"$tmp/root/usr/bin/opscope" --version | grep -q "Qt 6" || fail "the unpacked opscope does not load its GUI module"
"$tmp/root/usr/bin/opscope" summary "$tmp/root/usr/share/opscope/sample.pt.trace.json.gz" >/dev/null \
  || fail "the unpacked opscope cannot summarise the sample"

# The Python module imports from the unpacked tree (Debian's python3 reads
# /usr/lib/python3/dist-packages) and loads the sample with the engine it carries.
PYTHONPATH="$tmp/root/usr/lib/python3/dist-packages" /usr/bin/python3 -c \
  "import opscope, sys; assert opscope.load(sys.argv[1]).summary()['kernels'] > 0" \
  "$tmp/root/usr/share/opscope/sample.pt.trace.json.gz" || fail "the unpacked Python module cannot load the sample"

desktop-file-validate "$tmp/root/usr/share/applications/$app.desktop" || fail "desktop-file-validate"
appstreamcli validate --no-net --pedantic "$tmp/root/usr/share/metainfo/$app.metainfo.xml" >/dev/null \
  || { appstreamcli validate --no-net --pedantic "$tmp/root/usr/share/metainfo/$app.metainfo.xml" >&2; fail "appstreamcli validate"; }
# Libraries found by dpkg-shlibdeps, not written by hand.
depends=$(dpkg-deb -f "$deb" Depends)
for lib in libqt6widgets6 libqt6svg6 libqcustomplot libsqlite3 libprotobuf-lite zlib1g libisal2 libstdc++6; do
  [[ $depends == *"$lib"* ]] || fail "Depends lacks $lib: $depends"
done
# --fail-on: errors and warnings fail the check; info and pedantic tags do not.
lintian --fail-on error,warning "$deb" >&2 \
  || fail "lintian"
tar -tzf "$tgz" > "$tmp/tgz.list"
grep -qx "[^/]*/bin/opscope" "$tmp/tgz.list" || fail "$tgz lacks bin/opscope"
echo "check-package: $deb $(du -k "$deb" | cut -f1) KiB, $tgz $(du -k "$tgz" | cut -f1) KiB, installed $(du -sk "$tmp/root" | cut -f1) KiB"
exit $failed
