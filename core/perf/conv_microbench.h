#pragma once
// Measured convolution times (tools/record_gpu_traces.py convbench writes them on a
// GPU): one row per call, the summed time of every kernel it ran (cuDNN's layout
// transposes included), for a pass, its gradients, the shape and the dtype.
//
//   pass,grads,N,C,K,H,W,R,S,stride,padding,dtype,kernel_runtime
//   forward,,32,64,64,56,56,3,3,1,1,float32,105.2
//   backward,input+weight,32,64,64,56,56,3,3,1,1,float32,240.9
//
// pass: forward or backward; grads (backward): input+weight, input or weight; dtype: a
// torch dtype name (float32, bfloat16, float16, float64); kernel_runtime in µs; other
// columns ignored. Rows are square 2-D convolutions, groups 1, dilation 1.
//
// A problem is priced only from rows of its own pass, gradients, kernel size, stride
// and dtype (cuDNN picks other kernels for each; mixing them would mix efficiencies):
// exactly its shape, the row's time (mean of repeats); else the roofline of its shape
// scaled by the achieved fraction (measured / roofline) of its nearest rows (distance
// in log2 of N, C, K and input pixels; up to 4, weighted by inverse distance), as
// GemmMicrobench does. A problem no row fits (other kernel, grouped, dilated, 1-D or
// 3-D) gets nullopt and keeps the roofline model.
//
// The rows were measured on one GPU and layout (the script's: NCHW tensors, float32 with
// TF32 allowed and bfloat16, cudnn.benchmark on): on another GPU the fraction carries
// over as a what-if, and channels-last tensors, which need no transposes, come out
// slower than they run.
#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "perf/conv_problem.h"

namespace opscope {

class ConvMicrobench {
 public:
  static std::optional<ConvMicrobench> fromCsv(std::string_view text, std::string& error);
  size_t size() const { return points_.size(); }
  std::optional<double> predictUs(const GpuSpec& g, const ConvProblem& p, MathPath path) const;

 private:
  struct Point {
    ConvProblem problem;
    int64_t kernel = 0, stride = 0;  // square
    double us = 0;
    std::array<double, 4> at{};  // log2 of N, C, K and input pixels: where the distance is taken
  };
  std::vector<Point> points_;
};

}  // namespace opscope
