#!/usr/bin/env bash
# Checks what the package installs for the desktop: the desktop entry and the AppStream
# file validate and agree, the MIME XML compiles, and a file manager's MIME lookup (Qt's, over shared-mime-info)
# gives opscope's types to the files users have, and only to those.
#   packaging/check-desktop-integration.sh MIME_PROBE METAINFO
# (METAINFO: the AppStream file as configured into the build folder)
set -euo pipefail
metainfo=$(realpath "$2")
cd "$(dirname "$0")/.."
probe=$1
desktop-file-validate packaging/org.opscope.opscope.desktop
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
cp tests/data/plaidml/mnist_mlp_2017_excerpt.log.gz "$tmp/f/eventlog.gz"
cp tests/data/plaidml/mnist_mlp_2017_excerpt.log.gz "$tmp/f/mobilenet_eventlog.gz"
cp tests/data/plaidml/mnist_mlp_2017_excerpt.log.gz "$tmp/f/mnist_mlp_log.gz"
cp tests/fuzz/corpus/trace_file/rocprofv3.json "$tmp/f/908_results.json"
cp tests/fuzz/corpus/trace_file/rocprofv3.json "$tmp/f/rocprof-without-extension"
cp tests/fuzz/corpus/trace_file/xplane.pb "$tmp/f/host.xplane.pb"
cp tests/fuzz/corpus/execution_trace/chakra_head.et "$tmp/f/chakra.0.et"
echo '{"a": 1}' > "$tmp/f/config.json"
printf 'x' | gzip > "$tmp/f/logs.gz"
expect=(
  "worker0.1700000000000.pt.trace.json.gz application/x-kineto-trace+gzip"
  "worker0.pt.trace.json application/x-kineto-trace+json"
  "trace-without-extension application/x-kineto-trace+json"
  "et-without-extension application/x-pytorch-execution-trace+json"
  "eventlog.gz application/x-plaidml-eventlog"
  "mobilenet_eventlog.gz application/x-plaidml-eventlog"
  "mnist_mlp_log.gz application/gzip"
  "908_results.json application/x-rocprofv3-result+json"
  "rocprof-without-extension application/x-rocprofv3-result+json"
  "host.xplane.pb application/x-xplane+protobuf"
  "chakra.0.et application/x-chakra-execution-trace"
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
for t in $(grep '^MimeType=' packaging/org.opscope.opscope.desktop | cut -d= -f2 | tr ';' ' '); do
  grep -q "type=\"$t\"" packaging/opscope-mime.xml || { echo "check-desktop-integration: $t is not defined" >&2; failed=1; }
done
# The icon the entry names is the one installed (packaging/CMakeLists.txt).
icon=$(sed -n 's/^Icon=//p' packaging/org.opscope.opscope.desktop)
[ "$icon" = org.opscope.opscope ] || { echo "check-desktop-integration: Icon=$icon" >&2; failed=1; }
grep -q "<launchable type=\"desktop-id\">$icon.desktop</launchable>" "$metainfo" \
  || { echo "check-desktop-integration: the AppStream file does not launch $icon.desktop" >&2; failed=1; }
appstreamcli validate --no-net --pedantic "$metainfo" >&2 || failed=1
# The AppStream file provides exactly the types the entry opens.
diff <(grep '^MimeType=' packaging/org.opscope.opscope.desktop | cut -d= -f2 | tr ';' '\n' | sed '/^$/d' | sort) \
     <(sed -n 's/.*<mediatype>\(.*\)<\/mediatype>.*/\1/p' "$metainfo" | sort) >&2 \
  || { echo "check-desktop-integration: the AppStream media types differ from the entry's" >&2; failed=1; }
exit $failed
