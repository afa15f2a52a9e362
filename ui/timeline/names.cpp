#include "timeline/names.h"

#include <algorithm>
#include <cstdint>
#include <map>

#include "analysis/short_name.h"

namespace opscope::ui {

namespace {

constexpr QChar kEllipsis(0x2026);

// A cut at i falls between two words when it meets '_', ':', ' ', '.', or a lower-case
// letter followed by an upper-case one.
bool wordBoundary(const QString& s, int i) {
  if (i <= 0 || i >= s.size()) return true;
  const QChar a = s[i - 1], b = s[i];
  auto sep = [](QChar c) {
    return c == QLatin1Char('_') || c == QLatin1Char(':') || c == QLatin1Char(' ') || c == QLatin1Char('.');
  };
  return sep(a) || sep(b) || (a.isLower() && b.isUpper()) || (a.isDigit() != b.isDigit());
}

// Keeps head + tail = budget characters, moving each cut up to 4 characters inward to
// a word boundary so that no word is shown half.
QString elideAtWords(const QString& s, int maxChars, int headShare) {
  if (s.size() <= maxChars || maxChars < 5) return s;
  const int keep = maxChars - 1;
  int head = keep * headShare / 100;
  int tail = keep - head;
  for (int k = 0; k < 4 && head - k > 1; ++k)
    if (wordBoundary(s, head - k)) {
      tail += k;
      head -= k;
      break;
    }
  for (int k = 0; k < 4 && tail - k > 1; ++k)
    if (wordBoundary(s, static_cast<int>(s.size()) - (tail - k))) {
      head += k;
      tail -= k;
      break;
    }
  return s.left(head) + kEllipsis + s.right(tail);
}

// Template arguments within budget characters (without the angle brackets): the last
// argument (the functor or function an instantiation is about) first, then leading
// ones while they fit, the dropped middle as one ellipsis.
QString elideArguments(const QString& inner, int budget) {
  if (inner.size() <= budget) return inner;
  const QStringList parts = inner.split(QLatin1Char(','));
  const QString last = parts.back();
  if (parts.size() == 1 || last.size() + 2 > budget)
    return elideAtWords(inner.size() > last.size() ? last : inner, budget, 30);
  QString head;
  for (int i = 0; i + 1 < parts.size(); ++i) {
    const QString next = head + parts[i] + QLatin1Char(',');
    if (next.size() + 1 + last.size() > budget) break;
    head = next;
  }
  return head + kEllipsis + QLatin1Char(',') + last;
}

QString fitOrCut(const QString& out, const QString& s, int maxChars) {
  // Widths below what word elision handles (a few characters): a plain cut.
  return out.size() <= maxChars ? out : s.left(std::max(0, maxChars - 1)) + kEllipsis;
}

// s shortened to maxChars so that the characters in [from, to) (where it differs from
// names it would otherwise be confused with) stay visible, with as much of its start
// and end around them as fits (the end gets three fifths of what is left).
QString elideAround(const QString& s, int from, int to, int maxChars) {
  const int n = static_cast<int>(s.size());
  if (n <= maxChars) return s;
  from = std::clamp(from, 0, n);
  to = std::clamp(std::max(to, from + 1), from, n);
  const int needed = to - from;
  if (needed + 4 > maxChars) return fitOrCut(elideMiddle(s, maxChars), s, maxChars);
  const int rest = maxChars - needed;
  const int tailLen = n - to;
  int tailKeep = std::min(tailLen, rest * 3 / 5);
  int headBudget = rest - tailKeep;
  if (from <= headBudget) {  // the whole start fits: the end gets the remainder
    headBudget = from;
    tailKeep = std::min(tailLen, rest - from);
  } else if (tailKeep == tailLen) {
    headBudget = rest - tailLen;
  }
  QString head = s.left(from);
  if (from > headBudget) {  // start words, an ellipsis, the letters just before the window
    const int keep = headBudget - 1;
    int h = keep * 2 / 3;
    for (int k = 0; k < 4 && h - k > 1; ++k)
      if (wordBoundary(s, h - k)) {
        h -= k;
        break;
      }
    head = s.left(h) + kEllipsis + s.mid(from - (keep - h), keep - h);
  }
  QString tail = s.mid(to);
  if (tailLen > tailKeep) {  // the letters just after the window, an ellipsis, the last words
    const int keep = tailKeep - 1;
    const int t1 = keep / 3;
    tail = s.mid(to, t1) + kEllipsis + s.right(keep - t1);
  }
  return fitOrCut(head + s.mid(from, needed) + tail, s, maxChars);
}

}  // namespace

QString elideMiddle(const QString& s, int maxChars) {
  if (s.size() <= maxChars || maxChars < 5) return s;
  const int head = (maxChars - 1) * 2 / 3;
  const int tail = maxChars - 1 - head;
  return s.left(head) + kEllipsis + s.right(tail);
}

QString displayName(std::string_view full) { return QString::fromStdString(shortName(full)); }

QString displayName(std::string_view full, int maxChars) {
  const QString s = displayName(full);
  if (s.size() <= maxChars) return s;
  // Long names differ most often at their end (…_cta_per_row_1 / …_warp_per_row_1,
  // …Backward0, model.py(12): forward), so the tail keeps three fifths.
  const int angle = s.indexOf(QLatin1Char('<'));
  if (angle <= 0 || !s.endsWith(QLatin1Char('>'))) return fitOrCut(elideAtWords(s, maxChars, 40), s, maxChars);
  const QString base = s.left(angle), args = s.mid(angle);
  // Instantiations of one template differ in their arguments, so the arguments come
  // first: the name gives way down to a few words, then the arguments lose their middle
  // (the last one, the functor an instantiation is about, stays). Different templates
  // that end up alike are told apart by distinctDisplayNames.
  const int baseMin = std::min(static_cast<int>(base.size()), 18);
  const QString inner = args.mid(1, args.size() - 2);
  QString out;
  if (args.size() + baseMin <= maxChars) out = elideAtWords(base, maxChars - static_cast<int>(args.size()), 40) + args;
  else if (maxChars - baseMin - 2 >= 5)
    out = elideAtWords(base, baseMin, 40) + QLatin1Char('<') + elideArguments(inner, maxChars - baseMin - 2) +
          QLatin1Char('>');
  return fitOrCut(out, s, maxChars);
}

QStringList distinctDisplayNames(const std::vector<std::string>& fulls, int maxChars) {
  QStringList shown, shortNames;
  for (const std::string& f : fulls) {
    shortNames << displayName(f);
    shown << displayName(f, maxChars);
  }
  // Labels two different short names share are shortened again around where those
  // names differ (common prefix and suffix of the colliding group removed).
  std::map<QString, std::vector<int>> byLabel;
  for (int i = 0; i < shown.size(); ++i) byLabel[shown[i]].push_back(i);
  for (const auto& [label, members] : byLabel) {
    if (members.size() < 2) continue;
    int prefix = INT32_MAX, suffix = INT32_MAX;
    const QString& a = shortNames[members[0]];
    for (size_t k = 1; k < members.size(); ++k) {
      const QString& b = shortNames[members[k]];
      if (b == a) continue;
      int p = 0;
      while (p < a.size() && p < b.size() && a[p] == b[p]) ++p;
      int q = 0;
      while (q < a.size() - p && q < b.size() - p && a[a.size() - 1 - q] == b[b.size() - 1 - q]) ++q;
      prefix = std::min(prefix, p);
      suffix = std::min(suffix, q);
    }
    if (prefix == INT32_MAX) continue;  // one short name under several full names
    for (int i : members) {
      const QString& s = shortNames[i];
      shown[i] = elideAround(s, prefix, static_cast<int>(s.size()) - suffix, maxChars);
    }
  }
  // What still collides although the short names differ (beyond the window) is
  // numbered; one short name keeps one label (the tooltip has the full name).
  std::map<QString, std::map<QString, int>> seen;
  const QStringList first = shown;
  for (int i = 0; i < shown.size(); ++i) {
    auto& names = seen[first[i]];
    const int n = names.emplace(shortNames[i], static_cast<int>(names.size()) + 1).first->second;
    if (n > 1) shown[i] = fitOrCut(first[i], first[i], maxChars - 3) + QStringLiteral(" #") + QString::number(n);
  }
  return shown;
}

}  // namespace opscope::ui
