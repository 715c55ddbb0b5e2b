#include "util/control_chars.hpp"

#include <cstdio>

namespace opentabs {

namespace {

// Length of the valid UTF-8 sequence at text[i] (2–4), or 0 when the bytes there are not one.
std::size_t utf8_sequence_length(std::string_view text, std::size_t i) {
  auto byte = [&](std::size_t k) { return static_cast<unsigned char>(text[k]); };
  auto cont = [&](std::size_t k) { return k < text.size() && (byte(k) & 0xC0) == 0x80; };
  unsigned char b = byte(i);
  if (b >= 0xC2 && b <= 0xDF) return cont(i + 1) ? 2 : 0;
  if (b >= 0xE0 && b <= 0xEF) {
    if (!cont(i + 1) || !cont(i + 2)) return 0;
    unsigned char b1 = byte(i + 1);
    if (b == 0xE0 && b1 < 0xA0) return 0;  // overlong
    if (b == 0xED && b1 > 0x9F) return 0;  // surrogates
    return 3;
  }
  if (b >= 0xF0 && b <= 0xF4) {
    if (!cont(i + 1) || !cont(i + 2) || !cont(i + 3)) return 0;
    unsigned char b1 = byte(i + 1);
    if (b == 0xF0 && b1 < 0x90) return 0;  // overlong
    if (b == 0xF4 && b1 > 0x8F) return 0;  // above U+10FFFF
    return 4;
  }
  return 0;
}

void append_hex(std::string& out, const char* format, unsigned value) {
  char buf[8];
  int n = std::snprintf(buf, sizeof buf, format, value);
  out.append(buf, static_cast<std::size_t>(n));
}

}  // namespace

std::string escape_control_chars(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (std::size_t i = 0; i < text.size();) {
    auto b = static_cast<unsigned char>(text[i]);
    if (b >= 0x20 && b < 0x7F) {
      out.push_back(static_cast<char>(b));
      ++i;
    } else if (b == '\n') {
      out += "\\n";
      ++i;
    } else if (b == '\r') {
      out += "\\r";
      ++i;
    } else if (b == '\t') {
      out += "\\t";
      ++i;
    } else if (b < 0x80) {  // other C0 controls and DEL
      append_hex(out, "\\x%02x", b);
      ++i;
    } else if (auto len = utf8_sequence_length(text, i); len == 0) {
      append_hex(out, "\\x%02x", b);  // not UTF-8: a raw 0x9b is CSI to an 8-bit terminal
      ++i;
    } else if (len == 2 && b == 0xC2 && static_cast<unsigned char>(text[i + 1]) < 0xA0) {
      append_hex(out, "\\u%04x", static_cast<unsigned char>(text[i + 1]));  // C1 control
      i += 2;
    } else {
      out.append(text.substr(i, len));
      i += len;
    }
  }
  return out;
}

}  // namespace opentabs
