#!/usr/bin/env python3
"""Records real PyTorch-profiler (Kineto) traces on the GPU of this machine, for
opscope's prediction checks (docs/prediction.md) and loader tests.

    python3 tools/record_gpu_traces.py OUT_DIR [WORKLOAD...]

Workloads (default: all):
  resnet50   torchvision ResNet-50 training, batch 64, FP32 (cuDNN convolutions in
             TF32 as PyTorch's default allows): convolutions, batch norm, pooling
  resnet18   torchvision ResNet-18 training, batch 48, FP32 (a second CNN, at a batch
             the convolution table below never measured)
  resnet50_bf16  ResNet-50 training, batch 64, bf16 autocast (AMP)
  bert       a 6-layer transformer encoder (d 1024, 16 heads, batch 16 x 512), bf16
             autocast: GEMMs, fused attention, layer norm
  ddp        an embedding-bag + MLP model under DistributedDataParallel on one rank
             (NCCL): all-reduce kernels with record_param_comms' message sizes
  et         a small MLP with an execution trace (ExecutionTraceObserver) of the
             same steps as its Kineto trace: OUT_DIR/mlp_et.json + mlp.pt.trace.json.gz
  micro      the device's measured peaks: GEMM TFLOP/s per dtype, device-to-device
             and pinned host-to-device copy bandwidth, empty-kernel launch time
             (OUT_DIR/micro.json)
  peaks      the same peaks as the profiler measures them (the kernels' own durations,
             as a trace records them) plus DRAM read-only and write-only, L2, FP64
             and the shortest kernel: the figures of a measured preset
             (OUT_DIR/peaks.json)
  convbench  cuDNN convolution kernel times over a grid of shapes, forward and
             backward, float32 NCHW (TF32 as PyTorch allows), cudnn.benchmark on as
             in resnet50: the CSV `opscope predict --conv-microbench` reads
             (OUT_DIR/conv_microbench.csv). The grid is generic (batch 32 and 128,
             channels 64/256/1024, 7..112 pixels, 1x1, 3x3 and 7x7 stem kernels),
             not any one model's layers.
  convbench_bf16  the same grid in bfloat16 (OUT_DIR/conv_microbench_bf16.csv)

Each training workload runs 2 warm-up steps and profiles 3 (schedule wait 1, warmup 1,
active 3) with shapes and memory recorded, as a user profiling an iteration would.
Needs torch (and torchvision for resnet50); nothing is downloaded.
"""
import json
import os
import sys
import time

import torch
import torch.nn as nn
from torch.profiler import ProfilerActivity, profile, schedule

OUT = sys.argv[1] if len(sys.argv) > 1 else "."
WANT = set(sys.argv[2:]) or {"resnet50", "resnet18", "resnet50_bf16", "bert", "ddp", "et", "micro", "peaks",
                              "convbench", "convbench_bf16"}
DEV = "cuda"
os.makedirs(OUT, exist_ok=True)


def train(name, model, batch, loss_fn, amp_dtype=None, et_path=None, steps=5):
    opt = torch.optim.SGD(model.parameters(), lr=1e-3, momentum=0.9)
    kwargs = {}
    if et_path:
        from torch.profiler import ExecutionTraceObserver
        kwargs["execution_trace_observer"] = ExecutionTraceObserver().register_callback(et_path)
    path = os.path.join(OUT, name + ".pt.trace.json.gz")
    with profile(activities=[ProfilerActivity.CPU, ProfilerActivity.CUDA],
                 schedule=schedule(wait=1, warmup=1, active=3),
                 on_trace_ready=lambda p: p.export_chrome_trace(path),
                 record_shapes=True, profile_memory=True, **kwargs) as prof:
        for _ in range(steps):
            x, y = batch()
            with torch.autocast(DEV, dtype=amp_dtype or torch.float32, enabled=amp_dtype is not None):
                loss = loss_fn(model(x), y)
            loss.backward()
            opt.step()
            opt.zero_grad(set_to_none=True)
            prof.step()
    torch.cuda.synchronize()
    print(name, "->", path, os.path.getsize(path), "bytes", flush=True)


def cnn(name, arch, batch, amp_dtype=None):
    import torchvision
    torch.backends.cudnn.benchmark = True
    model = getattr(torchvision.models, arch)().to(DEV)
    x = torch.randn(batch, 3, 224, 224, device=DEV)
    y = torch.randint(0, 1000, (batch,), device=DEV)
    train(name, model, lambda: (x, y), nn.CrossEntropyLoss(), amp_dtype=amp_dtype)


def resnet50():
    cnn("h100_resnet50_train", "resnet50", 64)


def resnet18():
    cnn("h100_resnet18_train", "resnet18", 48)


def resnet50_bf16():
    cnn("h100_resnet50_bf16_train", "resnet50", 64, amp_dtype=torch.bfloat16)


def bert():
    layer = nn.TransformerEncoderLayer(1024, 16, 4096, batch_first=True, norm_first=True)
    model = nn.Sequential(nn.TransformerEncoder(layer, 6), nn.Linear(1024, 1024)).to(DEV)
    x = torch.randn(16, 512, 1024, device=DEV)
    train("h100_transformer_bf16", model, lambda: (x, x), nn.MSELoss(), amp_dtype=torch.bfloat16)


class EmbMlp(nn.Module):
    def __init__(self):
        super().__init__()
        self.tables = nn.ModuleList(nn.EmbeddingBag(100000, 128, mode="sum") for _ in range(8))
        self.mlp = nn.Sequential(nn.Linear(8 * 128, 1024), nn.ReLU(), nn.Linear(1024, 1024), nn.ReLU(),
                                 nn.Linear(1024, 1))

    def forward(self, idx):
        return self.mlp(torch.cat([t(i) for t, i in zip(self.tables, idx)], dim=1))


def ddp():
    import torch.distributed as dist
    os.environ.setdefault("MASTER_ADDR", "127.0.0.1")
    os.environ.setdefault("MASTER_PORT", "29511")
    dist.init_process_group("nccl", rank=0, world_size=1)
    model = nn.parallel.DistributedDataParallel(EmbMlp().to(DEV), device_ids=[0])
    idx = [torch.randint(0, 100000, (2048, 20), device=DEV) for _ in range(8)]
    y = torch.randn(2048, 1, device=DEV)
    train("h100_ddp_embedding_mlp", model, lambda: (idx, y), nn.MSELoss())
    dist.destroy_process_group()


def et():
    model = nn.Sequential(nn.Linear(512, 2048), nn.GELU(), nn.Linear(2048, 512)).to(DEV)
    x = torch.randn(256, 512, device=DEV)
    train("h100_mlp", model, lambda: (x, x), nn.MSELoss(), et_path=os.path.join(OUT, "h100_mlp_et.json"))


def timed(fn, reps):
    for _ in range(3):
        fn()
    torch.cuda.synchronize()
    t = time.perf_counter()
    for _ in range(reps):
        fn()
    torch.cuda.synchronize()
    return (time.perf_counter() - t) / reps


def micro():
    out = {"device": torch.cuda.get_device_name(), "torch": torch.__version__,
           "sm_count": torch.cuda.get_device_properties(0).multi_processor_count,
           "total_memory": torch.cuda.get_device_properties(0).total_memory}
    n = 8192
    for label, dtype, tf32 in [("bf16", torch.bfloat16, False), ("fp16", torch.float16, False),
                               ("tf32", torch.float32, True), ("fp32", torch.float32, False)]:
        torch.backends.cuda.matmul.allow_tf32 = tf32
        a = torch.randn(n, n, device=DEV, dtype=dtype)
        b = torch.randn(n, n, device=DEV, dtype=dtype)
        s = timed(lambda: a @ b, 10)
        out[f"gemm_{label}_tflops"] = 2 * n ** 3 / s / 1e12
    torch.backends.cuda.matmul.allow_tf32 = False
    src = torch.empty(1 << 30, dtype=torch.uint8, device=DEV)
    dst = torch.empty_like(src)
    s = timed(lambda: dst.copy_(src), 20)
    out["d2d_copy_gbps_read_plus_write"] = 2 * src.numel() / s / 1e9
    host = torch.empty(1 << 28, dtype=torch.uint8).pin_memory()
    dev = torch.empty(1 << 28, dtype=torch.uint8, device=DEV)
    s = timed(lambda: dev.copy_(host, non_blocking=True), 10)
    out["h2d_pinned_gbps"] = host.numel() / s / 1e9
    z = torch.empty(1, device=DEV)
    s = timed(lambda: z.zero_(), 2000)
    out["small_kernel_launch_us"] = s * 1e6
    path = os.path.join(OUT, "micro.json")
    with open(path, "w") as f:
        json.dump(out, f, indent=1)
    print(json.dumps(out), flush=True)


def kernel_us(fn, reps=3, warmup=2):
    """Mean summed kernel time (µs; device copies and memsets count) of one fn() call as
    the profiler records it, and
    the names of the kernels it launched."""
    for _ in range(warmup):
        fn()
    torch.cuda.synchronize()
    path = "/dev/shm/opscope_kernel_us.json"
    with profile(activities=[ProfilerActivity.CUDA]) as prof:
        for _ in range(reps):
            fn()
        torch.cuda.synchronize()
    prof.export_chrome_trace(path)
    with open(path) as f:
        events = json.load(f)["traceEvents"]
    kernels = [e for e in events if e.get("cat") in ("kernel", "gpu_memcpy", "gpu_memset")]
    return sum(e["dur"] for e in kernels) / reps, sorted({e["name"] for e in kernels})


def peaks():
    p = torch.cuda.get_device_properties(0)
    out = {"device": torch.cuda.get_device_name(), "torch": torch.__version__, "sm_count": p.multi_processor_count,
           "total_memory": p.total_memory, "l2_bytes": getattr(p, "L2_cache_size", 0),
           "method": "kernel durations from torch.profiler (CUPTI), mean of 5 calls after 2 warm-ups"}
    n = 8192
    for label, dtype, tf32 in [("bf16", torch.bfloat16, False), ("fp16", torch.float16, False),
                               ("tf32", torch.float32, True), ("fp32", torch.float32, False),
                               ("fp64", torch.float64, False)]:
        torch.backends.cuda.matmul.allow_tf32 = tf32
        a = torch.randn(n, n, device=DEV, dtype=dtype)
        b = torch.randn(n, n, device=DEV, dtype=dtype)
        us, names = kernel_us(lambda: a @ b, 5)
        out[f"gemm_{label}_tflops"] = 2 * n ** 3 / us / 1e6
        out[f"gemm_{label}_kernels"] = names
        del a, b
    torch.backends.cuda.matmul.allow_tf32 = False
    big = 1 << 30
    src = torch.empty(big, dtype=torch.uint8, device=DEV)
    dst = torch.empty_like(src)
    us, _ = kernel_us(lambda: dst.copy_(src), 5)
    out["dram_copy_gbs_read_plus_write"] = 2 * big / us / 1e3
    f = torch.ones(big // 4, device=DEV)
    us, _ = kernel_us(lambda: f.sum(), 5)
    out["dram_read_gbs"] = big / us / 1e3
    us, _ = kernel_us(lambda: f.fill_(1.0), 5)
    out["dram_write_gbs"] = big / us / 1e3
    x = torch.randn(big // 4, device=DEV)
    y = torch.empty_like(x)
    us, _ = kernel_us(lambda: torch.add(x, x, out=y), 5)
    out["dram_elementwise_gbs_2read_1write"] = 3 * big / us / 1e3  # x read twice counted, as models count
    del src, dst, f, x, y
    for mib in (8, 16):
        s2 = torch.empty(mib << 20, dtype=torch.uint8, device=DEV)
        d2 = torch.empty_like(s2)
        us, _ = kernel_us(lambda: [d2.copy_(s2) for _ in range(20)], 3)
        out[f"l2_copy_{mib}mib_gbs_read_plus_write"] = 2 * 20 * (mib << 20) / us / 1e3
    host = torch.empty(1 << 28, dtype=torch.uint8).pin_memory()
    dev = torch.empty(1 << 28, dtype=torch.uint8, device=DEV)
    s = timed(lambda: dev.copy_(host, non_blocking=True), 10)
    out["h2d_pinned_gbps"] = host.numel() / s / 1e9
    z = torch.empty(1, device=DEV)
    durs = []
    for _ in range(5):
        us, _ = kernel_us(lambda: [z.zero_() for _ in range(200)], 1)
        durs.append(us / 200)
    out["shortest_kernel_us"] = sorted(durs)[2]
    path = os.path.join(OUT, "peaks.json")
    with open(path, "w") as fh:
        json.dump(out, fh, indent=1)
    print(json.dumps(out), flush=True)


def convbench_bf16():
    convbench(dtype=torch.bfloat16)


def convbench(budget_s=400, dtype=torch.float32):
    torch.backends.cudnn.benchmark = True
    torch.backends.cudnn.allow_tf32 = True
    shapes = []
    for r, stride in [(1, 1), (1, 2), (3, 1), (3, 2)]:
        for n in (32, 128):
            for hw in (7, 14, 28, 56, 112):
                for c in (64, 256, 1024):
                    for k in (64, 256, 1024):
                        if hw == 112 and (c > 256 or k > 256):
                            continue
                        shapes.append((n, c, k, hw, r, stride))
    for n in (16, 32, 128):
        for hw in (112, 224):
            shapes.append((n, 3, 64, hw, 7, 2))
    # Interleaved so that a run cut short by its budget still spans the grid.
    shapes = shapes[0::3] + shapes[1::3] + shapes[2::3]
    label = str(dtype).replace("torch.", "")
    path = os.path.join(OUT, "conv_microbench.csv" if dtype == torch.float32 else f"conv_microbench_{label}.csv")
    start = time.perf_counter()
    done = 0
    with open(path, "w") as fh:
        fh.write("pass,grads,N,C,K,H,W,R,S,stride,padding,dtype,kernel_runtime,kernels\n")
        for n, c, k, hw, r, stride in shapes:
            if time.perf_counter() - start > budget_s:
                break
            pad = r // 2
            x = torch.randn(n, c, hw, hw, device=DEV, dtype=dtype)
            w = torch.randn(k, c, r, r, device=DEV, dtype=dtype)
            fwd = lambda: torch.nn.functional.conv2d(x, w, None, stride, pad)
            us, names = kernel_us(fwd)
            fh.write(f"forward,,{n},{c},{k},{hw},{hw},{r},{r},{stride},{pad},{label},{us:.3f},{len(names)}\n")
            go = torch.randn_like(fwd())
            mask = [c != 3, True, False]
            grads = "input+weight" if mask[0] else "weight"
            bwd = lambda: torch.ops.aten.convolution_backward(go, x, w, None, [stride] * 2, [pad] * 2, [1, 1],
                                                              False, [0, 0], 1, mask)
            us, names = kernel_us(bwd)
            fh.write(f"backward,{grads},{n},{c},{k},{hw},{hw},{r},{r},{stride},{pad},{label},{us:.3f},{len(names)}\n")
            fh.flush()
            done += 1
            del x, w, go
    print("convbench:", done, "of", len(shapes), "shapes in", round(time.perf_counter() - start), "s ->", path,
          flush=True)


for name in ["micro", "peaks", "convbench", "convbench_bf16", "resnet50", "resnet18", "resnet50_bf16", "bert", "ddp",
             "et"]:
    if name in WANT:
        try:
            globals()[name]()
        except Exception as e:  # one failing workload must not cost the others
            import traceback
            traceback.print_exc()
            print(name, "failed:", type(e).__name__, e, flush=True)
