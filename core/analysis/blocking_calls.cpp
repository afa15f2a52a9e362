#include "analysis/blocking_calls.h"

#include <algorithm>
#include <iterator>

namespace opscope {

bool isLockCall(std::string_view n) {
  return n == "cudaLaunchKernel" || n == "cudaMemcpyAsync" || n == "cudaHostAlloc";
}

bool isBlockingCall(std::string_view n) {
  static constexpr std::string_view kMaybe[] = {"cudaEventQuery", "cudaMemcpyAsync", "hipEventQuery", "hipMemcpyAsync"};
  return callWaitsFor(n) != CallWaits::Nothing ||
         std::find(std::begin(kMaybe), std::end(kMaybe), n) != std::end(kMaybe);
}

CallWaits callWaitsFor(std::string_view n) {
  static constexpr std::string_view kDevice[] = {"cudaDeviceSynchronize", "hipDeviceSynchronize", "cuCtxSynchronize",
                                                 "cudaThreadSynchronize"};
  static constexpr std::string_view kWork[] = {
      "cudaStreamSynchronize", "hipStreamSynchronize", "cuStreamSynchronize", "cudaEventSynchronize",
      "hipEventSynchronize",   "cuEventSynchronize",   "cudaMemcpy",          "hipMemcpy",
      "cudaMemcpy2D",          "hipMemcpy2D",          "cudaMemset",          "hipMemset",
      "cuMemcpyDtoH_v2",       "cuMemcpyHtoD_v2",      "cuMemcpyDtoD_v2",     "cuMemcpy"};
  if (std::find(std::begin(kDevice), std::end(kDevice), n) != std::end(kDevice)) return CallWaits::Device;
  if (std::find(std::begin(kWork), std::end(kWork), n) != std::end(kWork)) return CallWaits::Work;
  return CallWaits::Nothing;
}

}  // namespace opscope
