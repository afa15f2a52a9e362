#!/usr/bin/python3
"""opscope-cluster on a LocalCluster of 2 workers over 64 generated rank traces, one of
them slowed on purpose and one corrupt; then `opscope summary` over the folder and over
the table the cluster wrote.

Checks: every line of the table equals `opscope summary --json FILE` of its trace (plus
host and seconds); the corrupt trace is an error line with its rank, not a lost run; the
multi-rank summary of the folder and of the table name the slowed rank, and only it, as
the straggler; each rank's object in the folder's summary equals the single-file summary.

    cluster_test.py --opscope BIN --cluster tools/opscope-cluster --generator GEN.py
Exit 77 (skipped) without Dask distributed or the generator.
"""
import argparse
import gzip
import json
import os
import subprocess
import sys
import tempfile

SLOW_RANK, CORRUPT_RANK, RANKS, STRETCH = 5, 9, 64, 1.3


def fail(message):
    print("FAIL: " + message, file=sys.stderr)
    sys.exit(1)


def slow_down(path, factor):
    """Stretches a rank's whole timeline: every timestamp from the first, every duration."""
    with gzip.open(path, "rt") as f:
        trace = json.load(f)
    events = trace["traceEvents"]
    t0 = min(e["ts"] for e in events if isinstance(e.get("ts"), (int, float)))
    for e in events:
        if isinstance(e.get("ts"), (int, float)):
            e["ts"] = t0 + (e["ts"] - t0) * factor
        if isinstance(e.get("dur"), (int, float)):
            e["dur"] = e["dur"] * factor
    with gzip.open(path, "wt") as f:
        json.dump(trace, f)


def single_summary(opscope, path, *extra):
    proc = subprocess.run([opscope, "summary", "--json", *extra, path], stdout=subprocess.PIPE, check=True)
    return json.loads(proc.stdout)


def run_cluster(args, *extra, cwd=None, timeout=300):
    return subprocess.run(["/usr/bin/python3", args.cluster, *extra], stdout=subprocess.PIPE,
                          stderr=subprocess.PIPE, cwd=cwd, timeout=timeout)


def check_edges(args, tmp, traces):
    """Relative paths, a missing file, an unreachable scheduler, no worker left, the
    binary not found, and the partial log: each a line, never a hang or a traceback."""
    # Relative paths are made absolute before they travel (they failed on every remote worker).
    table = os.path.join(tmp, "rel.jsonl")
    run = run_cluster(args, "--local-workers", "1", "--opscope", args.opscope, "--quiet", "-o", table,
                      os.path.join("traces", "job_rank0.json.gz"), "missing_rank1.json", cwd=tmp)
    if run.returncode != 1:
        fail(f"relative paths: exit {run.returncode}, 1 expected (one file is missing): {run.stderr.decode()[-1500:]}")
    with open(table) as f:
        lines = [json.loads(line) for line in f if line.strip()]
    if "error" in lines[0] or not os.path.isabs(lines[0]["file"]):
        fail(f"a relative path was not made absolute or failed: {lines[0]}")
    missing = lines[1]["error"]
    if missing.count("missing_rank1.json") > 1 or missing.startswith("opscope:"):
        fail(f"the missing file's message repeats its prefix: {missing!r}")
    # An unreachable scheduler: one line, fast (48 lines of traceback after 30 s before).
    run = run_cluster(args, "--scheduler", "tcp://127.0.0.1:9", "--connect-timeout", "3", "--opscope", args.opscope,
                      "-o", os.path.join(tmp, "x.jsonl"), traces, timeout=60)
    err = run.stderr.decode().strip().splitlines()
    if run.returncode != 1 or not err or "cannot reach the scheduler" not in err[-1] or \
            "Traceback" in run.stderr.decode():
        fail(f"unreachable scheduler: exit {run.returncode}, stderr {err[-5:]}")
    # A scheduler with no worker: a one-line error after --worker-wait, not a silent wait.
    from distributed import LocalCluster
    with LocalCluster(n_workers=0, dashboard_address=None, processes=True, protocol="tcp") as empty:
        out = os.path.join(tmp, "noworker.jsonl")
        run = run_cluster(args, "--scheduler", empty.scheduler_address, "--worker-wait", "3", "--opscope",
                          args.opscope, "--quiet", "-o", out, traces, timeout=120)
        err = run.stderr.decode().strip().splitlines()
        if run.returncode != 1 or not err or "no worker for 3 s" not in err[-1] or not os.path.exists(out) or \
                "Traceback" in run.stderr.decode():
            fail(f"no worker: exit {run.returncode}, stderr {err[-5:]}")
    # The report asyncio prints when an abandoned timed wait's future is collected (it came
    # after the one line above, at exit, on a loaded machine) is dropped, and only it: a
    # future left with another exception is still reported.
    probe = (
        "import asyncio, gc, importlib.machinery, importlib.util, logging\n"
        f"loader = importlib.machinery.SourceFileLoader('oc', {args.cluster!r})\n"
        "spec = importlib.util.spec_from_loader('oc', loader)\n"
        "oc = importlib.util.module_from_spec(spec)\n"
        "loader.exec_module(oc)\n"
        "logging.getLogger('asyncio').addFilter(oc.drop_abandoned_timeouts)\n"
        "loop = asyncio.new_event_loop()\n"
        "for exc in (TimeoutError('Timeout'), asyncio.TimeoutError(), ValueError('kept')):\n"
        "    f = loop.create_future(); f.set_exception(exc); del f; gc.collect()\n")
    run = subprocess.run(["/usr/bin/python3", "-c", probe], stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=60)
    err = run.stderr.decode()
    if run.returncode != 0 or err.count("never retrieved") != 1 or "ValueError: kept" not in err:
        fail(f"abandoned-timeout filter: exit {run.returncode}, stderr {err[-800:]}")
    # No binary anywhere: the places looked at are named.
    lonely = os.path.join(tmp, "lonely")
    os.mkdir(lonely)
    script = os.path.join(lonely, "opscope-cluster")
    with open(args.cluster) as src, open(script, "w") as dst:
        dst.write(src.read())
    run = subprocess.run(["/usr/bin/python3", script, "--local-workers", "1", "-o", os.path.join(tmp, "y.jsonl"),
                          traces], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                         env={"PATH": "/nonexistent", "HOME": tmp}, timeout=120)
    err = run.stderr.decode()
    have_installed = any(os.access(p, os.X_OK) for p in ("/usr/bin/opscope", "/usr/local/bin/opscope"))
    if not have_installed and (run.returncode != 2 or "looked at" not in err or lonely not in err):
        fail(f"no binary: exit {run.returncode}, stderr {err[-500:]}")
    # A worker that dies running a task: --retries decides how often it is tried again
    # (Dask's allowed-failures; before, --retries only covered exceptions and a death
    # was retried three times whatever it said). The wrapper kills its worker the first
    # time only.
    wrapper = os.path.join(tmp, "dying_opscope")
    marker = os.path.join(tmp, "died_once")
    with open(wrapper, "w") as f:
        f.write(f"#!/bin/sh\nif [ ! -e {marker} ]; then touch {marker}; kill -9 $PPID; sleep 5; fi\n"
                f"exec {args.opscope} \"$@\"\n")
    os.chmod(wrapper, 0o755)
    one = os.path.join(traces, "job_rank0.json.gz")
    for retries, want_error in (("0", True), ("1", False)):
        if os.path.exists(marker):
            os.remove(marker)
        out = os.path.join(tmp, f"retries{retries}.jsonl")
        run = run_cluster(args, "--local-workers", "1", "--retries", retries, "--opscope", wrapper, "--quiet",
                          "-o", out, one, timeout=180)
        with open(out) as f:
            line = json.loads(f.readline())
        if ("error" in line) != want_error:
            fail(f"--retries {retries} with a worker dying once: {line.get('error', 'a summary')}, exit {run.returncode}")
    # The partial log an interrupted run leaves is read, with a warning.
    partial = os.path.join(tmp, "cut.jsonl.partial")
    with open(table) as f, open(partial, "w") as g:
        g.write(f.readline())
        g.write('{"rank": 7, "file": "cut')  # the line being written when the run died
    proc = subprocess.run([args.opscope, "summary", "--json", partial], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    if proc.returncode != 0 or "partial log" not in proc.stderr.decode():
        fail(f"summary of a partial log: exit {proc.returncode}, {proc.stderr.decode()}")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--opscope", required=True)
    ap.add_argument("--cluster", required=True)
    ap.add_argument("--generator", required=True)
    args = ap.parse_args()
    try:
        import distributed  # noqa: F401
    except ImportError:
        print("SKIP: Dask distributed is not installed (python3-distributed)")
        return 77
    if not os.path.exists(args.generator):
        print("SKIP: " + args.generator + " is absent")
        return 77

    with tempfile.TemporaryDirectory() as tmp:
        traces = os.path.join(tmp, "traces")
        os.mkdir(traces)
        subprocess.run([sys.executable, args.generator, "--out", os.path.join(traces, "job.json"), "--events", "2500",
                        "--ranks", str(RANKS), "--gzip"], check=True, stdout=subprocess.DEVNULL,
                        stderr=subprocess.DEVNULL)
        slow_down(os.path.join(traces, f"job_rank{SLOW_RANK}.json.gz"), STRETCH)
        corrupt = os.path.join(traces, f"job_rank{CORRUPT_RANK}.json.gz")
        with open(corrupt, "wb") as f:
            f.write(b"\x00\x01 this is not a trace\n")

        # The module engine when the build has the Python module (no binary per trace), the
        # binary otherwise; both must write the same table.
        have_module = os.path.isfile(os.path.join(os.path.dirname(args.cluster), "..", "build", "release", "python",
                                                  "opscope", "__init__.py"))
        engine = "module" if have_module else "binary"
        table = os.path.join(tmp, "ranks.jsonl")
        run = subprocess.run([sys.executable, args.cluster, "--local-workers", "2", "--engine", engine,
                              "--quiet", "-o", table, traces], stderr=subprocess.PIPE)
        if run.returncode != 1:
            fail(f"opscope-cluster exited {run.returncode} (1 expected: one trace is corrupt): {run.stderr.decode()[-2000:]}")
        if os.path.exists(table + ".partial"):
            fail("the partial log was left behind")
        with open(table) as f:
            lines = [json.loads(line) for line in f if line.strip()]
        if len(lines) != RANKS:
            fail(f"{len(lines)} lines for {RANKS} traces")
        if [line["rank"] for line in lines] != list(range(RANKS)):
            fail("lines are not one per rank in rank order")
        for line in lines:
            if line["rank"] == CORRUPT_RANK:
                if "error" not in line or line["file"] != corrupt:
                    fail(f"the corrupt trace's line has no error: {line}")
                continue
            if "error" in line:
                fail(f"rank {line['rank']} failed: {line['error']}")
            for key in ("host", "seconds"):
                if key not in line:
                    fail(f"rank {line['rank']} has no {key}")
            if line.get("engine") != engine:
                fail(f"rank {line['rank']} was read by {line.get('engine')}, not {engine}")
            got = {k: v for k, v in line.items() if k not in ("host", "seconds", "engine")}
            want = single_summary(args.opscope, line["file"], "--rank-metrics")
            if got != want:
                diff = sorted(k for k in set(got) | set(want) if got.get(k) != want.get(k))
                fail(f"rank {line['rank']}: the table's line differs from summary --json in {diff}")

        for source in (table, traces):
            proc = subprocess.run([args.opscope, "summary", "--json", source], stdout=subprocess.PIPE,
                                  stderr=subprocess.PIPE)
            if proc.returncode != 0:
                fail(f"summary --json {source} exited {proc.returncode}: {proc.stderr.decode()}")
            multi = json.loads(proc.stdout)
            if multi["format"] != "multi-rank" or multi["world_size"] != RANKS or len(multi["ranks"]) != RANKS:
                fail(f"{source}: format/world_size/ranks wrong")
            if multi["failed_ranks"] != 1 or "error" not in multi["ranks"][CORRUPT_RANK]:
                fail(f"{source}: the corrupt rank is not reported as failed")
            stragglers = [s["rank"] for s in multi["stragglers"]]
            if stragglers != [SLOW_RANK]:
                fail(f"{source}: stragglers {stragglers}, expected [{SLOW_RANK}]")
            excess = multi["stragglers"][0]["excess_pct"]
            if not (STRETCH - 1) * 100 * 0.7 < excess < (STRETCH - 1) * 100 * 1.3:
                fail(f"{source}: the slowed rank is {excess:.1f} % over the median, not about {(STRETCH - 1) * 100:.0f} %")
            if len(multi["iteration_us"]) != RANKS or multi["iteration_us"][CORRUPT_RANK] != []:
                fail(f"{source}: iteration_us is not one row per rank")
            # The table route keeps the clock alignment and the collective waits (it dropped both).
            if multi["clock_alignment"] is None or multi["clock_alignment"]["method"] != "collectives":
                fail(f"{source}: the ranks' clocks were not aligned at their collectives")
            if not multi.get("collectives") or len(multi["collectives"]) != RANKS - 1:
                fail(f"{source}: no collective waits per rank")
            if source == traces:
                for entry in multi["ranks"]:
                    if "error" in entry:
                        continue
                    if entry != single_summary(args.opscope, entry["file"]):
                        fail(f"rank {entry['rank']}: the folder's entry differs from summary --json of its file")
        table_multi = json.loads(subprocess.run([args.opscope, "summary", "--json", table], stdout=subprocess.PIPE,
                                                check=True).stdout)
        folder_multi = json.loads(subprocess.run([args.opscope, "summary", "--json", traces], stdout=subprocess.PIPE,
                                                 check=True).stdout)
        if table_multi["collectives"] != folder_multi["collectives"] or \
                table_multi["clock_alignment"] != folder_multi["clock_alignment"]:
            fail("the table's collective waits or clock alignment differ from the folder's")
        if have_module:
            # The binary route writes the same table, line by line.
            by_binary = os.path.join(tmp, "ranks_binary.jsonl")
            subprocess.run([sys.executable, args.cluster, "--local-workers", "2", "--engine", "binary",
                            "--opscope", args.opscope, "--quiet", "-o", by_binary, traces], stderr=subprocess.PIPE)
            strip = lambda line: {k: v for k, v in line.items() if k not in ("host", "seconds", "engine")}
            with open(by_binary) as f:
                binary_lines = [strip(json.loads(line)) for line in f if line.strip()]
            if binary_lines != [strip(line) for line in lines]:
                fail("the module's table differs from the binary's")
            # A time-out cancels the module's load (no process to kill): an error line.
            slow = os.path.join(tmp, "timeout.jsonl")
            run = run_cluster(args, "--local-workers", "1", "--engine", "module", "--timeout", "0", "--quiet",
                              "-o", slow, os.path.join(traces, "job_rank0.json.gz"))
            with open(slow) as f:
                line = json.loads(f.readline())
            if run.returncode != 1 or "timed out after 0 s" not in line.get("error", ""):
                fail(f"a module load past --timeout: exit {run.returncode}, {line}")
        check_edges(args, tmp, traces)
    print("ok: 64 ranks, 1 corrupt, straggler found through the cluster table and the folder; edges hold")
    return 0


if __name__ == "__main__":
    sys.exit(main())
