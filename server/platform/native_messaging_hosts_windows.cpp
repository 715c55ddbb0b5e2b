// Windows: the manifest file plus HKEY_CURRENT_USER\<key> whose default value is its path
// (RegSetValueExW); the browsers read only the registry.
#include <windows.h>

#include "platform/durable_file.hpp"
#include "platform/native_messaging_hosts.hpp"
#include "platform/windows_handle.hpp"

namespace opentabs::platform {

namespace {

std::error_code from_status(LSTATUS s) { return std::error_code(static_cast<int>(s), std::system_category()); }

}  // namespace

std::error_code register_host(const host_location& where, std::string_view manifest_json) {
  std::error_code ec;
  std::filesystem::create_directories(where.manifest_file.parent_path(), ec);
  if (ec) return ec;
  if (auto e = replace_file(where.manifest_file, manifest_json, 0644, durability::on_return)) return e;
  if (where.registry_key.empty()) return {};
  HKEY key = nullptr;
  auto wide_key = windows::widen(where.registry_key);
  LSTATUS s = ::RegCreateKeyExW(HKEY_CURRENT_USER, wide_key.c_str(), 0, nullptr, REG_OPTION_NON_VOLATILE, KEY_SET_VALUE,
                                nullptr, &key, nullptr);
  if (s != ERROR_SUCCESS) return from_status(s);
  std::wstring value = where.manifest_file.wstring();
  s = ::RegSetValueExW(key, nullptr, 0, REG_SZ, reinterpret_cast<const BYTE*>(value.c_str()),
                       static_cast<DWORD>((value.size() + 1) * sizeof(wchar_t)));
  ::RegCloseKey(key);
  return s == ERROR_SUCCESS ? std::error_code{} : from_status(s);
}

std::error_code unregister_host(const host_location& where) {
  if (!where.registry_key.empty()) {
    auto wide_key = windows::widen(where.registry_key);
    LSTATUS s = ::RegDeleteKeyW(HKEY_CURRENT_USER, wide_key.c_str());
    if (s != ERROR_SUCCESS && s != ERROR_FILE_NOT_FOUND) return from_status(s);
  }
  std::error_code ec;
  std::filesystem::remove(where.manifest_file, ec);
  return ec;
}

bool host_registered(const host_location& where) {
  std::error_code ec;
  if (!std::filesystem::is_regular_file(where.manifest_file, ec)) return false;
  if (where.registry_key.empty()) return true;
  auto wide_key = windows::widen(where.registry_key);
  std::wstring value(32768, L'\0');
  DWORD bytes = static_cast<DWORD>(value.size() * sizeof(wchar_t));
  LSTATUS s = ::RegGetValueW(HKEY_CURRENT_USER, wide_key.c_str(), nullptr, RRF_RT_REG_SZ, nullptr, value.data(), &bytes);
  if (s != ERROR_SUCCESS) return false;
  value.resize(bytes / sizeof(wchar_t) > 0 ? bytes / sizeof(wchar_t) - 1 : 0);
  return std::filesystem::path(value) == where.manifest_file;
}

}  // namespace opentabs::platform
