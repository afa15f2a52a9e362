#pragma once
// One iteration whose overheads, device-time tree, kernel mixes and stream figures are
// known by construction (µs; the tests use CPU event cost 1 and GPU event cost 0.5):
//
// thread 1, all under ProfilerStep#1 [0, 600):
//   aten::linear [10,60): aten::t [11,13), launch [15,19) -> k1 [20,40) on stream 7,
//     aten::view [22,23), launch [26,30) -> k2 [40,45), aten::empty [40,41), [45,46)
//     T2 = 15-10-1 = 4, T5 = 26-19-1 = 6, T3 = 60-30-2 = 28, T4 = 4-1.5 = 2.5 twice
//   aten::relu [63,80): launch [70,74) -> k3 [75,78)       T1 = 3-1 = 2
//     T2 = 7, T3 = 6, T5 = 0, T4 = 2.5
//   aten::size [85,90): no launch, no sub-event            T1 = 5-1 = 4, T5 = 5
//   cudaStreamSynchronize [100,103): a runtime call starting no GPU work
//   aten::relu [400,420): cudaMemcpyAsync [405,409) -> memcpy [410,415) on stream 8
//     gap 310 >= 200: no T1; T2 = 5, T3 = 11, T5 = 0, T4 (cudaMemcpyAsync) = 2.5
// stream 7 also runs a kernel without a launch [500,502); stream 20 an nccl kernel
// [30,50) without a launch, overlapping k1/k2 for 15 µs.
namespace opscope::test {

inline const char* kOpFixture = R"json({"traceEvents":[
  {"ph":"X","cat":"user_annotation","name":"ProfilerStep#1","pid":1,"tid":1,"ts":0,"dur":600},
  {"ph":"X","cat":"cpu_op","name":"aten::linear","pid":1,"tid":1,"ts":10,"dur":50,"args":{"Input Dims":[[8,16],[32,16],[32]]}},
  {"ph":"X","cat":"cpu_op","name":"aten::t","pid":1,"tid":1,"ts":11,"dur":2},
  {"ph":"X","cat":"cuda_runtime","name":"cudaLaunchKernel","pid":1,"tid":1,"ts":15,"dur":4,"args":{"correlation":1}},
  {"ph":"X","cat":"cpu_op","name":"aten::view","pid":1,"tid":1,"ts":22,"dur":1},
  {"ph":"X","cat":"cuda_runtime","name":"cudaLaunchKernel","pid":1,"tid":1,"ts":26,"dur":4,"args":{"correlation":2}},
  {"ph":"X","cat":"cpu_op","name":"aten::empty","pid":1,"tid":1,"ts":40,"dur":1},
  {"ph":"X","cat":"cpu_op","name":"aten::empty","pid":1,"tid":1,"ts":45,"dur":1},
  {"ph":"X","cat":"cpu_op","name":"aten::relu","pid":1,"tid":1,"ts":63,"dur":17,"args":{"Input Dims":[[8,32]]}},
  {"ph":"X","cat":"cuda_runtime","name":"cudaLaunchKernel","pid":1,"tid":1,"ts":70,"dur":4,"args":{"correlation":3}},
  {"ph":"X","cat":"cpu_op","name":"aten::size","pid":1,"tid":1,"ts":85,"dur":5},
  {"ph":"X","cat":"cuda_runtime","name":"cudaStreamSynchronize","pid":1,"tid":1,"ts":100,"dur":3},
  {"ph":"X","cat":"cpu_op","name":"aten::relu","pid":1,"tid":1,"ts":400,"dur":20,"args":{"Input Dims":[[4,4]]}},
  {"ph":"X","cat":"cuda_runtime","name":"cudaMemcpyAsync","pid":1,"tid":1,"ts":405,"dur":4,"args":{"correlation":4}},
  {"ph":"X","cat":"kernel","name":"volta_sgemm_128x64_tn","pid":0,"tid":7,"ts":20,"dur":20,"args":{"correlation":1,"stream":7,"device":0}},
  {"ph":"X","cat":"kernel","name":"void at::native::vectorized_elementwise_kernel<add>","pid":0,"tid":7,"ts":40,"dur":5,"args":{"correlation":2,"stream":7,"device":0}},
  {"ph":"X","cat":"kernel","name":"void at::native::vectorized_elementwise_kernel<relu>","pid":0,"tid":7,"ts":75,"dur":3,"args":{"correlation":3,"stream":7,"device":0}},
  {"ph":"X","cat":"gpu_memcpy","name":"Memcpy HtoD (Pageable -> Device)","pid":0,"tid":8,"ts":410,"dur":5,"args":{"correlation":4,"stream":8,"device":0}},
  {"ph":"X","cat":"kernel","name":"orphan_kernel","pid":0,"tid":7,"ts":500,"dur":2,"args":{"stream":7,"device":0}},
  {"ph":"X","cat":"kernel","name":"ncclKernel_AllReduce_RING_LL_Sum_float","pid":0,"tid":20,"ts":30,"dur":20,"args":{"stream":20,"device":0}}
]})json";

}  // namespace opscope::test
