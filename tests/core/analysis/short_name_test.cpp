// The name shortener on real kernel and op names (copied from the public traces in
// ../shared/traces), and over every distinct name of those traces when present.
#include "analysis/short_name.h"

#include <gtest/gtest.h>

#include <set>

#include "io/trace_loader.h"
#include "test_support.h"

namespace opscope {
namespace {

TEST(ShortName, DemangledKernelsKeepWhatTellsThemApart) {
  EXPECT_EQ(
      shortName("void at::native::elementwise_kernel<128, 2, at::native::gpu_kernel_impl<at::native::direct_copy_"
                "kernel_cuda(at::TensorIteratorBase&)::{lambda()#2}::operator()() const::{lambda()#7}::operator()() "
                "const::{lambda(float)#1}>(at::TensorIteratorBase&, at::native::direct_copy_kernel_cuda(at::"
                "TensorIteratorBase&)::{lambda()#2}::operator()() const::{lambda()#7}::operator()() const::{lambda("
                "float)#1} const&)::{lambda(int)#1}>(int, at::native::gpu_kernel_impl<at::native::direct_copy_kernel_"
                "cuda(at::TensorIteratorBase&)::{lambda()#2}::operator()() const::{lambda()#7}::operator()() const::"
                "{lambda(float)#1}>(at::TensorIteratorBase&, at::native::direct_copy_kernel_cuda(at::TensorIteratorBase"
                "&)::{lambda()#2}::operator()() const::{lambda()#7}::operator()() const::{lambda(float)#1} const&)::"
                "{lambda(int)#1})"),
      "elementwise_kernel<128,2,float,\u2026direct_copy\u2026>");
  EXPECT_EQ(
      shortName(
          "void at::native::reduce_kernel<512, 1, at::native::ReduceOp<float, at::native::MeanOps<float, float, "
          "float, float>, unsigned int, float, 4> >(at::native::ReduceOp<float, at::native::MeanOps<float, float, "
          "float, float>, unsigned int, float, 4>)"),
      "reduce_kernel<512,1,float,\u2026MeanOps\u2026>");
  // Two dtypes of one kernel stay two names.
  EXPECT_NE(
      shortName(
          "void at::native::reduce_kernel<512, 1, at::native::ReduceOp<long, at::native::func_wrapper_t<long, "
          "at::native::sum_functor<long, long, long>::operator()(at::TensorIterator&)::{lambda(long, long)#1}>, "
          "unsigned int, long, 4> >(at::native::ReduceOp<long, at::native::func_wrapper_t<long, at::native::"
          "sum_functor<long, long, long>::operator()(at::TensorIterator&)::{lambda(long, long)#1}>, unsigned int, "
          "long, 4>)"),
      shortName(
          "void at::native::reduce_kernel<512, 1, at::native::ReduceOp<float, at::native::func_wrapper_t<float, "
          "at::native::sum_functor<float, float, float>::operator()(at::TensorIterator&)::{lambda(float, float)#1}>"
          ", unsigned int, float, 4> >(at::native::ReduceOp<float, at::native::func_wrapper_t<float, at::native::"
          "sum_functor<float, float, float>::operator()(at::TensorIterator&)::{lambda(float, float)#1}>, unsigned "
          "int, float, 4>)"));
  EXPECT_EQ(shortName("void bounds_check_indices_kernel<long, false>(at::GenericPackedTensorAccessor<long, 1ul, "
                      "at::RestrictPtrTraits, int>, int)"),
            "bounds_check_indices_kernel<long,false>");
  EXPECT_EQ(shortName("void cutlass::Kernel<cutlass_80_tensorop_s1688gemm_128x64_16x6_tn_align4>(cutlass_80_tensorop_"
                      "s1688gemm_128x64_16x6_tn_align4::Params)"),
            "cutlass_80_tensorop_s1688gemm_128x64_16x6_tn_align4");
  EXPECT_EQ(shortName("ncclKernel_AllReduce_RING_LL_Sum_float(ncclWorkElem)"),
            "ncclKernel_AllReduce_RING_LL_Sum_float");
  EXPECT_EQ(
      shortName("void at::native::(anonymous namespace)::CatArrayBatchedCopy<float, unsigned int, 1, 128, 1>(float*, "
                "at::native::(anonymous namespace)::CatArrInputTensorMetadata<float, unsigned int, 128, 1>, "
                "at::native::(anonymous namespace)::TensorSizeStride<unsigned int, 4u>, int, unsigned int)"),
      "CatArrayBatchedCopy<float,unsigned int,1,128,1>");
}

TEST(ShortName, OpsAndEverythingElseStayAsWritten) {
  EXPECT_EQ(shortName("autograd::engine::evaluate_function: AddmmBackward0"), "AddmmBackward0");
  EXPECT_EQ(shortName("autograd::engine::evaluate_function: torch::autograd::CppNode<fbgemm_gpu::"
                      "PermutePooledEmbsFunction<&fbgemm_gpu::permute_pooled_embs_gpu> >"),
            "PermutePooledEmbsFunction");
  EXPECT_EQ(shortName("torch::autograd::AccumulateGrad"), "AccumulateGrad");
  for (const char* same : {"aten::addmm", "fbgemm::permute_2D_sparse_data", "ampere_sgemm_128x64_tn",
                           "Memcpy HtoD (Pageable -> Device)", "model.py(12): forward", "ProfilerStep#3",
                           "## forward ##", "cudaLaunchKernel", "", "f(", "a<b", "triton__0d1d2d"})
    EXPECT_EQ(shortName(same), same);
}

TEST(ShortName, RealTracesKeepTheirNamesApart) {
  std::set<std::string> full;
  for (const char* file :
       {"recsys_rank0_cuda.json.gz", "alexnet_train_cuda.json.gz", "mi250_minitoy_train_rocm.json.gz"}) {
    const auto path = test::sharedTrace(file);
    if (!path) GTEST_SKIP() << "../shared/traces not present";
    LoadResult r = loadTraceFile(*path);
    ASSERT_EQ(r.status, LoadStatus::Ok) << r.error;
    for (const Track& t : r.trace->tracks)
      for (size_t i = 0; i < t.slices.size(); ++i)
        if (t.slices.kind[i] == SliceKind::Kernel || t.slices.kind[i] == SliceKind::CpuOp)
          full.insert(std::string(r.trace->str(t.slices.name[i])));
  }
  std::set<std::string> shorts;
  size_t counted = 0;
  for (const std::string& n : full) {
    const std::string s = shortName(n);
    EXPECT_LE(s.size(), n.size()) << n;
    EXPECT_FALSE(s.empty()) << n;
    EXPECT_FALSE(s.ends_with("::")) << n;  // never a bare namespace
    // "evaluate_function: XBackward0" wraps the node "XBackward0" (its child): one name
    // for both by design.
    if (n.starts_with("autograd::engine::evaluate_function: ")) continue;
    shorts.insert(s);
    ++counted;
  }
  // Shortening merges almost nothing: at most 3 % of the distinct names (kernels that
  // differ only in a wrapper functor).
  EXPECT_GE(static_cast<double>(shorts.size()), 0.97 * static_cast<double>(counted))
      << shorts.size() << " short names for " << counted << " names";
}

}  // namespace
}  // namespace opscope
