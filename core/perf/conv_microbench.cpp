#include "perf/conv_microbench.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <tuple>

#include "perf/measurement_csv.h"
#include "text/clip.h"

namespace opscope {

namespace {

// The square kernel and uniform stride of a 2-D, ungrouped, undilated problem; 0 when
// it is anything else (no row can stand for it).
std::pair<int64_t, int64_t> squareKernelAndStride(const ConvProblem& p) {
  if (p.x.size() != 4 || p.w.size() != 4 || p.y.size() != 4) return {0, 0};
  if (p.w[2] != p.w[3] || p.w[1] != p.x[1]) return {0, 0};  // w[1] is C/groups
  if (p.stride.size() != 2 || p.stride[0] != p.stride[1]) return {0, 0};
  if (p.dilation.size() != 2 || p.dilation[0] != 1 || p.dilation[1] != 1) return {0, 0};
  return {p.w[2], p.stride[0]};
}

bool samePass(const ConvProblem& a, const ConvProblem& b) {
  if (a.backward != b.backward || a.dtype != b.dtype) return false;
  return !a.backward || (a.inputGrad == b.inputGrad && a.weightGrad == b.weightGrad);
}

double lg(int64_t v) { return std::log2(static_cast<double>(std::max<int64_t>(1, v))); }

// Log2 of N, C, K and input pixels (of a 2-D problem, which squareKernelAndStride or
// the CSV's columns ensure).
std::array<double, 4> logCoordinates(const ConvProblem& p) {
  return {lg(p.x[0]), lg(p.x[1]), lg(p.w[0]), lg(p.x[2]) + lg(p.x[3])};
}

}  // namespace

std::optional<ConvMicrobench> ConvMicrobench::fromCsv(std::string_view text, std::string& error) {
  constexpr double kDim = 1 << 24;  // no convolution has a larger dim
  const std::vector<CsvColumn> columns{{"pass", false},
                                       {"grads", false, false, true},
                                       {"N", true, false, false, kDim},
                                       {"C", true, false, false, kDim},
                                       {"K", true, false, false, kDim},
                                       {"H", true, false, false, kDim},
                                       {"W", true, false, false, kDim},
                                       {"R", true, false, false, kDim},
                                       {"S", true, false, false, kDim},
                                       {"stride", true, false, false, kDim},
                                       {"padding", true, true, false, kDim},
                                       {"dtype", false},
                                       {"kernel_runtime"}};
  const auto rows = readMeasurementCsv(text, columns,
                                       "pass, grads, N, C, K, H, W, R, S, stride, padding, dtype, "
                                       "kernel_runtime",
                                       error);
  if (!rows) return std::nullopt;
  // Repeats of one row average; the key is everything but the time.
  struct Sum {
    double us = 0;
    int count = 0;
    size_t firstLine = 0;
  };
  std::map<std::tuple<std::string, std::string, std::string, std::vector<double>>, Sum> sums;
  for (const CsvRow& r : *rows) {
    const std::string &pass = r.texts[0], &grads = r.texts[1], &dtype = r.texts[2];
    auto bad = [&](const std::string& what) {
      error = "line " + std::to_string(r.line) + ": " + what;
      return std::nullopt;
    };
    if (pass != "forward" && pass != "backward")
      return bad("pass \"" + clipForMessage(pass) + "\" is neither forward nor backward");
    if (pass == "backward" && grads != "input+weight" && grads != "input" && grads != "weight")
      return bad("grads \"" + clipForMessage(grads) + "\" is not input+weight, input or weight");
    if (dtypeFromProfilerName(dtype) == DType::Unknown)
      return bad("dtype \"" + clipForMessage(dtype) + "\" is not a float type (float32, bfloat16, float16, float64)");
    const auto key = std::make_tuple(pass, pass == "backward" ? grads : std::string(), dtype,
                                     std::vector<double>(r.numbers.begin(), r.numbers.end() - 1));
    Sum& sum = sums[key];
    sum.us += r.numbers.back();
    if (sum.count++ == 0) sum.firstLine = r.line;
  }
  ConvMicrobench mb;
  for (const auto& [key, sc] : sums) {
    const auto& [pass, grads, dtype, values] = key;
    const std::vector<double>& v = values;  // a plain reference: lambdas may not capture bindings (C++20, clang 14)
    auto i = [&v](size_t k) { return static_cast<int64_t>(v[k]); };
    auto p = convolutionProblem2d(i(0), i(1), i(2), i(3), i(4), i(5), i(6), i(7), i(8), dtypeFromProfilerName(dtype));
    if (!p || i(5) != i(6)) {
      error =
          "line " + std::to_string(sc.firstLine) + ": the kernel is not square or covers more than the padded input";
      return std::nullopt;
    }
    p->backward = pass == "backward";
    p->inputGrad = grads == "input+weight" || grads == "input";
    p->weightGrad = grads == "input+weight" || grads == "weight";
    mb.points_.push_back({*p, i(5), i(7), sc.us / sc.count, logCoordinates(*p)});
  }
  return mb;
}

std::optional<double> ConvMicrobench::predictUs(const GpuSpec& g, const ConvProblem& p, MathPath path) const {
  const auto [kernel, stride] = squareKernelAndStride(p);
  if (kernel == 0) return std::nullopt;
  // The op's own grid is not the rows' (each row launched its own): scale by rooflines
  // that ignore grids on both sides.
  path.grid = 0;
  struct Near {
    double distance;  // squared until the nearest are chosen
    const Point* p;
  };
  const std::array<double, 4> at = logCoordinates(p);
  std::vector<Near> near;
  for (const Point& q : points_) {
    if (q.kernel != kernel || q.stride != stride || !samePass(q.problem, p)) continue;
    double d2 = 0;
    for (size_t i = 0; i < at.size(); ++i) d2 += (q.at[i] - at[i]) * (q.at[i] - at[i]);
    if (d2 == 0) return q.us;
    near.push_back({d2, &q});
  }
  if (near.empty()) return std::nullopt;
  const size_t k = std::min<size_t>(4, near.size());
  std::partial_sort(near.begin(), near.begin() + static_cast<std::ptrdiff_t>(k), near.end(),
                    [](const Near& a, const Near& b) { return a.distance < b.distance; });
  double weights = 0, fraction = 0;  // measured / roofline of the neighbours
  for (size_t i = 0; i < k; ++i) {
    const double roof = convolutionRooflineUs(g, near[i].p->problem, path);
    if (!(roof > 0)) continue;
    const double w = 1 / std::sqrt(near[i].distance);
    fraction += w * near[i].p->us / roof;
    weights += w;
  }
  const double roof = convolutionRooflineUs(g, p, path);
  if (!(weights > 0) || !(roof > 0)) return std::nullopt;
  return roof * fraction / weights;
}

}  // namespace opscope
