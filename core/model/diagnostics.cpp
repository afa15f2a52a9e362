#include "model/diagnostics.h"

namespace opscope {

const char* warningKindName(WarningKind k) {
  switch (k) {
    case WarningKind::Truncated:
      return "truncated input";
    case WarningKind::UnknownPhase:
      return "unknown phase";
    case WarningKind::MissingField:
      return "missing field";
    case WarningKind::WrongType:
      return "wrong value type";
    case WarningKind::NegativeDuration:
      return "negative duration";
    case WarningKind::ControlCharacter:
      return "control character in string";
    case WarningKind::IdOutOfRange:
      return "id out of range";
    case WarningKind::UnmatchedEnd:
      return "E without B";
    case WarningKind::UnterminatedBegin:
      return "B without E";
    case WarningKind::Crossover:
      return "crossover";
    case WarningKind::DanglingFlow:
      return "dangling flow";
    case WarningKind::DanglingLaunchFlow:
      return "launch flow without its other end";
    case WarningKind::BadMetadata:
      return "bad metadata";
    case WarningKind::NotAnEvent:
      return "not an event object";
    case WarningKind::ArgsDropped:
      return "args dropped";
    case WarningKind::TimeOutOfRange:
      return "time out of range";
    case WarningKind::Unfinished:
      return "activity without an end";
    case WarningKind::TrailingData:
      return "data after the gzip stream";
    case WarningKind::TracksMerged:
      return "events on the merged track";
    case WarningKind::Count_:
      break;
  }
  return "?";
}

void Diagnostics::absorb(const Diagnostics& later) {
  for (int k = 0; k < static_cast<int>(WarningKind::Count_); ++k) {
    const WarningEntry& l = later.slots_[k];
    if (l.count == 0) continue;
    WarningEntry& e = slots_[k];
    if (e.count == 0) {
      e = l;
    } else {
      e.count += l.count;
    }
  }
}

void Diagnostics::warn(WarningKind kind, uint64_t offset, uint64_t line, std::string_view example) {
  WarningEntry& e = slots_[static_cast<int>(kind)];
  e.kind = kind;
  if (e.count++ == 0) {
    e.firstOffset = offset;
    e.firstLine = line;
    e.example = std::string(example.substr(0, 200));
  }
}

void Diagnostics::add(WarningKind kind, uint64_t n, std::string_view example) {
  if (n == 0) return;
  WarningEntry& e = slots_[static_cast<int>(kind)];
  e.kind = kind;
  if (e.count == 0) e.example = std::string(example.substr(0, 200));
  e.count += n;
}

uint64_t Diagnostics::count(WarningKind kind) const { return slots_[static_cast<int>(kind)].count; }

uint64_t Diagnostics::total() const {
  uint64_t n = 0;
  for (const auto& e : slots_) n += e.count;
  return n;
}

bool isInformational(WarningKind k) { return k == WarningKind::DanglingLaunchFlow; }

uint64_t Diagnostics::problems() const {
  uint64_t n = 0;
  for (const auto& e : slots_)
    if (!isInformational(e.kind)) n += e.count;
  return n;
}

std::vector<WarningEntry> Diagnostics::entries() const {
  std::vector<WarningEntry> out;
  for (const auto& e : slots_)
    if (e.count > 0) out.push_back(e);
  return out;
}

std::string Diagnostics::oneLine() const {
  std::string s;
  for (const auto& e : entries()) {
    if (isInformational(e.kind)) continue;
    if (!s.empty()) s += ", ";
    s += std::to_string(e.count) + " " + warningKindName(e.kind);
  }
  return s;
}

}  // namespace opscope
