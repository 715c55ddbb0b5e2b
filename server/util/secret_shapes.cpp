#include "util/secret_shapes.hpp"

#include <array>

namespace opentabs {

namespace {

bool is_token_char(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '-' || c == '.';
}
bool is_upper_alnum(char c) { return (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9'); }

struct prefix_shape {
  std::string_view prefix;
  std::size_t min_rest;  // characters after the prefix
  std::string_view kind;
};

constexpr std::array<prefix_shape, 19> kPrefixShapes = {{
    {"ghp_", 20, "GitHub token"},        {"gho_", 20, "GitHub token"},    {"ghu_", 20, "GitHub token"},
    {"ghs_", 20, "GitHub token"},        {"ghr_", 20, "GitHub token"},    {"github_pat_", 20, "GitHub token"},
    {"glpat-", 20, "GitLab token"},      {"npm_", 30, "npm token"},       {"sk-", 20, "API key"},
    {"sk_live_", 16, "Stripe key"},      {"sk_test_", 16, "Stripe key"},  {"rk_live_", 16, "Stripe key"},
    {"rk_test_", 16, "Stripe key"},      {"xoxb-", 10, "Slack token"},    {"xoxp-", 10, "Slack token"},
    {"xoxa-", 10, "Slack token"},        {"xoxr-", 10, "Slack token"},    {"xoxs-", 10, "Slack token"},
    {"AIza", 30, "Google API key"},
}};

// The kind of secret `word` (a maximal run of token characters) is, or empty.
std::string_view secret_kind(std::string_view word) {
  for (const auto& s : kPrefixShapes)
    if (word.starts_with(s.prefix) && word.size() >= s.prefix.size() + s.min_rest) return s.kind;
  if (word.size() == 20 && (word.starts_with("AKIA") || word.starts_with("ASIA"))) {
    bool all = true;
    for (char c : word) all = all && is_upper_alnum(c);
    if (all) return "AWS access key";
  }
  // A JWT: three base64url parts, the first a JSON object ("eyJ" is `{"`).
  if (word.starts_with("eyJ") && word.size() >= 30) {
    const auto first = word.find('.');
    const auto second = first == std::string_view::npos ? first : word.find('.', first + 1);
    if (second != std::string_view::npos && second > first + 1 && word.find('.', second + 1) == std::string_view::npos)
      return "JSON Web Token";
  }
  return {};
}

constexpr std::string_view kPemBegin = "-----BEGIN ";
constexpr std::string_view kPemKeyEnd = "PRIVATE KEY-----";

}  // namespace

std::string redact_secret_shapes(std::string_view text, bool* found) {
  std::string out;
  out.reserve(text.size());
  bool any = false;
  std::size_t i = 0;
  while (i < text.size()) {
    // A PEM private key, from its BEGIN line through its END line (or the end of the text).
    if (text.compare(i, kPemBegin.size(), kPemBegin) == 0) {
      const auto line_end = text.find('\n', i);
      const auto header = text.substr(i, line_end == std::string_view::npos ? std::string_view::npos : line_end - i);
      if (header.find(kPemKeyEnd) != std::string_view::npos) {
        const auto end_marker = text.find("-----END ", i + kPemBegin.size());
        const auto end_of_end = end_marker == std::string_view::npos ? std::string_view::npos : text.find(kPemKeyEnd, end_marker);
        out += "[redacted private key]";
        any = true;
        i = end_of_end == std::string_view::npos ? text.size() : end_of_end + kPemKeyEnd.size();
        continue;
      }
    }
    if (!is_token_char(text[i])) {
      out += text[i++];
      continue;
    }
    std::size_t j = i;
    while (j < text.size() && is_token_char(text[j])) ++j;
    auto word = text.substr(i, j - i);
    // A word may end in sentence punctuation that is no part of the token.
    while (!word.empty() && word.back() == '.') word.remove_suffix(1);
    if (auto kind = secret_kind(word); !kind.empty()) {
      out += "[redacted ";
      out += kind;
      out += ']';
      any = true;
      out.append(text.substr(i + word.size(), j - i - word.size()));
    } else {
      out.append(text.substr(i, j - i));
    }
    i = j;
  }
  if (found) *found = any;
  return out;
}

}  // namespace opentabs
