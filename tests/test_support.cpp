#include "test_support.h"

#include <gtest/gtest.h>
#include <zlib.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "io/byte_source.h"

namespace opscope::test {

LoadResult load(const std::string& json) { return loadTraceBytes(json); }

std::unique_ptr<Trace> loadOk(const std::string& json) {
  LoadResult r = load(json);
  if (r.status != LoadStatus::Ok) ADD_FAILURE() << "load failed: " << r.error;
  return std::move(r.trace);
}

std::string gunzip(const std::string& bytes) {
  auto src = ByteSource::fromMemory(bytes);
  std::string out;
  char buf[1 << 16];
  while (size_t n = src->read(buf, sizeof buf)) out.append(buf, n);
  return out;
}

std::string gzip(const std::string& bytes) {
  z_stream z{};
  deflateInit2(&z, 6, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY);
  std::string out(deflateBound(&z, bytes.size()) + 64, '\0');
  z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(bytes.data()));
  z.avail_in = static_cast<uInt>(bytes.size());
  z.next_out = reinterpret_cast<Bytef*>(out.data());
  z.avail_out = static_cast<uInt>(out.size());
  deflate(&z, Z_FINISH);
  out.resize(z.total_out);
  deflateEnd(&z);
  return out;
}

std::optional<std::string> sharedTrace(const std::string& name) {
  const std::filesystem::path p = std::filesystem::path(OPSCOPE_SHARED_DIR) / "traces" / name;
  if (!std::filesystem::exists(p)) return std::nullopt;
  return p.string();
}

std::string sharedTool(const std::string& name) {
  return (std::filesystem::path(OPSCOPE_SHARED_DIR) / "tools" / name).string();
}

std::vector<EventRef> slicesNamed(const Trace& t, std::string_view name) {
  std::vector<EventRef> out;
  const StringId id = t.strings.find(name);
  if (id == StringPool::kNotFound) return out;
  for (uint32_t ti = 0; ti < t.tracks.size(); ++ti)
    for (uint32_t i = 0; i < t.tracks[ti].slices.size(); ++i)
      if (t.tracks[ti].slices.name[i] == id) out.push_back({ti, i});
  return out;
}

EventRef only(const Trace& t, std::string_view name) {
  auto v = slicesNamed(t, name);
  if (v.size() != 1) {
    ADD_FAILURE() << "expected exactly one slice named " << name << ", found " << v.size();
    return {};
  }
  return v[0];
}

std::string readFile(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  std::ostringstream s;
  s << f.rdbuf();
  return s.str();
}

namespace {
// Every temporary file of a test process lives in one folder of its own, removed when
// the process ends (tests wrote read-only copies and state files into /tmp and left
// them there, a few hundred over a day of runs).
const std::filesystem::path& processTempDir() {
  static const std::filesystem::path dir = [] {
    const auto d = std::filesystem::temp_directory_path() / ("opscope_test_" + std::to_string(::getpid()));
    std::filesystem::create_directories(d);
    std::atexit([] {
      std::error_code ec;
      const auto d = std::filesystem::temp_directory_path() / ("opscope_test_" + std::to_string(::getpid()));
      // A test may leave a file or folder without write permission: give it back first.
      for (auto it = std::filesystem::recursive_directory_iterator(d, ec);
           !ec && it != std::filesystem::recursive_directory_iterator(); it.increment(ec))
        std::filesystem::permissions(it->path(), std::filesystem::perms::owner_all, std::filesystem::perm_options::add,
                                     ec);
      std::filesystem::remove_all(d, ec);
    });
    return d;
  }();
  return dir;
}
}  // namespace

std::string tempPath(const std::string& name) {
  const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
  std::string base = std::string(info ? info->name() : "t") + "_" + name;
  for (char& c : base)
    if (c == '/') c = '_';
  return (processTempDir() / base).string();
}

std::string plainCopy(const std::string& path, const std::string& name) {
  const std::string out = tempPath(name);
  std::ofstream(out, std::ios::binary) << gunzip(readFile(path));
  return out;
}

void writeTwoRankFolder(const std::string& samplePath, const std::string& dir) {
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  std::filesystem::copy_file(samplePath, std::filesystem::path(dir) / "job_rank0.json.gz");
  std::string text = gunzip(readFile(samplePath));
  const size_t at = text.find("\"rank\": 0,");
  if (at == std::string::npos) {
    ADD_FAILURE() << samplePath << " names no \"rank\": 0";
    return;
  }
  text.replace(at, 10, "\"rank\": 1,");
  std::ofstream(std::filesystem::path(dir) / "job_rank1.json") << text;
}

}  // namespace opscope::test
