#!/usr/bin/env node
// Opens a Chrome JSON trace with chrome://tracing's own importer (catapult's
// trace_event_importer, run under node) and prints, as one JSON line, what its model
// holds and every import warning: the check that a file `opscope export --trace` wrote
// opens in that viewer, not only in opscope.
//
//   git clone https://chromium.googlesource.com/catapult   (or github.com/catapult-project/catapult)
//   CATAPULT=/path/to/catapult node tools/catapult_import.js FILE.json [-v]
//
// Not part of the build or the tests: catapult is not a Debian package. What it printed
// for the traces of tests/data and ../shared is in docs/analyses.md.
//
// Fields: processes, threads, slices (ph X, B/E), asyncSlices (b/e pairs, nested ones
// included), counters (series) and counterSamples, flowEvents (bound arrows),
// misboundFlows (an arrow whose start or end slice does not start where the arrow does:
// catapult keeps times as float ms, so at µs-since-epoch times two slices meeting at one
// instant are one instant apart, by category in misboundByCat), criticalSlices (slices
// with "critical": 1 in their args), warnings; with -v also every process and thread name.
'use strict';
const fs = require('fs');
const path = require('path');

const root = process.env.CATAPULT;
if (!root || !fs.existsSync(path.join(root, 'catapult_build', 'node_bootstrap.js'))) {
  console.error('catapult_import.js: set CATAPULT to a catapult checkout');
  process.exit(2);
}
if (process.argv.length < 3) {
  console.error('usage: CATAPULT=DIR node catapult_import.js FILE.json [-v]');
  process.exit(2);
}
require(path.join(root, 'catapult_build', 'node_bootstrap.js'));
// The tracing project's source paths (tracing/tracing_project.py).
const tp = path.join(root, 'tracing', 'third_party');
HTMLImportsLoader.addArrayToSourcePath([
  path.join(root, 'tracing'), path.join(root, 'third_party', 'polymer'), tp,
  path.join(root, 'tracing', 'tracing', 'mre'), path.join(tp, 'jszip'), path.join(tp, 'pako'),
  path.join(tp, 'jpeg-js'), path.join(tp, 'gl-matrix', 'dist'), path.join(tp, 'mannwhitneyu'),
  path.join(tp, 'd3'), path.join(tp, 'chai'), path.join(tp, 'mocha'), path.join(tp, 'oboe')]);
HTMLImportsLoader.loadHTML('/tracing/importer/import.html');
HTMLImportsLoader.loadHTML('/tracing/extras/importer/trace_event_importer.html');
HTMLImportsLoader.loadHTML('/tracing/model/model.html');

const model = new tr.Model();
const options = new tr.importer.ImportOptions();
options.showImportWarnings = false;
new tr.importer.Import(model, options).importTraces([fs.readFileSync(process.argv[2], 'utf8')]);

const countWithChildren = s => (s.subSlices || []).reduce((n, c) => n + countWithChildren(c), 1);
const out = {
  processes: 0, threads: 0, slices: 0, asyncSlices: 0, counters: 0, counterSamples: 0,
  flowEvents: model.flowEvents.length, misboundFlows: 0, misboundByCat: {}, criticalSlices: 0,
  warnings: model.importWarnings.map(w => w.type + ': ' + w.message), names: [],
};
for (const p of Object.values(model.processes)) {
  out.processes++;
  out.names.push('process ' + p.pid + ': ' + p.name + ' [' + (p.labels || []).join(', ') + ']');
  for (const t of Object.values(p.threads)) {
    out.threads++;
    out.names.push('thread ' + p.pid + '/' + t.tid + ': ' + t.name);
    out.slices += t.sliceGroup.slices.length;
    for (const s of t.sliceGroup.slices) out.criticalSlices += s.args && s.args.critical === 1 ? 1 : 0;
    for (const a of t.asyncSliceGroup.slices) out.asyncSlices += countWithChildren(a);
  }
  for (const c of Object.values(p.counters)) {
    out.counters++;
    out.counterSamples += c.numSamples;
  }
}
const near = (a, b) => Math.abs(a - b) < 1e-6;
for (const f of model.flowEvents) {
  const a = f.startSlice, b = f.endSlice;
  if (a && b && near(a.start, f.start) && near(b.start, f.start + f.duration)) continue;
  out.misboundFlows++;
  out.misboundByCat[f.category] = (out.misboundByCat[f.category] || 0) + 1;
}
if (process.argv[3] !== '-v') delete out.names;
console.log(JSON.stringify(out));
