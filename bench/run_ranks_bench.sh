#!/usr/bin/env bash
# Multi-rank benchmark (reports, does not judge): 8 ranks of ~100 MB each (.json.gz),
# generated once with ../shared/tools/gen_kineto_trace.py --ranks 8.
#
#   bench/run_ranks_bench.sh [OUTDIR]     (default bench/out)
#
# Figures, each the median wall time of RUNS runs and the largest peak RSS:
#   - `opscope summary --json DIR` (loads the ranks on a thread pool, keeps summaries)
#   - `opscope summary --json` of one rank alone, for the per-rank cost
#   - the GUI loading the folder as one session (`--screenshot`, offscreen)
#   - tools/opscope-cluster on a LocalCluster of 2 workers over the 8 ranks
set -euo pipefail
cd "$(dirname "$0")/.."
OUT=${1:-bench/out}
RUNS=${RUNS:-3}
GEN=../shared/tools/gen_kineto_trace.py
BIN=build/release/app/opscope
DIR=$OUT/ranks8x100mb
[ -x "$BIN" ] || { echo "build first: cmake --workflow --preset release" >&2; exit 2; }
[ -f "$GEN" ] || { echo "$GEN not found (the shared folder is needed to generate traces)" >&2; exit 2; }
if [ ! -f "$DIR/job_rank7.json.gz" ]; then
  mkdir -p "$DIR"
  python3 "$GEN" --out "$DIR/job.json" --mb 100 --ranks 8 --gzip --seed 1 >/dev/null 2>&1
fi

median() { sort -n | awk '{a[NR]=$1} END {print (NR%2) ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2}'; }
measure() {
  local label=$1; shift
  local walls=() rss=0
  for _ in $(seq "$RUNS"); do
    local log
    log=$(mktemp)
    /usr/bin/time -v "$@" >/dev/null 2>"$log" || true
    walls+=("$(awk -F': ' '/Elapsed \(wall clock\)/ {n=split($2,p,":"); s=0; for(i=1;i<=n;i++) s=s*60+p[i]; print s}' "$log")")
    local r
    r=$(awk -F': ' '/Maximum resident set size/ {print $2}' "$log")
    [ "$r" -gt "$rss" ] && rss=$r
    rm -f "$log"
  done
  printf '%-52s %7.2f s  %6.0f MiB peak RSS\n' "$label" "$(printf '%s\n' "${walls[@]}" | median)" "$(echo "$rss/1024" | bc -l)"
}

gz=$(du -cb "$DIR"/*.json.gz | tail -1 | cut -f1)
echo "runs per figure: $RUNS; $(nproc) cores; 8 ranks, $((gz / 1000000)) MB gzip in all; $(date -u +%F)"
measure "opscope summary --json one rank (100 MB .json.gz)" "$BIN" summary --json "$DIR/job_rank0.json.gz"
measure "opscope summary --json DIR (8 ranks)" "$BIN" summary --json "$DIR"
measure "opscope summary --json DIR --jobs 1" "$BIN" summary --json --jobs 1 "$DIR"
QT_QPA_PLATFORM=offscreen measure "GUI: open DIR as one session (--screenshot)" \
  "$BIN" --screenshot "$OUT/ranks8.png" --size 1400x900 "$DIR"
if /usr/bin/python3 -c "import distributed" 2>/dev/null; then
  measure "opscope-cluster --local-workers 2 (8 ranks)" \
    /usr/bin/python3 tools/opscope-cluster --quiet --local-workers 2 --opscope "$BIN" -o "$OUT/ranks8.jsonl" "$DIR"
fi
