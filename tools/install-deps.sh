#!/usr/bin/env bash
# Installs the Debian 12 packages opscope needs to build, test and be looked at.
# Idempotent: when everything is present it only runs dpkg queries (well under a second).
set -euo pipefail

PACKAGES=(
  build-essential cmake pkg-config
  clang libclang-rt-14-dev      # the sanitizer build and the libFuzzer targets
  clang-format                  # tools/check_format.sh (.clang-format)
  qt6-base-dev qt6-svg-dev libqcustomplot-dev  # QCustomPlot draws every chart (no Qt Charts)
  nlohmann-json3-dev libgtest-dev zlib1g-dev
  libisal-dev                   # gzip traces: ISA-L's inflate (zlib kept as the tests' reference)
  libsqlite3-dev                # Nsight Systems SQLite exports
  libprotobuf-dev protobuf-compiler  # PlaidML event logs
  libre2-dev                    # kernel classes and search: linear-time regular expressions
  python3                       # tools/make_sample_trace.py, bench/
  python3-dev pybind11-dev python3-numpy python3-pandas  # the Python module (python/: import opscope)
  python3-pytest                # its tests (tests/python)
  jupyter-nbconvert python3-ipykernel  # docs/notebooks run in the tests
  python3-distributed           # tools/opscope-cluster (Dask) and its test
  time                          # /usr/bin/time -v for peak RSS in bench/
  xvfb xauth                    # looking at the GUI headless
  openbox xdotool imagemagick   # a real window under a window manager, driven and photographed (tests/tools/real_window_test.sh)
  desktop-file-utils shared-mime-info  # checking the desktop entry and file types
  appstream lintian file groff-base    # checking the AppStream file, the .deb, icons, man pages
)

missing=()
for p in "${PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done

if [ ${#missing[@]} -eq 0 ]; then
  exit 0
fi

echo "install-deps: installing ${missing[*]}" >&2
SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
