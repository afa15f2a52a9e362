#!/usr/bin/env bash
# Builds and runs the whole test suite twice: Release, then Debug with AddressSanitizer
# and UndefinedBehaviorSanitizer (any sanitizer report fails the run). README's test
# command; .ci/run calls exactly this.
set -euo pipefail
cd "$(dirname "$0")/.."
bash tools/install-deps.sh
jobs=$(nproc 2>/dev/null || echo 2)
export CTEST_PARALLEL_LEVEL=$jobs CMAKE_BUILD_PARALLEL_LEVEL=$jobs
export QT_QPA_PLATFORM=offscreen
for preset in release asan; do
  echo "=== $preset ==="
  cmake --workflow --preset "$preset"
done
