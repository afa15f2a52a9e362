#!/usr/bin/env python3
"""Checks that every #include in core/ and ui/ points down the layers (docs/architecture.md):

  core:  text <- model (model/, hierarchy/) <- io (io/, et/, ranks/) <- analysis (analysis/,
         perf/) <- report (report/)
  ui:    the timeline library (ui/timeline/) <- the window (the rest of ui/)

A file may include its own layer and any layer below; core never includes Qt or ui/, the
timeline library never includes the window's headers, nothing includes app/; the Python
module's C++ half (python/bindings/) is a front end beside app/: core only, no Qt, no ui/. Includes are
resolved by their first path component as the build's include directories do ("io/x.h" is
core/io/x.h; "panels/x.h" is ui/panels/x.h; a bare "worker.h" from ui/ is ui/worker.h).

  tools/check_layers.py [ROOT]     exit 1 and one line per violation, else a one-line summary
  tools/check_layers.py --self-test  the check on the real tree plus a planted upward include
                                   (core/model/ including report/) must report exactly that one
  tools/check_layers.py --sizes    no source file in core/ or ui/ over 700 lines, the main window
                                   (ui/main_window.cpp) at most 600: small files with one job
"""
import os
import re
import sys

CORE_LAYERS = [("text", ["text"]), ("model", ["model", "hierarchy"]), ("io", ["io", "et", "ranks"]),
               ("analysis", ["analysis", "perf"]), ("report", ["report"])]
CORE_RANK = {d: i for i, (_, dirs) in enumerate(CORE_LAYERS) for d in dirs}
LAYER_NAME = {d: name for name, dirs in CORE_LAYERS for d in dirs}
INCLUDE = re.compile(r'^\s*#\s*include\s+([<"])([^>"]+)[>"]')


def sources(root):
    for top in ("core", "ui", "app", "python"):
        for d, _, files in os.walk(os.path.join(root, top)):
            for f in files:
                if f.endswith((".h", ".cpp", ".cpp.in")):
                    path = os.path.join(d, f)
                    with open(path, encoding="utf-8", errors="replace") as fh:
                        yield os.path.relpath(path, root), fh.read()


def layer_of(rel):
    """('core', rank) | ('timeline', None) | ('window', None) | ('app', None) | None."""
    parts = rel.split(os.sep)
    if parts[0] == "core" and len(parts) > 2 and parts[1] in CORE_RANK:
        return ("core", CORE_RANK[parts[1]])
    if parts[0] == "ui":
        return ("timeline", None) if len(parts) > 2 and parts[1] == "timeline" else ("window", None)
    if parts[0] == "app":
        return ("app", None)
    if parts[0] == "python":
        return ("python", None)
    return None


def violations(files):
    out = []
    for rel, text in files:
        where = layer_of(rel)
        if where is None:
            continue
        kind, rank = where
        for n, line in enumerate(text.splitlines(), 1):
            m = INCLUDE.match(line)
            if not m:
                continue
            bracket, inc = m.groups()
            first = inc.split("/")[0]
            bad = None
            if kind == "core":
                if bracket == "<" and re.match(r"Q[A-Za-z]|qcustomplot", inc):
                    bad = "core includes Qt"
                elif bracket == '"' and first in CORE_RANK and CORE_RANK[first] > rank:
                    bad = "%s (layer %s) includes %s (layer %s, above it)" % (
                        rel, CORE_LAYERS[rank][0], inc, LAYER_NAME[first])
                elif bracket == '"' and first in ("timeline", "panels", "charts", "palette", "app"):
                    bad = "core includes the GUI or the program"
            elif kind == "python":
                if bracket == "<" and re.match(r"Q[A-Za-z]|qcustomplot", inc):
                    bad = "the Python module includes Qt"
                elif bracket == '"' and first in ("timeline", "panels", "charts", "palette"):
                    bad = "the Python module includes the GUI"
            elif kind == "timeline":
                if bracket == '"' and first not in CORE_RANK and first != "timeline" and not inc.startswith("moc_"):
                    bad = "the timeline library includes the window's %s" % inc
            if bad is None and kind != "app" and bracket == '"' and first == "app":
                bad = "includes the program"
            if bad:
                out.append("%s:%d: %s" % (rel, n, bad if bad.startswith(rel) else bad + ": " + inc))
    return out


MAX_LINES = 700
MAX_LINES_OF = {os.path.join("ui", "main_window.cpp"): 600}


def oversized(files):
    out = []
    for rel, text in files:
        if not rel.startswith(("core" + os.sep, "ui" + os.sep)):
            continue
        limit = MAX_LINES_OF.get(rel, MAX_LINES)
        lines = text.count("\n")
        if lines > limit:
            out.append("%s: %d lines, more than %d" % (rel, lines, limit))
    return out


def main(argv):
    root = os.path.abspath(os.path.join(os.path.dirname(__file__), ".."))
    if len(argv) > 1 and argv[1] == "--sizes":
        files = list(sources(root))
        bad = oversized(files)
        for b in bad:
            print(b)
        if bad:
            return 1
        planted = oversized([(os.path.join("core", "model", "planted.cpp"), "x\n" * (MAX_LINES + 1))])
        if len(planted) != 1:
            print("check_layers --sizes: a planted %d-line file is not reported" % (MAX_LINES + 1), file=sys.stderr)
            return 1
        print("check_layers --sizes: %d files within their line limits (a planted oversized one is caught)" % len(files))
        return 0
    if len(argv) > 1 and argv[1] == "--self-test":
        files = list(sources(root))
        if violations(files):
            print("check_layers --self-test: the real tree already has violations", file=sys.stderr)
            return 1
        planted = ("core/model/planted.h", '#pragma once\n#include "report/summary_report.h"\n')
        found = violations(files + [planted])
        timeline = ("ui/timeline/planted.cpp", '#include "panels/details_panel.h"\n')
        found += violations([timeline])
        qt = ("core/io/planted.cpp", "#include <QString>\n")
        found += violations([qt])
        if len(found) != 3 or not found[0].startswith("core/model/planted.h:2:"):
            print("check_layers --self-test: planted violations not reported as expected: %r" % found, file=sys.stderr)
            return 1
        print("check_layers --self-test: the tree passes; the three planted violations are reported")
        return 0
    if len(argv) > 1:
        root = argv[1]
    files = list(sources(root))
    bad = violations(files)
    for b in bad:
        print(b)
    if bad:
        return 1
    print("check_layers: %d files, every include points down the layers" % len(files))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
