#!/usr/bin/env bash
# The Python module against Holistic Trace Analysis on the same file (not a test: it
# reports, it does not judge).
#
#   bench/run_python_bench.sh [OUTDIR]    (default bench/out; the trace is generated once)
#   HTA_SRC=/path/to/HolisticTraceAnalysis bench/run_python_bench.sh   also runs HTA
#
# On the ~100 MB generated Kineto trace: opscope.load + events() (every slice as a
# DataFrame), opscope.load + temporal_breakdown(), and HTA's TraceAnalysis (its load)
# + get_temporal_breakdown(); wall seconds (median of RUNS runs) and peak RSS
# (/usr/bin/time -v). Needs a Release build in build/release and Debian's python3 with
# numpy and pandas (HTA also needs python3-plotly and python3-networkx).
set -euo pipefail
cd "$(dirname "$0")/.."
OUT=${1:-bench/out}
RUNS=${RUNS:-5}
GEN=../shared/tools/gen_kineto_trace.py
PY=/usr/bin/python3
mkdir -p "$OUT"
[ -f build/release/python/opscope/__init__.py ] || { echo "build first: cmake --workflow --preset release" >&2; exit 2; }
f="$OUT/gen_100mb.json"
[ -f "$f" ] || { [ -f "$GEN" ] || { echo "$GEN not found" >&2; exit 2; }; python3 "$GEN" --out "$f" --mb 100 --seed 1 >/dev/null; }
f=$(cd "$(dirname "$f")" && pwd)/$(basename "$f")

median() { sort -n | awk '{a[NR]=$1} END {print (NR%2) ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2}'; }
measure() {  # LABEL CMD...: median wall s and max peak RSS MiB of RUNS runs
  local label=$1; shift
  local walls=() rss=0
  for _ in $(seq "$RUNS"); do
    local log
    log=$(mktemp)
    /usr/bin/time -v "$@" >/dev/null 2>"$log" || { cat "$log" >&2; exit 1; }
    walls+=("$(awk -F': ' '/Elapsed \(wall clock\)/ {n=split($2,p,":"); s=0; for(i=1;i<=n;i++) s=s*60+p[i]; print s}' "$log")")
    local r
    r=$(awk -F': ' '/Maximum resident set size/ {print $2}' "$log")
    [ "$r" -gt "$rss" ] && rss=$r
    rm -f "$log"
  done
  printf '%-52s %7.2f s  %6.0f MiB peak RSS\n' "$label" "$(printf '%s\n' "${walls[@]}" | median)" "$((rss / 1024))"
}

echo "runs per figure: $RUNS (median wall, max peak RSS); $(nproc) cores; $(date -u +%F); $(du -m "$f" | cut -f1) MB trace"
export PYTHONPATH=$PWD/build/release/python
measure "python3 -c 'import opscope' (the baseline)" $PY -c "import opscope"
measure "opscope.load + events() ($(basename "$f"))" $PY -c \
  "import opscope,sys; e=opscope.load(sys.argv[1]).events(); assert len(e) > 0" "$f"
measure "opscope.load + temporal_breakdown()" $PY -c \
  "import opscope,sys; print(opscope.load(sys.argv[1]).temporal_breakdown())" "$f"
if [ -n "${HTA_SRC:-}" ]; then
  dir=$(mktemp -d)
  trap 'rm -rf "$dir"' EXIT
  ln -s "$f" "$dir/rank-0.json"
  RUNS=${HTA_RUNS:-3} measure "HTA TraceAnalysis + get_temporal_breakdown()" $PY -c \
    "import sys, logging; sys.path.insert(0, sys.argv[2]); logging.disable(logging.CRITICAL)
from hta.trace_analysis import TraceAnalysis
print(TraceAnalysis(trace_dir=sys.argv[1]).get_temporal_breakdown(visualize=False))" "$dir" "$HTA_SRC"
fi
