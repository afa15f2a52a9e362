#include "perf/kernel_models.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <sstream>
#include <tuple>

#include "perf/measurement_csv.h"

namespace opscope {

namespace {

int64_t divRoundUp(int64_t x, int64_t y) { return (x + y - 1) / y; }
// Bytes of n floats rounded up to whole 32-byte sectors; n may be a mean (a bag of 0.3
// indices on average still reads a sector when it reads any).
double sectors(double floats) { return std::ceil(floats * 4 / 32) * 32; }

// Probability that `batch` distinct random rows of a table of e rows all lie in the x
// rows cached in L2: C(x, batch) / C(e, batch), as the notebook computes it (its
// product of batch ratios), in closed form through lgamma: a batch of 65536 over a
// table of millions of rows would otherwise loop once per row.
double hitRate(double x, double e, int64_t batch) {
  x = std::floor(x);
  if (batch <= 0 || x >= e) return 1;
  if (x < static_cast<double>(batch) || e <= 0) return 0;
  const double b = static_cast<double>(batch);
  const double logRatio = std::lgamma(x + 1) - std::lgamma(x - b + 1) - std::lgamma(e + 1) + std::lgamma(e - b + 1);
  return std::clamp(std::exp(logRatio), 0.0, 1.0);
}

}  // namespace

double embeddingForwardUs(const GpuSpec& g, const EmbeddingShape& s) {
  if (s.batch <= 0 || s.tables <= 0 || s.dim <= 0 || s.rows <= 0 || s.rowsPerBlock <= 0) return 0;
  const double b = static_cast<double>(s.batch), t = static_cast<double>(s.tables);
  const int64_t warpsSimultaneous = static_cast<int64_t>(g.sms) * s.rowsPerBlock;
  const int64_t tablesSimultaneous = divRoundUp(warpsSimultaneous, s.batch);
  const double avgTableBytes = std::min(std::floor(g.l2Bytes / static_cast<double>(tablesSimultaneous)),
                                        static_cast<double>(s.rows * s.dim * 4));
  const double indicesBytes = s.shmem ? 0 : sectors(s.bag);
  const double rowsCached = std::floor((avgTableBytes - indicesBytes) / 4 / static_cast<double>(s.dim));
  const double hr = hitRate(rowsCached, static_cast<double>(s.rows), s.batch);
  const double threadsX = std::max(static_cast<double>(s.dim) / 4, 1024.0 / static_cast<double>(s.rowsPerBlock));
  const double indicesDram = sectors(s.bag);
  const double indicesL2 = s.shmem ? 0 : std::floor(static_cast<double>(s.dim) / (4 * threadsX)) * sectors(s.bag);
  const double tableTraffic = static_cast<double>(s.bag) * sectors(s.dim);
  const double outputTraffic = sectors(s.dim);
  const double l2 = ((32 + 32 + indicesL2) * b + hr * (tableTraffic * b - avgTableBytes)) * t;
  const double dram =
      ((indicesDram + outputTraffic) * b + (1 - hr) * (tableTraffic * b - avgTableBytes) + avgTableBytes) * t;
  return std::max(dram / g.dramGBs / 1000.0, g.l2GBs > 0 ? l2 / g.l2GBs / 1000.0 : 0.0);
}

double embeddingBackwardSgdUs(const GpuSpec& g, const EmbeddingShape& s) {
  const double indices = s.shmem ? sectors(s.bag) : static_cast<double>(s.bag) * 32;
  const double gradOutput = s.shmem ? sectors(s.dim) : static_cast<double>(s.bag) * sectors(s.dim) * 2;
  const double perWarp = 32 + 32 + indices + 2 * static_cast<double>(s.bag) * sectors(s.dim) + gradOutput;
  const double warps = static_cast<double>(s.batch) * static_cast<double>(s.tables);
  const double macs = warps * static_cast<double>(s.bag) * 4 * static_cast<double>(s.dim / 4);
  return std::max(warps * perWarp / g.dramGBs / 1000.0, macs / (g.fp32 * 1e3) / 1000.0);
}

double embeddingBackwardRowwiseAdagradUs(const GpuSpec& g, const EmbeddingShape& s) {
  const double bag = static_cast<double>(s.bag);
  const double perWarp =
      32 + 32 + 2 * sectors(s.bag) + bag * sectors(s.dim) + (bag + 1) * sectors(s.dim) + bag * sectors(s.dim);
  return static_cast<double>(s.batch) * static_cast<double>(s.tables) * perWarp / g.dramGBs / 1000.0;
}

double gemmFlops(const GemmShape& s) {
  return 2.0 * static_cast<double>(s.batch) * static_cast<double>(s.m) * static_cast<double>(s.n) *
         static_cast<double>(s.k);
}

double gemmBytes(const GemmShape& s) {
  const double m = static_cast<double>(s.m), n = static_cast<double>(s.n), k = static_cast<double>(s.k);
  return static_cast<double>(s.batch) * (m * k + k * n + m * n) * dtypeBytes(s.dtype);
}

bool usesTf32TensorCores(std::string_view name) {
  // Asked of every kernel of every op: one pass over the name, stopping at each 't' or
  // 'T' (every marker starts with one) to compare the markers there, ASCII case folded
  // without the locale's tolower.
  const auto lower = [](char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c; };
  const auto at = [&](size_t i, std::string_view marker) {
    if (name.size() - i < marker.size()) return false;
    for (size_t k = 1; k < marker.size(); ++k)
      if (lower(name[i + k]) != marker[k]) return false;
    return true;
  };
  for (size_t i = 0; i < name.size(); ++i)
    if (lower(name[i]) == 't' && (at(i, "tf32") || at(i, "tensorop_s1688") || at(i, "tensorop_s16816"))) return true;
  return false;
}

MathPath mathPath(const GpuSpec& g, DType t, const std::vector<KernelLaunch>& kernels) {
  MathPath p;
  p.tf32 = t == DType::F32 && g.tf32 > 0 && std::any_of(kernels.begin(), kernels.end(), [](const KernelLaunch& k) {
             return usesTf32TensorCores(k.name);
           });
  const int gpuArch = smVersion(g.arch);
  if (gpuArch >= 90) {
    bool older = false, current = false;
    for (const KernelLaunch& k : kernels) {
      const int v = smVersion(kernelNameArchitecture(k.name));
      if (v == 0) continue;
      (v < 90 ? older : current) = true;
    }
    p.legacyTensorCores = older && !current;
  }
  for (const KernelLaunch& k : kernels)
    if (!isLayoutTranspose(k.name)) p.grid = std::max(p.grid, k.blocks());
  return p;
}

bool isLayoutTranspose(std::string_view kernel) {
  return kernel.find("nchwToNhwcKernel") != std::string_view::npos ||
         kernel.find("nhwcToNchwKernel") != std::string_view::npos;
}

namespace {

// The share of the GPU's SMs a grid of blocks keeps busy: 1 when not recorded or when
// it has as many blocks as SMs or more.
double smCoverage(const GpuSpec& g, int64_t blocks) {
  return blocks > 0 && g.sms > 0 && blocks < g.sms ? static_cast<double>(blocks) / static_cast<double>(g.sms) : 1.0;
}

}  // namespace

int64_t widestGrid(const std::vector<KernelLaunch>& kernels) {
  int64_t most = 0;
  for (const KernelLaunch& k : kernels) most = std::max(most, k.blocks());
  return most;
}

double rooflineUs(const GpuSpec& g, double flops, double bytes, DType t, MathPath path) {
  const bool tf32 = path.tf32 && t == DType::F32 && g.tf32 > 0;
  double peak = tf32 ? g.tf32 * 1e12 : g.peakFlops(t);
  const bool tensorPeak = tf32 || ((t == DType::F16 || t == DType::BF16) && peak > g.fp32 * 1e12);
  if (path.legacyTensorCores && tensorPeak) peak *= kLegacyTensorCoreShare;
  const double coverage = smCoverage(g, path.grid);
  return std::max({flops / peak * 1e6 / coverage, g.dramUs(bytes) / coverage, g.kernelFloorUs});
}

double gemmRooflineUs(const GpuSpec& g, const GemmShape& s) {
  return rooflineUs(g, gemmFlops(s), gemmBytes(s), s.dtype, s.path());
}

double memoryBoundUs(const GpuSpec& g, double bytes, int64_t gridBlocks) {
  return std::max(g.dramUs(bytes) / smCoverage(g, gridBlocks), g.kernelFloorUs);
}

std::optional<GemmMicrobench> GemmMicrobench::fromCsv(std::string_view text, std::string& error) {
  constexpr double kDim = 1ull << 40;  // no GEMM has a larger dim; int64 products stay finite as doubles
  const auto rows = readMeasurementCsv(text,
                                       {{"batch_size", true, false, false, kDim},
                                        {"M", true, false, false, kDim},
                                        {"N", true, false, false, kDim},
                                        {"K", true, false, false, kDim},
                                        {"kernel_runtime"}},
                                       "batch_size, M, N, K, kernel_runtime", error);
  if (!rows) return std::nullopt;
  std::map<std::tuple<int64_t, int64_t, int64_t, int64_t>, std::pair<double, int>> sums;
  for (const CsvRow& r : *rows) {
    const auto& v = r.numbers;
    auto& [sum, count] = sums[{static_cast<int64_t>(v[0]), static_cast<int64_t>(v[1]), static_cast<int64_t>(v[2]),
                               static_cast<int64_t>(v[3])}];
    sum += v[4];
    ++count;
  }
  GemmMicrobench mb;
  for (const auto& [key, sc] : sums)
    mb.points_.push_back(
        {std::get<0>(key), std::get<1>(key), std::get<2>(key), std::get<3>(key), sc.first / sc.second});
  return mb;
}

double GemmMicrobench::predictUs(const GpuSpec& g, const GemmShape& s) const {
  struct Near {
    double distance;
    const Point* p;
  };
  std::vector<Near> near;
  near.reserve(points_.size());
  auto lg = [](int64_t x) { return std::log2(static_cast<double>(std::max<int64_t>(1, x))); };
  for (const Point& p : points_) {
    const double d = std::hypot(std::hypot(lg(p.batch) - lg(s.batch), lg(p.m) - lg(s.m)),
                                std::hypot(lg(p.n) - lg(s.n), lg(p.k) - lg(s.k)));
    if (d == 0) return p.us;
    near.push_back({d, &p});
  }
  const size_t k = std::min<size_t>(4, near.size());
  std::partial_sort(near.begin(), near.begin() + static_cast<std::ptrdiff_t>(k), near.end(),
                    [](const Near& a, const Near& b) { return a.distance < b.distance; });
  double weights = 0, fraction = 0;  // measured time / roofline time of the neighbours
  for (size_t i = 0; i < k; ++i) {
    const Point& p = *near[i].p;
    const double roof = gemmRooflineUs(g, {p.batch, p.m, p.n, p.k, s.dtype, s.tf32, s.legacyTensorCores, s.grid});
    const double w = 1 / near[i].distance;
    fraction += w * p.us / roof;
    weights += w;
  }
  return gemmRooflineUs(g, s) * fraction / weights;
}

}  // namespace opscope
