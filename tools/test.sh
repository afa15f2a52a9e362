#!/usr/bin/env bash
# Builds and runs the whole test suite twice: Release (GCC, then packaged as .deb and
# .tar.gz and checked by packaging/check-package.sh: lintian, AppStream), then Debug with
# AddressSanitizer and UndefinedBehaviorSanitizer (clang, which also checks
# float-to-integer overflow; any sanitizer report fails the run); then builds the
# libFuzzer targets and runs each for a minute (any finding fails the run). README's
# test command; .ci/run calls exactly this. FUZZ_SECONDS=0 skips the fuzzing.
set -euo pipefail
cd "$(dirname "$0")/.."
bash tools/install-deps.sh
jobs=$(nproc 2>/dev/null || echo 2)
export CTEST_PARALLEL_LEVEL=$jobs CMAKE_BUILD_PARALLEL_LEVEL=$jobs
export QT_QPA_PLATFORM=offscreen
for preset in release asan; do
  echo "=== $preset ==="
  cmake --workflow --preset "$preset"
  if [ "$preset" = release ]; then bash packaging/check-package.sh build/release; fi
done
if [ "${FUZZ_SECONDS:-60}" -gt 0 ]; then
  echo "=== fuzz (${FUZZ_SECONDS:-60} s per target) ==="
  bash bench/fuzz.sh --seconds "${FUZZ_SECONDS:-60}"
fi
