#pragma once
// The readable name of an op or a kernel, for every view and chart (the full name stays
// in tooltips, Details and every export). Shortened by meaning, never by cutting the
// middle out, so that siblings stay apart:
//   - "autograd::engine::evaluate_function: AddmmBackward0" -> "AddmmBackward0";
//   - a demangled C++ kernel loses its return type, parameter list and namespaces, and
//     its template arguments collapse to the identifier that tells instantiations apart:
//       "void at::native::elementwise_kernel<128, 2, at::native::gpu_kernel_impl<
//        at::native::direct_copy_kernel_cuda(...)::{lambda()#2}...> >(int, ...)"
//         -> "elementwise_kernel<128,2,float,…direct_copy…>" (leading numbers, the
//            first scalar type and the functor or function the instantiation is about)
//       "void at::native::reduce_kernel<512, 1, ReduceOp<float, func_wrapper_t<float,
//        sum_functor<...>>...>>(...)"                     -> "reduce_kernel<512,1,float,…sum…>"
//       "void bounds_check_indices_kernel<long, false>(...)"
//                                                         -> "bounds_check_indices_kernel<long,false>"
//       "ncclKernel_AllReduce_RING_LL_Sum_float(ncclWorkElem)"
//                                                         -> "ncclKernel_AllReduce_RING_LL_Sum_float";
//   - everything else is kept as written: "aten::addmm", "ampere_sgemm_128x64_tn",
//     "Memcpy HtoD (Pageable -> Device)", "model.py(12): forward", "ProfilerStep#3".
#include <string>
#include <string_view>

namespace opscope {

std::string shortName(std::string_view name);

}  // namespace opscope
