#!/usr/bin/env python3
"""Rewrite a Kineto trace's CPU-side complete events (ph X) as B/E pairs, the way
Chrome-style tracers write them: for the parallel-load benchmark of begins left open
across the loader's cuts (bench/run_bench.sh). GPU events, flows and metadata stay as
they are; every event goes out in time order (metadata first), so a thread's outer
slices stay open across most of the file.

usage: to_begin_end.py IN.json OUT.json
"""
import heapq
import json
import sys

GPU_CATS = {"kernel", "gpu_memcpy", "gpu_memset", "gpu_user_annotation", "Kernel", "Memcpy", "Memset"}


def thread_sequence(events):
    """One thread's X events as (ts, event) B/E pairs, properly nested by a stack:
    a slice's E goes out before the next begin at or after its end."""
    out, stack = [], []
    for e in sorted(events, key=lambda e: (e["ts"], -e.get("dur", 0))):
        while stack and stack[-1][0] <= e["ts"]:
            end, pid, tid = stack.pop()
            out.append((end, {"ph": "E", "pid": pid, "tid": tid, "ts": end}))
        b = {k: v for k, v in e.items() if k != "dur"}
        b["ph"] = "B"
        out.append((e["ts"], b))
        end = round(e["ts"] + e.get("dur", 0), 3)
        # A child that ends after its parent cannot nest: it ends with the parent.
        if stack and end > stack[-1][0]:
            end = stack[-1][0]
        stack.append((end, e["pid"], e["tid"]))
    while stack:
        end, pid, tid = stack.pop()
        out.append((end, {"ph": "E", "pid": pid, "tid": tid, "ts": end}))
    return out


def main():
    src, dst = sys.argv[1], sys.argv[2]
    with open(src) as f:
        doc = json.load(f)
    meta, rest, threads = [], [], {}
    for e in doc["traceEvents"]:
        if "ts" not in e:
            meta.append(e)
        elif e.get("ph") == "X" and e.get("cat") not in GPU_CATS:
            threads.setdefault((e["pid"], e["tid"]), []).append(e)
        else:
            rest.append((e["ts"], e))
    seqs = [thread_sequence(evs) for evs in threads.values()]
    rest.sort(key=lambda p: p[0])
    merged = heapq.merge(*seqs, rest, key=lambda p: p[0])
    with open(dst, "w") as f:
        head = {k: v for k, v in doc.items() if k != "traceEvents"}
        f.write("{\n")
        for k, v in head.items():
            f.write(f"  {json.dumps(k)}: {json.dumps(v)},\n")
        f.write('  "traceEvents": [\n')
        first = True
        for e in meta:
            f.write(("" if first else ",\n") + "    " + json.dumps(e))
            first = False
        for _, e in merged:
            f.write(("" if first else ",\n") + "    " + json.dumps(e))
            first = False
        f.write("\n  ]\n}\n")


if __name__ == "__main__":
    main()
