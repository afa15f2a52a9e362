#include "report/predict_report.h"

#include <nlohmann/json.hpp>

#include <cstdio>
#include <string>
#include <unordered_map>

#include "report/report_numbers.h"
#include "text/json_stream.h"
#include "text/json_text.h"

namespace opscope {

namespace {

double round3(double v) { return std::round(v * 1000.0) / 1000.0; }

// With nothing compared the figures are null, never 0 % (which would read as perfect).
nlohmann::ordered_json errorValue(const ErrorFigures& e) {
  nlohmann::ordered_json j;
  const auto figure = [&](double v) { return e.count ? nlohmann::ordered_json(round3(v)) : nlohmann::ordered_json(); };
  j["count"] = e.count;
  j["gmae_pct"] = figure(e.gmaePct);
  j["mean_pct"] = figure(e.meanPct);
  j["std_pct"] = figure(e.stdPct);
  j["signed_mean_pct"] = figure(e.signedMeanPct);
  return j;
}

nlohmann::ordered_json errorBySizeValue(const std::array<ErrorFigures, kSizeBuckets>& bySize) {
  nlohmann::ordered_json j;
  for (size_t b = 0; b < kSizeBuckets; ++b) j[kSizeBucketKeys[b]] = errorValue(bySize[b]);
  return j;
}

nlohmann::ordered_json optionalValue(const std::optional<double>& v) {
  return v ? nlohmann::ordered_json(round3(*v)) : nlohmann::ordered_json();
}

nlohmann::ordered_json calibrationValue(const Trace& trace, const Calibration& cal) {
  nlohmann::ordered_json c;
  c["fitted_on"] = {{"start_us", round3(static_cast<double>(cal.fittedOn.start - trace.minTs) / 1e3)},
                    {"end_us", round3(static_cast<double>(cal.fittedOn.end - trace.minTs) / 1e3)}};
  c["kernel_floor_us"] = round3(cal.kernelFloorUs);
  c["dram_efficiency"] = round3(cal.dramEfficiency);
  c["floor_samples"] = cal.floorSamples;
  c["bandwidth_samples"] = cal.bandwidthSamples;
  nlohmann::ordered_json models = nlohmann::ordered_json::object();
  for (const auto& [model, e] : cal.modelEfficiency)
    models[model] = {{"efficiency", round3(e)}, {"samples", cal.modelSamples.at(model)}};
  c["model_efficiency"] = std::move(models);
  c["out_of_sample"] = true;
  return c;
}

std::string csvField(std::string_view s) {
  if (s.find_first_of(",\"\n") == std::string_view::npos) return std::string(s);
  std::string out = "\"";
  for (char c : s) {
    if (c == '"') out += '"';
    out += c;
  }
  out += '"';
  return out;
}

// The "ops" member: each row as jsonText of its object at indent 2 would write it, inside
// w's array (tests compare the document with the one built as a single value). Names,
// models, curves and shapes are escaped once each per thread (a copy of the writer has
// caches of its own: the two halves of a large table are written on two threads).
class OpsJsonElement {
 public:
  OpsJsonElement(const Trace& trace, const std::vector<OpRow>& ops, size_t elementIndent)
      : trace_(trace), ops_(ops), in_(elementIndent + 2, ' '), nl_(",\n" + in_) {}

  void operator()(size_t i, std::string& o) {
    const OpRow& row = ops_[i];
    const double m = static_cast<double>(row.measuredGpu) / 1e3;
    auto [name, fresh] = names_.try_emplace(trace_.nameId(row.op));
    if (fresh) name->second = escaped(trace_.name(row.op));
    (o += "{\n").append(in_).append("\"name\": ").append(name->second);
    o.append(nl_).append("\"ts_us\": ");
    number(o, static_cast<double>(trace_.start(row.op) - trace_.minTs) / 1e3);
    o.append(nl_).append("\"measured_us\": ");
    number(o, m);
    o.append(nl_).append("\"predicted_us\": ");
    if (row.predictedUs) number(o, *row.predictedUs);
    else o += "null";
    o.append(nl_).append("\"error_pct\": ");
    if (row.predictedUs) number(o, errorPct(*row.predictedUs, m));
    else o += "null";
    o.append(nl_).append("\"model\": ").append(cached(models_, row.model, escaped));
    if (row.predictedUs && !row.curve.empty()) {
      o.append(nl_).append("\"datasheet_us\": ");
      number(o, row.datasheetUs);
      o.append(nl_).append("\"efficiency_curve\": ").append(cached(curves_, row.curve, escaped));
    }
    o.append(nl_).append("\"gpu_events\": ").append(std::to_string(row.gpuEvents));
    if (!row.shapes.empty())
      o.append(nl_).append("\"input_dims\": ").append(cached(shapes_, row.shapes, [&](std::string_view s) {
        return shapeText(s);
      }));
    (o += '\n').append(in_.size() - 2, ' ') += '}';
  }

 private:
  static std::string escaped(std::string_view s) { return jsonText(nlohmann::ordered_json(std::string(s))); }
  static void number(std::string& o, double v) { appendJsonDouble(o, round3(v)); }
  template <class Make>
  static const std::string& cached(std::unordered_map<std::string, std::string>& cache, const std::string& s,
                                   const Make& make) {
    auto [it, fresh] = cache.try_emplace(s);
    if (fresh) it->second = make(s);
    return it->second;
  }
  // A shape list's value: its lines after the first indented as a member of the element.
  std::string shapeText(std::string_view s) const {
    std::string out;
    for (const char c : jsonText(nlohmann::ordered_json::parse(s, nullptr, false), 2)) {
      out += c;
      if (c == '\n') out += in_;
    }
    return out;
  }

  const Trace& trace_;
  const std::vector<OpRow>& ops_;
  std::string in_, nl_;
  std::unordered_map<StringId, std::string> names_;
  std::unordered_map<std::string, std::string> models_, curves_, shapes_;
};

void writeOpsJson(const Trace& trace, const std::vector<OpRow>& ops, JsonObjectWriter& w) {
  const OpsJsonElement element(trace, ops, w.elementIndent());
  w.arrayTextOnTwoThreads("ops", ops.size(), [&] { return JsonObjectWriter::ElementWriter(element); });
}

}  // namespace

std::string predictionJson(const Trace& trace, const PredictionResult& r, const std::string& file) {
  nlohmann::ordered_json j;
  j["file"] = file;
  j["mode"] = r.setup.replay ? "replay" : "predict";
  j["gpu"] = r.setup.gpu.name;
  j["gpu_source"] = r.setup.gpuSource;
  if (!r.setup.replay) {
    j["overheads_source"] = r.setup.overheadsSource;
    j["shapes_source"] = r.setup.shapesSource;
    // What replaced the rooflines: a file, the preset's built-in table, or null.
    auto source = [](const std::string& s) { return s.empty() ? nlohmann::ordered_json() : nlohmann::ordered_json(s); };
    j["microbenchmarks"] = {{"gemm", source(r.setup.gemmBenchSource)},
                            {"convolution", source(r.setup.convBenchSource)}};
    // The learned achieved-efficiency tables that priced the ops, and whether this trace
    // was among those they were fitted on (then its figures are in sample); null:
    // datasheet figures (--datasheet, --calibrate).
    if (const EfficiencyTables* e = r.efficiency)
      j["efficiency"] = {{"tables", e->source},
                         {"description", e->description},
                         {"fitted_on_traces", e->fittedOn.size()},
                         {"trace_in_fit", r.traceInFit},
                         {"fingerprint", r.fingerprint}};
    else j["efficiency"] = nullptr;
  }
  j["iterations"] = nlohmann::ordered_json::array();
  for (const IterationPrediction& i : r.iterations) {
    nlohmann::ordered_json it;
    it["index"] = i.index;
    it["number"] = i.number;
    it["measured_us"] = round3(i.measuredUs);
    it["predicted_us"] = round3(i.predictedUs);
    it["step_us"] = round3(i.stepUs);
    it["error_pct"] = round3(i.errorPct());
    it["gpu_active_measured_us"] = round3(i.gpuActiveMeasuredUs);
    it["gpu_active_predicted_us"] = round3(i.gpuActivePredictedUs);
    it["launches"] = i.launches;
    it["syncs"] = i.syncs;
    it["gpu_events"] = i.gpuEvents;
    j["iterations"].push_back(std::move(it));
  }
  j["error_pct_mean"] =
      r.iterations.empty() ? nlohmann::ordered_json() : nlohmann::ordered_json(round3(r.iterationErrorPctMean));
  if (const auto ratio = whatIfRatio(r))
    j["what_if"] = {{"trace_gpu", r.setup.calibrationGpu->name}, {"predicted_over_measured", round3(*ratio)}};
  if (!r.setup.replay && (r.calibration || !r.calibrationNote.empty())) {
    nlohmann::ordered_json c;
    if (r.calibration) {
      c = calibrationValue(trace, *r.calibration);
      c["error_pct_mean_out_of_sample"] = optionalValue(r.iterationErrorPctMeanOutOfSample);
      if (r.setup.carriedCalibration) c["carried"] = true;
    } else {
      c["note"] = r.calibrationNote;
    }
    j["calibration"] = std::move(c);
  }
  if (r.calibratedRun) {
    const CalibratedRun& cr = *r.calibratedRun;
    nlohmann::ordered_json c;
    c["calibration"] = calibrationValue(trace, cr.calibration);
    if (cr.carried) c["calibration"]["carried"] = true;
    c["error_pct_mean"] = round3(cr.errorPctMean);
    c["error_pct_mean_out_of_sample"] = optionalValue(cr.errorPctMeanOutOfSample);
    c["iterations"] = nlohmann::ordered_json::array();
    for (const IterationPrediction& i : cr.iterations)
      c["iterations"].push_back({{"index", i.index},
                                 {"predicted_us", round3(i.predictedUs)},
                                 {"error_pct", round3(i.errorPct())},
                                 {"gpu_active_predicted_us", round3(i.gpuActivePredictedUs)}});
    c["op_error"] = errorValue(cr.opError);
    c["op_error_by_size"] = errorBySizeValue(cr.opErrorBySize);
    j["calibrated"] = std::move(c);
  }
  if (!r.setup.replay) {
    j["kernels"] = r.setup.measuredKernels ? "measured" : "models";
    nlohmann::ordered_json check;
    check["kernels"] = "measured";
    check["error_pct_mean"] =
        r.selfCheck.empty() ? nlohmann::ordered_json() : nlohmann::ordered_json(round3(r.selfCheckErrorPctMean));
    check["iterations"] = nlohmann::ordered_json::array();
    for (const IterationPrediction& i : r.selfCheck)
      check["iterations"].push_back(
          {{"index", i.index}, {"predicted_us", round3(i.predictedUs)}, {"error_pct", round3(i.errorPct())}});
    j["self_check"] = std::move(check);
  }
  if (!r.setup.replay) {
    j["coverage"] = round3(r.coverage);
    j["op_error"] = errorValue(r.opError);
    j["op_error_by_size"] = errorBySizeValue(r.opErrorBySize);
    j["sampled_out_ops"] = r.sampledOut;
    j["op_types"] = nlohmann::ordered_json::array();
    for (const OpTypeFigures& t : r.byOpType) {
      nlohmann::ordered_json o;
      o["name"] = t.name;
      o["calls"] = t.calls;
      o["modelled"] = t.modelled;
      o["measured_us"] = round3(t.measuredUs);
      o["predicted_us"] = t.modelled ? nlohmann::ordered_json(round3(t.predictedUs)) : nlohmann::ordered_json();
      o["model"] = t.model;
      o["error"] = errorValue(t.error);
      o["error_by_size"] = errorBySizeValue(t.errorBySize);
      o["sampled_out"] = t.sampledOut;
      j["op_types"].push_back(std::move(o));
    }
  }
  // The document but its ops as one value; the ops, one per top-level op that ran GPU
  // work (191,000 on 1 GB, 73 MB of JSON), an element at a time as text, with the bytes the whole as one
  // value dumped would give (names, models, curves and shapes escaped once each): built
  // as one value they took 0.7 s of a 5 s prediction.
  std::string text;
  JsonObjectWriter w([&](std::string_view piece) { text += piece; }, 0);
  for (const auto& [key, value] : j.items()) w.value(key, value);
  if (!r.setup.replay) writeOpsJson(trace, r.ops, w);
  w.close();
  text += "\n";
  return text;
}

namespace {

bool anyShapes(const std::vector<OpRow>& ops) {
  for (const OpRow& row : ops)
    if (!row.shapes.empty() && row.shapes != "[]") return true;
  return false;
}

}  // namespace

std::string predictionText(const Trace& trace, const PredictionResult& r, const std::string& file, size_t topOps) {
  (void)trace;
  std::string out;
  char line[512];
  std::snprintf(line, sizeof line, "%s: %s on %s (%s)\n", file.c_str(),
                r.setup.replay            ? "replay"
                : r.setup.measuredKernels ? "prediction with measured kernel times"
                                          : "prediction",
                r.setup.gpu.name.c_str(), r.setup.gpuSource.c_str());
  out += line;
  if (!r.setup.replay) {
    std::snprintf(line, sizeof line, "overheads from %s; ops with a model hold %.1f %% of the measured GPU time\n",
                  r.setup.overheadsSource.c_str(), 100 * r.coverage);
    out += line;
    if (!r.setup.gemmBenchSource.empty() || !r.setup.convBenchSource.empty()) {
      auto name = [](const std::string& s) { return s.empty() ? std::string("rooflines") : s; };
      out += "microbenchmarks: GEMMs " + name(r.setup.gemmBenchSource) + "; convolutions " +
             name(r.setup.convBenchSource) + "\n";
    }
    if (r.efficiency) out += "achieved efficiency: " + efficiencySource(r) + "\n";
  }
  if (r.calibration) {
    std::snprintf(line, sizeof line,
                  "calibrated on the first iteration%s: kernel floor %.2f us (%zu ops), %.0f %% of the datasheet DRAM "
                  "bandwidth (%zu ops); op errors out of sample\n",
                  r.setup.carriedCalibration ? " on the trace's own GPU, carried over" : "",
                  r.calibration->kernelFloorUs, r.calibration->floorSamples, 100 * r.calibration->dramEfficiency,
                  r.calibration->bandwidthSamples);
    out += line;
    for (const auto& [model, e] : r.calibration->modelEfficiency) {
      std::snprintf(line, sizeof line, "  %s at %.0f %% of its datasheet prediction (%zu ops)\n", model.c_str(),
                    100 * e, r.calibration->modelSamples.at(model));
      out += line;
    }
  } else if (!r.calibrationNote.empty()) {
    out += "not calibrated: " + r.calibrationNote + "\n";
  }
  out += "\niteration  step      measured ms  predicted ms  error %  GPU active measured / predicted ms\n";
  for (const IterationPrediction& i : r.iterations) {
    std::snprintf(line, sizeof line, "%9zu  %-8lld %12.3f  %12.3f  %7.2f  %.3f / %.3f\n", i.index,
                  static_cast<long long>(i.number), i.measuredUs / 1e3, i.predictedUs / 1e3, i.errorPct(),
                  i.gpuActiveMeasuredUs / 1e3, i.gpuActivePredictedUs / 1e3);
    out += line;
  }
  if (r.iterations.empty()) {
    out += "(no ProfilerStep iterations: nothing to simulate end to end; per-op figures below)\n";
  } else {
    std::snprintf(line, sizeof line, "mean |error| of the iterations: %.2f %%", r.iterationErrorPctMean);
    out += line;
    if (r.iterationErrorPctMeanOutOfSample) {
      std::snprintf(line, sizeof line, "; %.2f %% over those after the first (out of sample)",
                    *r.iterationErrorPctMeanOutOfSample);
      out += line;
    }
    out += "\n";
    if (const auto ratio = whatIfRatio(r)) {
      std::snprintf(line, sizeof line,
                    "a what-if: the trace ran on %s, so these errors are the %s's %s, not the model's accuracy: "
                    "predicted %.2fx the measured iteration\n",
                    r.setup.calibrationGpu->name.c_str(), r.setup.gpu.name.c_str(),
                    *ratio >= 1 ? "slow-down" : "speed-up", *ratio);
      out += line;
    }
  }
  if (r.setup.replay) return out;
  if (!r.setup.measuredKernels && !r.selfCheck.empty()) {
    std::snprintf(line, sizeof line, "self-check (measured kernel times, host modelled): %.2f %%\n",
                  r.selfCheckErrorPctMean);
    out += line;
  }
  if (r.calibratedRun && r.calibratedRun->errorPctMeanOutOfSample) {
    const CalibratedRun& cr = *r.calibratedRun;
    if (cr.carried) {
      out += "calibrated on the first iteration on the trace's own GPU and carried over (--calibrate): predicted ms";
    } else {
      std::snprintf(
          line, sizeof line,
          "calibrated on the first iteration (--calibrate): %.2f %% over the others (out of sample); predicted ms",
          *cr.errorPctMeanOutOfSample);
      out += line;
    }
    for (const IterationPrediction& i : cr.iterations) {
      std::snprintf(line, sizeof line, " %.3f", i.predictedUs / 1e3);
      out += line;
    }
    out += "\n";
  }
  if (r.opError.count == 0 && r.coverage == 0 && !r.ops.empty() && !anyShapes(r.ops))
    out +=
        "no op records its input shapes: profile with record_shapes=True, or pass the run's execution trace with "
        "--et\n";
  if (r.opError.count) {
    std::snprintf(
        line, sizeof line, "\nper-op GPU time, %llu ops compared: GMAE %.1f %%, mean |error| %.1f %% (std %.1f)",
        static_cast<unsigned long long>(r.opError.count), r.opError.gmaePct, r.opError.meanPct, r.opError.stdPct);
    out += line;
    if (r.sampledOut) {
      std::snprintf(line, sizeof line, "; %llu sampled-out ops (measured <= 1 us) left out",
                    static_cast<unsigned long long>(r.sampledOut));
      out += line;
    }
    out += "\nGMAE by measured size:";
    static const char* labels[kSizeBuckets] = {"< 20 us", "20-200 us", "> 200 us"};
    for (size_t b = 0; b < kSizeBuckets; ++b) {
      const ErrorFigures& e = r.opErrorBySize[b];
      if (e.count)
        std::snprintf(line, sizeof line, "  %s %.1f %% (%llu)", labels[b], e.gmaePct,
                      static_cast<unsigned long long>(e.count));
      else std::snprintf(line, sizeof line, "  %s -", labels[b]);
      out += line;
    }
    out += "\n";
  } else {
    out += "\nper-op GPU time: no modelled op to compare\n";
  }
  out += "op                                              calls  modelled  measured ms  predicted ms  GMAE %  model\n";
  for (size_t i = 0; i < r.byOpType.size() && i < topOps; ++i) {
    const OpTypeFigures& t = r.byOpType[i];
    std::string name = t.name;
    if (name.size() > 46) {
      name.resize(45);
      name += "…";
    }
    char predicted[32] = "-", gmae[32] = "-";
    if (t.modelled) std::snprintf(predicted, sizeof predicted, "%.3f", t.predictedUs / 1e3);
    if (t.error.count) std::snprintf(gmae, sizeof gmae, "%.1f", t.error.gmaePct);
    std::snprintf(line, sizeof line, "%-47s %6llu  %8llu  %11.3f  %12s  %6s  %s\n", name.c_str(),
                  static_cast<unsigned long long>(t.calls), static_cast<unsigned long long>(t.modelled),
                  t.measuredUs / 1e3, predicted, gmae, t.model.c_str());
    out += line;
  }
  return out;
}

std::string predictionCsv(const Trace& trace, const PredictionResult& r) {
  std::string out = "name,ts_us,measured_us,predicted_us,error_pct,model,input_dims\n";
  for (const OpRow& row : r.ops) {
    const double m = static_cast<double>(row.measuredGpu) / 1e3;
    out += csvField(trace.name(row.op));
    out += ',';
    out += usText(trace.start(row.op) - trace.minTs);
    out += ',';
    out += usText(row.measuredGpu);
    out += ',';
    if (row.predictedUs) {
      out += shortestNumber(*row.predictedUs);
      out += ",";
      out += shortestNumber(errorPct(*row.predictedUs, m));
    } else {
      out += ",";
    }
    out += ',';
    out += csvField(row.model);
    out += ',';
    out += csvField(row.shapes);
    out += '\n';
  }
  return out;
}

std::string efficiencySource(const PredictionResult& r) {
  const EfficiencyTables* e = r.efficiency;
  if (!e) return "datasheet figures (no learned efficiency)";
  return "learned curves, " + e->source + ", fitted on " + std::to_string(e->fittedOn.size()) + " traces; " +
         (r.traceInFit ? "this trace is one of them (its figures are in sample)"
                       : "this trace is not one of them (out of sample)");
}

std::string fitSamplesCsv(const Trace& trace, const std::vector<OpRow>& leaves, const GpuSpec& gpu,
                          const std::string& file) {
  std::string out = "file,gpu,vendor,fingerprint,op,model,family,dtype,at_floor,gpu_events,datasheet_us,measured_us\n";
  const std::string head =
      csvField(file) + "," + csvField(gpu.name) + "," + gpuVendor(gpu) + "," + csvField(traceFingerprint(trace)) + ",";
  char numbers[96];
  for (const OpRow& l : leaves) {
    const double m = static_cast<double>(l.measuredGpu) / 1e3;
    if (!l.predictedUs || m <= kSampledOutUs) continue;
    std::snprintf(numbers, sizeof numbers, ",%llu,%.4f,%.4f\n", static_cast<unsigned long long>(l.gpuEvents),
                  l.datasheetUs, m);
    out += head + csvField(trace.name(l.op)) + "," + csvField(l.model) + "," + csvField(modelFamily(l.model)) + "," +
           l.dtypeCurve + (gpu.atKernelFloor(l.datasheetUs) ? ",1" : ",0") + numbers;
  }
  return out;
}

}  // namespace opscope
