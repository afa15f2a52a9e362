#include "io/nsys_sqlite_loader.h"

#include <sqlite3.h>

#include <cctype>
#include <functional>
#include <map>
#include <memory>
#include <set>
#include <unordered_map>
#include <vector>

#include <nlohmann/json.hpp>

#include "io/input_limits.h"
#include "model/trace_builder.h"
#include "text/json_text.h"

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

// Thrown inside the loader for a problem that ends the load; caught at its boundary.
struct Fatal {
  LoadStatus status;
  std::string message;
};

// Whether the schema holds table; error gets SQLite's own message when the schema
// cannot be read at all (a truncated file, a bad page size: "database disk image is
// malformed", "file is not a database"), which is then the one-line error, not "not an
// nsys export".
bool hasTable(sqlite3* db, const char* table, std::string& error) {
  Statement st;
  if (sqlite3_prepare_v2(db, "SELECT 1 FROM sqlite_master WHERE type='table' AND name=?", -1, &st.s, nullptr) !=
      SQLITE_OK) {
    error = sqlite3_errmsg(db);
    return false;
  }
  sqlite3_bind_text(st.s, 1, table, -1, SQLITE_STATIC);
  const int rc = sqlite3_step(st.s);
  if (rc != SQLITE_ROW && rc != SQLITE_DONE) error = sqlite3_errmsg(db);
  return rc == SQLITE_ROW;
}

// The path as an SQLite URI opened immutable: SQLite then takes no lock and creates no
// -wal, -shm or -journal file beside the input (it did, and left them, for a WAL-mode
// export; in a read-only folder such an export could not be opened at all), and never
// replays a hot journal or a -wal file into it: what is read is the database file as it
// is. '%', '?' and '#' are escaped; "//x" (a URI authority) is read as "/x".
std::string immutableUri(std::string path) {
  while (path.size() > 1 && path[0] == '/' && path[1] == '/') path.erase(0, 1);
  std::string uri = "file:";
  static const char* hex = "0123456789ABCDEF";
  for (unsigned char c : path) {
    if (c == '%' || c == '?' || c == '#' || c < 0x20) {
      uri += '%';
      uri += hex[c >> 4];
      uri += hex[c & 15];
    } else {
      uri += static_cast<char>(c);
    }
  }
  return uri + "?immutable=1";
}

// How a column the loader reads must be declared (SQLite's affinity of the declared
// type: "INT", "INTEGER", "INT NOT NULL" are all integer).
enum class Want { Integer, Text };

bool affinityMatches(std::string declared, Want want) {
  if (declared.empty()) return true;  // no declared type: whatever was stored, read as asked
  for (char& c : declared) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  const bool integer = declared.find("INT") != std::string::npos;
  const bool text =
      !integer && (declared.find("CHAR") != std::string::npos || declared.find("CLOB") != std::string::npos ||
                   declared.find("TEXT") != std::string::npos);
  return want == Want::Integer ? integer : text;
}

struct Column {
  const char* name;  // nullptr: a placeholder read as NULL (keeps positions aligned)
  Want want;
  bool required;
};

// One row of a query; columns by position in the Column list it was built from.
struct Row {
  sqlite3_stmt* s;
  bool null(int i) const { return sqlite3_column_type(s, i) == SQLITE_NULL; }
  int64_t integer(int i) const { return sqlite3_column_int64(s, i); }
  std::string text(int i) const {
    const unsigned char* t = sqlite3_column_text(s, i);
    return t ? reinterpret_cast<const char*>(t) : std::string();
  }
};

class Reader {
 public:
  Reader(sqlite3* db, Trace& t, const LoadOptions& options) : db_(db), t_(t), options_(options) {
    // Cancel and progress: SQLite calls back every few thousand VM steps.
    sqlite3_progress_handler(db_, 20000, &Reader::onProgress, this);
  }
  ~Reader() { sqlite3_progress_handler(db_, 0, nullptr, nullptr); }

  bool has(const char* table) const {
    std::string ignored;  // the schema was read once already, before any table
    return hasTable(db_, table, ignored);
  }

  // Runs "SELECT <columns> FROM table" after checking that every column read is an
  // ordinary stored column of an ordinary table with the expected declared type (a
  // generated column computes its value on every read: an 8 KB file could make
  // gigabytes; a virtual table runs a module's code). Absent optional columns read as
  // NULL; an absent required column, a bad schema or a failed step end the load.
  void select(const char* table, std::initializer_list<Column> columns, const std::function<void(const Row&)>& row) {
    if (!has(table)) return;
    checkTable(table);
    std::string sql = "SELECT ";
    bool first = true;
    for (const Column& c : columns) {
      sql += first ? "" : ", ";
      first = false;
      if (!c.name) {
        sql += "NULL";
        continue;
      }
      const std::string declared = declaredType(table, c);
      if (declared == kAbsent) {
        sql += "NULL";
      } else {
        sql.push_back('"');
        sql.append(c.name).push_back('"');
      }
    }
    sql += std::string(" FROM \"") + table + "\"";
    Statement st;
    if (sqlite3_prepare_v2(db_, sql.c_str(), -1, &st.s, nullptr) != SQLITE_OK)
      throw Fatal{LoadStatus::InvalidInput, std::string("cannot read ") + table + ": " + sqlite3_errmsg(db_)};
    uint64_t rows = 0;
    for (;;) {
      const int rc = sqlite3_step(st.s);
      if (rc == SQLITE_DONE) break;
      if (rc != SQLITE_ROW) {
        if (cancelled_) throw Fatal{LoadStatus::Cancelled, "loading cancelled"};
        throw Fatal{LoadStatus::InvalidInput, std::string(table) + " row " + std::to_string(rows + 1) + ": " +
                                                  sqlite3_errmsg(db_) +
                                                  (rc == SQLITE_TOOBIG ? " (values are limited to 16 MiB)" : "")};
      }
      ++rows;
      ++t_.eventsRead;
      row(Row{st.s});
    }
  }

  // Whether table has column (for choosing between schema generations).
  bool hasColumn(const char* table, const char* column) {
    return has(table) && declaredType(table, Column{column, Want::Integer, false}, /*check=*/false) != kAbsent;
  }

 private:
  inline static const std::string kAbsent =
      "\x01"
      "absent";

  void checkTable(const char* table) {
    Statement st;
    if (sqlite3_prepare_v2(db_, "SELECT sql FROM sqlite_master WHERE type='table' AND name=?", -1, &st.s, nullptr) !=
        SQLITE_OK)
      throw Fatal{LoadStatus::InvalidInput, std::string("cannot read the schema: ") + sqlite3_errmsg(db_)};
    sqlite3_bind_text(st.s, 1, table, -1, SQLITE_STATIC);
    if (sqlite3_step(st.s) != SQLITE_ROW) return;
    const unsigned char* sql = sqlite3_column_text(st.s, 0);
    std::string head = sql ? std::string(reinterpret_cast<const char*>(sql)).substr(0, 40) : "";
    for (char& c : head) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    if (head.find("VIRTUAL") != std::string::npos)
      throw Fatal{LoadStatus::InvalidInput, std::string(table) + " is a virtual table, not an Nsight export table"};
  }

  // The column's declared type, or kAbsent; with check, refuses generated columns,
  // wrong types and absent required columns.
  std::string declaredType(const char* table, const Column& c, bool check = true) {
    Statement st;
    const std::string q = std::string("SELECT type, hidden FROM pragma_table_xinfo(?) WHERE name=?");
    if (sqlite3_prepare_v2(db_, q.c_str(), -1, &st.s, nullptr) != SQLITE_OK)
      throw Fatal{LoadStatus::InvalidInput,
                  std::string("cannot read the schema of ") + table + ": " + sqlite3_errmsg(db_)};
    sqlite3_bind_text(st.s, 1, table, -1, SQLITE_STATIC);
    sqlite3_bind_text(st.s, 2, c.name, -1, SQLITE_STATIC);
    if (sqlite3_step(st.s) != SQLITE_ROW) {
      if (check && c.required)
        throw Fatal{LoadStatus::InvalidInput,
                    std::string(table) + " has no column " + c.name + ": not an Nsight export"};
      return kAbsent;
    }
    const unsigned char* type = sqlite3_column_text(st.s, 0);
    const std::string declared = type ? reinterpret_cast<const char*>(type) : "";
    if (!check) return declared;
    const int hidden = sqlite3_column_int(st.s, 1);
    if (hidden == 2 || hidden == 3)
      throw Fatal{
          LoadStatus::InvalidInput,
          std::string(table) + "." + c.name + " is a generated column (computed on every read): not an Nsight export"};
    if (!affinityMatches(declared, c.want))
      throw Fatal{LoadStatus::InvalidInput, std::string(table) + "." + c.name + " is declared " + declared +
                                                ", expected " + (c.want == Want::Integer ? "an integer" : "a text") +
                                                " column"};
    return declared;
  }

  static int onProgress(void* self) {
    auto* r = static_cast<Reader*>(self);
    if (!r->options_.progress) return 0;
    if (!r->options_.progress(LoadProgress{0, 0, r->t_.eventsRead})) r->cancelled_ = true;
    return r->cancelled_ ? 1 : 0;
  }

  sqlite3* db_;
  Trace& t_;
  const LoadOptions& options_;
  bool cancelled_ = false;
};

// CUPTI's runtime API names carry the version of the entry point ("cudaDeviceSynchronize_v3020",
// "cudaLaunchKernel_v7000", "cudaGetDeviceProperties_v2_v12000"): the API's own name is what
// every analysis matches on (blocking calls, launches), so the suffix goes. Only a final
// "_v" and four or five digits is one; the driver's "_v2" (cuMemAlloc_v2) is part of the name.
std::string_view withoutApiVersion(std::string_view name) {
  const size_t v = name.rfind("_v");
  if (v == std::string_view::npos || v == 0) return name;
  const std::string_view digits = name.substr(v + 2);
  if (digits.size() < 4 || digits.size() > 5) return name;
  for (char c : digits)
    if (c < '0' || c > '9') return name;
  return name.substr(0, v);
}

// The Kineto name of a synchronisation record (what the critical path reads): from the
// runtime call it belongs to where known, since exports disagree with the call on the
// type (nsys 2024.5 files cudaDeviceSynchronize as "Event sync"), else from syncType.
const char* syncName(std::string_view call, int64_t syncType) {
  if (call.ends_with("DeviceSynchronize") || call.ends_with("CtxSynchronize") || call.ends_with("ThreadSynchronize"))
    return "Context Sync";
  if (call.ends_with("StreamSynchronize")) return "Stream Sync";
  if (call.ends_with("EventSynchronize")) return "Event Sync";
  if (call.ends_with("StreamWaitEvent")) return "Stream Wait Event";
  switch (syncType) {
    case 1:
      return "Event Sync";
    case 2:
      return "Stream Wait Event";
    case 3:
      return "Stream Sync";
    case 4:
      return "Context Sync";
    default:
      return "Sync";
  }
}

int64_t pidOfGlobal(int64_t globalId) { return (globalId >> 24) & 0xFFFFFF; }
RawId pidOf(int64_t globalId) { return RawId{false, pidOfGlobal(globalId), 0}; }
RawId tidOf(int64_t globalId) { return RawId{false, globalId & 0xFFFFFF, 0}; }

// CUpti_ActivityMemcpyKind, for exports without ENUM_CUDA_MEMCPY_OPER.
const char* copyKindName(int64_t kind) {
  switch (kind) {
    case 1:
      return "HtoD";
    case 2:
      return "DtoH";
    case 3:
      return "HtoA";
    case 4:
      return "AtoH";
    case 5:
      return "AtoA";
    case 6:
      return "AtoD";
    case 7:
      return "DtoA";
    case 8:
      return "DtoD";
    case 9:
      return "HtoH";
    case 10:
      return "PtoP";
    default:
      return nullptr;
  }
}

// NVTX_EVENTS.eventType values (Nsight's NvtxEventType).
constexpr int kNvtxMark = 34, kNvtxPushPop = 59, kNvtxStartEnd = 60;

struct GpuTable {
  const char* table;
  const char* category;
  const char* fallback;
};

}  // namespace

bool looksLikeSqlite(std::string_view head) {
  return head.size() >= 16 && head.substr(0, 16) == std::string_view("SQLite format 3\0", 16);
}

LoadResult loadNsysSqlite(const std::string& path, const LoadOptions& options) {
  LoadResult r;
  Db db;
  if (sqlite3_open_v2(immutableUri(path).c_str(), &db.db, SQLITE_OPEN_READONLY | SQLITE_OPEN_URI, nullptr) !=
      SQLITE_OK) {
    r.status = LoadStatus::IoError;
    r.error = "cannot open as SQLite: " + std::string(db.db ? sqlite3_errmsg(db.db) : "out of memory");
    return r;
  }
  // The database is untrusted input: values are capped in size, the schema's own code
  // (views, generated columns) is not trusted, and nothing is ever written.
  sqlite3_limit(db.db, SQLITE_LIMIT_LENGTH, kMaxSqliteValueBytes);
  sqlite3_db_config(db.db, SQLITE_DBCONFIG_TRUSTED_SCHEMA, 0, nullptr);
  sqlite3_db_config(db.db, SQLITE_DBCONFIG_DEFENSIVE, 1, nullptr);
  const char* tables[] = {"CUPTI_ACTIVITY_KIND_KERNEL", "CUPTI_ACTIVITY_KIND_RUNTIME", "CUPTI_ACTIVITY_KIND_MEMCPY",
                          "CUPTI_ACTIVITY_KIND_MEMSET", "NVTX_EVENTS"};
  bool any = false;
  std::string schemaError;
  for (const char* t : tables) any |= hasTable(db.db, t, schemaError);
  if (!any && !schemaError.empty()) {
    r.status = LoadStatus::InvalidInput;
    r.error = "SQLite cannot read the database: " + schemaError;
    return r;
  }
  if (!any) {
    r.status = LoadStatus::InvalidInput;
    r.error =
        "SQLite database without Nsight Systems tables (none of CUPTI_ACTIVITY_KIND_KERNEL, _RUNTIME, _MEMCPY, "
        "_MEMSET, NVTX_EVENTS): not an nsys export";
    return r;
  }
  r.trace = std::make_unique<Trace>();
  Trace& t = *r.trace;
  t.meta.format = "nsys-sqlite";
  TraceBuilder b(t);
  Reader q(db.db, t, options);
  try {
    std::unordered_map<int64_t, StringId> names;  // StringIds.id -> interned
    q.select("StringIds", {{"id", Want::Integer, true}, {"value", Want::Text, true}},
             [&](const Row& row) { names[row.integer(0)] = t.strings.intern(row.text(1)); });
    auto nameOf = [&](int64_t id, const char* fallback) {
      const auto it = names.find(id);
      return it != names.end() ? it->second : t.strings.intern(fallback);
    };

    // Processes with GPU work: with more than one, their streams, devices and
    // correlation ids are told apart by process (ids repeat across processes).
    const GpuTable gpuTables[] = {{"CUPTI_ACTIVITY_KIND_KERNEL", "kernel", "kernel"},
                                  {"CUPTI_ACTIVITY_KIND_MEMCPY", "gpu_memcpy", "Memcpy"},
                                  {"CUPTI_ACTIVITY_KIND_MEMSET", "gpu_memset", "Memset"}};
    std::set<int64_t> gpuProcesses;
    for (const GpuTable& g : gpuTables)
      q.select(g.table, {{"globalPid", Want::Integer, false}},
               [&](const Row& row) { gpuProcesses.insert(row.null(0) ? -1 : pidOfGlobal(row.integer(0))); });
    const bool byProcess = gpuProcesses.size() > 1;
    // A correlation id made unique per process when needed; NULL links to nothing.
    auto correlation = [&](const Row& row, int col, int64_t pid) -> int64_t {
      if (row.null(col)) return kNoId;
      const int64_t c = row.integer(col);
      return byProcess ? static_cast<int64_t>((static_cast<uint64_t>(pid & 0xFFFFFF) << 32) | static_cast<uint32_t>(c))
                       : c;
    };
    const StringId correlationKey = t.strings.intern("correlation");

    std::map<int64_t, std::string> processNames;
    q.select("PROCESSES", {{"globalPid", Want::Integer, true}, {"name", Want::Text, false}}, [&](const Row& row) {
      if (!row.null(1)) processNames[pidOfGlobal(row.integer(0))] = row.text(1);
    });
    // Named after loading, and only those with events: an export lists every OS process
    // of the machine (1,771 on a Perlmutter node), which `processes` counted.

    // Thread names too are applied after loading, to the threads with events (an export
    // names every thread of the machine: 644 empty tracks on a 2021 export).
    std::map<std::pair<int64_t, int64_t>, int64_t> threadNames;  // (pid, tid) -> StringIds.id
    q.select("ThreadNames", {{"globalTid", Want::Integer, true}, {"nameId", Want::Integer, true}}, [&](const Row& row) {
      const int64_t g = row.integer(0);
      threadNames[{pidOf(g).num, tidOf(g).num}] = row.integer(1);
    });

    // Device names: the CUDA device table of newer exports, else TARGET_INFO_GPU (by
    // its cuDevice column where present, else its id); also the trace's
    // deviceProperties, in Kineto's shape, for GPU presets.
    std::map<int64_t, std::string> deviceNames;
    if (q.hasColumn("TARGET_INFO_CUDA_DEVICE", "cudaId") && q.hasColumn("TARGET_INFO_CUDA_DEVICE", "name")) {
      q.select("TARGET_INFO_CUDA_DEVICE", {{"cudaId", Want::Integer, true}, {"name", Want::Text, true}},
               [&](const Row& row) { deviceNames.emplace(row.integer(0), row.text(1)); });
    }
    // The device's key: cuDevice (newer), id, or deviceId (2020-21 exports, whose table holds
    // only vmId, deviceId, name, busLocation and isDiscrete).
    const char* gpuKeyColumn = q.hasColumn("TARGET_INFO_GPU", "cuDevice")   ? "cuDevice"
                               : q.hasColumn("TARGET_INFO_GPU", "id")       ? "id"
                               : q.hasColumn("TARGET_INFO_GPU", "deviceId") ? "deviceId"
                                                                            : "id";
    q.select("TARGET_INFO_GPU",
             {{gpuKeyColumn, Want::Integer, true},
              {"name", Want::Text, true},
              {"totalMemory", Want::Integer, false},
              {"smCount", Want::Integer, false},
              {"computeMajor", Want::Integer, false},
              {"computeMinor", Want::Integer, false}},
             [&](const Row& row) {
               const int64_t id = row.integer(0);
               deviceNames.emplace(id, row.text(1));
               DeviceProperties d;
               d.id = id;
               d.name = row.text(1);
               if (!row.null(2)) d.totalGlobalMem = static_cast<double>(row.integer(2));
               if (!row.null(3)) d.numSms = row.integer(3);
               if (!row.null(4)) d.computeMajor = row.integer(4);
               if (!row.null(5)) d.computeMinor = row.integer(5);
               t.meta.devices.push_back(std::move(d));
             });

    auto negative = [&](int64_t start, int64_t end, const char* table) {
      if (end >= start) return false;
      t.diagnostics.add(WarningKind::NegativeDuration, 1, std::string(table) + ": end before start");
      return true;
    };

    const StringId runtimeCat = t.strings.intern("cuda_runtime");
    std::unordered_map<int64_t, StringId> runtimeNames;       // StringIds.id -> the API's name
    std::unordered_map<int64_t, StringId> callOfCorrelation;  // for the sync records
    auto runtimeName = [&](int64_t id) {
      const auto [it, fresh] = runtimeNames.try_emplace(id, 0);
      if (fresh) {
        const StringId full = nameOf(id, "cuda runtime call");
        const std::string_view plain = withoutApiVersion(t.strings.get(full));
        it->second = plain.size() == t.strings.get(full).size() ? full : t.strings.intern(std::string(plain));
      }
      return it->second;
    };
    q.select("CUPTI_ACTIVITY_KIND_RUNTIME",
             {{"start", Want::Integer, true},
              {"end", Want::Integer, true},
              {"globalTid", Want::Integer, true},
              {"correlationId", Want::Integer, false},
              {"nameId", Want::Integer, true}},
             [&](const Row& row) {
               const int64_t start = row.integer(0), end = row.integer(1), g = row.integer(2);
               if (negative(start, end, "CUPTI_ACTIVITY_KIND_RUNTIME")) return;
               SliceInput in;
               in.start = start;
               in.dur = satSub(end, start);
               in.cat = runtimeCat;
               in.name = runtimeName(row.integer(4));
               in.correlation = correlation(row, 3, pidOfGlobal(g));
               if (in.correlation != kNoId) callOfCorrelation.emplace(in.correlation, in.name);
               ArgsWriter args;
               if (!row.null(3)) args.addInt(correlationKey, row.integer(3));
               b.addSlice(b.threadTrack(pidOf(g), tidOf(g)), in, args);
             });

    // GPU work sits under a process per device (Kineto puts it under pid = device); with
    // several processes, per (process, device), so two processes' stream 7 stay two
    // tracks; and where an OS process has the device's number as its pid (Windows' pid 0,
    // "Idle"), under a name of its own so the two never merge.
    std::set<uint32_t> gpuProcessIndex;
    auto gpuTrack = [&](int64_t deviceId, int64_t stream, int64_t pid) {
      const RawId gpuPid =
          byProcess
              ? RawId{true, 0, t.strings.intern("GPU " + std::to_string(deviceId) + " pid " + std::to_string(pid))}
          : processNames.count(deviceId) ? RawId{true, 0, t.strings.intern("GPU " + std::to_string(deviceId))}
                                         : RawId{false, deviceId, 0};
      const uint32_t track = b.threadTrack(gpuPid, RawId{false, stream, 0});
      const uint32_t pi = t.tracks[track].process;
      gpuProcessIndex.insert(pi);
      Process& device = t.processes[pi];
      if (device.name == 0) {
        const auto dn = deviceNames.find(deviceId);
        std::string label = "GPU " + std::to_string(deviceId);
        if (dn != deviceNames.end()) label += " · " + dn->second;
        if (byProcess) {
          const auto pn = processNames.find(pid);
          label += " (pid " + std::to_string(pid) + (pn != processNames.end() ? " " + pn->second : "") + ")";
        }
        device.name = t.strings.intern(label);
      }
      return track;
    };

    std::map<int64_t, std::string> copyKinds;
    q.select("ENUM_CUDA_MEMCPY_OPER", {{"id", Want::Integer, true}, {"label", Want::Text, true}},
             [&](const Row& row) { copyKinds[row.integer(0)] = row.text(1); });
    const StringId deviceKey = t.strings.intern("device"), streamKey = t.strings.intern("stream");
    const StringId bytesKey = t.strings.intern("bytes");
    for (const GpuTable& g : gpuTables) {
      const bool kernel = g.category == std::string_view("kernel");
      const bool memcpy = g.category == std::string_view("gpu_memcpy");
      const StringId cat = t.strings.intern(g.category);
      q.select(g.table,
               {{"start", Want::Integer, true},
                {"end", Want::Integer, true},
                {"deviceId", Want::Integer, true},
                {"streamId", Want::Integer, true},
                {"correlationId", Want::Integer, false},
                {kernel ? "demangledName" : nullptr, Want::Integer, kernel},
                {kernel ? nullptr : "bytes", Want::Integer, false},
                {"globalPid", Want::Integer, false},
                {memcpy ? "copyKind" : nullptr, Want::Integer, false}},
               [&](const Row& row) {
                 const int64_t start = row.integer(0), end = row.integer(1);
                 if (negative(start, end, g.table)) return;
                 const int64_t pid = row.null(7) ? -1 : pidOfGlobal(row.integer(7));
                 SliceInput in;
                 in.start = start;
                 in.dur = satSub(end, start);
                 in.cat = cat;
                 in.device = row.integer(2);
                 in.stream = row.integer(3);
                 in.correlation = correlation(row, 4, pid);
                 if (kernel) {
                   in.name = nameOf(row.integer(5), g.fallback);
                 } else if (memcpy && !row.null(8)) {
                   const auto label = copyKinds.find(row.integer(8));
                   const char* builtin = copyKindName(row.integer(8));
                   in.name = label != copyKinds.end() ? t.strings.intern("Memcpy " + label->second)
                             : builtin                ? t.strings.intern(std::string("Memcpy ") + builtin)
                                                      : t.strings.intern(g.fallback);
                 } else {
                   in.name = t.strings.intern(g.fallback);
                 }
                 ArgsWriter args;
                 if (!row.null(4)) args.addInt(correlationKey, row.integer(4));
                 args.addInt(deviceKey, in.device);
                 args.addInt(streamKey, in.stream);
                 if (!kernel && !row.null(6)) args.addInt(bytesKey, row.integer(6));
                 b.addSlice(gpuTrack(in.device, in.stream, pid), in, args);
               });
    }

    // Synchronisation records (CUPTI_ACTIVITY_KIND_SYNCHRONIZATION) as Kineto's cuda_sync
    // events, on the stream they name (-1: none, as Kineto), tied to their call by
    // correlation id, so the critical path and the advice read Nsight's syncs alike.
    const StringId syncCat = t.strings.intern("cuda_sync");
    q.select("CUPTI_ACTIVITY_KIND_SYNCHRONIZATION",
             {{"start", Want::Integer, true},
              {"end", Want::Integer, true},
              {"deviceId", Want::Integer, true},
              {"streamId", Want::Integer, true},
              {"correlationId", Want::Integer, false},
              {"globalPid", Want::Integer, false},
              {"syncType", Want::Integer, true},
              {"eventId", Want::Integer, false}},
             [&](const Row& row) {
               const int64_t start = row.integer(0), end = row.integer(1);
               if (negative(start, end, "CUPTI_ACTIVITY_KIND_SYNCHRONIZATION")) return;
               const int64_t pid = row.null(5) ? -1 : pidOfGlobal(row.integer(5));
               SliceInput in;
               in.start = start;
               in.dur = satSub(end, start);
               in.cat = syncCat;
               in.device = row.integer(2);
               const int64_t stream = row.integer(3);
               in.stream = stream < 0 || stream >= 0xFFFFFFFF ? -1 : stream;  // CUPTI's "no stream" is ~0u
               in.correlation = correlation(row, 4, pid);
               const auto call = callOfCorrelation.find(in.correlation);
               in.name = t.strings.intern(
                   syncName(call != callOfCorrelation.end() ? t.strings.get(call->second) : "", row.integer(6)));
               ArgsWriter args;
               if (!row.null(4)) args.addInt(correlationKey, row.integer(4));
               args.addInt(deviceKey, in.device);
               args.addInt(streamKey, in.stream);
               if (!row.null(7)) args.addInt(t.strings.intern("cuda_event"), row.integer(7));
               const uint32_t track = gpuTrack(in.device, in.stream, pid);
               if (in.stream == -1 && t.tracks[track].name == 0)
                 t.tracks[track].name = t.strings.intern("synchronisation (device-wide)");
               b.addSlice(track, in, args);
             });

    // NVTX: marks are instants; push/pop ranges nest on their thread (the op stacks);
    // start/end ranges that end on the thread they started on nest there too, and those
    // that end on another thread are async spans of their process. Other rows (domains,
    // categories, thread names) are metadata, not events.
    const StringId nvtxCat = t.strings.intern("user_annotation");
    const StringId asyncId = t.strings.intern("NVTX start/end ranges");
    const bool textId = q.hasColumn("NVTX_EVENTS", "textId");
    q.select("NVTX_EVENTS",
             {{"start", Want::Integer, true},
              {"end", Want::Integer, false},
              {"eventType", Want::Integer, true},
              {"globalTid", Want::Integer, false},
              {"text", Want::Text, false},
              {textId ? "textId" : nullptr, Want::Integer, false},
              {"endGlobalTid", Want::Integer, false}},
             [&](const Row& row) {
               const int type = static_cast<int>(row.integer(2));
               if (type != kNvtxMark && type != kNvtxPushPop && type != kNvtxStartEnd) return;
               const int64_t start = row.integer(0);
               const int64_t g = row.null(3) ? 0 : row.integer(3);
               StringId name;
               if (!row.null(4)) name = t.strings.intern(row.text(4));
               else if (textId && !row.null(5)) name = nameOf(row.integer(5), "nvtx range");
               else name = t.strings.intern(type == kNvtxMark ? "nvtx mark" : "nvtx range");
               if (type == kNvtxMark) {
                 Instant i;
                 i.ts = start;
                 i.name = name;
                 i.cat = nvtxCat;
                 i.process = b.process(pidOf(g));
                 i.track = b.threadTrack(pidOf(g), tidOf(g));
                 b.addInstant(i);
                 return;
               }
               if (row.null(1)) {
                 t.diagnostics.add(WarningKind::MissingField, 1, "NVTX_EVENTS: a range without an end");
                 return;
               }
               const int64_t end = row.integer(1);
               if (negative(start, end, "NVTX_EVENTS")) return;
               SliceInput in;
               in.start = start;
               in.dur = satSub(end, start);
               in.name = name;
               in.cat = nvtxCat;
               const bool elsewhere = type == kNvtxStartEnd && !row.null(6) && row.integer(6) != g;
               if (elsewhere) {
                 b.asyncBegin(b.process(pidOf(g)), nvtxCat, asyncId, in, ArgsWriter{});
                 b.asyncEnd(b.process(pidOf(g)), nvtxCat, asyncId, name, end);
               } else {
                 b.addSlice(b.threadTrack(pidOf(g), tidOf(g)), in, ArgsWriter{});
               }
             });
    for (Track& track : t.tracks) {
      const Process& proc = t.processes[track.process];
      if (track.kind != TrackKind::Thread || track.name != 0 || proc.pid.isString || track.tid.isString) continue;
      if (const auto tn = threadNames.find({proc.pid.num, track.tid.num}); tn != threadNames.end())
        track.name = nameOf(tn->second, "thread");
    }
    for (uint32_t pi = 0; pi < t.processes.size(); ++pi) {
      Process& proc = t.processes[pi];
      if (gpuProcessIndex.count(pi) || proc.pid.isString || proc.name != 0) continue;
      if (const auto pn = processNames.find(proc.pid.num); pn != processNames.end())
        proc.name = t.strings.intern(pn->second);
    }
  } catch (const Fatal& f) {
    r.trace.reset();
    r.status = f.status;
    r.error = f.message;
    return r;
  }
  b.finish();
  return r;
}

}  // namespace opscope
