#pragma once
// Work off the GUI thread: work() runs on the global thread pool and its result is
// handed to deliver(receiver, result) on the GUI thread, through the application
// object (which outlives every widget), unless the receiver was destroyed meanwhile.
// work must only read what it captured by value (shared_ptr to const data).
#include <QApplication>
#include <QPointer>
#include <QThreadPool>
#include <utility>

namespace opscope::ui {

template <class Receiver, class Work, class Deliver>
void runOnWorker(Receiver* receiver, Work work, Deliver deliver) {
  QPointer<Receiver> guard(receiver);
  QThreadPool::globalInstance()->start([guard, work = std::move(work), deliver = std::move(deliver)]() mutable {
    auto result = work();
    QMetaObject::invokeMethod(
        qApp, [guard, result = std::move(result), deliver]() mutable {
          if (guard) deliver(guard.data(), std::move(result));
        },
        Qt::QueuedConnection);
  });
}

}  // namespace opscope::ui
