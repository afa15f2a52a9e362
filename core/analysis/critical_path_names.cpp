// Names of the critical path's edge types and categories, as the JSON and the window show them.
#include "analysis/critical_path.h"

namespace opscope {

const char* cpEdgeTypeName(CpEdgeType t) {
  switch (t) {
    case CpEdgeType::Operator:
      return "operator";
    case CpEdgeType::Dependency:
      return "dependency";
    case CpEdgeType::LaunchDelay:
      return "launch_delay";
    case CpEdgeType::KernelKernelDelay:
      return "kernel_kernel_delay";
    case CpEdgeType::Sync:
      return "sync";
  }
  return "?";
}

const char* cpCategoryName(CpCategory c) {
  switch (c) {
    case CpCategory::CpuOp:
      return "cpu_op";
    case CpCategory::Runtime:
      return "runtime";
    case CpCategory::Kernel:
      return "kernel";
    case CpCategory::Communication:
      return "communication";
    case CpCategory::Memcpy:
      return "memcpy";
    case CpCategory::SyncWait:
      return "sync_wait";
    case CpCategory::LaunchDelay:
      return "launch_delay";
    case CpCategory::KernelGap:
      return "kernel_gap";
    case CpCategory::Idle:
      return "idle";
  }
  return "?";
}

}  // namespace opscope
