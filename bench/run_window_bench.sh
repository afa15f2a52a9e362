#!/usr/bin/env bash
# The window opening a trace (reports, does not judge): `opscope --bench-open` on the
# ~100 MB and ~1 GB generated traces (bench/run_bench.sh makes them), as File > Open
# does, with the docks closed and with the Analysis dock open. Per case: medians over
# RUNS runs of the seconds from the process's start to the first frame and until every
# worker is done, the longest event-loop stall seen in any run, the highest peak RSS, and
# the CPU the host stole from this VM during the runs (bench/cpu_steal.sh).
#
#   bench/run_window_bench.sh [OUTDIR]      (default bench/out)
set -euo pipefail
cd "$(dirname "$0")/.."
source bench/cpu_steal.sh
OUT=${1:-bench/out}
RUNS=${RUNS:-5}
BIN=build/release/app/opscope
[ -x "$BIN" ] || { echo "build first: cmake --workflow --preset release" >&2; exit 2; }
export QT_QPA_PLATFORM=offscreen
echo "runs per figure: $RUNS (median seconds, worst stall, max peak RSS); $(nproc) cores; $(date -u +%F)"
printf '%-34s %12s %10s %12s %14s %14s %6s\n' case first_frame settled worst_stall rss_at_frame peak_rss steal
for mb in 100 1000; do
  f="$OUT/gen_${mb}mb.json"
  [ -f "$f" ] || { echo "$f missing: run bench/run_bench.sh first" >&2; exit 2; }
  for dock in none analysis; do
    args=()
    [ "$dock" = none ] || args=(--open-dock "$dock")
    steal_mark
    lines=$(for _ in $(seq "$RUNS"); do "$BIN" --bench-open "${args[@]}" "$f" 2>/dev/null; done)
    printf '%s\n' "$lines" | python3 -c '
import json, statistics, sys
runs = [json.loads(l) for l in sys.stdin if l.startswith("{")]
med = lambda k: statistics.median(r[k] for r in runs)
print("%-34s %10.2f s %8.2f s %9d ms %10.0f MiB %10.0f MiB %4s %%" % (sys.argv[1], med("first_frame_s"), med("settled_s"),
      max(r["longest_stall_ms"] for r in runs), max(r["rss_at_first_frame_mib"] for r in runs),
      max(r["peak_rss_mib"] for r in runs), sys.argv[2]))' "${mb} MB, dock: $dock" "$(steal_pct)"
  done
done
