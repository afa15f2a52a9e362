#pragma once
// An event's args object as text: tokenized into (key, kind, value text) views, and the
// rules that decide how each value is stored. The loader encodes args with these rules
// while loading; lazily loaded traces apply the same rules when an args object is read
// back from the file, so both give identical NamedArgs.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "io/json_scanner.h"
#include "model/args.h"

namespace opscope {

struct RawArg {
  std::string_view key;
  char type;  // 's' string, 'n' number, 'r' raw array/object, 't' true, 'f' false, 'z' null
  std::string_view value;
};

// sc.p at the args value. An object is tokenized into out; anything else (args that
// are not an object carry nothing usable) is skipped. Throws as the scanner does.
void scanArgsObject(JsonScanner& sc, std::vector<RawArg>& out);

// Decimal integer of at most 18 digits (so it cannot overflow), optional minus sign.
bool plainInteger(std::string_view t, int64_t& out);
// The way a number prints: digits without leading zeros ("0" itself allowed), an
// optional minus before a non-zero one. "25738" yes; "007", "-0", "+1", "" no.
bool canonicalInteger(std::string_view t);

// How a number arg is stored: Int when plainInteger, Double when it has a fraction or
// exponent and parses, otherwise its exact text (huge integers) as Json.
enum class NumberForm : uint8_t { Int, Double, Text };
NumberForm classifyNumber(std::string_view text, int64_t& iv, double& dv);

NamedArg toNamedArg(const RawArg& a);

// The args the performance models read of most events, kept as one text while loading
// (Trace::keptArgs): an op's shape args ("Input Dims", "Input type", "Concrete
// Inputs") or a kernel's launch ("grid", "block"). Each is written as its key's index,
// its kind and its value's length and bytes, in the order given; "" for none.
enum class KeptArgKeys : uint8_t { OpShapes, KernelLaunch };
bool isShapeArgKey(std::string_view key);
bool isLaunchArgKey(std::string_view key);
// Written into text (cleared first: a buffer reused event after event allocates once).
void keptArgsText(const std::vector<RawArg>& args, KeptArgKeys keys, std::string& text);
inline std::string keptArgsText(const std::vector<RawArg>& args, KeptArgKeys keys) {
  std::string text;
  keptArgsText(args, keys, text);
  return text;
}
// The NamedArgs a read of the args object kept to the text's keys gives (toNamedArg of
// each, in order); empty for a text keptArgsText did not write.
std::vector<NamedArg> keptArgsOfText(std::string_view text);

// A raw array or object without the whitespace between its tokens (strings kept as
// written), so that an indented file's "Input Dims" read [[8,256],[256]] as a compact
// one's do: one line in every view, and equal shapes group together. Returns raw itself
// when it holds no such whitespace (the common case: no copy), else scratch.
std::string_view compactJson(std::string_view raw, std::string& scratch);

}  // namespace opscope
