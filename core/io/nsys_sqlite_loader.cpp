#include "io/nsys_sqlite_loader.h"

#include <sqlite3.h>

#include <memory>
#include <unordered_map>

#include "model/trace_builder.h"

namespace opscope {

namespace {

struct Db {
  sqlite3* db = nullptr;
  ~Db() {
    if (db) sqlite3_close(db);
  }
};

struct Statement {
  sqlite3_stmt* s = nullptr;
  ~Statement() {
    if (s) sqlite3_finalize(s);
  }
};

bool hasTable(sqlite3* db, const char* table) {
  Statement st;
  if (sqlite3_prepare_v2(db, "SELECT 1 FROM sqlite_master WHERE type='table' AND name=?", -1, &st.s, nullptr) != SQLITE_OK)
    return false;
  sqlite3_bind_text(st.s, 1, table, -1, SQLITE_STATIC);
  return sqlite3_step(st.s) == SQLITE_ROW;
}

bool hasColumn(sqlite3* db, const char* table, const char* column) {
  Statement st;
  const std::string q = std::string("SELECT 1 FROM pragma_table_info('") + table + "') WHERE name=?";
  if (sqlite3_prepare_v2(db, q.c_str(), -1, &st.s, nullptr) != SQLITE_OK) return false;
  sqlite3_bind_text(st.s, 1, column, -1, SQLITE_STATIC);
  return sqlite3_step(st.s) == SQLITE_ROW;
}

RawId pidOf(int64_t globalId) { return RawId{false, (globalId >> 24) & 0xFFFFFF, 0}; }
RawId tidOf(int64_t globalId) { return RawId{false, globalId & 0xFFFFFF, 0}; }

std::string text(sqlite3_stmt* s, int col) {
  const unsigned char* t = sqlite3_column_text(s, col);
  return t ? reinterpret_cast<const char*>(t) : std::string();
}

}  // namespace

bool looksLikeSqlite(std::string_view head) { return head.size() >= 16 && head.substr(0, 16) == std::string_view("SQLite format 3\0", 16); }

LoadResult loadNsysSqlite(const std::string& path) {
  LoadResult r;
  Db db;
  if (sqlite3_open_v2(path.c_str(), &db.db, SQLITE_OPEN_READONLY, nullptr) != SQLITE_OK) {
    r.status = LoadStatus::IoError;
    r.error = "cannot open as SQLite: " + std::string(db.db ? sqlite3_errmsg(db.db) : "out of memory");
    return r;
  }
  const char* tables[] = {"CUPTI_ACTIVITY_KIND_KERNEL", "CUPTI_ACTIVITY_KIND_RUNTIME", "CUPTI_ACTIVITY_KIND_MEMCPY",
                          "CUPTI_ACTIVITY_KIND_MEMSET", "NVTX_EVENTS"};
  bool any = false;
  for (const char* t : tables) any |= hasTable(db.db, t);
  if (!any) {
    r.status = LoadStatus::InvalidInput;
    r.error = "SQLite database without Nsight Systems tables (none of CUPTI_ACTIVITY_KIND_KERNEL, _RUNTIME, _MEMCPY, "
              "_MEMSET, NVTX_EVENTS): not an nsys export";
    return r;
  }
  r.trace = std::make_unique<Trace>();
  Trace& t = *r.trace;
  t.meta.format = "nsys-sqlite";
  TraceBuilder b(t);

  std::unordered_map<int64_t, StringId> names;  // StringIds.id -> interned
  if (hasTable(db.db, "StringIds")) {
    Statement st;
    if (sqlite3_prepare_v2(db.db, "SELECT id, value FROM StringIds", -1, &st.s, nullptr) == SQLITE_OK)
      while (sqlite3_step(st.s) == SQLITE_ROW) names[sqlite3_column_int64(st.s, 0)] = t.strings.intern(text(st.s, 1));
  }
  auto nameOf = [&](int64_t id, const char* fallback) {
    const auto it = names.find(id);
    return it != names.end() ? it->second : t.strings.intern(fallback);
  };
  auto run = [&](const std::string& sql, auto&& row) {
    Statement st;
    if (sqlite3_prepare_v2(db.db, sql.c_str(), -1, &st.s, nullptr) != SQLITE_OK) {
      t.diagnostics.add(WarningKind::MissingField, 1, std::string("query failed: ") + sqlite3_errmsg(db.db));
      return;
    }
    while (sqlite3_step(st.s) == SQLITE_ROW) {
      ++t.eventsRead;
      row(st.s);
    }
  };
  auto negative = [&](int64_t start, int64_t end, const char* table) {
    if (end >= start) return false;
    t.diagnostics.add(WarningKind::NegativeDuration, 1, std::string(table) + ": end before start");
    return true;
  };

  if (hasTable(db.db, "ThreadNames")) {
    run("SELECT globalTid, nameId FROM ThreadNames", [&](sqlite3_stmt* s) {
      const int64_t g = sqlite3_column_int64(s, 0);
      const uint32_t track = b.threadTrack(pidOf(g), tidOf(g));
      t.tracks[track].name = nameOf(sqlite3_column_int64(s, 1), "thread");
    });
  }
  if (hasTable(db.db, "CUPTI_ACTIVITY_KIND_RUNTIME")) {
    const StringId cat = t.strings.intern("cuda_runtime");
    run("SELECT start, end, globalTid, correlationId, nameId FROM CUPTI_ACTIVITY_KIND_RUNTIME", [&](sqlite3_stmt* s) {
      const int64_t start = sqlite3_column_int64(s, 0), end = sqlite3_column_int64(s, 1), g = sqlite3_column_int64(s, 2);
      if (negative(start, end, "CUPTI_ACTIVITY_KIND_RUNTIME")) return;
      SliceInput in;
      in.start = start;
      in.dur = end - start;
      in.cat = cat;
      in.name = nameOf(sqlite3_column_int64(s, 4), "cuda runtime call");
      in.correlation = sqlite3_column_int64(s, 3);
      ArgsWriter args;
      args.addInt(t.strings.intern("correlation"), in.correlation);
      b.addSlice(b.threadTrack(pidOf(g), tidOf(g)), in, args);
    });
  }
  // GPU events: one query shape per table; kernels name themselves by demangledName.
  struct GpuTable {
    const char* table;
    const char* category;
    const char* name;  // column holding a StringIds id, or nullptr
    const char* fallback;
  };
  const GpuTable gpuTables[] = {{"CUPTI_ACTIVITY_KIND_KERNEL", "kernel", "demangledName", "kernel"},
                                {"CUPTI_ACTIVITY_KIND_MEMCPY", "gpu_memcpy", nullptr, "Memcpy"},
                                {"CUPTI_ACTIVITY_KIND_MEMSET", "gpu_memset", nullptr, "Memset"}};
  for (const GpuTable& g : gpuTables) {
    if (!hasTable(db.db, g.table)) continue;
    const bool named = g.name && hasColumn(db.db, g.table, g.name);
    const bool bytes = hasColumn(db.db, g.table, "bytes");
    const std::string sql = std::string("SELECT start, end, deviceId, streamId, correlationId, ") +
                            (named ? g.name : "0") + ", " + (bytes ? "bytes" : "0") + ", globalPid FROM " + g.table;
    const StringId cat = t.strings.intern(g.category);
    run(sql, [&](sqlite3_stmt* s) {
      const int64_t start = sqlite3_column_int64(s, 0), end = sqlite3_column_int64(s, 1);
      if (negative(start, end, g.table)) return;
      SliceInput in;
      in.start = start;
      in.dur = end - start;
      in.cat = cat;
      in.device = sqlite3_column_int64(s, 2);
      in.stream = sqlite3_column_int64(s, 3);
      in.correlation = sqlite3_column_int64(s, 4);
      in.name = named ? nameOf(sqlite3_column_int64(s, 5), g.fallback) : t.strings.intern(g.fallback);
      ArgsWriter args;
      args.addInt(t.strings.intern("correlation"), in.correlation);
      args.addInt(t.strings.intern("device"), in.device);
      args.addInt(t.strings.intern("stream"), in.stream);
      if (bytes) args.addInt(t.strings.intern("bytes"), sqlite3_column_int64(s, 6));
      // GPU work sits under a per-device process, as Kineto puts it under pid = device.
      const uint32_t track = b.threadTrack(RawId{false, in.device, 0}, RawId{false, in.stream, 0});
      Process& device = t.processes[t.tracks[track].process];
      if (device.name == 0) device.name = t.strings.intern("GPU " + std::to_string(in.device));
      b.addSlice(track, in, args);
    });
  }
  if (hasTable(db.db, "NVTX_EVENTS")) {
    const StringId cat = t.strings.intern("user_annotation");
    const bool textId = hasColumn(db.db, "NVTX_EVENTS", "textId");
    run(std::string("SELECT start, end, eventType, globalTid, text, ") + (textId ? "textId" : "NULL") + " FROM NVTX_EVENTS",
        [&](sqlite3_stmt* s) {
          const int64_t start = sqlite3_column_int64(s, 0);
          const bool hasEnd = sqlite3_column_type(s, 1) != SQLITE_NULL;
          const int64_t end = hasEnd ? sqlite3_column_int64(s, 1) : start;
          const int type = sqlite3_column_int(s, 2);
          const int64_t tid = sqlite3_column_int64(s, 3);
          StringId name = 0;
          if (sqlite3_column_type(s, 4) != SQLITE_NULL) name = t.strings.intern(text(s, 4));
          else if (sqlite3_column_type(s, 5) != SQLITE_NULL) name = nameOf(sqlite3_column_int64(s, 5), "nvtx range");
          else name = t.strings.intern("nvtx range");
          if (type == 34 || !hasEnd) {  // NvtxMark
            Instant i;
            i.ts = start;
            i.name = name;
            i.cat = cat;
            i.process = b.process(pidOf(tid));
            i.track = b.threadTrack(pidOf(tid), tidOf(tid));
            b.addInstant(i);
            return;
          }
          if (type != 59 && type != 60) return;  // push/pop and start/end ranges; domains and the rest are metadata
          if (negative(start, end, "NVTX_EVENTS")) return;
          SliceInput in;
          in.start = start;
          in.dur = end - start;
          in.name = name;
          in.cat = cat;
          b.addSlice(b.threadTrack(pidOf(tid), tidOf(tid)), in, ArgsWriter{});
        });
  }
  b.finish();
  return r;
}

}  // namespace opscope
