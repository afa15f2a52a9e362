#!/usr/bin/env bash
# A real window under a window manager on a 1280x720 screen: Xvfb, openbox, the opscope
# window opened on a trace and driven with xdotool through the command palette (open
# the Analysis, the Prediction, Compare two iterations, Details). After each step the
# window must lie within the screen (it opened at 1400x900 and Compare grew a maximised
# window to 815 px on a 720 px screen) and the process must still run.
#   real_window_test.sh OPSCOPE TRACE [SCREENSHOT_DIR]
# Exit 77 (skipped) without Xvfb, openbox or xdotool (tools/install-deps.sh installs them).
set -u
opscope=$1 trace=$2 shots=${3:-}
for tool in Xvfb openbox xdotool; do
  command -v "$tool" >/dev/null || { echo "skipped: $tool is not installed (tools/install-deps.sh)"; exit 77; }
done
work=$(mktemp -d)
pids=()
cleanup() {
  for p in "${pids[@]}"; do kill "$p" 2>/dev/null; done
  wait 2>/dev/null
  rm -rf "$work"
}
trap cleanup EXIT
# A display nobody uses.
display=
for n in $(seq 91 140); do
  if [ ! -e /tmp/.X$n-lock ] && [ ! -e /tmp/.X11-unix/X$n ]; then display=:$n; break; fi
done
[ -n "$display" ] || { echo "no free X display number"; exit 1; }
export DISPLAY=$display
Xvfb "$display" -screen 0 1280x720x24 -nolisten tcp >"$work/xvfb.log" 2>&1 &
pids+=($!)
for _ in $(seq 50); do xdotool getdisplaygeometry >/dev/null 2>&1 && break; sleep 0.1; done
openbox --sm-disable >"$work/openbox.log" 2>&1 &
pids+=($!)
sleep 1
# A first start: no saved layout, no recent files (settings in a fresh folder).
XDG_CONFIG_HOME="$work/config" HOME="$work" QT_QPA_PLATFORM=xcb "$opscope" "$trace" >"$work/opscope.log" 2>&1 &
app=$!
pids+=($app)
window=$(timeout 30 xdotool search --sync --onlyvisible --class opscope | head -1)
[ -n "$window" ] || { echo "FAIL: no opscope window appeared"; cat "$work/opscope.log"; exit 1; }
sleep 2  # the trace loads, the window settles

failures=0
inside() {  # the window's client area and its title bar within 1280x720
  local what=$1 X Y WIDTH HEIGHT
  eval "$(xdotool getwindowgeometry --shell "$window" | grep -E '^(X|Y|WIDTH|HEIGHT)=')"
  if ! kill -0 "$app" 2>/dev/null; then
    echo "FAIL after $what: opscope exited"; cat "$work/opscope.log"; exit 1
  fi
  if [ "$X" -lt 0 ] || [ "$Y" -lt 0 ] || [ $((X + WIDTH)) -gt 1280 ] || [ $((Y + HEIGHT)) -gt 720 ]; then
    echo "FAIL after $what: window ${WIDTH}x${HEIGHT} at $X,$Y is not within the 1280x720 screen"
    failures=$((failures + 1))
  else
    echo "ok after $what: window ${WIDTH}x${HEIGHT} at $X,$Y"
  fi
  [ -z "$shots" ] || import -window root "$shots/$(echo "$what" | tr ' ' '_').png" 2>/dev/null
}
palette() {  # runs the command palette's best match for the words given
  xdotool windowactivate --sync "$window" 2>/dev/null
  xdotool key --clearmodifiers ctrl+shift+p
  sleep 0.6
  xdotool type --delay 15 "$1"
  sleep 0.4
  xdotool key Return
  sleep 2
}
[ -z "$shots" ] || mkdir -p "$shots"
inside "opening the trace"
palette "View Analysis"
inside "opening the Analysis"
palette "View Prediction"
inside "opening the Prediction"
palette "Compare two iterations"
inside "Compare two iterations"
palette "View Details"
inside "opening Details"
xdotool key --clearmodifiers ctrl+shift+m
sleep 1
inside "maximising the bottom panel"
[ "$failures" -eq 0 ] || exit 1
echo "the window stayed within the screen"
