#!/usr/bin/env python3
"""Scaling of parallel JSON loading with the number of threads.

    python3 bench/load_scaling.py BIN FILE [--threads 1,2,4,8,16] [--runs 5]

Runs `BIN summary --json --timing FILE` with OPSCOPE_LOAD_THREADS set to each count,
RUNS times back to back, and prints per count the median wall time, the median parse
time (--timing's "parse", reading and building the model, before the hierarchy pass),
the parts the file was cut into and the peak RSS (os.wait4's ru_maxrss). The summary's
JSON must be byte-identical for every count: a difference stops the run (exit 1).
Needs nothing but Python 3, so it runs on machines without the build's tools.
"""
import argparse
import hashlib
import os
import re
import statistics
import subprocess
import sys
import time


def run_once(binary, path, threads):
    env = dict(os.environ, OPSCOPE_LOAD_THREADS=str(threads))
    t0 = time.perf_counter()
    proc = subprocess.Popen([binary, "summary", "--json", "--timing", path], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, env=env)
    out, err = proc.communicate()
    wall = time.perf_counter() - t0
    if proc.returncode != 0:
        sys.exit(f"load_scaling: {binary} failed with {threads} threads: {err.decode(errors='replace')[:400]}")
    m = re.search(r"parse ([0-9.]+) s \((\d+) part", err.decode())
    parse = float(m.group(1)) if m else float("nan")
    parts = int(m.group(2)) if m else 0
    return wall, parse, parts, hashlib.sha256(out).hexdigest()


def peak_rss_mib(binary, path, threads):
    env = dict(os.environ, OPSCOPE_LOAD_THREADS=str(threads))
    pid = os.fork()
    if pid == 0:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, 1)
        os.dup2(devnull, 2)
        os.execve(binary, [binary, "summary", "--json", path], env)
    _, status, usage = os.wait4(pid, 0)
    if status != 0:
        sys.exit(f"load_scaling: {binary} exited with status {status}")
    return usage.ru_maxrss / 1024.0


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("binary")
    ap.add_argument("file")
    ap.add_argument("--threads", default="1,2,4,8,16")
    ap.add_argument("--runs", type=int, default=5)
    a = ap.parse_args()
    counts = [int(t) for t in a.threads.split(",")]
    size_mb = os.path.getsize(a.file) / 1e6
    print(f"# {a.file}: {size_mb:.0f} MB, {os.cpu_count()} cores, medians of {a.runs} runs")
    print("| threads | parts | wall s (median, min-max) | parse s | speed-up (wall) | peak RSS MiB |")
    print("|---|---|---|---|---|---|")
    base = None
    digest = None
    for t in counts:
        runs = [run_once(a.binary, a.file, t) for _ in range(a.runs)]
        walls = [r[0] for r in runs]
        for r in runs:
            if digest is None:
                digest = r[3]
            elif r[3] != digest:
                sys.exit(f"load_scaling: the summary with {t} threads differs from the first run's")
        wall = statistics.median(walls)
        base = base or wall
        rss = peak_rss_mib(a.binary, a.file, t)
        print(f"| {t} | {runs[0][2]} | {wall:.3f} ({min(walls):.3f}-{max(walls):.3f}) | "
              f"{statistics.median(r[1] for r in runs):.3f} | {base / wall:.2f}x | {rss:.0f} |", flush=True)


if __name__ == "__main__":
    main()
