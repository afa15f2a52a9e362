#include "report/rank_line_facts.h"

#include <cstdint>
#include <nlohmann/json.hpp>

#include "io/input_limits.h"

namespace opscope {

namespace {

using ojson = nlohmann::ordered_json;

// nlohmann's SAX interface over one line. Containers are counted as they open (`open_`):
// the line's object is level 1, a top-level key's value level 2, an element of a list
// level 3 and its keys' values level 4. Only the two lists' elements are looked at; the
// rest is lexed and passed over.
class FactsReader {
 public:
  FactsReader(std::vector<double>* iterations, std::vector<std::pair<std::string, double>>* kernels)
      : iterations_(iterations), kernels_(kernels) {}

  bool null() { return scalar(Field::Other); }
  bool boolean(bool) { return scalar(Field::Other); }
  bool number_integer(ojson::number_integer_t v) { return number(static_cast<double>(v)); }
  bool number_unsigned(ojson::number_unsigned_t v) { return number(static_cast<double>(v)); }
  bool number_float(ojson::number_float_t v, const ojson::string_t&) { return number(static_cast<double>(v)); }
  bool string(ojson::string_t& v) {
    if (inElementField()) text_[field_] = std::move(v);
    return scalar(Field::String);
  }
  bool binary(ojson::binary_t&) { return scalar(Field::Other); }

  bool start_object(std::size_t) { return open(true); }
  bool end_object() { return close(); }
  bool start_array(std::size_t) { return open(false); }
  bool end_array() { return close(); }

  bool key(ojson::string_t& k) {
    checkDepth();
    if (open_ == 1) {
      pending_ = k == "iteration_list" ? List::Iterations : k == "top_kernels" ? List::Kernels : List::None;
      // A repeated key replaces what its earlier value gave, as in the document; a value
      // that is not an array gives nothing.
      if (pending_ == List::Iterations && iterations_) iterations_->clear();
      if (pending_ == List::Kernels && kernels_) kernels_->clear();
    } else if (open_ == 3 && element_) {
      const char* first = list_ == List::Iterations ? "wall_us" : "name";
      const char* second = list_ == List::Iterations ? "dur_us" : "total_us";
      field_ = k == first ? 0 : k == second ? 1 : kNoField;
    }
    return true;
  }

  bool parse_error(std::size_t, const std::string&, const nlohmann::detail::exception& e) {
    why_ = std::string("not JSON (") + e.what() + ")";
    return false;
  }

  // After the parse: the first of the table reader's complaints that holds, or true.
  bool result(std::string& why) const {
    if (!why_.empty()) why = why_;
    else if (tooDeep_) why = "nested deeper than " + std::to_string(kMaxJsonDepth) + " levels";
    else if (!object_) why = "not a JSON object";
    else return true;
    return false;
  }

 private:
  enum class List : uint8_t { None, Iterations, Kernels };
  // What an element's key last held: absent, a number, a string, anything else.
  enum class Field : uint8_t { Absent, Number, String, Other };
  static constexpr int kNoField = -1;

  bool wanted(List l) const { return (l == List::Iterations && iterations_) || (l == List::Kernels && kernels_); }
  bool inElementField() const { return open_ == 3 && element_ && field_ != kNoField; }
  // The readers' ceiling: a container or value below more than kMaxJsonDepth open ones
  // (what the document parser's callback saw as its depth).
  void checkDepth() {
    if (open_ > static_cast<size_t>(kMaxJsonDepth)) tooDeep_ = true;
  }
  bool scalar(Field kind) {
    checkDepth();
    if (inElementField()) state_[field_] = kind;
    return true;
  }
  bool number(double v) {
    if (inElementField()) value_[field_] = v;
    return scalar(Field::Number);
  }
  bool open(bool isObject) {
    checkDepth();
    if (open_ == 0) {
      object_ = isObject;
    } else if (open_ == 1) {
      list_ = !isObject && wanted(pending_) ? pending_ : List::None;
    } else if (open_ == 2 && list_ != List::None && isObject) {
      element_ = true;
      state_[0] = state_[1] = Field::Absent;
      field_ = kNoField;
    } else if (inElementField()) {
      state_[field_] = Field::Other;
    }
    ++open_;
    return true;
  }
  bool close() {
    --open_;
    if (open_ == 2 && element_) {
      element_ = false;
      if (list_ == List::Iterations) {
        if (state_[0] == Field::Number) iterations_->push_back(value_[0]);
        else if (state_[1] == Field::Number) iterations_->push_back(value_[1]);
      } else if (state_[0] == Field::String && state_[1] == Field::Number) {
        kernels_->emplace_back(std::move(text_[0]), value_[1]);
      }
    } else if (open_ == 1) {
      list_ = List::None;
    }
    return true;
  }

  std::vector<double>* iterations_;
  std::vector<std::pair<std::string, double>>* kernels_;
  size_t open_ = 0;
  bool object_ = false, tooDeep_ = false;
  List pending_ = List::None;  // the list the top-level key just read names
  List list_ = List::None;     // the list whose array is open (level 2)
  bool element_ = false;       // an object element of list_ is open (level 3)
  int field_ = kNoField;       // the element key whose value comes next: 0 or 1
  Field state_[2] = {Field::Absent, Field::Absent};
  double value_[2] = {0, 0};
  std::string text_[2];
  std::string why_;
};

}  // namespace

bool readRankLineFacts(const std::string& text, std::vector<double>* iterations,
                       std::vector<std::pair<std::string, double>>* kernels, std::string& why) {
  if (iterations) iterations->clear();
  if (kernels) kernels->clear();
  FactsReader reader(iterations, kernels);
  ojson::sax_parse(text, &reader, ojson::input_format_t::json, true, false);
  return reader.result(why);
}

}  // namespace opscope
