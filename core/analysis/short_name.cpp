#include "analysis/short_name.h"

#include <algorithm>
#include <array>
#include <vector>

namespace opscope {

namespace {

bool identStart(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_'; }
bool identChar(char c) { return identStart(c) || (c >= '0' && c <= '9'); }

// Position of the '(' that opens a C++ signature's parameter list (outside any <> or
// ()), when the name ends with that list (optionally " const"); npos otherwise, e.g.
// "model.py(12): forward" or "Memcpy HtoD (Pageable -> Device)".
size_t parameterListStart(std::string_view s) {
  int angle = 0, paren = 0;
  for (size_t i = 0; i < s.size(); ++i) {
    const char c = s[i];
    if (c == '<') ++angle;
    else if (c == '>' && angle > 0) --angle;
    else if (c == ' ' && angle == 0 && paren == 0) return std::string_view::npos;  // "Memcpy HtoD (...)"
    else if (c == '(' && angle == 0) {
      if (paren == 0) {
        // The matching ')' must end the name.
        int depth = 0;
        for (size_t j = i; j < s.size(); ++j) {
          if (s[j] == '(') ++depth;
          else if (s[j] == ')' && --depth == 0) {
            std::string_view rest = s.substr(j + 1);
            if (rest.empty() || rest == " const") return i;
            // "f(...)::{lambda()#1}...": a nested name, not a signature's end.
            break;
          }
        }
        return std::string_view::npos;
      }
      ++paren;
    } else if (c == ')' && paren > 0) {
      --paren;
    }
  }
  return std::string_view::npos;
}

// The last "::"-separated component outside <> and ().
std::string_view lastComponent(std::string_view s) {
  int depth = 0;
  size_t start = 0;
  for (size_t i = 0; i + 1 < s.size(); ++i) {
    const char c = s[i];
    if (c == '<' || c == '(') ++depth;
    else if ((c == '>' || c == ')') && depth > 0) --depth;
    else if (c == ':' && s[i + 1] == ':' && depth == 0) start = i + 2;
  }
  return s.substr(start);
}

// Identifiers that never tell two instantiations apart: namespaces, types, wrappers.
bool generic(std::string_view id) {
  static constexpr std::array<std::string_view, 65> kWords = {"at",
                                                              "native",
                                                              "detail",
                                                              "std",
                                                              "c10",
                                                              "cuda",
                                                              "cub",
                                                              "void",
                                                              "float",
                                                              "double",
                                                              "int",
                                                              "long",
                                                              "unsigned",
                                                              "char",
                                                              "bool",
                                                              "short",
                                                              "half",
                                                              "Half",
                                                              "BFloat16",
                                                              "const",
                                                              "lambda",
                                                              "anonymous",
                                                              "namespace",
                                                              "operator",
                                                              "Array",
                                                              "TrivialOffsetCalculator",
                                                              "OffsetCalculator",
                                                              "memory",
                                                              "LoadWithoutCast",
                                                              "StoreWithoutCast",
                                                              "LoadWithCast",
                                                              "StoreWithCast",
                                                              "TensorIteratorBase",
                                                              "TensorIterator",
                                                              "RestrictPtrTraits",
                                                              "DefaultPtrTraits",
                                                              "GenericPackedTensorAccessor",
                                                              "PackedTensorAccessor32",
                                                              "PackedTensorAccessor64",
                                                              "func_wrapper_t",
                                                              "gpu_kernel_impl",
                                                              "gpu_kernel_impl_nocast",
                                                              "templates",
                                                              "binary_internal",
                                                              "Scalar",
                                                              "ClampLimits",
                                                              "OpType",
                                                              "ul",
                                                              "true",
                                                              "false",
                                                              "BinaryFunctor",
                                                              "BUnaryFunctor",
                                                              "AUnaryFunctor",
                                                              "UnaryFunctor",
                                                              "ReduceOp",
                                                              "TensorListMetadata",
                                                              "CUDAGeneratorImpl",
                                                              "PhiloxCudaState",
                                                              "uint8_t",
                                                              "int64_t",
                                                              "int32_t",
                                                              "size_t",
                                                              "Policy",
                                                              "decltype"};
  return std::find(kWords.begin(), kWords.end(), id) != kWords.end();
}

// Looks like the functor or function an instantiation is about.
bool telling(std::string_view id) {
  auto has = [&](std::string_view part) { return id.find(part) != std::string_view::npos; };
  return has("kernel") || has("Kernel") || has("Functor") || has("functor") || has("_cuda") || has("_impl") ||
         has("Op") || has("launch_") || id.size() >= 8;
}

std::string_view trimSuffixes(std::string_view id) {
  for (std::string_view suffix :
       {"_kernel_cuda", "_kernel_impl", "_cuda_kernel", "_kernel", "_cuda", "_impl", "_functor"})
    if (id.size() > suffix.size() + 2 && id.ends_with(suffix)) return id.substr(0, id.size() - suffix.size());
  return id;
}

// Template arguments without namespaces and with tight commas:
// "at::native::(anonymous namespace)::OpaqueType<4u>, unsigned int, 1" -> "OpaqueType<4u>,unsigned int,1".
std::string compactArguments(std::string_view args) {
  std::string out;
  for (size_t i = 0; i < args.size();) {
    if (args.substr(i).starts_with("(anonymous namespace)::")) {
      i += 23;
      continue;
    }
    if (identStart(args[i]) && (i == 0 || !identChar(args[i - 1]))) {
      size_t j = i;
      while (j < args.size() && identChar(args[j])) ++j;
      if (args.substr(j).starts_with("::")) {  // a namespace or class qualifier
        i = j + 2;
        continue;
      }
      out.append(args.substr(i, j - i));
      i = j;
      continue;
    }
    if (args[i] == ' ' && !out.empty() && out.back() == ',') {
      ++i;
      continue;
    }
    out.push_back(args[i++]);
  }
  return out;
}

bool scalarType(std::string_view id) {
  static constexpr std::array<std::string_view, 9> kTypes = {"float", "double",   "long", "int",  "half",
                                                             "Half",  "BFloat16", "bool", "short"};
  return std::find(kTypes.begin(), kTypes.end(), id) != kTypes.end();
}

// The template arguments collapsed to what tells this instantiation apart: kept when
// short; else the functor or function they are about, after the first scalar type
// ("float, …sum…"), so instantiations for two dtypes stay apart; else their start.
std::string collapseArguments(std::string_view args) {
  const std::string compact = compactArguments(args);
  if (compact.size() <= 24) return compact;  // "long,false", "4": short enough to keep
  // Identifiers of the arguments without their qualifiers (a namespace never tells).
  std::vector<std::string_view> ids;
  const std::string_view c = compact;
  for (size_t i = 0; i < c.size();) {
    if (identStart(c[i]) && (i == 0 || !identChar(c[i - 1]))) {
      size_t j = i;
      while (j < c.size() && identChar(c[j])) ++j;
      ids.push_back(c.substr(i, j - i));
      i = j;
    } else {
      ++i;
    }
  }
  std::string_view type;
  for (std::string_view id : ids)
    if (scalarType(id)) {
      type = id;
      break;
    }
  // Leading numeric arguments (block size, vector width) tell launches apart too.
  size_t lead = 0;
  while (lead < compact.size() && ((compact[lead] >= '0' && compact[lead] <= '9') || compact[lead] == ',')) ++lead;
  while (lead > 0 && compact[lead - 1] != ',') --lead;
  for (std::string_view id : ids)
    if (!generic(id) && telling(id))
      return compact.substr(0, lead) + (type.empty() ? std::string() : std::string(type) + ",") + "\xE2\x80\xA6" +
             std::string(trimSuffixes(id)) + "\xE2\x80\xA6";
  return compact.size() <= 40 ? compact : compact.substr(0, 37) + "\xE2\x80\xA6";
}

}  // namespace

std::string shortName(std::string_view name) {
  std::string_view s = name;
  // Backward ops: "autograd::engine::evaluate_function: AddmmBackward0", and nodes of
  // C++ autograd functions, "torch::autograd::CppNode<SplitLookupFunction_..._Op>".
  if (s.starts_with("autograd::engine::evaluate_function: ")) return shortName(s.substr(37));
  if (s.starts_with("torch::autograd::")) {
    s.remove_prefix(17);
    if (s.starts_with("CppNode<") && s.ends_with(">")) {
      std::string_view inner = s.substr(8, s.size() - 9);
      while (!inner.empty() && inner.back() == ' ') inner.remove_suffix(1);
      const std::string innerShort = shortName(inner);
      const size_t angle = innerShort.find('<');
      return std::string(lastComponent(std::string_view(innerShort).substr(0, angle)));
    }
    return shortName(s);
  }
  bool demangled = false;
  if (s.starts_with("void ")) {
    s.remove_prefix(5);
    demangled = true;
  }
  if (const size_t params = parameterListStart(s); params != std::string_view::npos && params > 0) {
    s = s.substr(0, params);
    demangled = true;
  }
  // Template arguments of the outermost name: from its first '<' to the matching '>'.
  size_t open = std::string_view::npos;
  int depth = 0;
  for (size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '(') ++depth;
    else if (s[i] == ')' && depth > 0) --depth;
    else if (s[i] == '<' && depth == 0 && i > 0 && identChar(s[i - 1])) {
      open = i;
      break;
    }
  }
  if (open == std::string_view::npos) {
    if (!demangled) return std::string(name);
    return std::string(lastComponent(s));
  }
  size_t close = std::string_view::npos;
  depth = 0;
  for (size_t i = open; i < s.size(); ++i) {
    if (s[i] == '<') ++depth;
    else if (s[i] == '>' && --depth == 0) {
      close = i;
      break;
    }
  }
  if (close == std::string_view::npos) return std::string(name);  // unbalanced: not ours to shorten
  std::string_view args = s.substr(open + 1, close - open - 1);
  while (!args.empty() && args.back() == ' ') args.remove_suffix(1);
  const std::string_view base = lastComponent(s.substr(0, open));
  // cutlass::Kernel<cutlass_80_tensorop_s1688gemm_...>: the argument is the kernel's name.
  if (base == "Kernel" && args.find_first_of("<,( ") == std::string_view::npos) return std::string(lastComponent(args));
  return std::string(base) + "<" + collapseArguments(args) + ">";
}

}  // namespace opscope
