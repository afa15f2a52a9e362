#!/usr/bin/env python3
"""Writes resources/sample/sample.pt.trace.json.gz: a small, realistic Kineto trace.

A deterministic simulation of a few training iterations of a small transformer-ish
model on one A100: ProfilerStep#N annotations on the main thread holding nested
aten ops with record_shapes args, cudaLaunchKernel / cudaMemcpyAsync / cudaMemsetAsync
launches joined to their GPU events by correlation id and ac2g flows, kernels on a
compute stream, host-to-device prefetch on a copy stream, an NCCL all-reduce on a
communication stream overlapping the backward pass, backward ops on the autograd
thread linked to their forward ops by fwdbwd flows, a loss.item() synchronisation,
metadata events, and Kineto's top-level keys. Timestamps are µs with three decimals.

Usage: make_sample_trace.py [--out PATH] [--iterations N] [--seed S]
"""
import argparse
import gzip
import json
import random
import re

A100 = {"id": 0, "name": "NVIDIA A100-SXM4-80GB", "totalGlobalMem": 84974239744, "computeMajor": 8,
        "computeMinor": 0, "maxThreadsPerBlock": 1024, "maxThreadsPerMultiprocessor": 2048,
        "regsPerBlock": 65536, "regsPerMultiprocessor": 65536, "warpSize": 32, "sharedMemPerBlock": 49152,
        "sharedMemPerMultiprocessor": 167936, "numSms": 108, "sharedMemPerBlockOptin": 166912}

# op -> list of (kernel name, mean µs, grid, block); "" kernel means a memcpy/memset.
KERNELS = {
    "aten::embedding": [("void at::native::(anonymous namespace)::indexSelectLargeIndex<float, long, unsigned int, 2, 2, -2, true>(at::cuda::detail::TensorInfo<float, unsigned int>, at::cuda::detail::TensorInfo<float const, unsigned int>, at::cuda::detail::TensorInfo<long const, unsigned int>, int, int, unsigned int, unsigned int, long)", 38, [4096, 1, 1], [128, 1, 1])],
    "aten::layer_norm": [("void at::native::(anonymous namespace)::vectorized_layer_norm_kernel<float, float>(int, float, float const*, float const*, float const*, float*, float*, float*)", 21, [8192, 1, 1], [32, 4, 1])],
    "aten::addmm": [("ampere_sgemm_128x64_tn", 160, [18, 64, 1], [128, 1, 1])],
    "aten::gelu": [("void at::native::vectorized_elementwise_kernel<4, at::native::GeluCUDAKernelImpl(at::TensorIteratorBase&, at::native::GeluType)::{lambda()#2}::operator()() const::{lambda()#2}::operator()() const::{lambda(float)#1}, at::detail::Array<char*, 2> >(int, at::native::GeluCUDAKernelImpl(at::TensorIteratorBase&, at::native::GeluType)::{lambda()#2}::operator()() const::{lambda()#2}::operator()() const::{lambda(float)#1}, at::detail::Array<char*, 2>)", 33, [24576, 1, 1], [128, 1, 1])],
    "aten::_softmax": [("void (anonymous namespace)::cunn_SoftMaxForward<4, float, float, float, (anonymous namespace)::SoftMaxForwardEpilogue>(float*, float const*, int)", 45, [8192, 1, 1], [1024, 1, 1])],
    "aten::add": [("void at::native::vectorized_elementwise_kernel<4, at::native::CUDAFunctor_add<float>, at::detail::Array<char*, 3> >(int, at::native::CUDAFunctor_add<float>, at::detail::Array<char*, 3>)", 12, [6144, 1, 1], [128, 1, 1])],
    "aten::nll_loss_forward": [("void at::native::(anonymous namespace)::nll_loss_forward_reduce_cuda_kernel_2d<float, float, long>(float*, float*, float const*, long const*, float const*, bool, long, long, long, long)", 6, [1, 1, 1], [32, 1, 1])],
    "aten::mm": [("volta_sgemm_128x64_nn", 150, [6, 64, 1], [256, 1, 1]),
                 ("void cutlass::Kernel<cutlass_80_tensorop_s1688gemm_64x64_32x6_nt_align4>(cutlass_80_tensorop_s1688gemm_64x64_32x6_nt_align4::Params)", 140, [12, 36, 1], [128, 1, 1])],
    "aten::sum": [("void at::native::reduce_kernel<512, 1, at::native::ReduceOp<float, at::native::func_wrapper_t<float, at::native::sum_functor<float, float, float>::operator()(at::TensorIterator&)::{lambda(float, float)#1}>, unsigned int, float, 4> >(at::native::ReduceOp<float, at::native::func_wrapper_t<float, at::native::sum_functor<float, float, float>::operator()(at::TensorIterator&)::{lambda(float, float)#1}>, unsigned int, float, 4>)", 14, [6, 64, 1], [32, 16, 1])],
    "aten::_foreach_add_": [("void at::native::(anonymous namespace)::multi_tensor_apply_kernel<at::native::(anonymous namespace)::TensorListMetadata<1>, at::native::(anonymous namespace)::BinaryOpScalarFunctor<float, 1, 1, 0>, std::plus<float>, double>(at::native::(anonymous namespace)::TensorListMetadata<1>, at::native::(anonymous namespace)::BinaryOpScalarFunctor<float, 1, 1, 0>, std::plus<float>, double)", 55, [64, 1, 1], [512, 1, 1])],
}
NCCL = "ncclDevKernel_AllReduce_Sum_f32_RING_LL(ncclDevComm*, unsigned long, ncclWork*)"
B, T, C = 8, 256, 512


def us(ns):
    return "%d.%03d" % divmod(ns, 1000)


class Gen:
    def __init__(self, seed):
        self.r = random.Random(seed)
        self.pid, self.main, self.bwd = 41237, 41237, 41302
        self.t = 1712196118348000000 + 180000
        self.ev = []
        self.ext = 1
        self.corr = 40000
        self.flow = 1
        self.stream_free = {7: 0, 13: 0, 20: 0}

    def x(self, cat, name, tid, ts, dur, args=None, pid=None):
        e = {"ph": "X", "cat": cat, "name": name, "pid": self.pid if pid is None else pid, "tid": tid,
             "ts": us(ts), "dur": us(dur)}
        if args is not None:
            e["args"] = args
        self.ev.append(e)
        return e

    def gap(self, lo=2000, hi=9000):
        return self.r.randint(lo, hi)

    def launch(self, tid, t, kind, name, mean_us, grid, block, stream=7):
        """A runtime call at t and its GPU event; returns the call's end."""
        self.corr += 1
        corr, ext = self.corr, self.ext
        dur = self.r.randint(3500, 7000)
        rt = {"cudaLaunchKernel": 211, "cudaMemcpyAsync": 41, "cudaMemsetAsync": 51}[kind]
        self.x("cuda_runtime", kind, tid, t, dur, {"External id": ext, "cbid": rt, "correlation": corr})
        self.ev.append({"ph": "s", "id": corr, "pid": self.pid, "tid": tid, "ts": us(t), "cat": "ac2g", "name": "ac2g"})
        start = max(t + self.r.randint(4000, 9000), self.stream_free[stream])
        gdur = int(mean_us * 1000 * self.r.uniform(0.9, 1.15))
        cat = "kernel" if kind == "cudaLaunchKernel" else ("gpu_memcpy" if kind == "cudaMemcpyAsync" else "gpu_memset")
        args = {"External id": ext, "device": 0, "stream": stream, "correlation": corr}
        if cat == "kernel":
            args.update({"registers per thread": 64, "shared memory": 0, "blocks per SM": round(grid[0] * grid[1] / 108, 6),
                         "warps per SM": 4.0, "grid": grid, "block": block, "est. achieved occupancy %": 50})
        else:
            args.update({"bytes": 4 * B * T * C, "memory bandwidth (GB/s)": 1200.0})
        self.x(cat, name, stream, start, gdur, args, pid=0)
        self.ev.append({"ph": "f", "id": corr, "pid": 0, "tid": stream, "ts": us(start), "cat": "ac2g",
                        "name": "ac2g", "bp": "e"})
        self.stream_free[stream] = start + gdur
        return t + dur

    def op(self, tid, t, name, dims, children=(), fwd_flow=None):
        """An aten op with its kernels and child ops; returns its end."""
        self.ext += 1
        start = t
        args = {"External id": self.ext, "Record function id": self.ext, "Input Dims": dims,
                "Input type": ["float"] * len(dims), "Ev Idx": self.ext}
        e = self.x("cpu_op", name, tid, start, 0, args)
        if fwd_flow is not None:
            self.ev.append({"ph": fwd_flow[0], "id": fwd_flow[1], "pid": self.pid, "tid": tid, "ts": us(start),
                            "cat": "fwdbwd", "name": "fwdbwd", **({"bp": "e"} if fwd_flow[0] == "f" else {})})
        t += self.gap(1500, 4000)
        for child in children:
            t = self.op(tid, t, *child) + self.gap(500, 1500)
        for kname, mean, grid, block in KERNELS.get(name, []):
            t = self.launch(tid, t, "cudaLaunchKernel", kname, mean, grid, block) + self.gap(800, 2000)
        e["dur"] = us(t - start)
        return t

    def iteration(self, n):
        tid = self.main
        step_start = self.t
        step = self.x("user_annotation", "ProfilerStep#%d" % n, tid, step_start, 0, {"External id": self.ext})
        t = step_start + self.gap(3000, 6000)
        # Data loading, then the host-to-device copy on the prefetch stream.
        dl = self.x("user_annotation", "enumerate(DataLoader)#_SingleProcessDataLoaderIter.__next__", tid, t, 0)
        t2 = self.op(tid, t + 2000, "aten::stack", [[B, T], [B, T]]) + self.r.randint(80000, 150000)
        dl["dur"] = us(t2 - t)
        t = t2 + self.gap()
        t = self.launch(tid, t, "cudaMemcpyAsync", "Memcpy HtoD (Pinned -> Device)", 40, None, None, stream=13) + self.gap()
        flows = []
        # Forward: embedding, blocks of layer_norm -> linear -> gelu -> linear -> add, softmax.
        t = self.op(tid, t, "aten::embedding", [[50304, C], [B, T]]) + self.gap()
        for layer in range(3):
            t = self.op(tid, t, "aten::layer_norm", [[B, T, C], [C], [C]]) + self.gap()
            fid = self.flow
            self.flow += 1
            flows.append(fid)
            t = self.op(tid, t, "aten::linear", [[B, T, C], [4 * C, C], [4 * C]],
                        [("aten::t", [[4 * C, C]]), ("aten::addmm", [[4 * C], [B * T, C], [C, 4 * C]])],
                        fwd_flow=("s", fid)) + self.gap()
            t = self.op(tid, t, "aten::gelu", [[B, T, 4 * C]]) + self.gap()
            t = self.op(tid, t, "aten::linear", [[B, T, 4 * C], [C, 4 * C], [C]],
                        [("aten::t", [[C, 4 * C]]), ("aten::addmm", [[C], [B * T, 4 * C], [4 * C, C]])]) + self.gap()
            t = self.op(tid, t, "aten::add", [[B, T, C], [B, T, C]]) + self.gap()
        t = self.op(tid, t, "aten::cross_entropy_loss", [[B * T, 50304], [B * T]],
                    [("aten::log_softmax", [[B * T, 50304]], [("aten::_softmax", [[B * T, 50304]])]),
                     ("aten::nll_loss_nd", [[B * T, 50304], [B * T]], [("aten::nll_loss_forward", [[B * T, 50304], [B * T]])])])
        t += self.gap()
        # Backward on the autograd thread, overlapping an NCCL all-reduce.
        bt = t + self.gap(5000, 12000)
        for fid in reversed(flows):
            bt = self.op(self.bwd, bt, "autograd::engine::evaluate_function: AddmmBackward0", [],
                         [("AddmmBackward0", [], [("aten::mm", [[B * T, 4 * C], [4 * C, C]]), ("aten::sum", [[B * T, 4 * C]])])],
                         fwd_flow=("f", fid)) + self.gap()
        self.stream_free[20] = max(self.stream_free[20], self.stream_free[7] - 400000)
        bt = self.launch(self.bwd, bt, "cudaLaunchKernel", NCCL, 900, [2, 1, 1], [512, 1, 1], stream=20) + self.gap()
        # Optimizer, then loss.item() waits for the GPU.
        t = max(t, bt) + self.gap()
        t = self.op(tid, t, "Optimizer.step#AdamW.step", [], [("aten::_foreach_add_", [[C]] * 4)]) + self.gap()
        t = self.launch(tid, t, "cudaMemsetAsync", "Memset (Device)", 2, None, None) + self.gap()
        sync_start = t
        done = max(self.stream_free.values())
        self.x("cuda_runtime", "cudaStreamSynchronize", tid, sync_start, max(3000, done - sync_start + 4000),
               {"External id": self.ext, "cbid": 131, "correlation": self.corr + 1})
        self.corr += 1
        self.x("cuda_sync", "Stream Sync", 7, max(sync_start, done - 1000), 2000,
               {"device": 0, "stream": 7, "wait on stream": 7}, pid=0)
        t = max(t + 4000, done + 5000)
        step["dur"] = us(t - step_start)
        self.t = t + self.gap(20000, 40000)

    def document(self, iterations):
        start = self.t - 180000
        for n in range(iterations):
            self.iteration(100 + n)
        end = self.t
        meta = [
            ("process_name", self.pid, 0, {"name": "python"}), ("process_labels", self.pid, 0, {"labels": "CPU"}),
            ("process_sort_index", self.pid, 0, {"sort_index": self.pid}),
            ("thread_name", self.pid, self.main, {"name": "thread %d (python)" % self.main}),
            ("thread_sort_index", self.pid, self.main, {"sort_index": self.main}),
            ("thread_name", self.pid, self.bwd, {"name": "thread %d (pt_autograd_0)" % self.bwd}),
            ("thread_sort_index", self.pid, self.bwd, {"sort_index": self.bwd}),
            ("process_name", 0, 0, {"name": "python"}), ("process_labels", 0, 0, {"labels": "GPU 0"}),
            ("process_sort_index", 0, 0, {"sort_index": 16777216}),
        ]
        for s in (7, 13, 20):
            meta.append(("thread_name", 0, s, {"name": "stream %d" % s}))
            meta.append(("thread_sort_index", 0, s, {"sort_index": s}))
        events = sorted((e for e in self.ev if e["pid"] != 0), key=lambda e: (e["tid"], float(e["ts"])))
        events += sorted((e for e in self.ev if e["pid"] == 0), key=lambda e: float(e["ts"]))
        for name, pid, tid, args in meta:
            events.append({"name": name, "ph": "M", "ts": us(start), "pid": pid, "tid": tid, "args": args})
        events.append({"ph": "X", "cat": "Trace", "ts": us(start), "dur": us(end - start), "pid": "Spans",
                       "tid": "PyTorch Profiler", "name": "PyTorch Profiler (0)", "args": {"Op count": 0}})
        events.append({"name": "Record Window End", "ph": "i", "s": "g", "pid": "", "tid": "", "ts": us(end)})
        return {"schemaVersion": 1, "deviceProperties": [A100], "record_shapes": 1,
                "distributedInfo": {"backend": "nccl", "rank": 0, "world_size": 2}, "traceEvents": events,
                "traceName": "sample.pt.trace.json", "displayTimeUnit": "ms"}


def dump(doc):
    text = json.dumps(doc, indent=1)
    # ts/dur were kept as strings for exactness; unquote them into numbers.
    return re.sub(r'"(ts|dur)": "(-?\d+\.\d{3})"', r'"\1": \2', text)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", default="resources/sample/sample.pt.trace.json.gz")
    ap.add_argument("--iterations", type=int, default=16)
    ap.add_argument("--seed", type=int, default=7)
    a = ap.parse_args()
    text = dump(Gen(a.seed).document(a.iterations)).encode()
    # mtime=0 keeps the output byte-identical between runs.
    with open(a.out, "wb") as f:
        f.write(gzip.compress(text, compresslevel=9, mtime=0))
    print("%s: %.1f MB of JSON" % (a.out, len(text) / 1e6))


if __name__ == "__main__":
    main()
