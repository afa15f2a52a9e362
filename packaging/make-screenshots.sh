#!/usr/bin/env bash
# Renders the pictures of docs/images/ (README, AppStream screenshots) from the bundled
# sample with the app's own --screenshot mode, so they always show the current window.
#   packaging/make-screenshots.sh [OPSCOPE_BINARY]   (default build/release/app/opscope)
set -euo pipefail
cd "$(dirname "$0")/.."
opscope=${1:-build/release/app/opscope}
sample=resources/sample/sample.pt.trace.json.gz
export QT_QPA_PLATFORM=offscreen
mkdir -p docs/images
"$opscope" --screenshot docs/images/opscope.png --size 1400x1100 --analysis op-kernels "$sample"
"$opscope" --screenshot docs/images/prediction.png --size 1400x1200 --prediction --gpu A100-SXM4-80GB --compare H100-SXM "$sample"
"$opscope" --screenshot docs/images/critical-path.png --size 1400x1000 --analysis critical-path --iteration 1 "$sample"
ls -l docs/images/*.png
