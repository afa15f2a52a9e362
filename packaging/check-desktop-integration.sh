#!/usr/bin/env bash
# Checks what the package installs for the desktop: the desktop entry validates, the
# MIME XML compiles, and a file manager's MIME lookup (Qt's, over shared-mime-info)
# gives opscope's types to the files users have, and only to those.
#   packaging/check-desktop-integration.sh MIME_PROBE
set -euo pipefail
cd "$(dirname "$0")/.."
probe=$1
desktop-file-validate packaging/opscope.desktop
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/share/mime/packages"
cp packaging/opscope-mime.xml "$tmp/share/mime/packages/"
update-mime-database "$tmp/share/mime" 2>/dev/null
# Files as users have them: the profiler's own names, renamed copies, and bystanders.
# A name's glob decides before the content does (shared-mime-info's order), so magic
# only names files whose name says nothing: a trace renamed to .json is plain JSON.
mkdir "$tmp/f"
cp resources/sample/sample.pt.trace.json.gz "$tmp/f/worker0.1700000000000.pt.trace.json.gz"
gzip -dc resources/sample/sample.pt.trace.json.gz > "$tmp/f/worker0.pt.trace.json"
cp "$tmp/f/worker0.pt.trace.json" "$tmp/f/renamed.json"
cp "$tmp/f/worker0.pt.trace.json" "$tmp/f/trace-without-extension"
cp tests/fuzz/corpus/execution_trace/et_1.0.1.json "$tmp/f/et-without-extension"
echo '{"a": 1}' > "$tmp/f/config.json"
printf 'x' | gzip > "$tmp/f/logs.gz"
expect=(
  "worker0.1700000000000.pt.trace.json.gz application/x-kineto-trace+gzip"
  "worker0.pt.trace.json application/x-kineto-trace+json"
  "trace-without-extension application/x-kineto-trace+json"
  "et-without-extension application/x-pytorch-execution-trace+json"
  "renamed.json application/json"
  "config.json application/json"
  "logs.gz application/gzip"
)
failed=0
for e in "${expect[@]}"; do
  file=${e% *} want=${e#* }
  got=$(XDG_DATA_DIRS="$tmp/share:/usr/share" XDG_DATA_HOME="$tmp/none" QT_QPA_PLATFORM=offscreen "$probe" "$tmp/f/$file")
  if [ "$got" != "$want" ]; then
    echo "check-desktop-integration: $file is $got, expected $want" >&2
    failed=1
  fi
done
# The desktop entry opens exactly the types the XML defines.
for t in $(grep '^MimeType=' packaging/opscope.desktop | cut -d= -f2 | tr ';' ' '); do
  grep -q "type=\"$t\"" packaging/opscope-mime.xml || { echo "check-desktop-integration: $t is not defined" >&2; failed=1; }
done
exit $failed
