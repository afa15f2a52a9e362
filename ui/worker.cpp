#include "worker.h"

#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

namespace opscope::ui {

QThreadPool& workerPool() {
  // Destroyed at exit after main returns, as Qt's global pool is: its destructor waits
  // for the jobs still running (their results go nowhere by then).
  static QThreadPool pool;
  return pool;
}

void lowerWorkerPriority() {
  // Linux keeps a nice value per thread: PRIO_PROCESS with a thread id sets this
  // thread's alone, once. A failure (a sandbox without the call) leaves it as it was.
  thread_local const bool lowered = [] {
    const auto tid = static_cast<id_t>(::syscall(SYS_gettid));
    return ::setpriority(PRIO_PROCESS, tid, kWorkerNice) == 0;
  }();
  (void)lowered;
}

}  // namespace opscope::ui
