"""opscope from Python: the engine of the opscope binary (the same loaders, columnar
model and reports) without a subprocess or a JSON round trip for the events.

    import opscope
    t = opscope.load("trace.json.gz")
    t.summary()["kernels"]          # == opscope summary --json
    t.events(kind="kernel")         # a pandas DataFrame from the columns
    t.analysis("overview")          # == opscope export --chart overview --format json
    t.temporal_breakdown()          # HTA's columns and meanings

Every failure raises opscope.TraceError with the binary's one-line message and exit
code. docs/python.md describes every function.
"""
import glob as _glob
import math as _math
import os as _os
import sys as _sys

import numpy as _np
import pandas as _pd

from . import _frames
from ._errors import TraceError
from ._opscope import _analyses, _diff_json, _gpus, _kind_names, _load, _load_ranks

__all__ = ["Trace", "TraceError", "load", "load_ranks", "diff", "gpus", "analyses", "KINDS"]

#: Event kinds, as the `kind` column spells them (model/ids.h's SliceKind).
KINDS = tuple(_kind_names())
_GPU_KINDS = ("kernel", "memcpy", "memset")


def _path_bytes(path):
    """A path as the file system's bytes: str paths with undecodable bytes (surrogate
    escapes, as os.listdir gives them) and bytes paths both reach the engine intact."""
    raw = _os.fsencode(_os.fspath(path))
    if b"\0" in raw:
        raise ValueError("embedded null byte")
    return raw


def _progress_callable(progress):
    """progress=True: a line on stderr every few MiB; a callable: called with
    (bytes_done, bytes_total, events); False/None: nothing."""
    if callable(progress):
        return progress
    if progress is None or progress is False:
        return None
    if progress is not True:
        raise TypeError(f"progress: expected True, False or a callable, got {progress!r}")

    def show(done, total, events):
        pct = 100.0 * done / total if total else 0.0
        _sys.stderr.write(f"\ropscope: {pct:5.1f} % ({events:,} events)")
        _sys.stderr.flush()
        if total and done >= total:
            _sys.stderr.write("\n")

    return show


def load(path, *, progress=False):
    """Loads a trace in any format the binary reads (Kineto JSON plain or gzip, Nsight
    SQLite, rocprofv3, XPlane, PlaidML, dv/dt, memory timelines, PyTorch or Chakra
    execution traces), a folder of rank traces (one session, clocks aligned) or a list
    of rank traces (as load_ranks). The GIL is released while reading; Ctrl-C cancels
    (KeyboardInterrupt). Raises TraceError."""
    if isinstance(path, (list, tuple)):
        return load_ranks(path, progress=progress)
    return Trace(_load(_path_bytes(path), _progress_callable(progress)))


def load_ranks(paths, *, progress=False):
    """Rank traces as one session (a folder, a list of files, or a glob's files), ranks
    assigned from the traces (distributedInfo) or file names, clocks aligned at
    collectives; ranks that fail are left out and named by ranks_not_loaded."""
    if isinstance(paths, (str, bytes, _os.PathLike)):
        text = _os.fsdecode(_os.fspath(paths))
        if any(c in text for c in "*?[") and not _os.path.exists(text):
            matches = sorted(_glob.glob(text))  # a glob, as the binary takes 'GLOB'
            if not matches:
                raise TraceError(f"{text}: nothing matches the pattern", 3)
            paths = matches
        else:
            return load(paths, progress=progress)
    return Trace(_load_ranks([_path_bytes(p) for p in paths], _progress_callable(progress)))


def gpus():
    """The GPU presets predict() and roofline() know, as a DataFrame."""
    return _pd.DataFrame(_gpus())


def analyses():
    """The analysis catalog (Trace.analysis names), as a DataFrame."""
    return _pd.DataFrame(_analyses())


def _index(name, value, *, allow_none=True):
    """A 0-based index or count argument: a usage error (TraceError, exit code 2) for
    anything but an integer >= 0, as the binary's options are."""
    if value is None and allow_none:
        return None
    if isinstance(value, bool) or not isinstance(value, (int, _np.integer)) or value < 0:
        raise TraceError(f"{name}: expected an integer >= 0, got {value!r}", 2)
    return int(value)


def _range(iterations):
    """None, N or (FIRST, COUNT) -> (first or None, count); 0-based ProfilerStep
    indices (not their step numbers)."""
    if iterations is None:
        return None, 1
    if isinstance(iterations, (tuple, list)):
        if len(iterations) != 2:
            raise TraceError(f"iterations: expected N or (FIRST, COUNT), got {iterations!r}", 2)
        first, count = _index("iterations", iterations[0]), _index("iterations", iterations[1])
        if count < 1:
            raise TraceError(f"iterations: COUNT must be at least 1, got {count}", 2)
        return first, count
    return _index("iterations", iterations), 1


def _bound_ns(name, us, ns, default):
    """A time bound: ns exact when given, else µs (±inf: no bound), clamped to int64."""
    if ns is not None and us is not None:
        raise TraceError(f"events: give {name}_us or {name}_ns, not both", 2)
    if ns is not None:
        return max(-(2**63), min(2**63 - 1, int(ns)))
    if us is None:
        return default
    try:
        v = float(us)
    except (TypeError, ValueError):
        raise TraceError(f"events: {name}_us: expected a number, got {us!r}", 2) from None
    if _math.isnan(v):
        raise TraceError(f"events: {name}_us is NaN", 2)
    if _math.isinf(v):
        return -(2**63) if v < 0 else 2**63 - 1
    return max(-(2**63), min(2**63 - 1, round(v * 1000)))


def diff(a, b, *, iterations=None, iterations_b=None, per_iteration=False, frames=True):
    """`opscope diff --json A B`: ops and kernels matched and ranked by change. a and b
    are Traces or paths; iterations: N or (FIRST, COUNT) of A (and of B unless
    iterations_b names B's own)."""
    a = a if isinstance(a, Trace) else load(a)
    b = b if isinstance(b, Trace) else load(b)
    fa, ca = _range(iterations)
    fb, cb = _range(iterations_b if iterations_b is not None else iterations)
    return _frames.report(_diff_json(a._t, b._t, fa, ca, fb, cb, per_iteration), frames)


def _categorical(codes, strings):
    """Pandas categoricals from string ids: no Python string per event."""
    if len(set(strings)) == len(strings):
        cat = _pd.Categorical.from_codes(codes.astype(_np.int64), categories=strings)
        return cat.remove_unused_categories()
    # Two ids decoded to one text (invalid UTF-8 replaced): plain objects instead.
    return _np.asarray(strings, dtype=object)[codes]


class Trace:
    """A loaded trace. Methods only read it: several threads may use one Trace."""

    def __init__(self, handle):
        self._t = handle
        self._strings = None
        self._track_table = None

    def __repr__(self):
        return f"<opscope.Trace {self.path!r} ({self.format})>"

    # --- what was loaded ---------------------------------------------------------
    @property
    def path(self):
        return self._t.path

    @property
    def format(self):
        """"kineto-json", "nsys-sqlite", "xplane", ..., or "execution-trace"."""
        return self._t.format

    @property
    def is_execution_trace(self):
        return self._t.is_execution_trace

    @property
    def start_us(self):
        """The trace's first timestamp on its own clock (µs): the origin of the reports'
        relative times (summary's iteration_list, analyses' start_us); events() and
        iterations() are on the trace's clock, so report time t is event time
        start_us + t."""
        return self._t.start_ns / 1000.0

    @property
    def start_ns(self):
        """start_us, exact."""
        return self._t.start_ns

    @property
    def load_seconds(self):
        """(parse, hierarchy) wall seconds of the load."""
        return self._t.parse_seconds, self._t.hierarchy_seconds

    @property
    def ranks_not_loaded(self):
        """A folder or list of ranks: "file: error" for each trace left out."""
        return list(self._t._ranks_not_loaded())

    # --- the binary's reports ----------------------------------------------------
    def summary(self, *, iteration_marker=None, iterations=None, rank_metrics=False):
        """`opscope summary --json` as a dict (an execution trace: its own summary).
        iterations: N or (FIRST, COUNT); iteration_marker: a slice name whose instances
        are the iterations when the trace has no ProfilerStep; rank_metrics: add
        "rank_metrics" as `summary --json --rank-metrics` does."""
        first, count = _range(iterations)
        out = _frames.report(self._t._summary_json(iteration_marker or "", first, count), False)
        if rank_metrics:
            out["rank_metrics"] = self.rank_metrics()
        return out

    def rank_metrics(self):
        """The rank's iterations, collectives and busy times in exact ns
        (report/rank_metrics_json.h): what opscope-cluster's table carries so clocks
        can be aligned and collective waits measured across ranks."""
        return _frames.report(self._t._rank_metrics_json(), False)

    def analysis(self, name, *, iteration=None, top=0, op=None, by_shape=False, batch_size=None, frames=True):
        """One analysis of the catalog (opscope.analyses()): the data of `opscope export
        --chart NAME --format json`, tables as DataFrames (frames=False: the dict)."""
        return _frames.report(self._analysis_text(name, iteration, top, op, by_shape, batch_size, False), frames)

    def _analysis_text(self, name, iteration, top, op, by_shape, batch_size, csv):
        if not isinstance(name, str):
            raise TraceError(f"analysis: expected a name (opscope.analyses()), got {name!r}", 2)
        iteration = _index("iteration", iteration)
        top = _index("top", top, allow_none=False)
        if batch_size is not None and (_index("batch_size", batch_size) or 0) < 1:
            raise TraceError("batch_size: expected an integer >= 1", 2)
        return self._t._analysis_json(name, iteration, top, op or "", bool(by_shape), batch_size, csv)

    def analysis_csv(self, name, *, iteration=None, top=0, op=None, by_shape=False, batch_size=None):
        """`opscope export --chart NAME --format csv`, as text."""
        return self._analysis_text(name, iteration, top, op, by_shape, batch_size, True)

    def predict(self, gpu=None, *, replay=False, kernels="models", calibrate=False, datasheet=False,
                rooflines=False, frames=True):
        """`opscope predict --json [--gpu GPU]`: per-op GPU time from the models and the
        iteration simulated end to end on that GPU (default: the trace's own)."""
        if kernels not in ("models", "measured"):
            raise TraceError(f"predict: kernels={kernels!r}: expected 'models' or 'measured'", 2)
        text = self._t._predict_json(gpu or "", replay, kernels == "measured", calibrate, datasheet, rooflines)
        return _frames.report(text, frames)

    def critical_path(self, *, iteration=None, annotation=None, instance=0, frames=True):
        """`opscope critical-path --json`: HTA's critical-path graph over the whole trace,
        one iteration, or the instance-th slice named like annotation."""
        text = self._t._critical_path_json(_index("iteration", iteration), annotation or "",
                                           _index("instance", instance, allow_none=False))
        return _frames.report(text, frames)

    def roofline(self, gpu=None, *, iteration=None, frames=True):
        """`opscope roofline --json`: per op and shape, FLOPs, bytes, achieved TFLOP/s
        and TB/s against the GPU's roofs."""
        return _frames.report(self._t._roofline_json(gpu or "", _index("iteration", iteration)), frames)

    def advise(self, *, frames=True):
        """`opscope advise --json`: recommendations with the time at stake."""
        return _frames.report(self._t._advise_json(), frames)

    # --- the columnar model as DataFrames -----------------------------------------
    def _string_list(self):
        if self._strings is None:
            self._strings = self._t._strings()
        return self._strings

    def _tracks(self):
        if self._track_table is None:
            tt = self._t._tracks()
            table = {k: _np.asarray(v, dtype=_np.int64 if k in ("device", "stream", "rank") else object)
                     for k, v in tt.items()}
            # pid/tid as numbers: Kineto's pseudo-processes with text ids ("Spans",
            # "PyTorch Profiler") get -1 there and keep their text in pid_text/tid_text.
            for key in ("pid", "tid"):
                raw = tt[key]
                table[key + "_text"] = _np.asarray([v if isinstance(v, str) else str(v) for v in raw], dtype=object)
                table[key] = _np.asarray([v if isinstance(v, int) else -1 for v in raw], dtype=_np.int64)
            self._track_table = table
        return self._track_table

    def tracks(self):
        """One row per track (CPU thread, GPU stream, async lane), index = the events'
        `track` column: kind, pid, tid (-1 for a text id), process_name, label, device,
        stream, rank, pid_text, tid_text (the ids as written)."""
        return _pd.DataFrame(self._tracks())

    def events(self, kind=None, start_us=None, end_us=None, *, start_ns=None, end_ns=None):
        """Every slice as a DataFrame indexed by event id: name, category, pid, tid,
        track, kind, ts_us, dur_us, correlation, stream, device, depth, parent (the
        enclosing slice's id, -1 for none), then ts_ns, dur_ns (exact) and external_id.
        kind: one of KINDS or a list of them; start_us/end_us keep slices overlapping
        [start_us, end_us) on the trace's clock (start_ns/end_ns: the same, exact; a
        float µs at epoch magnitudes is only good to ~0.25 µs). Missing ids
        (correlation, stream, device, external id) are -1."""
        kinds = [] if kind is None else [kind] if isinstance(kind, str) else list(kind)
        codes = []
        for k in kinds:
            if k not in KINDS:
                raise TraceError(f"events: no kind {k!r} (kinds: {', '.join(KINDS)})", 2)
            codes.append(KINDS.index(k))
        lo = _bound_ns("start", start_us, start_ns, -(2**63))
        hi = _bound_ns("end", end_us, end_ns, 2**63 - 1)
        cols = self._t._columns(codes, lo, hi)
        return self._frame(cols)

    def _frame(self, cols):
        strings = self._string_list()
        tracks = self._tracks()
        track = cols["track"].astype(_np.int64)
        ts_ns, dur_ns = cols["ts_ns"], cols["dur_ns"]
        frame = _pd.DataFrame({
            "name": _categorical(cols["name"], strings),
            "category": _categorical(cols["category"], strings),
            "pid": tracks["pid"][track],
            "tid": tracks["tid"][track],
            "track": track,
            "kind": _pd.Categorical.from_codes(cols["kind"].astype(_np.int64),
                                               categories=KINDS).remove_unused_categories(),
            "ts_us": ts_ns / 1000.0,
            "dur_us": dur_ns / 1000.0,
            "correlation": cols["correlation"],
            "stream": tracks["stream"][track],
            "device": tracks["device"][track],
            "depth": cols["depth"].astype(_np.int64),
            "parent": cols["parent"],
            "ts_ns": ts_ns,
            "dur_ns": dur_ns,
            "external_id": cols["external_id"],
            "rank": tracks["rank"][track],
        }, index=_pd.Index(cols["id"], name="id"))
        return frame

    def kernels(self, *, copies=False):
        """The GPU kernels (copies=True: memcpys and memsets too), as events()."""
        return self.events(kind=list(_GPU_KINDS) if copies else "kernel")

    def ops(self, level="top"):
        """CPU ops: level "top", the outermost cpu_op of each thread (the ops `summary`
        totals); "all", every cpu_op."""
        if level == "all":
            return self.events(kind="cpu_op")
        if level != "top":
            raise TraceError(f"ops: level={level!r}: expected 'top' or 'all'", 2)
        ops = self.events(kind="cpu_op")
        return ops.loc[ops.index.isin(self._t._top_ops())]

    def iterations(self):
        """ProfilerStep iterations: number, start_us, end_us, dur_us (and exact ns)."""
        rows = self._t._iterations()
        number = _np.asarray([r[0] for r in rows], dtype=_np.int64)
        start = _np.asarray([r[1] for r in rows], dtype=_np.int64)
        end = _np.asarray([r[2] for r in rows], dtype=_np.int64)
        return _pd.DataFrame({"number": number, "start_us": start / 1000.0, "end_us": end / 1000.0,
                              "dur_us": (end - start) / 1000.0, "start_ns": start, "end_ns": end})

    def args(self, event):
        """One event's args as the file wrote them (event: an id from events())."""
        return self._t._args(int(event))

    # --- Holistic Trace Analysis' shapes (opscope/hta.py) -------------------------
    # As HTA's TraceAnalysis loads traces, the last ProfilerStep is left out unless
    # include_last_profiler_step=True.
    def temporal_breakdown(self, *, include_last_profiler_step=False):
        """HTA's get_temporal_breakdown (opscope.hta)."""
        from . import hta
        return hta.temporal_breakdown(self, include_last_profiler_step)

    def kernel_breakdown(self, *, duration_ratio=0.8, num_kernels=10, include_memory_kernels=True,
                         include_last_profiler_step=False):
        """HTA's get_gpu_kernel_breakdown: (kernel_type_df, kernel_df) (opscope.hta)."""
        from . import hta
        return hta.kernel_breakdown(self, duration_ratio, num_kernels, include_memory_kernels,
                                    include_last_profiler_step)

    def idle_time_breakdown(self, *, consecutive_kernel_delay=30, rank=None, streams=None,
                            show_idle_interval_stats=False, include_last_profiler_step=False):
        """HTA's get_idle_time_breakdown: (result_df, stats or None) (opscope.hta)."""
        from . import hta
        return hta.idle_time_breakdown(self, consecutive_kernel_delay, rank, streams, show_idle_interval_stats,
                                       include_last_profiler_step)

    def comm_comp_overlap(self, *, include_last_profiler_step=False):
        """HTA's get_comm_comp_overlap (opscope.hta)."""
        from . import hta
        return hta.comm_comp_overlap(self, include_last_profiler_step)
