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
  sweep_gemm       Kineto traces (shapes recorded, one step a dtype) of generic size grids,
  sweep_attention  for the learned efficiency curves (tools/fit_efficiency.py): mm, addmm,
  sweep_memory     bmm and linear backward in bf16/fp16/fp32/tf32; fused attention forward
                   and backward in bf16/fp16; elementwise, reductions, softmax, layer norm,
                   embedding and host/device copies at 2^10..2^28 elements
  sweep_unaligned  the same at innermost dims of 197..5185 (not whole 16-byte vectors)

Each training workload runs 2 warm-up steps and profiles 3 (schedule wait 1, warmup 1,
active 3) with shapes and memory recorded, as a user profiling an iteration would.
Needs torch (and torchvision for resnet50); nothing is downloaded.
"""
import json
import os
import re
import sys
import time

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.profiler import ProfilerActivity, profile, schedule

OUT = sys.argv[1] if len(sys.argv) > 1 else "."
WANT = set(sys.argv[2:]) or {"resnet50", "resnet18", "resnet50_bf16", "bert", "ddp", "et", "micro", "peaks",
                              "convbench", "convbench_bf16", "sweep_gemm", "sweep_attention", "sweep_memory",
                              "sweep_unaligned"}
DEV = "cuda"
# File names start with the GPU's short name ("h100", "h200", ...): traces of the same
# workload on two GPUs are a what-if pair (tools/fit_efficiency.py).
GPU = (re.findall(r"\b[a-z]+\d{2,4}", torch.cuda.get_device_name().lower()) or ["gpu"])[0]
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
    cnn(GPU + "_resnet50_train", "resnet50", 64)


def resnet18():
    cnn(GPU + "_resnet18_train", "resnet18", 48)


def resnet50_bf16():
    cnn(GPU + "_resnet50_bf16_train", "resnet50", 64, amp_dtype=torch.bfloat16)


def bert():
    layer = nn.TransformerEncoderLayer(1024, 16, 4096, batch_first=True, norm_first=True)
    model = nn.Sequential(nn.TransformerEncoder(layer, 6), nn.Linear(1024, 1024)).to(DEV)
    x = torch.randn(16, 512, 1024, device=DEV)
    train(GPU + "_transformer_bf16", model, lambda: (x, x), nn.MSELoss(), amp_dtype=torch.bfloat16)


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
    train(GPU + "_ddp_embedding_mlp", model, lambda: (idx, y), nn.MSELoss())
    dist.destroy_process_group()


def et():
    model = nn.Sequential(nn.Linear(512, 2048), nn.GELU(), nn.Linear(2048, 512)).to(DEV)
    x = torch.randn(256, 512, device=DEV)
    train(GPU + "_mlp", model, lambda: (x, x), nn.MSELoss(), et_path=os.path.join(OUT, GPU + "_mlp_et.json"))


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


def sweep_trace(name, sections, budget_s=90):
    """Profiles each section (a list of (label, fn) pairs) as one step of a Kineto trace
    with shapes recorded: every fn runs once unprofiled first (cuBLAS/cuDNN heuristics,
    allocator growth), then 3 times inside the step. A section stops at its share of
    budget_s, so a slow GPU still records every section."""
    path = os.path.join(OUT, name + ".pt.trace.json.gz")
    ran = 0
    for _, calls in sections:
        for _, fn in calls:
            fn()
    torch.cuda.synchronize()
    share = budget_s / max(1, len(sections))
    # No schedule: one profiling cycle holds every section; each is a ProfilerStep#N as
    # a scheduled profile names its steps (a schedule of active=N exported only its last).
    with profile(activities=[ProfilerActivity.CPU, ProfilerActivity.CUDA], record_shapes=True) as prof:
        for step, (label, calls) in enumerate(sections):
            start = time.perf_counter()
            with torch.profiler.record_function(f"ProfilerStep#{step}"):
                with torch.profiler.record_function("sweep: " + label):
                    for _, fn in calls:
                        if time.perf_counter() - start > share:
                            break
                        for _ in range(3):
                            fn()
                        ran += 1
                torch.cuda.synchronize()
    prof.export_chrome_trace(path + ".json")
    import gzip, shutil
    with open(path + ".json", "rb") as src, gzip.open(path, "wb") as dst:
        shutil.copyfileobj(src, dst)
    os.remove(path + ".json")
    print(name, "->", path, os.path.getsize(path), "bytes,", ran, "problems", flush=True)


def rand(*shape, dtype=torch.float32, grad=False):
    return torch.randn(*shape, device=DEV, dtype=dtype, requires_grad=grad)


def sweep_gemm():
    """aten::mm, addmm (linear with bias), bmm and a linear layer's backward over a
    generic size grid (not any model's layers), bf16, fp16, fp32 and tf32."""
    sizes = (128, 512, 2048, 8192)
    sections = []
    for label, dtype, tf32 in [("bf16", torch.bfloat16, False), ("fp16", torch.float16, False),
                               ("fp32", torch.float32, False), ("tf32", torch.float32, True)]:
        calls = []
        torch.backends.cuda.matmul.allow_tf32 = tf32
        for m in sizes:
            for n in sizes:
                for k in sizes:
                    a, b = rand(m, k, dtype=dtype), rand(k, n, dtype=dtype)
                    calls.append((f"mm {m}x{n}x{k}", lambda a=a, b=b: torch.mm(a, b)))
        for tokens in (256, 4096, 16384):
            for fin, fout in ((768, 3072), (3072, 768), (4096, 4096), (1024, 50304)):
                x, w, bias = rand(tokens, fin, dtype=dtype), rand(fout, fin, dtype=dtype), rand(fout, dtype=dtype)
                calls.append((f"linear {tokens}x{fin}->{fout}", lambda x=x, w=w, bias=bias: F.linear(x, w, bias)))
                xg, wg = rand(tokens, fin, dtype=dtype, grad=True), rand(fout, fin, dtype=dtype, grad=True)
                go = rand(tokens, fout, dtype=dtype)
                calls.append((f"linear backward {tokens}x{fin}->{fout}",
                              lambda xg=xg, wg=wg, go=go: torch.autograd.grad(F.linear(xg, wg), (xg, wg), go)))
        for batch in (8, 64, 256):
            for s in (64, 256, 1024):
                for d in (64, 128):
                    q, kt = rand(batch, s, d, dtype=dtype), rand(batch, d, s, dtype=dtype)
                    calls.append((f"bmm {batch}x{s}x{d}", lambda q=q, kt=kt: torch.bmm(q, kt)))
        sections.append((label, calls))
    # tf32 on only for its own section's calls (allow_tf32 is read at each call)
    tf = [(label, [(n, (lambda fn=fn, on=(label == "tf32"): _with_tf32(on, fn))) for n, fn in calls])
          for label, calls in sections]
    sweep_trace(GPU + "_sweep_gemm", tf, budget_s=120)
    torch.backends.cuda.matmul.allow_tf32 = False


def _with_tf32(on, fn):
    torch.backends.cuda.matmul.allow_tf32 = on
    return fn()


def sweep_attention():
    """Fused scaled-dot-product attention forward and backward (flash, efficient or
    cuDNN, as PyTorch picks), bf16 and fp16, causal and not."""
    sections = []
    for label, dtype in [("bf16", torch.bfloat16), ("fp16", torch.float16)]:
        calls = []
        for b in (1, 8, 32):
            for h in (8, 16):
                for s in (128, 512, 2048):
                    for d in (64, 128):
                        for causal in (False, True):
                            q, k, v = (rand(b, h, s, d, dtype=dtype, grad=True) for _ in range(3))
                            go = rand(b, h, s, d, dtype=dtype)
                            fwd = lambda q=q, k=k, v=v, c=causal: F.scaled_dot_product_attention(q, k, v, is_causal=c)
                            calls.append((f"sdpa {b}x{h}x{s}x{d}", lambda fwd=fwd: fwd().detach()))
                            calls.append((f"sdpa backward {b}x{h}x{s}x{d}",
                                          lambda fwd=fwd, q=q, k=k, v=v, go=go: torch.autograd.grad(fwd(), (q, k, v), go)))
        sections.append((label, calls))
    sweep_trace(GPU + "_sweep_attention", sections, budget_s=90)


def sweep_memory():
    """Memory-bound ops over sizes 2^10..2^28 elements: elementwise (add, mul, gelu, relu,
    sigmoid, a dtype cast), reductions (sum, mean, amax over the last dim), softmax,
    layer norm, embedding lookups, and host<->device copies (pinned and pageable)."""
    sections = []
    for label, dtype in [("bf16", torch.bfloat16), ("fp32", torch.float32)]:
        calls = []
        for e in range(10, 29, 2):
            x, y = rand(1 << e, dtype=dtype), rand(1 << e, dtype=dtype)
            calls += [(f"add 2^{e}", lambda x=x, y=y: x + y), (f"mul 2^{e}", lambda x=x, y=y: x * y),
                      (f"gelu 2^{e}", lambda x=x: F.gelu(x)), (f"relu 2^{e}", lambda x=x: F.relu(x)),
                      (f"sigmoid 2^{e}", lambda x=x: torch.sigmoid(x)),
                      (f"cast 2^{e}", lambda x=x, t=(torch.float32 if dtype != torch.float32 else torch.bfloat16): x.to(t))]
        for cols in (128, 1024, 8192):
            for e in range(12, 29, 4):
                rows = max(1, (1 << e) // cols)
                x = rand(rows, cols, dtype=dtype)
                w, bias = rand(cols, dtype=dtype), rand(cols, dtype=dtype)
                calls += [(f"sum {rows}x{cols}", lambda x=x: x.sum(-1)), (f"mean {rows}x{cols}", lambda x=x: x.mean(-1)),
                          (f"amax {rows}x{cols}", lambda x=x: x.amax(-1)),
                          (f"softmax {rows}x{cols}", lambda x=x: torch.softmax(x, -1)),
                          (f"layer_norm {rows}x{cols}", lambda x=x, w=w, bias=bias, c=cols: F.layer_norm(x, (c,), w, bias))]
        for vocab in (32000, 128000):
            for dim in (512, 2048):
                table = rand(vocab, dim, dtype=dtype)
                for tokens in (512, 8192):
                    idx = torch.randint(0, vocab, (tokens,), device=DEV)
                    calls.append((f"embedding {vocab}x{dim} {tokens}", lambda t=table, i=idx: F.embedding(i, t)))
        sections.append((label, calls))
    calls = []
    for e in range(12, 29, 4):
        pinned = torch.empty(1 << e, dtype=torch.uint8).pin_memory()
        pageable = torch.empty(1 << e, dtype=torch.uint8)
        dev = torch.empty(1 << e, dtype=torch.uint8, device=DEV)
        calls += [(f"h2d pinned 2^{e}", lambda d=dev, h=pinned: d.copy_(h, non_blocking=True)),
                  (f"h2d pageable 2^{e}", lambda d=dev, h=pageable: d.copy_(h)),
                  (f"d2h pinned 2^{e}", lambda d=dev, h=pinned: h.copy_(d, non_blocking=True)),
                  (f"d2h pageable 2^{e}", lambda d=dev, h=pageable: h.copy_(d)),
                  (f"d2d 2^{e}", lambda d=dev: d.clone())]
    sections.append(("copies", calls))
    sweep_trace(GPU + "_sweep_memory", sections, budget_s=90)


def sweep_unaligned():
    """The same kinds of ops at sizes whose innermost dim is not a whole number of 16-byte
    vectors (197, 577, 1025, 2305, 5185: a ViT's (image/patch)^2 + 1 tokens, 1000
    classes), which cuBLAS and PyTorch's row kernels (softmax, layer norm, reductions)
    run on slower, unvectorised paths: mm, bmm (scores and scores @ values), linear,
    softmax, layer norm, sum, amax and elementwise, bf16/fp16/fp32."""
    odd = (197, 577, 1025, 2305, 5185)
    sections = []
    for label, dtype in [("bf16", torch.bfloat16), ("fp16", torch.float16), ("fp32", torch.float32)]:
        calls = []
        for m in (1024, 5185):
            for n in (197, 1000, 5185):
                for k in (64, 1000, 4096):
                    a, b = rand(m, k, dtype=dtype), rand(k, n, dtype=dtype)
                    calls.append((f"mm {m}x{n}x{k}", lambda a=a, b=b: torch.mm(a, b)))
        for batch in (16, 64):
            for s in odd:
                q, kt = rand(batch, s, 64, dtype=dtype), rand(batch, 64, s, dtype=dtype)
                p_ = rand(batch, s, s, dtype=dtype)
                calls.append((f"bmm scores {batch}x{s}", lambda q=q, kt=kt: torch.bmm(q, kt)))
                calls.append((f"bmm values {batch}x{s}", lambda p_=p_, q=q: torch.bmm(p_, q)))
                calls.append((f"softmax {batch}x{s}x{s}", lambda p_=p_: torch.softmax(p_, -1)))
        for tokens in (197, 5185, 9999):
            for fin, fout in ((768, 3072), (1024, 1024), (1000, 1000)):
                x, w, bias = rand(tokens, fin, dtype=dtype), rand(fout, fin, dtype=dtype), rand(fout, dtype=dtype)
                calls.append((f"linear {tokens}x{fin}->{fout}", lambda x=x, w=w, bias=bias: F.linear(x, w, bias)))
        for cols in odd:
            for e in (16, 20, 24, 28):
                rows = max(1, (1 << e) // cols)
                x = rand(rows, cols, dtype=dtype)
                w, bias = rand(cols, dtype=dtype), rand(cols, dtype=dtype)
                calls += [(f"softmax {rows}x{cols}", lambda x=x: torch.softmax(x, -1)),
                          (f"layer_norm {rows}x{cols}", lambda x=x, w=w, bias=bias, c=cols: F.layer_norm(x, (c,), w, bias)),
                          (f"sum {rows}x{cols}", lambda x=x: x.sum(-1)), (f"amax {rows}x{cols}", lambda x=x: x.amax(-1)),
                          (f"add {rows}x{cols}", lambda x=x: x + x), (f"mul {rows}x{cols}", lambda x=x, w=w: x * w)]
        sections.append((label, calls))
    sweep_trace(GPU + "_sweep_unaligned", sections, budget_s=90)


for name in ["micro", "peaks", "convbench", "convbench_bf16", "resnet50", "resnet18", "resnet50_bf16", "bert", "ddp",
             "et", "sweep_gemm", "sweep_attention", "sweep_memory", "sweep_unaligned"]:
    if name in WANT:
        try:
            globals()[name]()
        except Exception as e:  # one failing workload must not cost the others
            import traceback
            traceback.print_exc()
            print(name, "failed:", type(e).__name__, e, flush=True)
