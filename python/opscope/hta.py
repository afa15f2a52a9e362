"""Holistic Trace Analysis' breakdowns, with HTA's column names and meanings, computed
from opscope's columns, so an HTA notebook switches with one import:

    HTA                                            opscope
    analyzer.get_temporal_breakdown()              trace.temporal_breakdown()
    analyzer.get_gpu_kernel_breakdown()            trace.kernel_breakdown()
    analyzer.get_idle_time_breakdown()             trace.idle_time_breakdown()
    analyzer.get_comm_comp_overlap()               trace.comm_comp_overlap()

Kernel types use HTA's own name patterns (hta/common/types.py), so a kernel is of the
same type in both. Where the definitions differ (docs/python.md):
  - times are µs exact to the ns (floats); HTA rounds ns-resolution starts up and ends
    down to whole µs, so its sums can be a few µs per thousand kernels smaller;
  - GPU events are kernels, memcpys and memsets (HTA: any event with a stream, which
    also takes cuda_sync spans); copies are MEMORY whatever their name;
  - kernel_breakdown's rows have statistics over their kernels' durations (HTA
    re-aggregates per-name sums, so its named rows show max = min = mean = sum);
  - consecutive_kernel_delay is in µs, the unit HTA compares it in (its docstring says ns).
"""
import re

import numpy as np
import pandas as pd

# hta/common/types.py (facebookresearch/HolisticTraceAnalysis, MIT): matched with
# re.match at the start of the name; the compute pattern is inverted.
_MEMORY = re.compile(r"(^(hip)?Memcpy)|(^(hip)?Memset)|(^dma)")
_COMMUNICATION = re.compile(r"(^nccl.*)|(^hip)|(^hccl)|(.*ncclKernel.*)")
_NOT_COMPUTE = re.compile(
    r"(^nccl)|(.*Memcpy)|(.*Memset)|(.*dma)|(^.*Sync)|(^Stream Wait Event)|(cuda.*LaunchKernel)|(^runFunction)"
    r"|(^hip)|(^job_exe)|(^packet)|(^pe_exe)|(^cpum_exe_subgraph)|(^hccl)|(^collective_subgraph_execution)")

COMPUTATION, COMMUNICATION, MEMORY, OTHER = "COMPUTATION", "COMMUNICATION", "MEMORY", "OTHER"


def kernel_type(name):
    """HTA's get_kernel_type: communication, then memory, then computation, else other."""
    if _COMMUNICATION.match(name):
        return COMMUNICATION
    if _MEMORY.match(name):
        return MEMORY
    if not _NOT_COMPUTE.match(name):
        return COMPUTATION
    return OTHER


def _gpu_events(trace, include_last_profiler_step=False):
    """Kernels, memcpys and memsets with rank, kernel_type and end_ns (times are summed
    in exact ns and reported in µs, so no float rounding of epoch-µs timestamps).

    As HTA's TraceAnalysis loads a trace (hta/common/trace.py,
    _filter_irrelevant_gpu_kernels): unless include_last_profiler_step, a rank's GPU
    events are those whose launch (by correlation) starts before its last ProfilerStep
    starts, so the last, often truncated, step is left out. A rank without ProfilerStep
    keeps every GPU event (HTA keeps none there); include_last_profiler_step keeps every
    GPU event (HTA also drops those with no launch in the trace)."""
    ev = trace.kernels(copies=True)
    names = ev["name"].astype(str)
    types = {n: kernel_type(n) for n in pd.unique(names)}
    kind = names.map(types).astype(object)
    # Copies are memory whatever their name (Nsight's and XPlane's copies are not named
    # "Memcpy …" as Kineto's are, which HTA's name patterns expect).
    kind[ev["kind"].isin(["memcpy", "memset"]).to_numpy()] = MEMORY
    ev = ev.assign(name=names, kernel_type=kind,
                   end_ns=ev["ts_ns"] + ev["dur_ns"], rank=_ranks(trace, ev["track"]))
    if include_last_profiler_step or ev.empty:
        return ev
    host = trace.events(kind=["user_annotation", "cpu_op", "runtime", "driver"])
    host = host.assign(rank=_ranks(trace, host["track"]))
    steps = host[host["name"].astype(str).str.match(r"ProfilerStep\s*#\s*\d+")]
    if steps.empty:
        return ev
    last_start = steps.groupby("rank")["ts_ns"].max()
    launches = host[host["kind"].isin(["runtime", "driver"]) & (host["correlation"] >= 0)]
    cutoff = launches["rank"].map(last_start)
    early = launches[cutoff.notna() & (launches["ts_ns"] < cutoff)]
    kept = pd.MultiIndex.from_arrays([early["rank"].to_numpy(), early["correlation"].to_numpy()])
    has_steps = ev["rank"].isin(last_start.index)
    mine = pd.MultiIndex.from_arrays([ev["rank"].to_numpy(), ev["correlation"].to_numpy()])
    return ev[~has_steps.to_numpy() | mine.isin(kept)]


def _ranks(trace, track):
    """Each event's rank: its process's rank in a session, else the trace's rank (0 when
    the trace names none, as HTA assumes)."""
    ranks = trace._tracks()["rank"]
    own = trace._t.rank  # distributedInfo's rank (what summary()["rank"] reports), None if absent
    r = ranks[np.asarray(track, dtype=np.int64)]
    return np.where(r >= 0, r, own if own is not None else 0)


def _merge(ts, end):
    """The union of intervals: (starts, ends) of the merged runs, in time order."""
    if len(ts) == 0:  # int64 like the times: a float empty run would round ns sums
        return np.empty(0, dtype=np.int64), np.empty(0, dtype=np.int64)
    order = np.argsort(ts, kind="stable")
    ts, end = np.asarray(ts)[order], np.asarray(end)[order]
    running = np.maximum.accumulate(end)
    new_run = np.ones(len(ts), dtype=bool)
    new_run[1:] = ts[1:] > running[:-1]
    idx = np.flatnonzero(new_run)
    starts = ts[idx]
    ends = np.maximum.reduceat(end, idx)
    return starts, ends


def temporal_breakdown(trace, include_last_profiler_step=False):
    """HTA's get_temporal_breakdown: per rank, idle, compute and non-compute time over
    the span from the first GPU event's start to the last one's end (kernel_time)."""
    ev = _gpu_events(trace, include_last_profiler_step)
    rows = []
    for rank, g in ev.groupby("rank", sort=True):
        s, e = _merge(g["ts_ns"].to_numpy(), g["end_ns"].to_numpy())
        kernel_time = e[-1] - s[0]
        idle = kernel_time - (e - s).sum()
        comp = g[g["kernel_type"] == COMPUTATION]
        cs, ce = _merge(comp["ts_ns"].to_numpy(), comp["end_ns"].to_numpy())
        compute = (ce - cs).sum()
        rows.append({"rank": int(rank), "idle_time(us)": idle / 1000, "compute_time(us)": compute / 1000,
                     "non_compute_time(us)": (kernel_time - compute - idle) / 1000,
                     "kernel_time(us)": kernel_time / 1000})
    df = pd.DataFrame(rows, columns=["rank", "idle_time(us)", "compute_time(us)", "non_compute_time(us)",
                                     "kernel_time(us)"])
    for col in ("idle_time", "compute_time", "non_compute_time"):
        df[col + "_pctg"] = (100 * df[col + "(us)"] / df["kernel_time(us)"]).round(2)
    return df


def _type_time(g, types):
    """HTA's _get_gpu_kernel_type_time: time each combination of kernel types ran, the
    types' merged intervals swept together ("COMPUTATION overlapping COMMUNICATION")."""
    times, deltas = [], []
    for i, t in enumerate(types):
        sub = g[g["kernel_type"] == t]
        s, e = _merge(sub["ts_ns"].to_numpy(), sub["end_ns"].to_numpy())
        times += [s, e]
        deltas += [np.full(len(s), 1 << i), np.full(len(e), -(1 << i))]
    if not times:
        return pd.DataFrame({"kernel_type": [], "sum": []})
    t = np.concatenate(times)
    d = np.concatenate(deltas)
    order = np.argsort(t, kind="stable")
    t, d = t[order], d[order]
    running = np.cumsum(d)
    dur = np.diff(t, append=t[-1] if len(t) else 0) / 1000  # ns -> µs
    out = {}
    for state in np.unique(running[running > 0]):
        label = " overlapping ".join(types[i] for i in range(len(types)) if state & (1 << i))
        out[label] = out.get(label, 0.0) + dur[running == state].sum()
    return pd.DataFrame({"kernel_type": list(out), "sum": list(out.values())})


def _aggregate(g, duration_ratio, num_kernels):
    """HTA's _aggr_gpu_kernel_time: per name sum/max/min/mean/std of durations; past
    num_kernels names, those beyond the duration_ratio quantile of the running sum or
    the first num_kernels rows are grouped as "others". HTA then re-aggregates the
    per-name sums, so its named rows show max = min = mean = sum and "others" statistics
    of sums; here every row's statistics are over its kernels' own durations (its sums
    are HTA's)."""
    agg = g.groupby("name")["dur_us"].agg(["sum", "max", "min", "mean", "std"]).reset_index()
    agg = agg.sort_values(by=["sum"], ascending=False, ignore_index=True).fillna({"std": 0})
    if agg.shape[0] > num_kernels:
        agg["cumsum"] = agg["sum"].cumsum()
        q = agg["cumsum"].quantile(duration_ratio)
        grouped = agg["name"].where(~((agg["cumsum"] > q) | (agg.index >= num_kernels)), "others")
        row_of = dict(zip(agg["name"], grouped))
        g = g.assign(name=g["name"].map(row_of))
        agg = g.groupby("name")["dur_us"].agg(["sum", "max", "min", "mean", "std"]).reset_index().fillna({"std": 0})
    return agg


def kernel_breakdown(trace, duration_ratio=0.8, num_kernels=10, include_memory_kernels=True,
                     include_last_profiler_step=False):
    """HTA's get_gpu_kernel_breakdown: (kernel_type_df [kernel_type, sum, percentage],
    kernel_df [name, sum (us), max (us), min (us), stddev, mean (us), kernel_type, rank])."""
    ev = _gpu_events(trace, include_last_profiler_step)
    types = [COMPUTATION, COMMUNICATION] + ([MEMORY] if include_memory_kernels else [])
    type_frames, kernel_frames = [], []
    for rank, g in ev.groupby("rank", sort=True):
        type_frames.append(_type_time(g, types))
        for t in types:
            agg = _aggregate(g[g["kernel_type"] == t], duration_ratio, num_kernels)
            agg["kernel_type"] = t
            agg["rank"] = int(rank)
            kernel_frames.append(agg)
    by_type = pd.concat(type_frames, ignore_index=True) if type_frames else pd.DataFrame({"kernel_type": [], "sum": []})
    by_type = by_type.groupby("kernel_type")["sum"].agg(["sum"]).reset_index()
    by_type = by_type.sort_values(by=["sum"], ignore_index=True, ascending=False)
    by_type["percentage"] = (by_type["sum"] / by_type["sum"].sum() * 100).round(1)
    kernels = pd.concat(kernel_frames, ignore_index=True) if kernel_frames else pd.DataFrame(
        columns=["name", "sum", "max", "min", "mean", "std", "kernel_type", "rank"])
    kernels = kernels.drop(columns=["cumsum"], errors="ignore")
    kernels = kernels.sort_values(by=["kernel_type", "name", "rank"], ignore_index=True)
    kernels = kernels.rename(columns={"sum": "sum (us)", "mean": "mean (us)", "max": "max (us)", "min": "min (us)",
                                      "std": "stddev"})
    return by_type, kernels[["name", "sum (us)", "max (us)", "min (us)", "stddev", "mean (us)", "kernel_type", "rank"]]


_IDLE_NAMES = {0: "host_wait", 1: "kernel_wait", 2: "other"}


def idle_time_breakdown(trace, consecutive_kernel_delay=30, rank=None, streams=None, show_idle_interval_stats=False,
                        include_last_profiler_step=False):
    """HTA's get_idle_time_breakdown for one rank (default: the lowest): per stream, the
    gaps between consecutive GPU events split into host_wait (the next event's launch
    began after the previous event ended), kernel_wait (a shorter gap than
    consecutive_kernel_delay µs) and other. Returns (result_df [rank, stream,
    idle_category, idle_time, idle_time_ratio], interval stats or None)."""
    ev = _gpu_events(trace, include_last_profiler_step)
    if rank is None:
        rank = int(ev["rank"].min()) if len(ev) else 0
    elif len(ev) and rank not in set(ev["rank"]):
        from ._errors import TraceError
        raise TraceError(f"idle_time_breakdown: no rank {rank} (ranks: {sorted(set(ev['rank']))})", 2)
    ev = ev[ev["rank"] == rank]
    launches = trace.events(kind=["runtime", "driver"])
    launches = launches[(launches["correlation"] >= 0)]
    launches = launches.assign(rank=_ranks(trace, launches["track"]))
    launches = launches[launches["rank"] == rank].drop_duplicates("correlation")
    launch_ts = pd.Series(launches["ts_ns"].to_numpy(), index=launches["correlation"].to_numpy())
    ev = ev.assign(ts_runtime=ev["correlation"].map(launch_ts))
    if not streams:
        streams = list(pd.unique(ev["stream"]))
    results, stats = [], []
    for stream in streams:
        s = ev[ev["stream"] == stream].sort_values(by="ts_ns", kind="stable")
        prev_end = s["end_ns"].shift(1)
        interval = (s["ts_ns"] - prev_end) / 1000  # µs
        host = (s["ts_runtime"] > prev_end).to_numpy()
        kernel = ~host & (interval < consecutive_kernel_delay).to_numpy()
        category = np.where(host, 0, np.where(kernel, 1, 2))
        frame = pd.DataFrame({"idle_category": category, "idle_interval": interval.to_numpy()})
        grouped = frame.groupby("idle_category")
        if show_idle_interval_stats:
            st = grouped["idle_interval"].describe()
            st.insert(0, "stream", stream)
            stats.append(st)
        res = pd.DataFrame(grouped["idle_interval"].sum())
        total = res["idle_interval"].sum()
        res["stream"] = stream
        res["idle_time_ratio"] = res["idle_interval"] / total if total else 0.0
        results.append(res.rename(columns={"idle_interval": "idle_time"}))
    cols = ["rank", "stream", "idle_category", "idle_time", "idle_time_ratio"]
    if not results:
        return pd.DataFrame(columns=cols), None
    out = pd.concat(results).rename(index=_IDLE_NAMES).reset_index()
    out["rank"] = rank
    out = out[cols].round(2)
    stats_df = None
    if show_idle_interval_stats:
        stats_df = pd.concat(stats).round(2).rename(index=_IDLE_NAMES)
        stats_df.insert(0, "rank", rank)
    return out, stats_df


def comm_comp_overlap(trace, include_last_profiler_step=False):
    """HTA's get_comm_comp_overlap: per rank, the share of communication-kernel time
    (merged) during which a computation kernel also runs, in percent."""
    ev = _gpu_events(trace, include_last_profiler_step)
    rows = []
    for rank, g in ev.groupby("rank", sort=True):
        comm = g[g["kernel_type"] == COMMUNICATION]
        comp = g[g["kernel_type"] == COMPUTATION]
        ms, me = _merge(comm["ts_ns"].to_numpy(), comm["end_ns"].to_numpy())
        ps, pe = _merge(comp["ts_ns"].to_numpy(), comp["end_ns"].to_numpy())
        total = (me - ms).sum()
        overlap = 0
        j = 0
        for a, b in zip(ms, me):  # both lists merged and sorted: one linear sweep
            while j < len(ps) and pe[j] <= a:
                j += 1
            k = j
            while k < len(ps) and ps[k] < b:
                overlap += min(b, pe[k]) - max(a, ps[k])
                k += 1
        ratio = overlap / total if total else float("nan")
        rows.append({"rank": int(rank), "comp_comm_overlap_pctg": round(100 * ratio, 2)})
    return pd.DataFrame(rows, columns=["rank", "comp_comm_overlap_pctg"])
