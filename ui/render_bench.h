#pragma once
// `opscope --bench-render FILE`: frame times of the timeline renderer at a fixed window
// size over zoom levels from the whole trace down to 10 µs, at several positions and
// scroll offsets. Reports the median and worst frame per level; no timed assertion.
#include <QString>
#include <memory>

#include "trace_document.h"

namespace opscope::ui {

struct RenderBenchOptions {
  int width = 1600, height = 1000;
  int framesPerLevel = 15;
};

// Writes the table to stdout; returns the worst frame in milliseconds.
double runRenderBench(std::shared_ptr<const TraceDocument> doc, const RenderBenchOptions& options);

}  // namespace opscope::ui
