#pragma once
// Waiting on the GUI's worker threads in UI tests: runs the event loop until done()
// holds or a minute passes (a worker that never reports then fails the test's check
// instead of hanging it). Returns done()'s final value.
#include <QApplication>
#include <QElapsedTimer>
#include <QThread>
#include <functional>

namespace opscope::test {

inline bool waitUntil(const std::function<bool()>& done, int timeoutMs = 60000) {
  QElapsedTimer t;
  t.start();
  while (!done() && t.elapsed() < timeoutMs) {
    QApplication::processEvents(QEventLoop::AllEvents, 20);
    QThread::msleep(2);
  }
  return done();
}

}  // namespace opscope::test
