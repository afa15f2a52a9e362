#!/usr/bin/env python3
"""Independent reference for the `opscope summary --json` contract keys.

Written from the issue's definitions with Python's json module and exact Decimal
arithmetic (no code shared with opscope), so the tests can compare two
implementations. Usage: reference_summary.py TRACE[.gz]  -> JSON on stdout.
"""
import collections
import decimal
import gzip
import json
import re
import sys

GPU_CATS = {"kernel", "gpu_memcpy", "gpu_memset", "Kernel", "Memcpy", "Memset"}
KERNEL_CATS = {"kernel", "Kernel"}
LAUNCH_CATS = {"cuda_runtime", "cuda_driver", "Runtime"}
OP_CATS = {"cpu_op", "Operator"}
STEP = re.compile(r"^ProfilerStep#\d+$")


def ns(v):
    """µs value (parsed as Decimal) -> integer ns, half away from zero."""
    return int((decimal.Decimal(v) * 1000).to_integral_value(rounding=decimal.ROUND_HALF_UP))


def us(n):
    return float(decimal.Decimal(n) / 1000)


def load(path):
    with open(path, "rb") as f:
        head = f.read(2)
    opener = gzip.open if head == b"\x1f\x8b" else open
    with opener(path, "rb") as f:
        data = json.loads(f.read(), parse_float=decimal.Decimal)
    return data["traceEvents"] if isinstance(data, dict) else data


def main(path):
    events = [e for e in load(path) if isinstance(e, dict) and e.get("ph") == "X" and "ts" in e]
    for e in events:
        e["_s"] = ns(e["ts"])
        e["_e"] = e["_s"] + max(0, ns(e.get("dur", 0)))
    gpu = [e for e in events if e.get("cat") in GPU_CATS]
    launches = [e for e in events if e.get("cat") in LAUNCH_CATS]
    launch_corr = {e.get("args", {}).get("correlation") for e in launches} - {None}
    linked = [g for g in gpu if g.get("args", {}).get("correlation") in launch_corr]

    steps = [e for e in events if STEP.match(str(e.get("name", ""))) and e.get("cat") != "gpu_user_annotation"]

    by_stream = collections.defaultdict(list)
    for g in gpu:
        by_stream[(g["pid"], g["tid"])].append((g["_s"], g["_e"]))
    streams = []
    for (pid, tid), iv in by_stream.items():
        iv.sort()
        busy, cs, ce = 0, None, None
        for s, e in iv:
            if cs is None or s > ce:
                if cs is not None:
                    busy += ce - cs
                cs, ce = s, e
            else:
                ce = max(ce, e)
        if cs is not None:
            busy += ce - cs
        streams.append({"pid": pid, "tid": tid, "events": len(iv), "busy_us": us(busy)})
    streams.sort(key=lambda r: -r["busy_us"])

    kern = collections.defaultdict(lambda: [0, 0])
    for g in gpu:
        if g.get("cat") in KERNEL_CATS:
            kern[g["name"]][0] += 1
            kern[g["name"]][1] += g["_e"] - g["_s"]
    top_kernels = sorted(({"name": n, "count": c, "total_us": us(t)} for n, (c, t) in kern.items()),
                         key=lambda r: (-r["total_us"], r["name"]))[:10]

    # Top-level ops: outermost cpu_op/Operator per (pid, tid) by containment among themselves.
    gpu_of_corr = collections.defaultdict(int)
    for g in linked:
        gpu_of_corr[g["args"]["correlation"]] += g["_e"] - g["_s"]
    ops_by_thread = collections.defaultdict(list)
    for e in events:
        if e.get("cat") in OP_CATS:
            ops_by_thread[(e["pid"], e["tid"])].append(e)
    launches_by_thread = collections.defaultdict(list)
    for l in launches:
        launches_by_thread[(l["pid"], l["tid"])].append(l)
    totals = collections.defaultdict(lambda: [0, 0, 0])
    for key, ops in ops_by_thread.items():
        ops.sort(key=lambda e: (e["_s"], -(e["_e"] - e["_s"])))
        tops = []
        for e in ops:
            if any(t["_s"] <= e["_s"] and e["_e"] <= t["_e"] for t in tops[-8:]):
                continue
            tops.append(e)
        for t in tops:
            g = 0
            for l in launches_by_thread.get(key, []):
                if t["_s"] <= l["_s"] and l["_e"] <= t["_e"]:
                    g += gpu_of_corr.get(l.get("args", {}).get("correlation"), 0)
            r = totals[t["name"]]
            r[0] += 1
            r[1] += t["_e"] - t["_s"]
            r[2] += g
    top_ops = sorted(({"name": n, "count": c, "cpu_us": us(cpu), "gpu_us": us(g)} for n, (c, cpu, g) in totals.items()),
                     key=lambda r: (-r["gpu_us"], -r["cpu_us"], r["name"]))[:10]

    out = {
        "kernels": sum(1 for g in gpu if g.get("cat") in KERNEL_CATS),
        "gpu_events": len(gpu),
        "linked_gpu_events": len(linked),
        "iterations": len(steps),
        "iteration_us_mean": us(sum(e["_e"] - e["_s"] for e in steps)) / len(steps) if steps else None,
        "streams": streams,
        "top_kernels": top_kernels,
        "top_ops": top_ops,
    }
    json.dump(out, sys.stdout, indent=1)


if __name__ == "__main__":
    main(sys.argv[1])
