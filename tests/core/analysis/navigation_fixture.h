#pragma once
// One Kineto-shaped iteration used by the analyses behind the GUI's panels: a step
// with two ops on the main thread, launches, kernels on two streams, a backward op on
// a second thread.
namespace opscope::test {

inline const char* kNavigationTrace = R"({"traceEvents":[
  {"ph":"X","cat":"user_annotation","name":"ProfilerStep#1","pid":1,"tid":1,"ts":0,"dur":100},
  {"ph":"X","cat":"cpu_op","name":"aten::linear","pid":1,"tid":1,"ts":10,"dur":40},
  {"ph":"X","cat":"cpu_op","name":"aten::addmm","pid":1,"tid":1,"ts":12,"dur":30},
  {"ph":"X","cat":"cuda_runtime","name":"cudaLaunchKernel","pid":1,"tid":1,"ts":14,"dur":5,"args":{"correlation":100}},
  {"ph":"X","cat":"cuda_runtime","name":"cudaLaunchKernel","pid":1,"tid":1,"ts":25,"dur":5,"args":{"correlation":101}},
  {"ph":"X","cat":"cpu_op","name":"aten::linear","pid":1,"tid":1,"ts":55,"dur":20},
  {"ph":"X","cat":"cpu_op","name":"aten::addmm","pid":1,"tid":1,"ts":56,"dur":10},
  {"ph":"X","cat":"cuda_runtime","name":"cudaLaunchKernel","pid":1,"tid":1,"ts":57,"dur":2,"args":{"correlation":102}},
  {"ph":"X","cat":"cpu_op","name":"LinearBackward0","pid":1,"tid":2,"ts":80,"dur":10},
  {"ph":"X","cat":"kernel","name":"sgemm_128x64","pid":0,"tid":7,"ts":20,"dur":30,"args":{"correlation":100,"device":0,"stream":7}},
  {"ph":"X","cat":"kernel","name":"SGEMM_tail","pid":0,"tid":7,"ts":50,"dur":2,"args":{"correlation":101,"device":0,"stream":7}},
  {"ph":"X","cat":"gpu_memcpy","name":"Memcpy HtoD","pid":0,"tid":13,"ts":60,"dur":4,"args":{"correlation":102,"device":0,"stream":13}}
]})";

}  // namespace opscope::test
