#!/usr/bin/env bash
# Fuzzes every loader entry point with libFuzzer (tests/fuzz/), for hours or a minute.
#
#   bench/fuzz.sh [--seconds S | --runs N] [--jobs J] [TARGET...]
#
#   --seconds S   run each target for S seconds (default 10800: three hours)
#   --runs N      instead, stop each target after N executions (e.g. 10000000)
#   --jobs J      targets fuzzed at once (default: the number of cores)
#   TARGET        trace_file execution_trace dvdt plaidml nsys_sqlite link microbench
#                 gpu_file kernel_classes overheads_file rocprofv3 xplane chakra_et
#                 (default: all)
#
# Builds `cmake --preset fuzz` when needed (clang, ASan, UBSan). Each target keeps a
# growing corpus in build/fuzz/corpus/<target>, seeded from tests/fuzz/corpus/<target>
# (and from ../shared/traces when that folder exists); crashes, leaks, timeouts (20 s)
# and memory blowups (2 GiB RSS) are saved under build/fuzz/findings/<target>/. Prints
# executions, coverage and findings per target; exits 1 when any target found
# something. A finding is fixed by adding its file to tests/fuzz/regressions/<target>/
# (the test suite replays it) and making that test pass. .ci/run calls this with
# --seconds 60.
set -euo pipefail
cd "$(dirname "$0")/.."
SECONDS_EACH=10800
RUNS=""
JOBS=$(nproc 2>/dev/null || echo 2)
TARGETS=()
while [ $# -gt 0 ]; do
  case "$1" in
    --seconds) SECONDS_EACH=$2; shift 2 ;;
    --runs) RUNS=$2; shift 2 ;;
    --jobs) JOBS=$2; shift 2 ;;
    -h|--help) sed -n '2,20p' "$0"; exit 0 ;;
    -*) echo "bench/fuzz.sh: unknown option $1" >&2; exit 2 ;;
    *) TARGETS+=("$1"); shift ;;
  esac
done
[ ${#TARGETS[@]} -gt 0 ] || TARGETS=(trace_file execution_trace dvdt plaidml nsys_sqlite link microbench gpu_file
                                      kernel_classes overheads_file rocprofv3 xplane chakra_et rank_table)

cmake --preset fuzz >/dev/null
cmake --build --preset fuzz -j"$JOBS" >/dev/null
OUT=build/fuzz
mkdir -p "$OUT/logs"

seed() {
  local target=$1 dir=$OUT/corpus/$1
  mkdir -p "$dir" "$OUT/findings/$target"
  cp -n tests/fuzz/corpus/"$target"/* "$dir"/ 2>/dev/null || true
  cp -n tests/fuzz/regressions/"$target"/* "$dir"/ 2>/dev/null || true
  local shared=../shared/traces
  [ -d "$shared" ] || return 0
  case "$target" in
    trace_file) for f in "$shared"/*.gz; do [ -f "$f" ] && [ "$(stat -c %s "$f")" -lt 200000 ] && cp -n "$f" "$dir"/; done ;;
    xplane) for f in "$shared"/*.xplane.pb; do [ -f "$f" ] && [ "$(stat -c %s "$f")" -lt 65536 ] && cp -n "$f" "$dir"/; done ;;
    execution_trace) [ -f "$shared/simple_add_et.json.gz" ] && zcat "$shared/simple_add_et.json.gz" > "$dir/shared_simple_add_et.json" ;;
    plaidml) [ -f "$shared/plaidml_mobilenet_eventlog.gz" ] && { zcat "$shared/plaidml_mobilenet_eventlog.gz" | head -c 65536 > "$dir/shared_mobilenet_head.log"; } || true ;;
  esac
  return 0
}

run() {
  local target=$1
  # Inputs up to 4 KiB, but SQLite databases are pages of 4 KiB: a 4 KiB cut of the
  # 7 KiB seeds never opens (coverage stayed at 84 edges); 16 KiB reached ~5000 in 150 s.
  local max_len=4096
  [ "$target" = nsys_sqlite ] && max_len=16384
  local args=(-timeout=20 -rss_limit_mb=2048 "-max_len=$max_len" -print_final_stats=1
              "-artifact_prefix=$OUT/findings/$target/")
  case "$target" in
    trace_file|execution_trace|dvdt|link|gpu_file|kernel_classes|overheads_file|rank_table) args+=("-dict=tests/fuzz/json.dict") ;;
    rocprofv3) args+=("-dict=tests/fuzz/rocprofv3.dict") ;;
  esac
  if [ -n "$RUNS" ]; then args+=("-runs=$RUNS"); else args+=("-max_total_time=$SECONDS_EACH"); fi
  # Each target writes its scratch files in a folder of its own.
  local tmp
  tmp=$(mktemp -d)
  # A small quarantine and short allocation stacks: three times the executions, and a
  # finding still reports where it happened.
  TMPDIR=$tmp ASAN_OPTIONS=${ASAN_OPTIONS:-quarantine_size_mb=16:malloc_context_size=5} "$OUT/tests/fuzz/fuzz_$target" "${args[@]}" "$OUT/corpus/$target" >"$OUT/logs/$target.log" 2>&1
  local rc=$?
  rm -rf "$tmp"
  return $rc
}

for t in "${TARGETS[@]}"; do seed "$t"; done
failed=0
pids=()
names=()
for t in "${TARGETS[@]}"; do
  while [ "$(jobs -rp | wc -l)" -ge "$JOBS" ]; do sleep 1; done
  run "$t" &
  pids+=($!)
  names+=("$t")
done
status=()
for i in "${!pids[@]}"; do
  if wait "${pids[$i]}"; then status+=("ok"); else status+=("FOUND"); failed=1; fi
done

printf '%-16s %12s %8s %8s %s\n' target executions cov ft result
for i in "${!names[@]}"; do
  t=${names[$i]}
  log=$OUT/logs/$t.log
  execs=$(awk '/stat::number_of_executed_units/ {print $2}' "$log" | tail -1)
  line=$(grep -E '^#[0-9]+' "$log" | tail -1 || true)
  cov=$(sed -n 's/.*cov: \([0-9]*\).*/\1/p' <<<"$line")
  ft=$(sed -n 's/.*ft: \([0-9]*\).*/\1/p' <<<"$line")
  printf '%-16s %12s %8s %8s %s\n' "$t" "${execs:-?}" "${cov:-?}" "${ft:-?}" "${status[$i]}"
  if [ "${status[$i]}" != ok ]; then
    grep -E 'ERROR|runtime error|SUMMARY' "$log" | head -5 >&2 || true
    ls "$OUT/findings/$t" >&2 || true
  fi
done
exit $failed
