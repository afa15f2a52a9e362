#pragma once
// Work off the GUI thread: work() runs on workerPool() and its result is
// handed to deliver(receiver, result) on the GUI thread, through the application
// object (which outlives every widget), unless the receiver was destroyed meanwhile.
// work must only read what it captured by value (shared_ptr to const data).
//
// An exception thrown by work never reaches the thread pool (it would abort the whole
// GUI): it is caught and fail(receiver, message) runs on the GUI thread instead, with
// one line saying what went wrong, so the receiver shows it and keeps its state.
#include <QApplication>
#include <QPointer>
#include <QString>
#include <QThreadPool>
#include <exception>
#include <new>
#include <optional>
#include <string>
#include <utility>

namespace opscope::ui {

// One line for an exception caught on a worker.
inline QString workerErrorText(std::exception_ptr e) {
  try {
    std::rethrow_exception(e);
  } catch (const std::bad_alloc&) {
    return QStringLiteral("out of memory");
  } catch (const std::exception& x) {
    QString s = QString::fromUtf8(x.what()).simplified();
    return s.isEmpty() ? QStringLiteral("internal error") : QStringLiteral("internal error: ") + s;
  } catch (...) {
    return QStringLiteral("internal error");
  }
}

// The pool the window's work runs on, and its threads' priority. Qt's raster paint
// engine (Qt 6.4) splits large fills and lines across the threads of Qt's global pool
// and waits for them on the GUI thread. So the window's work runs on a pool of its own
// (as many threads as cores, as the global one), which leaves Qt's free, and each of
// its threads runs at nice kWorkerNice, below Qt's and the GUI thread, which have
// little to do but must not wait: with the analyses on both cores, the first paint
// after opening the Analysis dock waited for Qt's helpers. Longest event-loop stall
// over the dock's opening on 1 GB: median 58 -> 40 ms (11 runs each); either change
// alone did not move it (docs/performance.md).
QThreadPool& workerPool();
constexpr int kWorkerNice = 5;
// Sets the calling thread's nice to kWorkerNice, once per thread; the threads it starts
// (an analysis's own helpers) inherit it.
void lowerWorkerPriority();

template <class Receiver, class Work, class Deliver, class Fail>
void runOnWorker(Receiver* receiver, Work work, Deliver deliver, Fail fail) {
  QPointer<Receiver> guard(receiver);
  workerPool().start([guard, work = std::move(work), deliver = std::move(deliver), fail = std::move(fail)]() mutable {
    lowerWorkerPriority();
    using Result = decltype(work());
    std::optional<Result> result;
    QString error;
    try {
      result.emplace(work());
    } catch (...) {
      error = workerErrorText(std::current_exception());
    }
    QMetaObject::invokeMethod(
        qApp,
        [guard, result = std::move(result), error, deliver, fail]() mutable {
          if (!guard) return;
          if (result) deliver(guard.data(), std::move(*result));
          else fail(guard.data(), error);
        },
        Qt::QueuedConnection);
  });
}

// "Latest job wins" for a view that recomputes when its inputs change: each run()
// supersedes the runs before it, whose results (or failures) are dropped when they
// arrive; busy() while any run is still on a worker. One per kind of job of a view
// (the Analysis dock's analyses, the Prediction dock's run, a diff, one op's kernels).
class LatestJob {
 public:
  template <class Receiver, class Work, class Deliver, class Fail>
  void run(Receiver* receiver, Work work, Deliver deliver, Fail fail) {
    const quint64 generation = ++generation_;
    ++pending_;
    runOnWorker(
        receiver, std::move(work),
        [this, generation, deliver = std::move(deliver)](Receiver* r, auto result) mutable {
          --pending_;
          if (generation == generation_) deliver(r, std::move(result));
        },
        [this, generation, fail = std::move(fail)](Receiver* r, const QString& message) mutable {
          --pending_;
          if (generation == generation_) fail(r, message);
        });
  }
  // Drops the results of every run so far (a new document, a closed view).
  void supersede() { ++generation_; }
  bool busy() const { return pending_ > 0; }

 private:
  quint64 generation_ = 0;
  int pending_ = 0;
};

}  // namespace opscope::ui
