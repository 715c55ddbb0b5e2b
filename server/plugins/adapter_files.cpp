#include "plugins/adapter_files.hpp"

#include <set>

#include "util/sha256.hpp"
#include "util/files.hpp"

namespace opentabs::plugins {
namespace {

constexpr unsigned file_mode = 0644;

bool is_hex8(std::string_view s) {
  if (s.size() != 8) return false;
  for (char c : s)
    if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'))) return false;
  return true;
}

// Names this module writes: <name>-<8hex>.js, <name>-<8hex>.js.map, <name>-prescript-<8hex>.js,
// and the temp files of interrupted atomic writes of those.
bool is_adapter_file_name(std::string_view n) {
  if (auto tmp = n.find(".tmp."); tmp != std::string_view::npos) n = n.substr(0, tmp);
  if (n.size() > 4 && n.substr(n.size() - 4) == ".map") n.remove_suffix(4);
  if (n.size() < 12 || n.substr(n.size() - 3) != ".js") return false;
  n.remove_suffix(3);
  return n[n.size() - 9] == '-' && is_hex8(n.substr(n.size() - 8)) && n.substr(0, 2) != "__";
}

void write_one(const fs::path& dir, const std::string& name, std::string_view content, adapter_write_report& r) {
  fs::path path = dir / name;
  auto existing = read_file(path, content.size() + 1);
  if (existing && *existing == content) {
    r.unchanged.push_back(name);
    return;
  }
  if (auto s = write_file_unsynced(path, content, file_mode); !s) {
    r.errors.push_back(name + ": " + s.err().message);
    return;
  }
  r.written.push_back(name);
}

std::string file_name(const std::string& rel) { return rel.substr(rel.rfind('/') + 1); }

}  // namespace

fs::path adapters_dir(const fs::path& config_dir) { return config_dir / "extension" / "adapters"; }

std::string hash8(std::string_view content) { return sha256_hex(content).substr(0, 8); }

adapter_file_names adapter_file_names_for(const loaded_plugin& p) {
  adapter_file_names n;
  std::string h = hash8(p.adapter_source);
  n.adapter_file = "adapters/" + p.name + "-" + h + ".js";
  if (p.source_map) n.source_map_file = n.adapter_file + ".map";
  if (p.pre_script) n.pre_script_file = "adapters/" + p.name + "-prescript-" + hash8(*p.pre_script) + ".js";
  return n;
}

std::string rewrite_source_mapping_url(std::string_view iife, std::string_view map_name) {
  constexpr std::string_view from = "sourceMappingURL=adapter.iife.js.map";
  std::string out;
  out.reserve(iife.size() + 32);
  std::size_t pos = 0;
  while (true) {
    auto hit = iife.find(from, pos);
    if (hit == std::string_view::npos) break;
    out.append(iife.substr(pos, hit - pos));
    out += "sourceMappingURL=";
    out.append(map_name);
    pos = hit + from.size();
  }
  out.append(iife.substr(pos));
  return out;
}

std::vector<adapter_file> adapter_files_for(const std::vector<const loaded_plugin*>& plugins) {
  std::vector<adapter_file> out;
  for (const loaded_plugin* p : plugins) {
    auto names = adapter_file_names_for(*p);
    std::string adapter = file_name(names.adapter_file);
    if (p->source_map) {
      std::string map = file_name(names.source_map_file);
      out.push_back({adapter, rewrite_source_mapping_url(p->adapter_source, map)});
      out.push_back({map, *p->source_map});
    } else {
      out.push_back({adapter, p->adapter_source});
    }
    if (p->pre_script) out.push_back({file_name(names.pre_script_file), *p->pre_script});
  }
  return out;
}

adapter_write_report write_adapter_files(const fs::path& dir, const std::vector<const loaded_plugin*>& plugins) {
  return write_adapter_file_list(dir, adapter_files_for(plugins));
}

adapter_write_report write_adapter_file_list(const fs::path& dir, const std::vector<adapter_file>& files) {
  adapter_write_report r;
  if (auto s = ensure_dir(dir, 0700); !s) {
    r.errors.push_back(s.err().message);
    return r;
  }
  std::set<std::string> expected;
  for (const auto& f : files) {
    expected.insert(f.name);
    write_one(dir, f.name, f.content, r);
  }
  std::error_code ec;
  fs::directory_iterator it(dir, ec);
  if (ec) {
    r.errors.push_back("cannot list " + dir.string() + ": " + ec.message());
    return r;
  }
  for (fs::directory_iterator end; it != end; it.increment(ec)) {
    if (ec) break;
    std::string name = it->path().filename().string();
    if (expected.count(name) || !is_adapter_file_name(name)) continue;
    std::error_code rm;
    if (!it->is_regular_file(rm)) continue;
    if (fs::remove(it->path(), rm)) r.removed.push_back(name);
    else if (rm) r.errors.push_back("cannot delete " + name + ": " + rm.message());
  }
  return r;
}

std::vector<std::string> remove_exec_leftovers(const fs::path& dir) {
  std::vector<std::string> removed;
  std::error_code ec;
  fs::directory_iterator it(dir, ec);
  if (ec) return removed;
  for (fs::directory_iterator end; it != end; it.increment(ec)) {
    if (ec) break;
    std::string name = it->path().filename().string();
    if (name.rfind("__exec-", 0) != 0 || name.size() < 10 || name.substr(name.size() - 3) != ".js") continue;
    std::error_code rm;
    if (fs::remove(it->path(), rm)) removed.push_back(name);
  }
  return removed;
}

}  // namespace opentabs::plugins
