// The Prediction dock on the offscreen platform: computed only when shown, per-op and
// iteration tables against the core, what-if GPU, selection, exports, bad inputs.
#include <gtest/gtest.h>
#include <filesystem>

#include <qcustomplot.h>

#include <QApplication>
#include <QCheckBox>
#include <QDockWidget>
#include <QElapsedTimer>
#include <QFile>
#include <QImage>
#include <QScrollArea>
#include <QSignalSpy>
#include <QSplitter>
#include <QTableWidget>
#include <QThread>

#include <QSet>

#include "charts/chart_theme.h"
#include "main_window.h"
#include "panels/prediction_panel.h"
#include "perf/gpu_spec.h"
#include "test_support.h"

namespace opscope::ui {
namespace {

const std::string kSample = OPSCOPE_SOURCE_DIR "/resources/sample/sample.pt.trace.json.gz";

bool waitFor(PredictionPanel* p) {
  QElapsedTimer t;
  t.start();
  while ((p->busy() || !p->results()) && t.elapsed() < 60000) {
    QApplication::processEvents(QEventLoop::AllEvents, 20);
    QThread::msleep(2);
  }
  return !p->busy() && p->results();
}

struct Fixture {
  MainWindow w{false};
  std::shared_ptr<const TraceDocument> doc;
  explicit Fixture(const std::string& path = kSample) {
    std::string error;
    doc = loadDocument(path, error);
    w.resize(1600, 1000);
    w.show();
    // Hidden, as behind the Analysis tab where a user finds it (the offscreen platform
    // does not lay tabbed docks out the way a display does).
    w.predictionDock()->hide();
    QApplication::processEvents();
    w.setDocument(doc);
  }
  PredictionPanel* panel() { return w.prediction(); }
  void show() {
    w.predictionDock()->show();
    w.predictionDock()->raise();
    QApplication::processEvents();
  }
};

TEST(PredictionPanel, HiddenItCostsNothingShownItPredicts) {
  Fixture f;
  ASSERT_TRUE(f.doc);
  QApplication::processEvents();
  EXPECT_FALSE(f.panel()->isVisible());
  EXPECT_FALSE(f.panel()->busy());
  EXPECT_FALSE(f.panel()->results());
  f.show();
  ASSERT_TRUE(waitFor(f.panel()));
  const PredictionResult& r = f.panel()->results()->main;
  EXPECT_EQ(r.setup.gpu.name, "A100-SXM4-80GB");  // the trace's device
  EXPECT_EQ(r.iterations.size(), f.doc->trace->iterations.size());
  EXPECT_EQ(f.panel()->opsTable()->rowCount(), static_cast<int>(r.ops.size()));
  EXPECT_EQ(f.panel()->iterationsTable()->rowCount(), static_cast<int>(r.iterations.size()));
  EXPECT_GT(f.panel()->plot()->plottableCount(), 3);  // band, y = x, a curve per model, histogram
  EXPECT_FALSE(f.panel()->results()->compare);
}

// On a short window the chart keeps the height its axis labels need (they sat under a
// scroll bar, behind the ops table, at 1600x1100) and the table keeps a few rows; when
// both cannot, the table keeps its rows. Once the user drags the splitter, it stays
// where they put it.
TEST(PredictionPanel, TheChartKeepsItsAxisLabelsOnAShortWindow) {
  Fixture f;
  f.show();
  ASSERT_TRUE(waitFor(f.panel()));
  QDockWidget* dock = f.w.predictionDock();
  // A dock's resize reaches the splitter over a few posted layout events, and the fit
  // is queued after the splitter's own resize: let them all run.
  auto settle = [] {
    for (int i = 0; i < 8; ++i) QApplication::processEvents();
  };
  // A window narrow enough for the chart to sit over the table (a wide, short dock puts
  // them side by side, AdaptiveSplitter), which is what this test is about.
  f.w.resize(900, 1000);
  f.w.resizeDocks({dock}, {800}, Qt::Vertical);
  settle();
  QSplitter* split = f.panel()->opsSplitter();
  ASSERT_TRUE(split);
  ASSERT_EQ(split->orientation(), Qt::Vertical);
  const int minimum = f.panel()->plot()->minimumHeight();
  auto* scroll = qobject_cast<QScrollArea*>(split->widget(0));
  ASSERT_TRUE(scroll);
  auto total = [&] { return split->sizes()[0] + split->sizes()[1]; };
  ASSERT_GE(total(), minimum + 110) << "the dock is shorter than this test assumes";
  EXPECT_GE(scroll->viewport()->height(), minimum) << split->sizes()[0] << " of " << total();
  EXPECT_GE(split->sizes()[1], 110);

  f.w.resizeDocks({dock}, {540}, Qt::Vertical);  // too short for both: the table keeps its rows
  settle();
  ASSERT_EQ(split->orientation(), Qt::Vertical);
  ASSERT_LT(total(), minimum + 110);
  EXPECT_EQ(split->sizes()[1], 110) << split->sizes()[0] << " of " << total() << " min " << minimum;

  f.w.resizeDocks({dock}, {800}, Qt::Vertical);
  settle();
  EXPECT_GE(scroll->viewport()->height(), minimum);
  emit split->splitterMoved(150, 1);
  split->setSizes({150, total() - 150});
  f.w.resizeDocks({dock}, {780}, Qt::Vertical);
  settle();
  EXPECT_LT(split->sizes()[0], minimum) << "the user's split was undone";
}

TEST(PredictionPanel, WhatIfGpuSideBySideAndSelection) {
  Fixture f;
  f.show();
  ASSERT_TRUE(f.panel()->setGpus(QStringLiteral("V100"), QStringLiteral("H100-SXM")));
  ASSERT_TRUE(waitFor(f.panel()));
  const PredictionResults& r = *f.panel()->results();
  EXPECT_EQ(r.main.setup.gpu.name, "V100");
  ASSERT_TRUE(r.compare);
  EXPECT_EQ(r.compare->setup.gpu.name, "H100-SXM");
  ASSERT_EQ(r.compare->ops.size(), r.main.ops.size());
  // The faster GPU predicts every modelled GEMM faster.
  for (size_t i = 0; i < r.main.ops.size(); ++i)
    if (r.main.ops[i].model == "gemm roofline") {
      EXPECT_LT(*r.compare->ops[i].predictedUs, *r.main.ops[i].predictedUs);
    }
  // The what-if column is filled where the op has a model.
  QTableWidget* t = f.panel()->opsTable();
  int filled = 0;
  for (int row = 0; row < t->rowCount(); ++row)
    if (t->item(row, 6) && !t->item(row, 6)->text().isEmpty()) ++filled;
  EXPECT_EQ(static_cast<uint64_t>(filled), r.compare->opError.count);
  EXPECT_FALSE(f.panel()->setGpus(QStringLiteral("Z80"), QString()));

  // Activating a row selects that op.
  QSignalSpy spy(f.panel(), &PredictionPanel::opActivated);
  emit t->itemActivated(t->item(0, 0));
  ASSERT_EQ(spy.count(), 1);
  const size_t index = t->item(0, 0)->data(Qt::UserRole).toULongLong();
  EXPECT_EQ(spy.at(0).at(0).value<EventRef>(), r.main.ops[index].op);
}

// A trace of one step: an op of a kind no model knows, launching one kernel.
std::string unmodelledTrace(bool withDevice) {
  std::string j = R"({)";
  if (withDevice)
    j += R"("deviceProperties":[{"id":0,"name":"NVIDIA A100-SXM4-80GB","totalGlobalMem":85029158912,"numSms":108}],)";
  j += R"("traceEvents":[
    {"ph":"X","cat":"user_annotation","name":"ProfilerStep#1","pid":1,"tid":1,"ts":0,"dur":100},
    {"ph":"X","cat":"cpu_op","name":"mystery::op","pid":1,"tid":1,"ts":10,"dur":50},
    {"ph":"X","cat":"cuda_runtime","name":"cudaLaunchKernel","pid":1,"tid":1,"ts":20,"dur":5,"args":{"correlation":7}},
    {"ph":"X","cat":"kernel","name":"mystery_kernel","pid":0,"tid":7,"ts":30,"dur":40,"args":{"stream":7,"correlation":7,"device":0}}
  ]})";
  return j;
}

std::shared_ptr<const TraceDocument> documentOf(const std::string& json) {
  const std::string path = test::tempPath("prediction_state.json");
  {
    QFile f(QString::fromStdString(path));
    EXPECT_TRUE(f.open(QIODevice::WriteOnly));
    f.write(json.data(), static_cast<qint64>(json.size()));
  }
  std::string error;
  auto doc = loadDocument(path, error);
  EXPECT_TRUE(doc) << error;
  return doc;
}

bool waitSettled(PredictionPanel* p) {
  QElapsedTimer t;
  t.start();
  // A refusal (Calibrate without the trace's GPU) settles too: waiting for results there
  // ran into the 60 s limit in every run of the suite.
  while ((p->busy() || (!p->results() && !p->needsGpu() && !p->refused())) && t.elapsed() < 60000) {
    QApplication::processEvents(QEventLoop::AllEvents, 20);
    QThread::msleep(2);
  }
  return !p->busy();
}

// The Calibrate box is `predict --calibrate`: the same learned floor and bandwidth as
// the command line computes, said in the status line, and off again when unticked.
TEST(PredictionPanel, CalibrateLearnsOnTheFirstIterationAsTheCommandLineDoes) {
  Fixture f;
  f.show();
  ASSERT_TRUE(waitFor(f.panel()));
  EXPECT_FALSE(f.panel()->results()->main.calibration);
  f.panel()->calibrateBox()->setChecked(true);
  ASSERT_TRUE(waitFor(f.panel()));
  const PredictionResult& r = f.panel()->results()->main;
  ASSERT_TRUE(r.calibration) << r.calibrationNote;
  PredictionSetup setup;
  setup.gpu = r.setup.gpu;
  setup.calibrate = true;
  const PredictionResult cli = runPrediction(*f.doc->trace, setup);
  ASSERT_TRUE(cli.calibration);
  EXPECT_DOUBLE_EQ(r.calibration->kernelFloorUs, cli.calibration->kernelFloorUs);
  EXPECT_DOUBLE_EQ(r.calibration->dramEfficiency, cli.calibration->dramEfficiency);
  EXPECT_DOUBLE_EQ(r.opError.gmaePct, cli.opError.gmaePct);
  EXPECT_TRUE(f.panel()->statusText().contains(QStringLiteral("calibrated on the first iteration")))
      << f.panel()->statusText().toStdString();
  f.panel()->calibrateBox()->setChecked(false);
  ASSERT_TRUE(waitFor(f.panel()));
  EXPECT_FALSE(f.panel()->results()->main.calibration);
  // Unticked, the main figures are the datasheet's and the calibrated companion is
  // offered beside them (the command line's "calibrated" line), not applied.
  const QString status = f.panel()->statusText();
  EXPECT_FALSE(status.contains(QStringLiteral("kernel floor"))) << status.toStdString();
  ASSERT_TRUE(f.panel()->results()->main.calibratedRun);
  EXPECT_TRUE(status.contains(QStringLiteral("tick Calibrate to use it"))) << status.toStdString();
}

// The what-if GPU is priced with the main GPU's calibration: refitted to the times the
// H100 measured, a V100's convolutions (no TF32) would come out at full efficiency and
// the what-if would shrink towards the measured times. Rooflines only, so that both GPUs
// price convolutions with the same model (the H100's built-in table is its own).
TEST(PredictionPanel, AWhatIfGpuCarriesTheMainGpusCalibration) {
  Fixture f(OPSCOPE_SOURCE_DIR "/tests/data/pytorch_h100/h100_resnet50_train.pt.trace.json.gz");
  ASSERT_TRUE(f.doc);
  f.show();
  f.panel()->setBuiltinMicrobenchmarks(false);
  f.panel()->calibrateBox()->setChecked(true);
  ASSERT_TRUE(f.panel()->setGpus(QStringLiteral("H100-SXM"), QStringLiteral("V100")));
  ASSERT_TRUE(waitFor(f.panel()));
  const PredictionResults& r = *f.panel()->results();
  ASSERT_TRUE(r.main.calibration) << r.main.calibrationNote;
  ASSERT_TRUE(r.compare);
  ASSERT_TRUE(r.compare->calibration);
  EXPECT_FALSE(r.main.calibration->modelEfficiency.empty());
  EXPECT_EQ(r.compare->calibration->modelEfficiency, r.main.calibration->modelEfficiency);
  EXPECT_DOUBLE_EQ(r.compare->calibration->kernelFloorUs, r.main.calibration->kernelFloorUs);
  EXPECT_DOUBLE_EQ(r.compare->calibration->dramEfficiency, r.main.calibration->dramEfficiency);
  EXPECT_TRUE(f.panel()->statusText().contains(QStringLiteral("convolution roofline (tf32)")))
      << f.panel()->statusText().toStdString();
  EXPECT_TRUE(f.panel()->sourcesText().contains(QStringLiteral("convolutions: roofline")))
      << f.panel()->sourcesText().toStdString();
  // Back to the default: the H100's convolutions from its built-in table, the V100's on
  // the roofline (no table of its own), and the sources line says so.
  f.panel()->setBuiltinMicrobenchmarks(true);
  ASSERT_TRUE(waitFor(f.panel()));
  EXPECT_TRUE(f.panel()->sourcesText().contains(QStringLiteral("convolutions: microbenchmark (built-in")))
      << f.panel()->sourcesText().toStdString();
  const PredictionResults& b = *f.panel()->results();
  ASSERT_TRUE(b.compare);
  auto modelOfFirstConv = [&](const PredictionResult& p) {
    for (const OpRow& row : p.ops)
      if (f.doc->trace->name(row.op) == "aten::conv2d") return row.model;
    return std::string();
  };
  EXPECT_EQ(modelOfFirstConv(b.main), "convolution microbenchmark");
  EXPECT_EQ(modelOfFirstConv(*b.compare), "convolution roofline");
}

// Calibrate with another main GPU than the trace's: fitted on the trace's own GPU and
// carried, as `predict --gpu V100 --calibrate` does; fitted on the V100's own models the
// shares would describe nothing (its FP32 convolutions against times an H100 measured).
TEST(PredictionPanel, CalibrateOnAChosenGpuFitsOnTheTracesOwn) {
  Fixture f(OPSCOPE_SOURCE_DIR "/tests/data/pytorch_h100/h100_resnet50_train.pt.trace.json.gz");
  ASSERT_TRUE(f.doc);
  f.show();
  f.panel()->calibrateBox()->setChecked(true);
  ASSERT_TRUE(f.panel()->setGpus(QStringLiteral("V100"), QString()));
  ASSERT_TRUE(waitFor(f.panel()));
  const PredictionResult& m = f.panel()->results()->main;
  EXPECT_EQ(m.setup.gpu.name.substr(0, 4), "V100");
  ASSERT_TRUE(m.calibration) << m.calibrationNote;
  PredictionSetup own;
  own.gpu = *builtinGpuSpecs().find("H100-SXM");
  own.calibrate = true;
  const PredictionResult h100 = runPrediction(*f.doc->trace, own);
  ASSERT_TRUE(h100.calibration);
  EXPECT_EQ(m.calibration->modelEfficiency, h100.calibration->modelEfficiency);
  EXPECT_DOUBLE_EQ(m.calibration->dramEfficiency, h100.calibration->dramEfficiency);
  // A what-if's "errors" are against the H100's times: the status gives the ratio and
  // names the GPU that measured, with no per-op GMAE (hundreds of percent read as a
  // broken model).
  const auto ratio = whatIfRatio(m);
  ASSERT_TRUE(ratio);
  const QString status = f.panel()->statusText();
  EXPECT_TRUE(status.contains(QStringLiteral("measured 45.056 ms on H100-SXM"))) << status.toStdString();
  EXPECT_TRUE(status.contains(QStringLiteral("(%1× the measured").arg(*ratio, 0, 'f', 2))) << status.toStdString();
  EXPECT_FALSE(status.contains(QStringLiteral("GMAE"))) << status.toStdString();
  EXPECT_FALSE(whatIfRatio(h100));
}

// Every model the predictors name gets its own colour and marker pair, and a family's
// variants keep the family's colour.
TEST(PredictionPanel, EveryModelHasItsOwnColourAndMarker) {
  const QStringList models = {"gemm roofline",
                              "gemm roofline (tf32)",
                              "memory-bound",
                              "memory-bound (batch norm)",
                              "memory-bound (pooling)",
                              "sum of sub-ops",
                              "PCIe copy",
                              "gemm microbenchmark",
                              "convolution roofline",
                              "convolution roofline (tf32)",
                              "collective all_reduce",
                              "collective all_gather",
                              "collective reduce_scatter",
                              "collective all_to_all",
                              "collective broadcast",
                              "collective reduce",
                              "collective send_recv",
                              "attention roofline",
                              "memory-bound (embedding bag)",
                              "convolution microbenchmark",
                              "TBE forward",
                              "TBE backward (sgd)",
                              "TBE backward (rowwise adagrad)",
                              "memory-bound (triton)",
                              "gemm roofline (triton)"};
  QSet<QString> pairs;
  for (const QString& m : models) pairs.insert(modelColor(m, false).name() + QString::number(modelShapeIndex(m)));
  EXPECT_EQ(pairs.size(), models.size());
  EXPECT_EQ(modelColor("memory-bound (pooling)", false), modelColor("memory-bound", false));
  EXPECT_EQ(modelColor("collective all_to_all", true), modelColor("collective all_reduce", true));
  EXPECT_NE(modelColor("convolution roofline", false), modelColor("gemm roofline", false));
}

TEST(PredictionPanel, NoPresetForTheDeviceAsksForOneInsteadOfGuessing) {
  Fixture f;
  f.w.setDocument(documentOf(unmodelledTrace(false)));
  f.show();
  ASSERT_TRUE(waitSettled(f.panel()));
  EXPECT_TRUE(f.panel()->needsGpu());
  EXPECT_FALSE(f.panel()->results()) << "predicted on a guessed GPU";
  // The command line's words (`opscope predict` prints the same line), then how to fix
  // it here.
  EXPECT_TRUE(f.panel()->statusText().startsWith(
      QStringLiteral("no GPU preset matches this trace (the trace has no deviceProperties) — pick one")))
      << f.panel()->statusText().toStdString();
  EXPECT_EQ(f.panel()->opsTable()->rowCount(), 0);
  // Picking one predicts on it.
  ASSERT_TRUE(f.panel()->setGpus(QStringLiteral("V100"), QString()));
  ASSERT_TRUE(waitFor(f.panel()));
  EXPECT_FALSE(f.panel()->needsGpu());
  EXPECT_EQ(f.panel()->results()->main.setup.gpu.name, "V100");
}

// Drift fixed: with Calibrate ticked on a trace whose own GPU no preset matches, the
// pane quietly predicted uncalibrated while `predict --calibrate` refuses; it now says
// what the command line says and predicts nothing until the box is unticked.
TEST(PredictionPanel, CalibrateWithoutTheTracesGpuSaysWhatTheCommandLineSays) {
  Fixture f;
  f.w.setDocument(documentOf(unmodelledTrace(false)));
  f.show();
  ASSERT_TRUE(f.panel()->setGpus(QStringLiteral("H100-SXM"), QString()));
  ASSERT_TRUE(waitFor(f.panel()));
  ASSERT_TRUE(f.panel()->results());
  f.panel()->calibrateBox()->setChecked(true);
  ASSERT_TRUE(waitSettled(f.panel()));
  EXPECT_FALSE(f.panel()->results()) << "predicted although calibration cannot be fitted";
  EXPECT_TRUE(f.panel()->statusText().contains(
      QStringLiteral("calibrating on H100-SXM needs the trace's own GPU to fit on, and no preset matches it")))
      << f.panel()->statusText().toStdString();
  f.panel()->calibrateBox()->setChecked(false);
  ASSERT_TRUE(waitFor(f.panel()));
  EXPECT_TRUE(f.panel()->results());
}

TEST(PredictionPanel, NothingModelledSaysSoInsteadOfPerfectFigures) {
  Fixture f;
  f.w.setDocument(documentOf(unmodelledTrace(true)));
  f.show();
  ASSERT_TRUE(f.panel()->setGpus(QString(), QStringLiteral("H100-SXM")));
  ASSERT_TRUE(waitFor(f.panel()));
  const PredictionResult& r = f.panel()->results()->main;
  EXPECT_EQ(r.setup.gpu.name, "A100-SXM4-80GB");  // matched by the trace's deviceProperties
  ASSERT_EQ(r.opError.count, 0u) << "the fixture's op got a model; pick a kind no model knows";
  const QString status = f.panel()->statusText();
  EXPECT_TRUE(status.contains(QStringLiteral("no modelled ops"))) << status.toStdString();
  EXPECT_FALSE(status.contains(QStringLiteral("GMAE"))) << status.toStdString();
  EXPECT_FALSE(status.contains(QStringLiteral("1.00×"))) << status.toStdString();
  EXPECT_TRUE(status.contains(QStringLiteral("nothing to compare"))) << status.toStdString();
}

TEST(PredictionPanel, CustomGpuOverheadsAndExports) {
  Fixture f;
  f.show();
  ASSERT_TRUE(waitFor(f.panel()));
  GpuSpec slow = *builtinGpuSpecs().find("V100");
  slow.name = "half V100";
  slow.dramGBs /= 2;
  slow.fp32 /= 2;
  f.panel()->addGpu(slow);
  ASSERT_TRUE(waitFor(f.panel()));
  EXPECT_EQ(f.panel()->results()->main.setup.gpu.name, "half V100");

  const std::string dir = test::tempPath("prediction_exports");
  ASSERT_EQ(std::system(("rm -rf " + dir + " && mkdir -p " + dir).c_str()), 0);
  // Overheads written by the export feed the pane; a bad file is one line, nothing changes.
  const QString bad = QString::fromStdString(dir + "/bad.json");
  {
    QFile b(bad);
    ASSERT_TRUE(b.open(QIODevice::WriteOnly));
    b.write("{\"t1\": 3}");
  }
  QString error;
  EXPECT_FALSE(f.panel()->loadOverheads(bad, &error));
  EXPECT_FALSE(error.isEmpty());
  EXPECT_FALSE(error.contains(QLatin1Char('\n')));
  EXPECT_FALSE(f.panel()->loadMicrobenchmark(bad, &error));
  EXPECT_FALSE(f.panel()->loadGpuSpecs(bad, &error));

  for (const char* suffix : {"pdf", "png", "svg", "csv", "json"}) {
    const QString path = QString::fromStdString(dir) + "/prediction." + suffix;
    ASSERT_TRUE(f.panel()->exportTo(path, &error)) << error.toStdString();
    QFile file(path);
    ASSERT_TRUE(file.open(QIODevice::ReadOnly));
    EXPECT_GT(file.size(), 200) << path.toStdString();
    const QByteArray head = file.read(16);
    if (QLatin1String(suffix) == QLatin1String("pdf")) {
      EXPECT_TRUE(head.startsWith("%PDF-"));
    }
    if (QLatin1String(suffix) == QLatin1String("csv")) {
      EXPECT_TRUE(head.startsWith("name,ts_us"));
    }
    if (QLatin1String(suffix) == QLatin1String("json")) {
      EXPECT_TRUE(head.startsWith("{"));
    }
    if (QLatin1String(suffix) == QLatin1String("png")) {
      const QImage image(path);
      ASSERT_FALSE(image.isNull());
      QSet<QRgb> colours;
      for (int y = 0; y < image.height(); y += 7)
        for (int x = 0; x < image.width(); x += 7) colours.insert(image.pixel(x, y));
      EXPECT_GT(colours.size(), 5);
    }
  }
  EXPECT_FALSE(f.panel()->exportTo(QString::fromStdString(dir) + "/x.bmp", &error));
  std::filesystem::remove_all(dir);
}

// The dock prices ops with the learned efficiency curves as `predict` does, and says so:
// a trace the built-in table was fitted on is "in sample" in the status line, and the
// sources line names the tables; a calibrated run uses the datasheet and says that.
TEST(PredictionPanel, SaysWhichEfficiencyCurvesPricedTheTraceAndWhetherInSample) {
  Fixture f(OPSCOPE_SOURCE_DIR "/tests/data/tracelens/h100_gaunernst_bert-small-uncased__1016001.json.gz");
  ASSERT_TRUE(f.doc);
  f.show();
  ASSERT_TRUE(waitFor(f.panel()));
  const PredictionResult& r = f.panel()->results()->main;
  ASSERT_NE(r.setup.efficiency, nullptr);
  EXPECT_TRUE(r.traceInFit);
  EXPECT_TRUE(f.panel()->statusText().contains(QStringLiteral("in sample: the efficiency curves were fitted on it")))
      << f.panel()->statusText().toStdString();
  EXPECT_TRUE(f.panel()->sourcesText().contains(QStringLiteral("learned curves, built-in")))
      << f.panel()->sourcesText().toStdString();
  size_t curved = 0;
  for (const OpRow& row : r.ops) curved += row.curve.empty() ? 0 : 1;
  EXPECT_GT(curved, 10u);
}

}  // namespace
}  // namespace opscope::ui
