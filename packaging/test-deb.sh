#!/usr/bin/env bash
# Installs the .deb the way a user does, on a clean Debian 12 root made from Debian's
# own packages, and checks what the user then has:
#   - `apt-get install ./opscope_*.deb` pulls every library it needs (nothing else
#     installed beforehand but a minimal Debian and the desktop's own tools);
#   - `opscope --version` loads the GUI module, `opscope summary` reads the sample;
#   - the file types: `xdg-mime query default` names opscope for a Kineto trace, and
#     `gio open` (what GNOME Files does on a double click) starts opscope on a
#     `.pt.trace.json.gz` file under a virtual display.
#
#   sudo packaging/test-deb.sh build/release/opscope_0.1.0_amd64.deb [ROOT_CACHE]
#
# Needs root, debootstrap and network access to a Debian mirror. The minimal root is
# built once (debootstrap --variant=minbase bookworm) into ROOT_CACHE (default
# /var/tmp/opscope-root-base) and copied for every run, so each run starts clean.
# Prints the package size and the install time; exits 1 when a check fails.
set -euo pipefail
deb=$(realpath "$1")
cache=${2:-/var/tmp/opscope-root-base}
mirror=${DEBIAN_MIRROR:-http://deb.debian.org/debian}
[ "$(id -u)" -eq 0 ] || { echo "test-deb: needs root (chroot, mounts)" >&2; exit 2; }
if [ ! -x "$cache/usr/bin/apt-get" ]; then
  echo "test-deb: building a minimal Debian 12 root in $cache (once)" >&2
  debootstrap --variant=minbase bookworm "$cache" "$mirror" >/dev/null
fi
root=$(mktemp -d /var/tmp/opscope-test-root.XXXXXX)
cleanup() {
  for m in proc sys dev/pts dev; do umount -l "$root/$m" 2>/dev/null || true; done
  rm -rf --one-file-system "$root"
}
trap cleanup EXIT
cp -a "$cache/." "$root/"
mount -t proc proc "$root/proc"
mount -t sysfs sys "$root/sys"
mount --bind /dev "$root/dev"
mount --bind /dev/pts "$root/dev/pts"
cp /etc/resolv.conf "$root/etc/resolv.conf"
cp "$deb" "$root/tmp/"
in_root() { chroot "$root" env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root LANG=C.UTF-8 DEBIAN_FRONTEND=noninteractive "$@"; }

in_root apt-get update -qq
# The desktop's own tools, as on any desktop system: GIO (file managers), a display.
in_root apt-get install -y -qq xvfb xauth libglib2.0-bin >/dev/null
before=$(in_root dpkg-query -W -f='${Package}\n' | wc -l)
start=$(date +%s%3N)
in_root apt-get install -y -qq "/tmp/$(basename "$deb")" >/dev/null
install_ms=$(( $(date +%s%3N) - start ))
pulled=$(( $(in_root dpkg-query -W -f='${Package}\n' | wc -l) - before - 1 ))

failed=0
fail() { echo "test-deb: $*" >&2; failed=1; }
version=$(in_root opscope --version) || fail "opscope --version failed"
echo "$version" | grep -q "^Qt 6" || fail "opscope --version does not show Qt: $version"
in_root opscope summary /usr/share/opscope/sample.pt.trace.json.gz >/dev/null || fail "opscope summary on the sample failed"
in_root cp /usr/share/opscope/sample.pt.trace.json.gz /tmp/worker0.1700000000.pt.trace.json.gz
default=$(in_root xdg-mime query default application/x-kineto-trace+gzip)
[ "$default" = "org.opscope.opscope.desktop" ] || fail "xdg-mime query default application/x-kineto-trace+gzip: '$default'"
type=$(in_root gio info -a standard::content-type /tmp/worker0.1700000000.pt.trace.json.gz | sed -n 's/.*standard::content-type: //p')
[ "$type" = "application/x-kineto-trace+gzip" ] || fail "GIO types the trace as '$type'"
# Double click: GIO starts the default application of the file's type. opscope must be
# running on that file a few seconds later (the window stays open; it is then closed).
in_root sh -c 'xvfb-run -a sh -c "gio open /tmp/worker0.1700000000.pt.trace.json.gz; sleep 8; pgrep -a opscope > /tmp/running; pkill opscope; true"' \
  >/dev/null 2>&1 || true
running=$(cat "$root/tmp/running" 2>/dev/null || true)
[[ $running == *"opscope /tmp/worker0.1700000000.pt.trace.json.gz"* ]] \
  || fail "gio open did not start opscope on the trace (running: '$running')"

echo "test-deb: $(basename "$deb") $(du -k "$deb" | cut -f1) KiB; apt-get install took $((install_ms / 1000)).$(printf %03d $((install_ms % 1000))) s (with $pulled dependencies downloaded and installed);" \
     "installed size $(in_root dpkg-query -W -f='${Installed-Size}' opscope) KiB"
echo "test-deb: opscope --version: $(echo "$version" | tr '\n' ' ')"
echo "test-deb: xdg-mime default: $default; GIO type: $type; after gio open: $running"
exit $failed
