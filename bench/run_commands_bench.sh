#!/usr/bin/env bash
# Every headless command on the ~1 GB generated trace (reports, does not judge): wall
# time (median of RUNS runs) and peak RSS (largest) of the whole process, load included,
# for summary, critical-path, predict, roofline, advise, diff (the trace against itself
# and against a second 1 GB trace of another seed), writing the trace back, and the export
# of every chart as data (JSON) and as a picture (PDF). Each line ends with the CPU the
# host stole from this VM during its runs (bench/cpu_steal.sh).
#
#   bench/run_commands_bench.sh [OUTDIR]      (default bench/out; traces shared with run_bench.sh)
#   BIN=/path/to/other/opscope bench/run_commands_bench.sh   (another build: before/after)
#   ONLY="predict diff" bench/run_commands_bench.sh          (the lines whose label has a word)
#   PICTURES=0 bench/run_commands_bench.sh                   (no PDF exports: a binary without its GUI module)
set -euo pipefail
cd "$(dirname "$0")/.."
source bench/cpu_steal.sh
OUT=${1:-bench/out}
RUNS=${RUNS:-5}
GEN=../shared/tools/gen_kineto_trace.py
BIN=${BIN:-build/release/app/opscope}
[ -x "$BIN" ] || { echo "build first: cmake --workflow --preset release" >&2; exit 2; }
mkdir -p "$OUT"
A="$OUT/gen_1000mb.json" B="$OUT/gen_1000mb_s2.json"
for pair in "$A:1" "$B:2"; do
  f=${pair%:*} seed=${pair##*:}
  if [ ! -f "$f" ]; then
    [ -f "$GEN" ] || { echo "$GEN not found (the shared folder is needed to generate traces)" >&2; exit 2; }
    python3 "$GEN" --out "$f" --mb 1000 --seed "$seed" >/dev/null
  fi
done
export QT_QPA_PLATFORM=offscreen
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

median() { sort -n | awk '{a[NR]=$1} END {print (NR%2) ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2}'; }

# measure LABEL ARGS...: median wall seconds and max peak RSS of `BIN ARGS...`.
measure() {
  local label=$1; shift
  if [ -n "${ONLY:-}" ]; then
    local hit=0
    for w in $ONLY; do [[ "$label" == *"$w"* ]] && hit=1; done
    [ "$hit" = 1 ] || return 0
  fi
  local walls=() rss=0 rc=0
  steal_mark
  for _ in $(seq "$RUNS"); do
    local log="$TMP/time.log"
    /usr/bin/time -v "$BIN" "$@" >/dev/null 2>"$log" || rc=$?
    walls+=("$(awk -F': ' '/Elapsed \(wall clock\)/ {n=split($2,p,":"); s=0; for(i=1;i<=n;i++) s=s*60+p[i]; print s}' "$log")")
    local r
    r=$(awk -F': ' '/Maximum resident set size/ {print $2}' "$log")
    [ "$r" -gt "$rss" ] && rss=$r
  done
  [ "$rc" = 0 ] || { echo "$label: exit $rc: $(head -1 "$log")" >&2; return 0; }
  printf '%-44s %7.2f s %7.0f MiB   steal %s %%\n' "$label" "$(printf '%s\n' "${walls[@]}" | median)" "$((rss / 1024))" "$(steal_pct)"
}

echo "runs per figure: $RUNS (median wall seconds, max peak RSS, load included); $(nproc) cores; $(date -u +%F); $BIN"
measure "summary --json" summary --json "$A"
measure "critical-path --json" critical-path --json "$A"
measure "predict --json" predict --json "$A"
measure "roofline --json" roofline --json "$A"
measure "advise --json" advise --json "$A"
measure "diff --json A A" diff --json "$A" "$A"
measure "diff --json A B (two 1 GB traces)" diff --json "$A" "$B"
measure "export --trace (written back)" export --trace "$TMP/back.json" "$A"
charts=$("$BIN" export --help 2>&1 | sed -n 's/^ *CHART: *\([a-z-]*\).*/\1/p; s/^             \([a-z][a-z-]*\)  .*/\1/p')
for c in $charts; do
  measure "export --chart $c json" export --chart "$c" --format json "$A" -o "$TMP/c.json"
  [ "${PICTURES:-1}" = 0 ] || measure "export --chart $c pdf" export --chart "$c" --format pdf "$A" -o "$TMP/c.pdf"
done
