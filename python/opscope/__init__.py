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


def _progress_callable(progress):
    """progress=True: a line on stderr every few MiB; a callable: called with
    (bytes_done, bytes_total, events); False/None: nothing."""
    if callable(progress):
        return progress
    if not progress:
        return None

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
    return Trace(_load(_os.fspath(path), _progress_callable(progress)))


def load_ranks(paths, *, progress=False):
    """Rank traces as one session (a folder, a list of files, or a glob's files), ranks
    assigned from the traces (distributedInfo) or file names, clocks aligned at
    collectives; ranks that fail are left out and named by ranks_not_loaded."""
    if isinstance(paths, (str, bytes, _os.PathLike)):
        return load(paths, progress=progress)
    return Trace(_load_ranks([_os.fspath(p) for p in paths], _progress_callable(progress)))


def gpus():
    """The GPU presets predict() and roofline() know, as a DataFrame."""
    return _pd.DataFrame(_gpus())


def analyses():
    """The analysis catalog (Trace.analysis names), as a DataFrame."""
    return _pd.DataFrame(_analyses())


def _range(iterations):
    """None, N or (FIRST, COUNT) -> (first or None, count)."""
    if iterations is None:
        return None, 1
    if isinstance(iterations, (tuple, list)):
        first, count = iterations
        return int(first), int(count)
    return int(iterations), 1


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
        text = self._t._analysis_json(name, iteration, top, op or "", by_shape, batch_size, False)
        return _frames.report(text, frames)

    def analysis_csv(self, name, *, iteration=None, top=0, op=None, by_shape=False, batch_size=None):
        """`opscope export --chart NAME --format csv`, as text."""
        return self._t._analysis_json(name, iteration, top, op or "", by_shape, batch_size, True)

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
        text = self._t._critical_path_json(iteration, annotation or "", instance)
        return _frames.report(text, frames)

    def roofline(self, gpu=None, *, iteration=None, frames=True):
        """`opscope roofline --json`: per op and shape, FLOPs, bytes, achieved TFLOP/s
        and TB/s against the GPU's roofs."""
        return _frames.report(self._t._roofline_json(gpu or "", iteration), frames)

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
            ints = all(isinstance(v, int) for v in tt["pid"]) and all(isinstance(v, int) for v in tt["tid"])
            table = {k: _np.asarray(v, dtype=_np.int64 if ints or k not in ("pid", "tid") else object)
                     if k in ("pid", "tid", "device", "stream", "rank") else _np.asarray(v, dtype=object)
                     for k, v in tt.items()}
            self._track_table = table
        return self._track_table

    def tracks(self):
        """One row per track (CPU thread, GPU stream, async lane), index = the events'
        `track` column."""
        return _pd.DataFrame(self._tracks())

    def events(self, kind=None, start_us=None, end_us=None):
        """Every slice as a DataFrame indexed by event id: name, category, pid, tid,
        track, kind, ts_us, dur_us, correlation, stream, device, depth, parent (the
        enclosing slice's id, -1 for none), then ts_ns, dur_ns (exact) and external_id.
        kind: one of KINDS or a list of them; start_us/end_us keep slices overlapping
        [start_us, end_us) on the trace's clock. Missing ids (correlation, stream,
        device, external id) are -1."""
        kinds = [] if kind is None else [kind] if isinstance(kind, str) else list(kind)
        codes = []
        for k in kinds:
            if k not in KINDS:
                raise TraceError(f"events: no kind {k!r} (kinds: {', '.join(KINDS)})", 2)
            codes.append(KINDS.index(k))
        lo = -(2**63) if start_us is None else int(_np.floor(float(start_us) * 1000))
        hi = 2**63 - 1 if end_us is None else int(_np.ceil(float(end_us) * 1000))
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
            "kind": _pd.Categorical.from_codes(cols["kind"].astype(_np.int64), categories=KINDS),
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
