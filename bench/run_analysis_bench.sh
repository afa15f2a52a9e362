#!/usr/bin/env bash
# Analysis benchmark (not a test: it reports, it does not judge).
#
#   bench/run_analysis_bench.sh [OUTDIR]   (default bench/out; traces shared with run_bench.sh)
#
# For each chart's data export (`opscope export --timing --chart C --format json`) on the
# ~100 MB and ~1 GB generated traces: median seconds of the analysis alone (load excluded,
# as the GUI's Analysis dock runs it on an already loaded trace) over RUNS runs, and the
# process's peak RSS (load included). Also one op's kernels grouped by input shape, which
# reads every call's args back from the file. Needs a Release build in build/release.
set -euo pipefail
cd "$(dirname "$0")/.."
OUT=${1:-bench/out}
RUNS=${RUNS:-5}
GEN=../shared/tools/gen_kineto_trace.py
BIN=build/release/app/opscope
[ -x "$BIN" ] || { echo "build first: cmake --workflow --preset release" >&2; exit 2; }
mkdir -p "$OUT"
for mb in 100 1000; do
  f="$OUT/gen_${mb}mb.json"
  if [ ! -f "$f" ]; then
    [ -f "$GEN" ] || { echo "$GEN not found (the shared folder is needed to generate traces)" >&2; exit 2; }
    python3 "$GEN" --out "$f" --mb "$mb" --seed 1 >/dev/null
  fi
done

median() { sort -n | awk '{a[NR]=$1} END {print (NR%2) ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2}'; }

# measure LABEL ARGS...: median analysis seconds, median load seconds, max peak RSS.
measure() {
  local label=$1; shift
  local analysis=() load=() rss=0
  for _ in $(seq "$RUNS"); do
    local log
    log=$(mktemp)
    /usr/bin/time -v "$BIN" export --timing "$@" -o /dev/null 2>"$log"
    load+=("$(sed -n 's/.*timing: load \([0-9.]*\) s.*/\1/p' "$log")")
    analysis+=("$(sed -n 's/.*timing: load [0-9.]* s, [a-z-]* \([0-9.]*\) s.*/\1/p' "$log")")
    local r
    r=$(awk -F': ' '/Maximum resident set size/ {print $2}' "$log")
    [ "$r" -gt "$rss" ] && rss=$r
    rm -f "$log"
  done
  printf '%-44s analysis %6.3f s   (load %6.3f s)   %6.0f MiB peak RSS\n' "$label" \
    "$(printf '%s\n' "${analysis[@]}" | median)" "$(printf '%s\n' "${load[@]}" | median)" "$((rss / 1024))"
}

echo "runs per figure: $RUNS (median seconds, max peak RSS); $(nproc) cores; $(date -u +%F)"
for mb in 100 1000; do
  f="$OUT/gen_${mb}mb.json"
  for chart in overview breakdown op-kernels kernel-stats overheads streams; do
    measure "${mb} MB  $chart" --chart "$chart" --format json "$f"
  done
  measure "${mb} MB  op-kernels --op aten::mm --by-shape" --chart op-kernels --op aten::mm --by-shape --format json "$f"
done
