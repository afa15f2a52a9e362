#!/usr/bin/env bash
# Timeline rendering benchmark (not a test: it reports frame times, it does not judge).
#
#   bench/run_render_bench.sh [OUTDIR]   (default bench/out; traces generated once, reused)
#
# Generates the ~1 GB trace (--mb 1000) and the 10M-event trace (--events 10000000, about
# 3.2 GB) with ../shared/tools/gen_kineto_trace.py, then runs `opscope --bench-render` on
# each under the offscreen platform: per zoom level the median and worst frame at
# 1600x1000, plus load time and peak RSS (/usr/bin/time -v). Needs a Release build.
set -euo pipefail
cd "$(dirname "$0")/.."
OUT=${1:-bench/out}
GEN=../shared/tools/gen_kineto_trace.py
BIN=build/release/app/opscope
mkdir -p "$OUT"
[ -x "$BIN" ] || { echo "build first: cmake --workflow --preset release" >&2; exit 2; }
[ -f "$GEN" ] || { echo "$GEN not found (the shared folder is needed to generate traces)" >&2; exit 2; }

run() {
  local f=$1
  echo "== $f"
  QT_QPA_PLATFORM=offscreen /usr/bin/time -v "$BIN" --bench-render --frames "${FRAMES:-9}" "$f" 2> "$OUT/render.time" |
    grep -v '^$'
  awk -F': ' '/Maximum resident set size/ {printf "peak RSS: %.0f MiB\n", $2 / 1024}' "$OUT/render.time"
}

f1="$OUT/gen_1000mb.json"
[ -f "$f1" ] || python3 "$GEN" --out "$f1" --mb 1000 --seed 1 >/dev/null
run "$f1"
f2="$OUT/gen_10m_events.json"
[ -f "$f2" ] || python3 "$GEN" --out "$f2" --events 10000000 --seed 1 >/dev/null
run "$f2"
