#include "platform/process_identity.hpp"

#include <filesystem>

namespace opentabs::platform {

bool command_line_is_opentabs_server(const std::vector<std::string>& args) {
  if (args.empty()) return false;
  auto base = std::filesystem::path(args[0]).filename().string();
  if (base.find("opentabs") == std::string::npos) return false;
  if (args.size() == 1) return base == "opentabs.exe";
  for (std::size_t i = 1; i < args.size(); ++i)
    if (args[i] == "start") return true;
  return false;
}

std::vector<std::string> split_nul_separated(std::string_view text) {
  std::vector<std::string> out;
  std::string cur;
  for (char ch : text) {
    if (ch == '\0') {
      out.push_back(std::move(cur));
      cur.clear();
    } else {
      cur.push_back(ch);
    }
  }
  if (!cur.empty()) out.push_back(std::move(cur));
  return out;
}

bool is_opentabs_server(long pid) {
  if (pid <= 0) return false;
  auto args = process_command_line(pid);
  return args && command_line_is_opentabs_server(*args);
}

}  // namespace opentabs::platform
