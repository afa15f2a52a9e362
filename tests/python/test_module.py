"""opscope's Python module against the binary of the same build, on real traces."""
import gzip
import math
import os
import pickle
import signal
import subprocess
import sys
import threading

import numpy as np
import pandas as pd
import pytest

import opscope
from conftest import HTA_DATA, SAMPLE, SOURCE, run_binary, run_json, shared


@pytest.fixture(scope="module")
def sample():
    return opscope.load(SAMPLE)


def test_summary_equals_the_binarys(sample):
    assert sample.summary() == run_json("summary", "--json", SAMPLE)
    assert sample.summary(iterations=(1, 2)) == run_json("summary", "--json", "--iterations", "1:2", SAMPLE)


@pytest.mark.parametrize("name", ["alexnet_train_cuda.json.gz", "mi250_minitoy_train_rocm.json.gz",
                                  "recsys_rank0_cuda.json.gz", "rocprofv3_908_results.json.gz",
                                  "jax_conv_minimal_legacy.xplane.pb", "plaidml_mobilenet_eventlog.gz"])
def test_summary_and_events_on_other_tools_traces(name):
    path = shared(name)
    t = opscope.load(path)
    s = t.summary()
    assert s == run_json("summary", "--json", path)
    ev = t.events()
    assert len(ev) == s["slices"]
    kernels = t.kernels()
    assert len(kernels) == s["kernels"]
    gpu = t.kernels(copies=True)
    assert len(gpu) == s["gpu_events"]
    assert (gpu["correlation"] >= 0).sum() >= s["linked_gpu_events"] or s["linked_gpu_events"] == 0


def test_events_columns_agree_with_the_summary(sample):
    s = sample.summary()
    ev = sample.events()
    assert list(ev.columns[:13]) == ["name", "category", "pid", "tid", "track", "kind", "ts_us", "dur_us",
                                     "correlation", "stream", "device", "depth", "parent"]
    assert ev.index.name == "id" and ev.index.is_unique
    # top_kernels: total time per kernel name, as the summary sums it
    k = sample.kernels()
    totals = k.groupby("name", observed=True)["dur_ns"].sum().sort_values(ascending=False)
    for row in s["top_kernels"][:5]:
        assert totals[row["name"]] / 1000 == pytest.approx(row["total_us"], abs=1e-3)
    # streams: events and busy time per GPU stream track, as the summary counts them
    gpu = sample.kernels(copies=True)
    per = gpu.groupby(["pid", "tid"]).size()
    for st in s["streams"]:
        assert per[(st["pid"], st["tid"])] == st["events"]
    # ts_us and ts_ns are the same instant; parent is an id of the frame (or -1)
    assert np.allclose(ev["ts_us"], ev["ts_ns"] / 1000)
    parents = ev["parent"][ev["parent"] >= 0]
    assert parents.isin(ev.index).all()
    child = ev.loc[parents.index]
    par = ev.loc[parents.to_numpy()]
    assert (par["ts_ns"].to_numpy() <= child["ts_ns"].to_numpy()).all()
    assert ((par["ts_ns"] + par["dur_ns"]).to_numpy() >= (child["ts_ns"] + child["dur_ns"]).to_numpy()).all()


def test_events_filters(sample):
    ev = sample.events()
    k = sample.events(kind="kernel")
    assert (k["kind"] == "kernel").all() and len(k) == (ev["kind"] == "kernel").sum()
    both = sample.events(kind=["memcpy", "memset"])
    assert set(both["kind"].unique()) <= {"memcpy", "memset"}
    it = sample.iterations().iloc[3]
    w = sample.events(start_us=it.start_ns / 1000, end_us=it.end_ns / 1000)
    end = w["ts_ns"] + w["dur_ns"]
    assert len(w) < len(ev)
    assert ((w["ts_ns"] < it.end_ns) & ((end > it.start_ns) | (w["ts_ns"] >= it.start_ns))).all()
    outside = ev.drop(w.index)
    o_end = outside["ts_ns"] + outside["dur_ns"]
    assert ((outside["ts_ns"] >= it.end_ns) | (o_end <= it.start_ns)).all()
    with pytest.raises(opscope.TraceError) as e:
        sample.events(kind="kernels")
    assert e.value.exit_code == 2 and "kernel" in str(e.value)


def test_ops_iterations_and_args(sample):
    s = sample.summary()
    top = sample.ops()
    assert (top["kind"] == "cpu_op").all()
    every = sample.ops("all")
    assert len(top) < len(every)
    totals = top.groupby("name", observed=True)["dur_ns"].sum()
    for row in s["top_ops"][:5]:
        assert totals[row["name"]] / 1000 == pytest.approx(row["cpu_us"], abs=1e-3)
    its = sample.iterations()
    assert len(its) == s["iterations"]
    assert list(its["number"][:2]) == [100, 101]
    assert its["dur_us"].mean() == pytest.approx(s["iteration_us_mean"], rel=1e-9)
    k = sample.kernels().iloc[0]
    args = sample.args(k.name)
    assert args["correlation"] == k["correlation"] and args["stream"] == k["stream"]
    assert isinstance(args["grid"], list)
    with pytest.raises(opscope.TraceError):
        sample.args(10**9)


def test_tracks(sample):
    tracks = sample.tracks()
    ev = sample.events()
    assert ev["track"].max() < len(tracks)
    gpu = tracks[tracks["kind"] == "gpu_stream"]
    assert (gpu["stream"] >= 0).all()


@pytest.mark.parametrize("name", list(opscope.analyses()["name"]))
def test_every_analysis_equals_the_export(sample, name):
    assert sample.analysis(name, frames=False) == run_json("export", "--chart", name, "--format", "json",
                                                           "-o", "-", SAMPLE)


def test_analysis_by_iteration_and_frames(sample):
    assert sample.analysis("kernel-stats", iteration=2, frames=False) == run_json(
        "export", "--chart", "kernel-stats", "--format", "json", "--iteration", "2", "-o", "-", SAMPLE)
    framed = sample.analysis("kernel-stats")
    tables = [v for v in framed.values() if isinstance(v, pd.DataFrame)]
    assert tables and all(len(t) > 0 for t in tables)
    csv = sample.analysis_csv("kernel-stats")
    assert csv.splitlines()[0].count(",") >= 2
    assert set(opscope.analyses()["name"]) >= {"overview", "roofline", "memory"}
    with pytest.raises(opscope.TraceError) as e:
        sample.analysis("no-such-chart")
    assert e.value.exit_code == 2 and "overview" in str(e.value)
    with pytest.raises(opscope.TraceError) as e:
        sample.analysis("overview", iteration=999)
    assert e.value.exit_code == 4 and "no iteration 999" in str(e.value)


def test_predict_roofline_critical_path_advise_diff(sample):
    assert sample.predict(frames=False) == run_json("predict", "--json", SAMPLE)
    assert sample.predict("H100-SXM", frames=False) == run_json("predict", "--json", "--gpu", "H100-SXM", SAMPLE)
    assert sample.roofline(frames=False) == run_json("roofline", "--json", SAMPLE)
    assert sample.critical_path(iteration=1, frames=False) == run_json("critical-path", "--json", "--iteration", "1",
                                                                        SAMPLE)
    assert sample.advise(frames=False) == run_json("advise", "--json", SAMPLE)
    assert opscope.diff(sample, SAMPLE, iterations=(0, 2), iterations_b=(2, 2), frames=False) == run_json(
        "diff", "--json", "--iterations", "0:2", "--iterations-b", "2:2", SAMPLE)
    roof = sample.roofline()
    assert isinstance(roof["ops"], pd.DataFrame) and "at_stake_us" in roof["ops"].columns
    assert "H100-SXM" in set(opscope.gpus()["name"])
    with pytest.raises(opscope.TraceError) as e:
        sample.predict("no-such-gpu")
    assert e.value.exit_code == 2


HOSTILE = {
    "empty": b"",
    "one brace": b"{",
    "text": b"not a trace",
    "broken gzip": b"\x1f\x8b\x08\x00garbage",
    "huge number": b'{"traceEvents": [{"ph": "X", "ts": 1e400, "dur": "x"}',
    "deep nesting": b"[" * 100000,
    "binary": bytes(range(256)) * 64,
    "sqlite header only": b"SQLite format 3\x00" + b"\x00" * 84,
    "long kernel name": b'{"traceEvents": [{"name": "' + b"cudnn::detail::embedding" * 20000
    + b'", "ph": "X", "cat": "kernel", "ts": 1, "dur": 2, "pid": 0, "tid": 7}]}',
}


@pytest.mark.parametrize("label", list(HOSTILE))
def test_hostile_files_behave_as_the_binary(tmp_path, label):
    """Whatever the binary does with a hostile file, the module does too: the same
    one-line error and exit code as a TraceError, or a trace every analysis reads."""
    path = tmp_path / "hostile.json"
    path.write_bytes(HOSTILE[label])
    proc = run_binary("summary", str(path))
    if proc.returncode == 0:
        t = opscope.load(path)
        assert len(t.events()) == t.summary()["slices"]
        for name in opscope.analyses()["name"]:
            t.analysis(name, frames=False)  # a long kernel name goes through every classifier
        return
    with pytest.raises(opscope.TraceError) as e:
        opscope.load(path)
    assert e.value.exit_code == proc.returncode
    assert proc.stderr.decode().strip() == "opscope: " + str(e.value)  # the binary's line, same words
    assert "\n" not in str(e.value)
    assert pickle.loads(pickle.dumps(e.value)).exit_code == proc.returncode


def test_some_hostile_files_are_refused():
    # the comparison above must see both outcomes, or it proves little
    assert any(run_binary("summary", "-", input=HOSTILE[k]).returncode == 4 for k in ("text", "binary"))


def test_missing_file_and_folder_errors(tmp_path):
    with pytest.raises(opscope.TraceError) as e:
        opscope.load(tmp_path / "absent.json")
    assert e.value.exit_code == 3
    with pytest.raises(opscope.TraceError) as e:
        opscope.load(tmp_path)  # an empty folder: no rank traces
    assert e.value.exit_code in (3, 4)


def test_ranks_folder_and_list():
    folder = os.path.join(HTA_DATA, "ranks")
    files = sorted(os.path.join(folder, f) for f in os.listdir(folder))
    by_folder = opscope.load(folder)
    by_list = opscope.load_ranks(files)
    a, b = by_folder.summary(), by_list.summary()
    assert a.pop("file") == folder and b.pop("file").startswith(files[0])
    assert a == b
    tracks = by_list.tracks()
    assert set(tracks["rank"]) == {0, 1}
    assert len(by_list.kernels()) == sum(len(opscope.load(f).kernels()) for f in files)
    assert by_list.ranks_not_loaded == []


def test_execution_trace_loads_and_summarises():
    path = os.path.join(SOURCE, "tests", "data", "chakra", "chakra.0.et.gz")
    if not os.path.exists(path):
        pytest.skip("no Chakra fixture")
    t = opscope.load(path)
    assert t.is_execution_trace and t.format == "execution-trace"
    assert t.summary() == run_json("summary", "--json", path)
    with pytest.raises(opscope.TraceError) as e:
        t.events()
    assert "execution trace" in str(e.value)


def test_progress_callback_and_cancel(tmp_path):
    # a trace large enough for several progress calls (they come every few MiB)
    path = tmp_path / "big.json"
    events = ",".join('{"name":"k%d","ph":"X","cat":"kernel","ts":%d,"dur":1,"pid":0,"tid":7,'
                      '"args":{"stream":7,"correlation":%d}}' % (i % 50, i * 2, i) for i in range(200000))
    path.write_text('{"traceEvents":[' + events + "]}")
    calls = []
    t = opscope.load(path, progress=lambda done, total, n: calls.append((done, total, n)))
    assert len(t.kernels()) == 200000
    assert calls and calls[-1][1] == os.path.getsize(path)
    assert all(a[0] <= b[0] for a, b in zip(calls, calls[1:]))

    class Stop(Exception):
        pass

    def stop(done, total, n):
        raise Stop()

    with pytest.raises(Stop):
        opscope.load(path, progress=stop)


def test_ctrl_c_cancels_a_load(tmp_path):
    path = tmp_path / "big.json"
    events = ",".join('{"name":"k","ph":"X","cat":"kernel","ts":%d,"dur":1,"pid":0,"tid":7}' % i
                      for i in range(300000))
    path.write_text('{"traceEvents":[' + events + "]}")
    # SIGINT from another thread while the main thread loads with progress reporting on
    code = ("import opscope, os, signal, threading, sys\n"
            "calls = []\n"
            "def hook(d, t, n):\n"
            "    if not calls: os.kill(os.getpid(), signal.SIGINT)\n"
            "    calls.append(d)\n"
            "try:\n"
            f"    opscope.load({str(path)!r}, progress=hook)\n"
            "    print('loaded')\n"
            "except KeyboardInterrupt:\n"
            "    print('interrupted', len(calls))\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120,
                         env=os.environ.copy())
    assert out.stdout.startswith("interrupted"), out.stdout + out.stderr


def test_gil_is_released_while_loading():
    # a Python thread keeps running while another loads
    path = shared("recsys_rank0_cuda.json.gz")  # may skip: before any thread starts
    ticks = []
    stop = threading.Event()

    def tick():
        while not stop.is_set():
            ticks.append(1)
            stop.wait(0.001)

    th = threading.Thread(target=tick, daemon=True)  # never keeps the interpreter alive
    th.start()
    try:
        before = len(ticks)
        opscope.load(path)
        during = len(ticks) - before
    finally:
        stop.set()
        th.join()
    assert during > 5


def test_hta_helpers_on_htas_own_rank_traces():
    """HTA's figures for tests/data/hta/ranks (HTA f4d0062 run on the files, its default
    of leaving the last ProfilerStep out): equal (the trace's times are whole µs)."""
    folder = os.path.join(HTA_DATA, "ranks")
    t = opscope.load(folder)
    tb = t.temporal_breakdown()
    assert list(tb.columns) == ["rank", "idle_time(us)", "compute_time(us)", "non_compute_time(us)",
                                "kernel_time(us)", "idle_time_pctg", "compute_time_pctg", "non_compute_time_pctg"]
    hta = {0: (321378, 106252, 172428, 600058), 1: (328671, 135548, 136455, 600674)}
    for _, row in tb.iterrows():
        idle, comp, non, total = hta[row["rank"]]
        assert (row["idle_time(us)"], row["compute_time(us)"], row["non_compute_time(us)"],
                row["kernel_time(us)"]) == (idle, comp, non, total)
    ov = t.comm_comp_overlap()
    assert list(ov["comp_comm_overlap_pctg"]) == [11.81, 20.05]
    types, kernels = t.kernel_breakdown()
    got = dict(zip(types["kernel_type"], types["sum"]))
    for kind, us in {"COMMUNICATION": 305584, "COMPUTATION": 185023, "COMPUTATION overlapping COMMUNICATION": 56747,
                     "MEMORY": 2288, "COMMUNICATION overlapping MEMORY": 1011}.items():
        assert got[kind] == us
    assert list(kernels.columns) == ["name", "sum (us)", "max (us)", "min (us)", "stddev", "mean (us)",
                                     "kernel_type", "rank"]
    idle, stats = t.idle_time_breakdown(show_idle_interval_stats=True)
    assert list(idle.columns) == ["rank", "stream", "idle_category", "idle_time", "idle_time_ratio"]
    assert set(idle["idle_category"]) <= {"host_wait", "kernel_wait", "other"}
    s7 = idle[idle["stream"] == 7].set_index("idle_category")["idle_time"]
    # HTA rounds each gap's ends to whole µs: tens of µs over stream 7's ~2,000 gaps
    assert s7["host_wait"] == pytest.approx(213825, rel=2e-4)
    assert s7["other"] == pytest.approx(261740, rel=2e-4)
    assert stats is not None and "stream" in stats.columns
    # keeping the last step changes the figures (the flag is applied)
    assert t.temporal_breakdown(include_last_profiler_step=True)["kernel_time(us)"][0] > 1.2e6


def test_hta_helpers_on_a_trace_with_whole_microseconds():
    """recsys_rank0_cuda has µs timestamps: HTA's figures (computed by HTA f4d0062)
    are matched exactly."""
    t = opscope.load(shared("recsys_rank0_cuda.json.gz"))
    row = t.temporal_breakdown().iloc[0]
    assert (row["idle_time(us)"], row["compute_time(us)"], row["non_compute_time(us)"], row["kernel_time(us)"]) == (
        705853, 143836, 166865, 1016554)
    assert t.comm_comp_overlap()["comp_comm_overlap_pctg"][0] == 1.37
    types, _ = t.kernel_breakdown()
    got = dict(zip(types["kernel_type"], types["sum"]))
    assert got["COMPUTATION"] == 138794 and got["COMMUNICATION"] == 134025 and got["MEMORY"] == 32246


def test_threads_share_a_trace(sample):
    results = []

    def work():
        results.append(sample.analysis("overview", frames=False)["gpu_active_us"])

    threads = [threading.Thread(target=work) for _ in range(4)]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    assert len(results) == 4 and len(set(results)) == 1


def test_rank_metrics_and_load_properties(sample, capsys):
    want = run_json("summary", "--json", "--rank-metrics", SAMPLE)
    assert sample.summary(rank_metrics=True) == want
    assert sample.rank_metrics() == want["rank_metrics"]
    assert sample.format == "kineto-json" and not sample.is_execution_trace
    parse, hierarchy = sample.load_seconds
    assert parse > 0 and hierarchy >= 0
    assert repr(sample).startswith("<opscope.Trace ")
    opscope.load(SAMPLE, progress=True)
    assert "opscope: 100.0 %" in capsys.readouterr().err


def test_arguments_are_checked_as_the_binary_checks_options(sample, tmp_path):
    for call in (lambda: sample.summary(iterations=(0, 0)), lambda: sample.summary(iterations=-1),
                 lambda: sample.analysis("overview", iteration=-1), lambda: sample.analysis("overview", top=-1),
                 lambda: sample.critical_path(instance=-1), lambda: sample.roofline(iteration=-1),
                 lambda: sample.analysis("overview", batch_size=0), lambda: sample.analysis(5),
                 lambda: sample.events(start_us="soon"), lambda: opscope.diff(sample, sample, iterations=-1)):
        with pytest.raises(opscope.TraceError) as e:
            call()
        assert e.value.exit_code == 2, e.value
    with pytest.raises(ValueError):
        opscope.load(SAMPLE + "\0junk")
    with pytest.raises(TypeError):
        opscope.load(SAMPLE, progress=5)
    # an infinite bound is no bound; a huge one is clamped
    assert len(sample.events(end_us=float("inf"))) == len(sample.events())
    assert len(sample.events(start_us=-1e30, end_us=1e30)) == len(sample.events())


def test_time_bounds_in_ns_are_exact_and_the_origin_is_exposed(sample):
    k = sample.kernels().iloc[10]
    end = int(k.ts_ns + k.dur_ns)
    after = sample.events(kind="kernel", start_ns=end, end_ns=end + 50_000)
    assert k.name not in after.index  # it ends where the window starts: [start, end) excludes it
    assert k.name in sample.events(kind="kernel", start_ns=end - 1, end_ns=end + 50_000).index
    assert k.name not in sample.events(kind="kernel", start_ns=0, end_ns=int(k.ts_ns)).index
    # reports' relative times + start_us = the events' clock
    first = sample.summary()["iteration_list"][0]
    its = sample.iterations()
    assert sample.start_ns + round(first["start_us"] * 1000) == its["start_ns"][0]
    assert sample.start_us == pytest.approx(sample.start_ns / 1000)


def test_frames_dtypes_are_what_a_notebook_expects(sample):
    ev = sample.events()
    assert ev["pid"].dtype == np.int64 and ev["tid"].dtype == np.int64
    assert set(ev["kind"].cat.categories) == set(ev["kind"].unique())  # no empty categories
    assert (ev["rank"] == -1).all()  # one trace without distributedInfo
    k = sample.kernels()
    assert list(k["kind"].cat.categories) == ["kernel"]
    tracks = sample.tracks()
    text_ids = tracks[tracks["pid"] == -1]
    assert (text_ids["pid_text"] != "-1").all()


def test_empty_tables_are_empty_frames():
    t = opscope.load(os.path.join(HTA_DATA, "cpu_only_gloo.json.gz"))  # no GPU at all
    streams = t.analysis("breakdown")["streams"]
    assert isinstance(streams, pd.DataFrame) and len(streams) == 0
    assert list(streams.reindex(columns=["name", "time_us"]).columns) == ["name", "time_us"]


def test_paths_that_are_not_utf8(tmp_path):
    raw = os.fsencode(str(tmp_path)) + b"/n\xff\xfeame.json.gz"
    with open(SAMPLE, "rb") as src, open(raw, "wb") as dst:
        dst.write(src.read())
    by_str = opscope.load(os.fsdecode(raw))
    by_bytes = opscope.load(raw)
    assert os.fsencode(by_str.path) == raw and os.fsencode(by_bytes.path) == raw
    assert "ame.json.gz" in repr(by_bytes)
    assert by_str.summary()["kernels"] == by_bytes.summary()["kernels"] > 0
    with pytest.raises(opscope.TraceError) as e:
        opscope.load(os.fsencode(str(tmp_path)) + b"/missing\xff.json")
    assert e.value.exit_code == 3 and "missing" in str(e.value)


def test_hta_helpers_keep_ns_sums_exact_and_row_statistics_honest(tmp_path):
    # Epoch-µs timestamps with ns digits and no communication kernel: a missing kernel
    # type must not send the sweep through float64 (256 ns steps at 1.7e18 ns).
    path = tmp_path / "epoch.json"
    events = ",".join('{"name":"gemm","ph":"X","cat":"kernel","ts":%d.%03d,"dur":3.457,"pid":0,"tid":7,'
                      '"args":{"stream":7}}' % (1712196118348180 + 10 * i, i % 1000) for i in range(100))
    path.write_text('{"traceEvents":[' + events + "]}")
    types, _ = opscope.load(path).kernel_breakdown(include_memory_kernels=False)
    assert list(types["kernel_type"]) == ["COMPUTATION"]
    assert types["sum"][0] == pytest.approx(345.7, abs=1e-9)
    t = opscope.load(os.path.join(HTA_DATA, "ranks", "sampled_rank-0.json.gz"))
    types, kernels = t.kernel_breakdown(include_memory_kernels=False, include_last_profiler_step=True)
    ev = t.kernels(copies=True)
    for _, row in kernels[kernels["name"] != "others"].head(5).iterrows():
        durs = ev[ev["name"] == row["name"]]["dur_us"]
        assert row["max (us)"] == pytest.approx(durs.max()) and row["sum (us)"] == pytest.approx(durs.sum())
    with pytest.raises(opscope.TraceError):
        t.idle_time_breakdown(rank=7)


def test_load_ranks_takes_a_glob():
    by_glob = opscope.load_ranks(os.path.join(HTA_DATA, "ranks", "sampled_rank-*.json.gz"))
    assert set(by_glob.tracks()["rank"]) == {0, 1}
    with pytest.raises(opscope.TraceError):
        opscope.load_ranks(os.path.join(HTA_DATA, "ranks", "nothing-*.json.gz"))
