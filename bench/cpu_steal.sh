# Sourced by the benches: the share of CPU time the hypervisor took from this VM (steal,
# from /proc/stat) over a stretch of runs, so that a figure can be read against how busy
# the host was. The same command runs 20-40 % slower in some hours than in others; some
# of those hours show steal (a third of the CPU once), others show none (0-3 % on
# 2026-11-29, when `summary` of 1 GB took 1.6 s against 1.2 s), so a low figure here
# does not make a slow run a fair one. On bare metal, or without /proc/stat, it says 0 %.
#
#   steal_mark            # start a stretch
#   steal_pct             # the stolen share since the mark, in whole percent

# steal and total jiffies of all CPUs, from the "cpu" line of /proc/stat.
_steal_read() {
  awk '/^cpu / {t=0; for (i=2;i<=NF;i++) t+=$i; print $9+0, t; exit}' /proc/stat 2>/dev/null || echo "0 0"
}

steal_mark() { read -r _STEAL0 _TOTAL0 < <(_steal_read); }

steal_pct() {
  local s t
  read -r s t < <(_steal_read)
  awk -v s=$((s - ${_STEAL0:-0})) -v t=$((t - ${_TOTAL0:-0})) 'BEGIN {printf "%d", (t > 0) ? 100 * s / t + 0.5 : 0}'
}
