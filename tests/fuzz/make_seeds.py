#!/usr/bin/env python3
"""Writes the fuzz targets' seed corpora (tests/fuzz/corpus/<target>/): small inputs of
every format and dialect the loaders know, each exercising many features at once, so
libFuzzer starts from structure instead of from nothing. The files are committed; run
this again after changing it. Standard library only."""
import gzip
import json
import os
import sqlite3
import struct
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
CORPUS = os.path.join(HERE, "corpus")


def write(target, name, data):
    d = os.path.join(CORPUS, target)
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, name), "wb") as f:
        f.write(data if isinstance(data, bytes) else data.encode())


ROCPROFV3 = json.dumps({"rocprofiler-sdk-tool": [{
    "metadata": {"pid": 77},
    "agents": [{"id": {"handle": 2}, "type": 2, "name": "gfx942", "product_name": "AMD Instinct MI300X",
                "logical_node_type_id": 0}],
    "strings": {"buffer_records": [{"kind": "NONE", "operations": []},
                                   {"kind": "HIP_RUNTIME_API", "operations": ["hipLaunchKernel", "hipMemcpyAsync"]},
                                   {"kind": "MEMORY_COPY", "operations": ["NONE", "MEMORY_COPY_HOST_TO_DEVICE"]}]},
    "kernel_symbols": [{"kernel_id": 5, "formatted_kernel_name": "my_kernel(int)"}],
    "buffer_records": {
        "hip_api": [{"kind": 1, "operation": 0, "thread_id": 78, "correlation_id": {"internal": 10},
                     "start_timestamp": 1000, "end_timestamp": 1500}],
        "kernel_dispatch": [{"correlation_id": {"internal": 10}, "start_timestamp": 3000, "end_timestamp": 8000,
                             "dispatch_info": {"agent_id": {"handle": 2}, "queue_id": {"handle": 4}, "kernel_id": 5,
                                               "grid_size": {"x": 64, "y": 1, "z": 1}}}],
        "memory_copy": [{"kind": 2, "operation": 1, "correlation_id": {"internal": 11}, "start_timestamp": 9000,
                         "end_timestamp": 9500, "dst_agent_id": {"handle": 2}, "bytes": 4096}]}}]})


MEMORY_TIMELINE_RAW = "[[-1, 1, 1024, 0], [10, 2, 512, 4], [10, 3, -512, 4], [10, 3, 512, 5], [20, 4, -512, 5]]"


def gz(data):
    return gzip.compress(data.encode() if isinstance(data, str) else data, mtime=0)


# ---- Chrome / Kineto JSON
def kineto():
    ev = [
        {"ph": "M", "name": "process_name", "pid": 1, "tid": 0, "args": {"name": "python"}},
        {"ph": "M", "name": "thread_name", "pid": 1, "tid": 1, "args": {"name": "main"}},
        {"ph": "M", "name": "thread_sort_index", "pid": 1, "tid": 1, "args": {"sort_index": 1}},
        {"ph": "X", "cat": "user_annotation", "name": "ProfilerStep#1", "pid": 1, "tid": 1, "ts": 100, "dur": 400},
        {"ph": "X", "cat": "cpu_op", "name": "aten::linear", "pid": 1, "tid": 1, "ts": 110, "dur": 200,
         "args": {"External id": 7, "Input Dims": [[8, 16], [32, 16], [32]], "Input type": ["float", "float", "float"],
                  "Record function id": 3, "Sequence number": 5}},
        {"ph": "X", "cat": "cpu_op", "name": "aten::addmm", "pid": 1, "tid": 1, "ts": 120, "dur": 150,
         "args": {"External id": 8, "Input Dims": [[32], [8, 16], [16, 32], [], []]}},
        {"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 1, "tid": 1, "ts": 130, "dur": 20,
         "args": {"correlation": 11, "External id": 8}},
        {"ph": "X", "cat": "cuda_runtime", "name": "cudaMemcpyAsync", "pid": 1, "tid": 1, "ts": 160, "dur": 30,
         "args": {"correlation": 12, "External id": 8}},
        {"ph": "X", "cat": "cuda_runtime", "name": "cudaStreamSynchronize", "pid": 1, "tid": 1, "ts": 200, "dur": 60,
         "args": {"correlation": 13}},
        {"ph": "X", "cat": "kernel", "name": "ampere_sgemm_128x64_tn", "pid": 0, "tid": 7, "ts": 155, "dur": 40,
         "args": {"correlation": 11, "External id": 8, "device": 0, "stream": 7, "grid": [4, 1, 1], "block": [256, 1, 1],
                  "registers per thread": 122, "shared memory": 4096, "est. achieved occupancy %": 25}},
        {"ph": "X", "cat": "gpu_memcpy", "name": "Memcpy HtoD (Pageable -> Device)", "pid": 0, "tid": 7, "ts": 196,
         "dur": 10, "args": {"correlation": 12, "device": 0, "stream": 7, "bytes": 4096, "memory bandwidth (GB/s)": 1.2}},
        {"ph": "X", "cat": "gpu_memset", "name": "Memset (Device)", "pid": 0, "tid": 8, "ts": 210, "dur": 2,
         "args": {"device": 0, "stream": 8}},
        {"ph": "X", "cat": "kernel", "name": "ncclKernel_AllReduce_RING_LL_Sum_float(ncclWorkElem)", "pid": 0, "tid": 8,
         "ts": 215, "dur": 90, "args": {"device": 0, "stream": 8, "correlation": 14}},
        {"ph": "X", "cat": "cpu_op", "name": "record_param_comms", "pid": 1, "tid": 1, "ts": 300, "dur": 10,
         "args": {"Collective name": "allreduce", "In msg nelems": 1024, "Group size": 8, "dtype": "Float"}},
        {"ph": "s", "id": 11, "pid": 1, "tid": 1, "ts": 130, "cat": "ac2g", "name": "ac2g"},
        {"ph": "f", "id": 11, "pid": 0, "tid": 7, "ts": 155, "cat": "ac2g", "name": "ac2g", "bp": "e"},
        {"ph": "s", "id": 99, "pid": 1, "tid": 1, "ts": 200, "cat": "ac2g", "name": "ac2g"},
        {"ph": "X", "cat": "gpu_user_annotation", "name": "forward", "pid": 0, "tid": 7, "ts": 150, "dur": 60},
        {"ph": "i", "cat": "cpu_instant_event", "name": "[memory]", "pid": 1, "tid": 1, "ts": 140, "s": "t",
         "args": {"Total Reserved": 2097152, "Total Allocated": 512, "Bytes": 512, "Addr": 140000, "Device Id": 0}},
        {"ph": "C", "name": "GPU 0 Util", "pid": 0, "ts": 150, "args": {"util": 50.5}},
        {"ph": "B", "name": "outer", "pid": 1, "tid": 2, "ts": 105},
        {"ph": "B", "name": "inner", "pid": 1, "tid": 2, "ts": 106},
        {"ph": "E", "pid": 1, "tid": 2, "ts": 109},
        {"ph": "E", "pid": 1, "tid": 2, "ts": 120},
        {"ph": "b", "cat": "async", "name": "load", "id": "0x1", "pid": 1, "ts": 100},
        {"ph": "e", "cat": "async", "name": "load", "id": "0x1", "pid": 1, "ts": 180},
        {"ph": "X", "cat": "user_annotation", "name": "ProfilerStep#2", "pid": 1, "tid": 1, "ts": 500, "dur": 300},
        {"ph": "X", "cat": "python_function", "name": "model.py(12): forward", "pid": 1, "tid": 1, "ts": 510, "dur": 50},
        {"ph": "X", "cat": "Trace", "name": "PyTorch Profiler (0)", "pid": "Spans", "tid": "PyTorch Profiler", "ts": 90,
         "dur": 800},
    ]
    top = {"schemaVersion": 1,
           "deviceProperties": [{"id": 0, "name": "NVIDIA A100-SXM4-80GB", "totalGlobalMem": 85100000000,
                                 "computeMajor": 8, "computeMinor": 0, "numSms": 108, "warpSize": 32}],
           "distributedInfo": {"backend": "nccl", "rank": 0, "world_size": 8},
           "traceEvents": ev, "traceName": "seed.pt.trace.json", "displayTimeUnit": "ms",
           "baseTimeNanoseconds": 1700000000000000000}
    return json.dumps(top, indent=1)


# FBGEMM's table-batched embedding lookup and its backward, as the public recsys trace
# records them (tbe_models.h pairs the two): prediction's pairing and pricing.
def kineto_tbe():
    fwd_dims = [[0], [25657792], [0], [0, 0], [6], [6], [7], [], [], [7], [], [33398], [393217], [], [], [], [0],
                [], [], [], [400903], [0], [6], [6], [], [], [], [], []]
    ev = [
        {"ph": "X", "cat": "user_annotation", "name": "ProfilerStep#3", "pid": 1, "tid": 1, "ts": 100, "dur": 900},
        {"ph": "X", "cat": "cpu_op", "name": "fbgemm::split_embedding_codegen_lookup_rowwise_adagrad_function",
         "pid": 1, "tid": 1, "ts": 110, "dur": 50, "args": {"External id": 1, "Input Dims": fwd_dims}},
        {"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 1, "tid": 1, "ts": 120, "dur": 5,
         "args": {"correlation": 21, "External id": 1}},
        {"ph": "X", "cat": "kernel", "name": "void split_embedding_codegen_forward_unweighted_kernel<float, float, "
         "float, false, long, 1ul, 16ul>(int)", "pid": 0, "tid": 7, "ts": 130, "dur": 88,
         "args": {"correlation": 21, "External id": 1, "device": 0, "stream": 7, "grid": [12288, 1, 1],
                  "block": [16, 32, 1]}},
        {"ph": "X", "cat": "cpu_op", "name": "autograd::engine::evaluate_function: torch::autograd::"
         "CppNode<SplitLookupFunction_rowwise_adagrad_Op>", "pid": 1, "tid": 2, "ts": 400, "dur": 500},
        {"ph": "X", "cat": "cpu_op", "name": "torch::autograd::CppNode<SplitLookupFunction_rowwise_adagrad_Op>",
         "pid": 1, "tid": 2, "ts": 401, "dur": 490,
         "args": {"External id": 2, "Input Dims": [[65536, 384]], "Input type": ["float"], "Sequence number": 9}},
        {"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 1, "tid": 2, "ts": 410, "dur": 5,
         "args": {"correlation": 22, "External id": 2}},
        {"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 1, "tid": 2, "ts": 420, "dur": 5,
         "args": {"correlation": 23, "External id": 2}},
        {"ph": "X", "cat": "kernel", "name": "void linearize_index_kernel<long, long>(int)", "pid": 0, "tid": 7,
         "ts": 430, "dur": 37, "args": {"correlation": 22, "device": 0, "stream": 7, "grid": [96, 1, 1],
                                        "block": [1024, 1, 1]}},
        {"ph": "X", "cat": "kernel", "name": "void split_embedding_backward_codegen_rowwise_adagrad_unweighted_"
         "kernel_warp_per_row_1<float, float, float, 1ul, 16>(int)", "pid": 0, "tid": 7, "ts": 470, "dur": 30,
         "args": {"correlation": 23, "device": 0, "stream": 7, "grid": [1068, 1, 1], "block": [16, 32, 1]}},
    ]
    top = {"schemaVersion": 1,
           "deviceProperties": [{"id": 0, "name": "NVIDIA A100-SXM4-80GB", "totalGlobalMem": 85100000000,
                                 "computeMajor": 8, "computeMinor": 0, "numSms": 108}],
           "traceEvents": ev}
    return json.dumps(top, indent=1)


def legacy():
    ev = [
        {"ph": "X", "cat": "Operator", "name": "aten::conv2d", "pid": 10, "tid": "main", "ts": 5.5, "dur": 20.25,
         "args": {"Input dims": [[1, 3, 8, 8], [4, 3, 3, 3]], "external id": 3}},
        {"ph": "X", "cat": "Runtime", "name": "cudaLaunchKernel", "pid": 10, "tid": "main", "ts": 6, "dur": 2,
         "args": {"correlation": 4, "external id": 3}},
        {"ph": "X", "cat": "Kernel", "name": "implicit_convolve_sgemm", "pid": 0, "tid": "stream 7", "ts": 9, "dur": 11,
         "args": {"correlation": 4, "external id": 3, "Device": 0, "stream": 7}},
        {"ph": "X", "cat": "Memcpy", "name": "Memcpy DtoH", "pid": 0, "tid": "stream 7", "ts": 22, "dur": 1,
         "args": {"Device": 0, "stream": 7}},
    ]
    return json.dumps(ev)


# Kineto of 2021 as the TensorBoard plugin's ResNet-50 sample writes it: ProfilerStep
# under "Operator", tids as strings on slices and numbers on flow starts, a forward
# convolution without Concrete Inputs and its legacy cudnn_convolution_backward under
# the autograd node of the same Sequence number (conv_pairing.h completes the forward).
def legacy_2021_conv():
    ev = [
        {"ph": "X", "cat": "Operator", "name": "ProfilerStep#5", "pid": 7, "tid": "7", "ts": 0, "dur": 900},
        {"ph": "X", "cat": "Operator", "name": "aten::conv2d", "pid": 7, "tid": "7", "ts": 10, "dur": 50,
         "args": {"Input Dims": [[8, 16, 32, 32], [32, 16, 3, 3], [], [], [], [], []],
                  "Input type": ["float", "float", "", "GenericList", "GenericList", "GenericList", "Int"],
                  "Fwd thread id": 0, "Sequence number": 890}},
        {"ph": "X", "cat": "Runtime", "name": "cudaLaunchKernel", "pid": 7, "tid": "7", "ts": 20, "dur": 5,
         "args": {"correlation": 41, "external id": 1}},
        {"ph": "s", "cat": "async", "name": "launch", "id": 41, "pid": 7, "tid": 7, "ts": 20},
        {"ph": "f", "cat": "async", "name": "launch", "id": 41, "pid": 0, "tid": "stream 7", "ts": 30, "bp": "e"},
        {"ph": "X", "cat": "Kernel", "name": "implicit_convolve_sgemm", "pid": 0, "tid": "stream 7", "ts": 30,
         "dur": 40, "args": {"correlation": 41, "device": 0, "stream": 7, "grid": [64, 1, 1]}},
        {"ph": "X", "cat": "Operator", "name": "CudnnConvolutionBackward", "pid": 7, "tid": "8", "ts": 400,
         "dur": 300, "args": {"Input Dims": [[8, 32, 16, 16]], "Fwd thread id": 1, "Sequence number": 890}},
        {"ph": "X", "cat": "Operator", "name": "aten::cudnn_convolution_backward", "pid": 7, "tid": "8", "ts": 401,
         "dur": 290, "args": {"Input Dims": [[8, 16, 32, 32], [8, 32, 16, 16], [32, 16, 3, 3], [], [], [], [], [],
                                             [], [], []], "Input type": ["float", "float", "float"]}},
        {"ph": "X", "cat": "Operator", "name": "aten::cudnn_convolution_backward_weight", "pid": 7, "tid": "8",
         "ts": 402, "dur": 100, "args": {}},
        {"ph": "X", "cat": "Runtime", "name": "cudaLaunchKernel", "pid": 7, "tid": "8", "ts": 410, "dur": 5,
         "args": {"correlation": 42}},
        {"ph": "X", "cat": "Kernel", "name": "wgrad_alg0_engine", "pid": 0, "tid": "stream 7", "ts": 420, "dur": 60,
         "args": {"correlation": 42, "device": 0, "stream": 7}},
        {"ph": "i", "name": "[memory]", "pid": 7, "tid": 8, "ts": 403, "s": "t",
         "args": {"Device Type": 1, "Device Id": 0, "Bytes": 65536}},
    ]
    top = {"schemaVersion": 1,
           "deviceProperties": [{"id": 0, "name": "Tesla V100-DGXS-32GB", "totalGlobalMem": 34084028416,
                                 "computeMajor": 7, "computeMinor": 0, "numSms": 80}],
           "traceEvents": ev}
    return json.dumps(top)


def oddities():
    # Tolerated oddities the loader warns about: strings for numbers, negative durations,
    # a trailing comma, control characters, unknown phases, ids beyond int64.
    return ('{"traceEvents":[{"ph":"X","name":"a\\u0001b","pid":"1","tid":-3,"ts":"12.5","dur":-4},'
            '{"ph":"Z","name":"q","pid":1,"tid":1,"ts":1},'
            '{"ph":"X","name":"big","cat":"kernel","pid":0,"tid":1,"ts":1e3,"dur":2,'
            '"args":{"correlation":99999999999999999999,"stream":"0x0"}},'
            '{"ph":"E","pid":1,"tid":9,"ts":3},[1,2],'
            '],"systemTraceEvents":"ftrace text","other":{"deep":[[[[1]]]]}}')


# ---- Execution traces, both schema generations
def et_old():
    nodes = [
        {"name": "[pytorch|profiler|execution_trace|process]", "id": 1, "rf_id": 0, "parent": 0, "fw_parent": 0,
         "seq_id": -1, "scope": 7, "tid": 0, "fw_tid": 0, "op_schema": "", "inputs": [], "input_shapes": [],
         "input_types": [], "outputs": [], "output_shapes": [], "output_types": []},
        {"name": "aten::add", "id": 2, "rf_id": 7, "parent": 1, "fw_parent": 0, "seq_id": 3, "scope": 0, "tid": 1,
         "fw_tid": 0, "op_schema": "aten::add.Tensor(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor",
         "inputs": [[1, 2, 0, 16, 4, "cuda:0"], [3, 4, 0, 16, 4, "cuda:0"], 1],
         "input_shapes": [[4, 4], [4, 4], []], "input_types": ["Tensor(float)", "Tensor(float)", "Int"],
         "outputs": [[5, 6, 0, 16, 4, "cuda:0"]], "output_shapes": [[4, 4]], "output_types": ["Tensor(float)"]},
    ]
    return json.dumps({"schema": "1.0.1", "pid": 42, "time": "2023-01-01 00:00:00", "start_ts": 100,
                       "nodes": nodes, "finish_ts": 200})


def et_new():
    nodes = [
        {"id": 1, "name": "[pytorch|profiler|execution_trace|thread]", "ctrl_deps": 0,
         "inputs": {"values": [], "shapes": [], "types": []}, "outputs": {"values": [], "shapes": [], "types": []},
         "attrs": [{"name": "rf_id", "type": "uint64", "value": 0}, {"name": "tid", "type": "uint64", "value": 1}]},
        {"id": 2, "name": "aten::mm", "ctrl_deps": 1,
         "inputs": {"values": [[10, 11, 0, 64, 4, "cuda:0"], [12, 13, 0, 64, 4, "cuda:0"]],
                    "shapes": [[8, 8], [8, 8]], "types": ["Tensor(float)", "Tensor(float)"]},
         "outputs": {"values": [[14, 15, 0, 64, 4, "cuda:0"]], "shapes": [[8, 8]], "types": ["Tensor(float)"]},
         "attrs": [{"name": "rf_id", "type": "uint64", "value": 5}, {"name": "tid", "type": "uint64", "value": 1},
                   {"name": "op_schema", "type": "string", "value": "aten::mm(Tensor self, Tensor mat2) -> Tensor"},
                   {"name": "seq_id", "type": "int64", "value": 2}]},
        {"id": 2, "name": "duplicate"}, {"name": "no id"}, {"id": 4, "name": "orphan", "ctrl_deps": 77},
    ]
    return json.dumps({"schema": "1.0.2-chakra.0.0.4", "pid": 7, "time": "2024-01-01", "start_ts": 1,
                       "finish_ts": 2, "nodes": nodes})


def et_kineto_pair():
    kineto_ev = [
        {"ph": "X", "cat": "user_annotation", "name": "ProfilerStep#0", "pid": 1, "tid": 1, "ts": 0, "dur": 100},
        {"ph": "X", "cat": "cpu_op", "name": "aten::mm", "pid": 1, "tid": 1, "ts": 10, "dur": 50,
         "args": {"External id": 2, "Record function id": 5, "Input Dims": [[8, 8], [8, 8]]}},
        {"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 1, "tid": 1, "ts": 20, "dur": 5,
         "args": {"correlation": 3, "External id": 2}},
        {"ph": "X", "cat": "kernel", "name": "gemm", "pid": 0, "tid": 7, "ts": 30, "dur": 20,
         "args": {"correlation": 3, "External id": 2, "device": 0, "stream": 7}},
    ]
    return et_new().encode() + b"\0" + json.dumps({"traceEvents": kineto_ev}).encode()


# ---- dv/dt prof
def dvdt_list():
    recs = [
        {"call": "clCreateCommandQueue", "timestamp": {"start": "2017-09-19T12:00:00.000001",
                                                       "end": "2017-09-19T12:00:00.000005"}, "queue": "0x1f"},
        {"call": "clSetKernelArg", "kernel": "0xa0", "arg_index": 0, "arg_value": "0x40000000"},
        {"call": "clSetKernelArg", "kernel": "0xa0", "arg_index": 1, "arg_value": "0x20000000"},
        {"call": "clSetKernelArg", "kernel": "0xa0", "arg_index": 2, "arg_value": "0x10000000"},
        {"call": "clEnqueueNDRangeKernel", "name": "XgemmDirectTN", "kernel": "0xa0", "queue": "0x1f",
         "gws": [64, 64, 1], "lws": [8, 8, 1], "enqueue_id": 1, "errcode": 0,
         "timestamp": {"start": "2017-09-19T12:00:00.000010", "end": "2017-09-19T12:00:00.000015"},
         "profiling": {"queued": 1000, "submit": 1500, "start": 2000, "end": 9000}},
        {"call": "clFinish", "timestamp": {"start": "2017-09-19T12:00:00.000020", "end": "2017-09-19T12:00:00.000030"}},
        "not a record",
    ]
    return json.dumps(recs, indent=1)


def dvdt_point():
    return json.dumps({"run": {"dvdt_prof": json.loads(dvdt_list())[:-1],
                               "per_layer_info": [{"name": "conv1", "timestamp": "2017-09-19T12:00:00.000000"},
                                                  {"name": "fc", "timestamp": "2017-09-19T12:00:00.000012"},
                                                  {"timestamp": "2017-09-19T12:00:00.000040"}]},
                       "extra": {"ignored": [1, 2, 3]}})


# ---- PlaidML event logs (the 2017 layout of resources/plaidml/eventlog.proto)
def varint(v):
    out = b""
    while True:
        b = v & 0x7F
        v >>= 7
        out += bytes([b | (0x80 if v else 0)])
        if not v:
            return out


def field(n, wire, payload):
    return varint((n << 3) | wire) + (varint(len(payload)) + payload if wire == 2 else varint(payload))


def duration(ns):
    return field(1, 0, ns // 1_000_000_000) + field(2, 0, ns % 1_000_000_000)


def any_msg(type_name, value):
    return field(1, 2, b"type.vertex.ai/" + type_name.encode()) + field(2, 2, value)


def uid(name):
    # The 2017 layout names activities, clocks and domains by 16-byte UUIDs (a real log:
    # tests/data/plaidml); short names made every seed of it a refused file.
    return (name.encode() * 16)[:16]


def event(parent, instance, verb, domain, start, end, metadata=()):
    out = b""
    if parent:
        out += field(1, 2, uid(parent))
    out += field(2, 2, uid(instance))
    if verb:
        out += field(3, 2, verb.encode())
    out += field(4, 2, uid("clock-0"))
    if start is not None:
        out += field(5, 2, duration(start))
    if end is not None:
        out += field(6, 2, duration(end))
    for m in metadata:
        out += field(7, 2, m)
    if domain:
        out += field(8, 2, uid(domain))
    return out


def record(events, magic=False):
    r = field(1, 2, field(1, 0, 0x4C747645)) if magic else b""
    for e in events:
        r += field(2, 2, e)
    return varint(len(r)) + r


def plaidml_2017():
    kernel_info = field(1, 2, b"conv_kernel") + field(2, 2, b"__kernel void conv_kernel(__global float* o) { }")
    run_info = field(1, 2, uid("k1"))
    log = record([event("", "dom", "plaidml::Process", "", 0, 10_000_000),
                  event("", "k1", "tile::hal::opencl::BuildKernel", "dom", 500_000, 900_000,
                        [any_msg("vertexai.tile.hal.opencl.proto.KernelInfo", kernel_info)]),
                  event("", "run", "tile::hal::opencl::Kernel::Run", "dom", 1_000_000, 5_000_000,
                        [any_msg("vertexai.tile.hal.opencl.proto.RunInfo", run_info)])], magic=True)
    log += record([event("run", "e1", "tile::hal::opencl::Executing", "dom", 2_000_000, None)])
    log += record([event("", "e1", "", "", None, 3_000_000)])
    return log


def activity_id(index, stream=b""):
    return field(1, 0, index) + (field(2, 2, stream) if stream else b"")


def event_2018(index, parent, verb, clock, start, end, metadata=(), stream=b""):
    out = field(1, 2, activity_id(parent)) if parent else b""
    out += field(2, 2, activity_id(index, stream))
    if verb:
        out += field(3, 2, verb.encode())
    if clock is not None:
        out += field(4, 2, field(1, 0, clock) if clock else b"")
    if start is not None:
        out += field(5, 2, duration(start))
    if end is not None:
        out += field(6, 2, duration(end))
    for m in metadata:
        out += field(7, 2, m)
    return out + field(8, 2, b"")


def plaidml_2018():
    t0 = 1_524_125_748 * 1_000_000_000
    device = any_msg("vertexai.tile.hal.opencl.proto.DeviceInfo", field(68, 2, b"gfx900"))
    build = any_msg("vertexai.tile.hal.opencl.proto.BuildInfo", field(1, 2, activity_id(2)))
    kernel = any_msg("vertexai.tile.hal.opencl.proto.KernelInfo",
                     field(1, 2, b"conv") + field(2, 2, b"__kernel void conv(__global float* o) { }"))
    run = any_msg("vertexai.tile.hal.opencl.proto.RunInfo", field(1, 2, activity_id(4)))
    log = record([event_2018(1, 0, "vertexai::EnumerateDevices", 0, t0, t0 + 500_000, stream=b"S" * 16),
                  event_2018(2, 1, "tile::hal::opencl::Device", 0, t0 + 10, t0 + 20, [device]),
                  event_2018(3, 0, "tile::hal::opencl::Build", 0, t0 + 1000, t0 + 2000, [build]),
                  event_2018(4, 3, "tile::hal::opencl::BuildKernel", 0, t0 + 1100, t0 + 1200, [kernel])], magic=True)
    log += record([event_2018(5, 0, "tile::hal::opencl::Kernel::Run", 0, t0 + 5000, t0 + 6000, [run]),
                   event_2018(6, 5, "tile::hal::opencl::HostQueue", 1, 100, 200),
                   event_2018(7, 5, "tile::hal::opencl::Executing", 1, 300, None),
                   event_2018(8, 0, "vertexai::AllocBuffer", 0, t0 + 7000, None)])
    log += record([event_2018(7, 0, "", None, None, 900)])
    return log


# ---- Nsight Systems SQLite
def nsys_db(path):
    if os.path.exists(path):
        os.remove(path)
    db = sqlite3.connect(path)
    db.execute("PRAGMA page_size = 512")
    g = (100 << 24) | 101
    gp = 100 << 24
    db.executescript(f"""
      CREATE TABLE StringIds (id INTEGER PRIMARY KEY, value TEXT NOT NULL);
      INSERT INTO StringIds VALUES (1, 'cudaLaunchKernel'), (2, 'void gemm<float>(float*)'), (3, 'main'), (4, 'range');
      CREATE TABLE ThreadNames (nameId INT NOT NULL, priority INT, globalTid INT);
      INSERT INTO ThreadNames VALUES (3, 0, {g});
      CREATE TABLE PROCESSES (globalPid INT, pid INT, name TEXT);
      INSERT INTO PROCESSES VALUES ({gp}, 100, 'python');
      CREATE TABLE TARGET_INFO_GPU (id INT, name TEXT, totalMemory INT, smCount INT, computeMajor INT, computeMinor INT);
      INSERT INTO TARGET_INFO_GPU VALUES (0, 'NVIDIA A100-SXM4-40GB', 42505273344, 108, 8, 0);
      CREATE TABLE CUPTI_ACTIVITY_KIND_RUNTIME (start INT NOT NULL, end INT NOT NULL, eventClass INT, globalTid INT,
        correlationId INT, nameId INT NOT NULL, returnValue INT, callchainId INT);
      INSERT INTO CUPTI_ACTIVITY_KIND_RUNTIME VALUES (1000, 1500, 1, {g}, 1, 1, 0, NULL), (2000, 2100, 1, {g}, NULL, 1, 0, NULL);
      CREATE TABLE CUPTI_ACTIVITY_KIND_KERNEL (start INT NOT NULL, end INT NOT NULL, deviceId INT NOT NULL,
        contextId INT, streamId INT NOT NULL, correlationId INT, globalPid INT, demangledName INT NOT NULL,
        shortName INT, gridX INT, blockX INT);
      INSERT INTO CUPTI_ACTIVITY_KIND_KERNEL VALUES (1600, 4600, 0, 1, 7, 1, {gp}, 2, 2, 80, 256);
      CREATE TABLE CUPTI_ACTIVITY_KIND_MEMCPY (start INT NOT NULL, end INT NOT NULL, deviceId INT NOT NULL,
        contextId INT, streamId INT NOT NULL, correlationId INT, globalPid INT, bytes INT, copyKind INT);
      INSERT INTO CUPTI_ACTIVITY_KIND_MEMCPY VALUES (4700, 4900, 0, 1, 7, NULL, {gp}, 4096, 1);
      CREATE TABLE NVTX_EVENTS (start INT NOT NULL, end INT, eventType INT NOT NULL, rangeId INT, category INT,
        color INT, text TEXT, globalTid INT, endGlobalTid INT, textId INT, domainId INT);
      INSERT INTO NVTX_EVENTS VALUES (500, 6000, 59, NULL, NULL, NULL, 'forward', {g}, NULL, NULL, 0),
        (700, NULL, 34, NULL, NULL, NULL, 'mark', {g}, NULL, NULL, 0),
        (800, 900, 60, NULL, NULL, NULL, NULL, {g}, {g + 1}, 4, 0);
    """)
    db.commit()
    db.execute("VACUUM")
    db.close()
    with open(path, "rb") as f:
        data = f.read()
    os.remove(path)
    return data


# ---- microbenchmark CSVs (predict --microbench): the notebook's GEMM table and the
# convolution table's columns, with a repeat, an incomplete row and CRLF line ends
def gemm_csv():
    return "batch_size,M,N,K,kernel_runtime,comment\n1,2048,4096,1024,777,x\n1,64,64,64,5,\n1,64,64,64,7,\n8,512,,64,3,\n"


def conv_csv():
    head = "pass,grads,N,C,K,H,W,R,S,stride,padding,dtype,kernel_runtime,kernels\r\n"
    rows = ["forward,,32,64,64,56,56,3,3,1,1,float32,105.2,3", "backward,input+weight,32,64,64,56,56,3,3,1,1,float32,240.9,5",
            "forward,,128,256,256,14,14,1,1,1,0,bfloat16,40.5,1", "backward,weight,16,3,64,224,224,7,7,2,3,float32,900,4",
            "forward,,32,64,64,56,56,3,3,1,1,float32,110,3", "forward,,32,1024,64,7,7,1,1,2,0,float16,"]
    return head + "\r\n".join(rows) + "\r\n"


# ---- side inputs: a GPU file, the user's kernel classes, an overheads model
def gpu_file():
    return json.dumps({"gpus": [{"name": "MyGPU", "match": ["My"], "source": "datasheet", "memory_gib": 48,
                                 "arch": "sm89", "sms": 142, "dram_gbs": 960, "l2_gbs": 4000, "l2_mib": 96,
                                 "smem_per_sm_kib": 100, "fp64_tflops": 1.4, "fp32_tflops": 91.1,
                                 "tf32_tflops": 183, "fp16_tflops": 362, "bf16_tflops": 362, "pcie_gbs": 32,
                                 "nvlink_gbs": 0, "network_gbs": 12.5, "gpus_per_node": 8,
                                 "kernel_floor_us": 2.5}]})


def kernel_classes():
    rules = {"rules": [{"class": "mine", "pattern": "^my_(fwd|bwd)"},
                       {"class": "sparse", "pattern": "fbgemm_gpu::", "unless": "::.*(gemm|embedding)"}]}
    return json.dumps(rules).encode() + b"\0" + b"void fbgemm_gpu::embedding_forward_kernel<float>(int)"


def overheads_file():
    return json.dumps({"t1": [3.2, 1.1], "t2": {"aten::linear": [5.0, 0.5]}, "t3": {"aten::relu": [2.0, 0.1]},
                       "t4": {"cudaLaunchKernel": [4.1, 0.3]}, "t5": {"aten::addmm": [1.0, 0.2]},
                       "launches": {"aten::addmm": ["cudaLaunchKernel"]}, "counts": {"t1": 12},
                       "profiler_costs": {"cpu_event_overhead_us": 1.5, "gpu_event_overhead_us": 0.2,
                                          "launch_length_us": 4.0}})


def main():
    write("trace_file", "kineto.json", kineto())
    write("trace_file", "kineto.json.gz", gz(kineto()))
    write("trace_file", "kineto_tbe.json", kineto_tbe())
    write("trace_file", "legacy_array.json", legacy())
    write("trace_file", "legacy_2021_conv.json", legacy_2021_conv())
    write("trace_file", "oddities.json", oddities())
    write("trace_file", "dvdt.json", dvdt_list())
    write("trace_file", "plaidml.log.gz", gz(plaidml_2017()))
    # rocprofv3's JSON result (io/rocprofv3_loader.h)
    write("trace_file", "rocprofv3.json", ROCPROFV3)
    # PyTorch's raw memory timeline: [t, action, bytes, category] (io/memory_timeline_raw_loader.h)
    write("trace_file", "memory_timeline.raw.json", MEMORY_TIMELINE_RAW)
    write("execution_trace", "et_1.0.1.json", et_old())
    write("execution_trace", "et_chakra.json", et_new())
    write("execution_trace", "et_chakra.json.gz", gz(et_new()))
    write("dvdt", "list.json", dvdt_list())
    write("dvdt", "ck_point.json", dvdt_point())
    write("plaidml", "mobilenet_like.log", plaidml_2017())
    write("plaidml", "activity_ids_2018.log", plaidml_2018())
    write("trace_file", "plaidml_2018.log.gz", gz(plaidml_2018()))
    db = nsys_db(os.path.join(CORPUS, "tmp.sqlite"))
    write("nsys_sqlite", "nsys.sqlite", db)
    write("trace_file", "nsys.sqlite", db)
    write("link", "et_kineto.bin", et_kineto_pair())
    write("link", "et_old_kineto.bin", et_old().encode() + b"\0" + kineto().encode())
    write("microbench", "gemm.csv", gemm_csv())
    write("microbench", "conv.csv", conv_csv())
    write("gpu_file", "one_gpu.json", gpu_file())
    write("kernel_classes", "rules_and_name.bin", kernel_classes())
    write("kernel_classes", "name_only.bin", b"ampere_sgemm_128x64_nn")
    write("overheads_file", "notebook.json", overheads_file())
    return 0


if __name__ == "__main__":
    sys.exit(main())
