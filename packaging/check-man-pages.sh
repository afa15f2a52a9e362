#!/usr/bin/env bash
# Checks that the manual pages and the usage texts agree: every option `opscope --help`
# prints is in opscope(1) and every option opscope(1) names is in --help; the same for
# every command, CHART and exit code, and for opscope-cluster(1) against its --help;
# and groff formats both pages without a warning.
#   packaging/check-man-pages.sh OPSCOPE_BINARY [BUILT_PAGE]
# BUILT_PAGE: opscope.1 as the build made it (its CHART list spliced in from the
# analysis catalog); default: build it here from packaging/opscope.1.
set -euo pipefail
cd "$(dirname "$0")/.."
opscope=$1
failed=0
fail() { echo "check-man-pages: $*" >&2; failed=1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# Options as a reader sees them: troff's \- is a hyphen, font escapes go.
page_text() { sed -e 's/\\-/-/g' -e 's/\\f[BIRP]//g' "$1"; }
options() { grep -o -- '--[a-z0-9][a-z0-9-]*' | sort -u; }

"$opscope" --help > "$tmp/help"
built=${2:-}
if [ -z "$built" ]; then
  "$opscope" --man-charts > "$tmp/charts.man"
  cmake -DPAGE=packaging/opscope.1 -DCHARTS="$tmp/charts.man" -DOUT="$tmp/opscope.1" -P packaging/splice_man_charts.cmake
  built=$tmp/opscope.1
fi
page_text "$built" > "$tmp/page"
options < "$tmp/help" > "$tmp/help.opts"
options < "$tmp/page" > "$tmp/page.opts"
for o in $(comm -23 "$tmp/help.opts" "$tmp/page.opts"); do fail "opscope --help has $o, opscope.1 does not"; done
for o in $(comm -13 "$tmp/help.opts" "$tmp/page.opts"); do fail "opscope.1 has $o, opscope --help does not"; done
for c in summary export predict diff advise critical-path link; do
  grep -q "^  $c " "$tmp/help" || fail "opscope --help lacks the command $c"
  grep -q "^\.SS $c$" "$tmp/page" || fail "opscope.1 has no section for the command $c"
done
# Each CHART named in --help is a .B entry of the page's CHART list, and the reverse.
sed -n '/CHART: overview/,/--iteration N/p' "$tmp/help" | sed -e 's/CHART://' | awk 'NF>1 && $1 !~ /^--/ {print $1}' | sort > "$tmp/help.charts"
sed -n '/^is one of:/,/^\.RE/p' "$tmp/page" | sed -n 's/^\.B //p' | sort > "$tmp/page.charts"
diff "$tmp/help.charts" "$tmp/page.charts" >&2 || fail "the CHARTs of --help and opscope.1 differ"
[ "$(wc -l < "$tmp/help.charts")" -ge 9 ] || fail "found only $(wc -l < "$tmp/help.charts") CHARTs in --help"
# Exit codes: "N meaning" in --help, ".B N" entries under EXIT STATUS in the page.
grep -o '[0-9] [a-z][a-z ]*' <(sed -n '/^exit codes:/,$p' "$tmp/help") | cut -c1 | sort > "$tmp/help.codes"
sed -n '/^\.SH EXIT STATUS/,/^\.SH /p' "$tmp/page" | sed -n 's/^\.B \([0-9]\)$/\1/p' | sort > "$tmp/page.codes"
diff "$tmp/help.codes" "$tmp/page.codes" >&2 || fail "the exit codes of --help and opscope.1 differ"
[ "$(wc -l < "$tmp/help.codes")" -eq 6 ] || fail "expected exit codes 0-5 in --help"

python3 tools/opscope-cluster --help > "$tmp/chelp"
page_text packaging/opscope-cluster.1 > "$tmp/cpage"
options < "$tmp/chelp" > "$tmp/chelp.opts"
options < "$tmp/cpage" > "$tmp/cpage.opts"
for o in $(comm -23 "$tmp/chelp.opts" "$tmp/cpage.opts"); do fail "opscope-cluster --help has $o, opscope-cluster.1 does not"; done
for o in $(comm -13 "$tmp/chelp.opts" "$tmp/cpage.opts"); do fail "opscope-cluster.1 has $o, its --help does not"; done

for p in "$built" packaging/opscope-cluster.1; do
  warnings=$(groff -man -ww -z -Tutf8 "$p" 2>&1)
  [ -z "$warnings" ] || fail "groff on $p: $warnings"
done
exit $failed
