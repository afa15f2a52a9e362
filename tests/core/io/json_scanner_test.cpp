#include "io/json_scanner.h"

#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <vector>

namespace opscope {
namespace {

// A window as the loader hands one over: the text, then kPadding bytes of which the
// first is NUL (the rest filled with digits and spaces, which a scan must not read as
// part of the text).
struct Window {
  std::vector<char> bytes;
  explicit Window(const std::string& text) : bytes(text.size() + kPadding, '7') {
    std::memcpy(bytes.data(), text.data(), text.size());
    bytes[text.size()] = 0;
    for (size_t i = text.size() + 1; i < bytes.size(); i += 2) bytes[i] = ' ';
  }
  const char* begin() const { return bytes.data(); }
  const char* end() const { return bytes.data() + bytes.size() - kPadding; }
};

bool isNumberByteAsJsonSaysIt(unsigned char c) {
  return (c >= '0' && c <= '9') || c == '-' || c == '+' || c == '.' || c == 'e' || c == 'E';
}

// The number's text ends at the first byte that is none of a number's, wherever it lies
// in the 16-byte steps: every byte value at every position from 0 to 40.
TEST(JsonScanner, ANumberEndsAtTheFirstByteThatIsNoneOfANumbersWhereverItLies) {
  for (int b = 1; b < 256; ++b) {
    for (size_t at = 1; at <= 40; ++at) {
      std::string text;
      for (size_t i = 0; i < at; ++i) text.push_back("0123456789.e-+E"[i % 15]);
      text.push_back(static_cast<char>(b));
      text += "}";
      Window w(text);
      JsonScanner sc;
      sc.reset(w.begin(), w.end());
      const std::string_view n = sc.number();
      const size_t expected = isNumberByteAsJsonSaysIt(static_cast<unsigned char>(b)) ? at + 1 : at;
      ASSERT_EQ(n.size(), expected) << "byte " << b << " at " << at;
      EXPECT_EQ(sc.p, w.begin() + expected);
    }
  }
}

// A number that runs to the end of the window may go on in the next: NeedMore, not a
// number cut short, and never a read of the padding's digits as its own.
TEST(JsonScanner, ANumberThatRunsToTheWindowsEndAsksForMore) {
  for (size_t len = 1; len <= 40; ++len) {
    Window w(std::string(len, '5'));
    JsonScanner sc;
    sc.reset(w.begin(), w.end());
    EXPECT_THROW(sc.number(), NeedMore) << len;
  }
}

TEST(JsonScanner, WhitespaceIsSkippedAndTheNextByteAnsweredOrMoreAskedFor) {
  Window w(" \n\r\t  \t:x");
  JsonScanner sc;
  sc.reset(w.begin(), w.end());
  EXPECT_EQ(sc.peek(), ':');
  EXPECT_EQ(sc.p, w.begin() + 7);
  // Bytes above the space (UTF-8's included) are not whitespace.
  Window u("\xC3\xA9");
  sc.reset(u.begin(), u.end());
  EXPECT_EQ(static_cast<unsigned char>(sc.peek()), 0xC3);
  // A control byte other than \n \r \t stops the skip inside the window...
  Window c(" \x01");
  sc.reset(c.begin(), c.end());
  EXPECT_EQ(sc.peek(), '\x01');
  // ...and the NUL at its end asks for more.
  Window e("   ");
  sc.reset(e.begin(), e.end());
  EXPECT_THROW(sc.peek(), NeedMore);
}

}  // namespace
}  // namespace opscope
