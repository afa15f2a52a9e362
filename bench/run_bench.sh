#!/usr/bin/env bash
# Loading benchmark for `opscope summary` (not a test: it reports, it does not judge).
#
#   bench/run_bench.sh [OUTDIR]      (default bench/out; traces are generated once and reused)
#
# Generates ~100 MB and ~1 GB Kineto traces (and their .gz) with
# ../shared/tools/gen_kineto_trace.py, then reports for each: wall seconds (median of
# RUNS runs), MB/s of JSON, and peak RSS (/usr/bin/time -v), beside Python's
# json.load on the 100 MB file in the same run. The .gz figures are with ISA-L, then
# again with zlib (OPSCOPE_INFLATE=zlib), back to back. Needs a Release build in build/release.
set -euo pipefail
cd "$(dirname "$0")/.."
OUT=${1:-bench/out}
RUNS=${RUNS:-5}
GEN=../shared/tools/gen_kineto_trace.py
BIN=build/release/app/opscope
mkdir -p "$OUT"
[ -x "$BIN" ] || { echo "build first: cmake --workflow --preset release" >&2; exit 2; }
[ -f "$GEN" ] || { echo "$GEN not found (the shared folder is needed to generate traces)" >&2; exit 2; }

for mb in 100 1000; do
  f="$OUT/gen_${mb}mb.json"
  [ -f "$f" ] || python3 "$GEN" --out "$f" --mb "$mb" --seed 1 >/dev/null
  [ -f "$f.gz" ] || gzip -k -6 "$f"
done

median() { sort -n | awk '{a[NR]=$1} END {print (NR%2) ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2}'; }

# measure LABEL FILE CMD...: prints label, file size, median wall s, MB/s (of the JSON), max peak RSS MiB.
measure() {
  local label=$1 file=$2 json_bytes=$3; shift 3
  local walls=() rss=0
  for _ in $(seq "$RUNS"); do
    local log
    log=$(mktemp)
    /usr/bin/time -v "$@" >/dev/null 2>"$log"
    walls+=("$(awk -F': ' '/Elapsed \(wall clock\)/ {n=split($2,p,":"); s=0; for(i=1;i<=n;i++) s=s*60+p[i]; print s}' "$log")")
    local r
    r=$(awk -F': ' '/Maximum resident set size/ {print $2}' "$log")
    [ "$r" -gt "$rss" ] && rss=$r
    rm -f "$log"
  done
  local med
  med=$(printf '%s\n' "${walls[@]}" | median)
  awk -v l="$label" -v b="$(stat -L -c %s "$file")" -v j="$json_bytes" -v w="$med" -v r="$rss" 'BEGIN {
    printf "%-34s %8.1f MB  %7.2f s  %7.0f MB/s  %7.0f MiB peak RSS (%.2fx the JSON)\n", l, b/1e6, w, j/1e6/w, r/1024, r*1024/j }'
}

echo "runs per figure: $RUNS (median wall time, max peak RSS); $(nproc) cores; $(date -u +%F)"
for mb in 100 1000; do
  f="$OUT/gen_${mb}mb.json"
  bytes=$(stat -L -c %s "$f")
  measure "opscope summary ${mb} MB .json" "$f" "$bytes" "$BIN" summary --json "$f"
  measure "opscope summary ${mb} MB .json.gz" "$f.gz" "$bytes" "$BIN" summary --json "$f.gz"
  # The same load inflated by zlib instead of ISA-L (the reference engine; the before).
  measure "  the same with zlib" "$f.gz" "$bytes" env OPSCOPE_INFLATE=zlib "$BIN" summary --json "$f.gz"
done
# A Chrome-style trace: the 100 MB one's CPU slices as B/E pairs, outer ones open across
# the loader's cuts (docs/performance.md, "Begins left open across a cut").
be="$OUT/gen_100mb_be.json"
[ -f "$be" ] || python3 bench/to_begin_end.py "$OUT/gen_100mb.json" "$be"
measure "opscope summary 100 MB B/E .json" "$be" "$(stat -L -c %s "$be")" "$BIN" summary --json "$be"
RUNS=${PY_RUNS:-3} measure "python3 json.load 100 MB .json" "$OUT/gen_100mb.json" "$(stat -L -c %s "$OUT/gen_100mb.json")" \
  python3 -c "import json,sys; json.load(open(sys.argv[1]))" "$OUT/gen_100mb.json"
