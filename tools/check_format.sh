#!/usr/bin/env bash
# Fails when clang-format, with the repository's .clang-format, would change any
# tracked C++ source (the .cpp.in templates are not C++ until CMake fills them). Run
# `clang-format -i FILE...` to fix. The test command runs it (ctest Style.ClangFormat).
set -euo pipefail
cd "$(dirname "$0")/.."
if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
  mapfile -t files < <(git ls-files '*.cpp' '*.h')
else
  mapfile -t files < <(find app core ui tests bench tools packaging -name '*.cpp' -o -name '*.h')
fi
clang-format --dry-run --Werror "${files[@]}"
echo "check_format: ${#files[@]} files formatted"
