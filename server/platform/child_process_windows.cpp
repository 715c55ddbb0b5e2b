// Child processes on Windows: CreateProcessW with a command line quoted the way the C
// runtime splits it, only the three standard handles inherited (PROC_THREAD_ATTRIBUTE_
// HANDLE_LIST), stdout/stderr pipes whose read ends are overlapped (so Asio's stream_handle
// can read them), and CREATE_NEW_PROCESS_GROUP (plus DETACHED_PROCESS for a session of
// its own).  kill_group ends the child itself: its descendants are not reached.
#include <windows.h>

#include <atomic>
#include <thread>

#include "platform/child_process.hpp"
#include "platform/windows_handle.hpp"

namespace opentabs::platform {

namespace {

HANDLE as_handle(native_handle h) { return reinterpret_cast<HANDLE>(h); }
native_handle as_native(HANDLE h) { return h == nullptr || h == INVALID_HANDLE_VALUE ? kNoHandle : reinterpret_cast<native_handle>(h); }

// One argument quoted for CommandLineToArgvW / the C runtime: backslashes are literal
// except before a quote, where they and the quote are escaped.
std::wstring quote_argument(const std::wstring& arg) {
  if (!arg.empty() && arg.find_first_of(L" \t\n\v\"") == std::wstring::npos) return arg;
  std::wstring out = L"\"";
  std::size_t backslashes = 0;
  for (wchar_t c : arg) {
    if (c == L'\\') {
      ++backslashes;
      continue;
    }
    out.append(c == L'"' ? backslashes * 2 + 1 : backslashes, L'\\');
    backslashes = 0;
    out.push_back(c);
  }
  out.append(backslashes * 2, L'\\');
  return out + L"\"";
}

std::wstring command_line(const std::vector<std::string>& argv) {
  std::wstring line;
  for (const auto& a : argv) {
    if (!line.empty()) line.push_back(L' ');
    line += quote_argument(windows::widen(a));
  }
  return line;
}

// Our environment with `extra` set on top, as a CREATE_UNICODE_ENVIRONMENT block.
std::wstring environment_block(const std::vector<std::pair<std::string, std::string>>& extra) {
  std::wstring block;
  wchar_t* env = ::GetEnvironmentStringsW();
  for (const wchar_t* p = env; p && *p; p += wcslen(p) + 1) {
    std::wstring entry(p);
    bool replaced = false;
    for (const auto& kv : extra) {
      auto prefix = windows::widen(kv.first) + L"=";
      if (_wcsnicmp(entry.c_str(), prefix.c_str(), prefix.size()) == 0) replaced = true;
    }
    if (!replaced) block += entry + L'\0';
  }
  if (env) ::FreeEnvironmentStringsW(env);
  for (const auto& [k, v] : extra) block += windows::widen(k) + L"=" + windows::widen(v) + L'\0';
  return block + L'\0';
}

// A pipe whose read end is overlapped (ours) and whose write end is inheritable (the child's).
std::error_code make_pipe(windows::unique_handle& read_end, windows::unique_handle& write_end) {
  static std::atomic<unsigned> counter{0};
  auto name = L"\\\\.\\pipe\\opentabs-" + std::to_wstring(::GetCurrentProcessId()) + L"-" + std::to_wstring(counter++);
  read_end.reset(::CreateNamedPipeW(name.c_str(), PIPE_ACCESS_INBOUND | FILE_FLAG_OVERLAPPED | FILE_FLAG_FIRST_PIPE_INSTANCE,
                                    PIPE_TYPE_BYTE | PIPE_WAIT, 1, 0, 65536, 0, nullptr));
  if (!read_end.valid()) return windows::last_error();
  SECURITY_ATTRIBUTES inherit{sizeof(SECURITY_ATTRIBUTES), nullptr, TRUE};
  write_end.reset(::CreateFileW(name.c_str(), GENERIC_WRITE, 0, &inherit, OPEN_EXISTING, FILE_ATTRIBUTE_NORMAL, nullptr));
  if (!write_end.valid()) return windows::last_error();
  return {};
}

std::error_code open_inheritable(const std::filesystem::path& file, bool append, windows::unique_handle& out) {
  SECURITY_ATTRIBUTES inherit{sizeof(SECURITY_ATTRIBUTES), nullptr, TRUE};
  out.reset(append ? ::CreateFileW(file.c_str(), FILE_APPEND_DATA, FILE_SHARE_READ | FILE_SHARE_WRITE, &inherit,
                                   OPEN_ALWAYS, FILE_ATTRIBUTE_NORMAL, nullptr)
                   : ::CreateFileW(L"NUL", GENERIC_READ, FILE_SHARE_READ | FILE_SHARE_WRITE, &inherit, OPEN_EXISTING,
                                   FILE_ATTRIBUTE_NORMAL, nullptr));
  if (!out.valid()) return windows::last_error();
  return {};
}

struct std_handles {
  windows::unique_handle in, out, err, out_read, err_read;
};

std::error_code prepare_handles(const child_spec& spec, std_handles& h) {
  if (auto ec = open_inheritable({}, false, h.in)) return ec;
  if (!spec.output_file.empty()) {
    if (auto ec = open_inheritable(spec.output_file, true, h.out)) return ec;
    HANDLE dup = nullptr;
    if (!::DuplicateHandle(::GetCurrentProcess(), h.out.get(), ::GetCurrentProcess(), &dup, 0, TRUE, DUPLICATE_SAME_ACCESS))
      return windows::last_error();
    h.err.reset(dup);
    return {};
  }
  if (auto ec = make_pipe(h.out_read, h.out)) return ec;
  return make_pipe(h.err_read, h.err);
}

std::error_code start_process(const child_spec& spec, std_handles& h, PROCESS_INFORMATION& pi) {
  HANDLE inherited[3] = {h.in.get(), h.out.get(), h.err.get()};
  SIZE_T size = 0;
  ::InitializeProcThreadAttributeList(nullptr, 1, 0, &size);
  std::vector<unsigned char> storage(size);
  auto* attrs = reinterpret_cast<LPPROC_THREAD_ATTRIBUTE_LIST>(storage.data());
  if (!::InitializeProcThreadAttributeList(attrs, 1, 0, &size)) return windows::last_error();
  ::UpdateProcThreadAttribute(attrs, 0, PROC_THREAD_ATTRIBUTE_HANDLE_LIST, inherited, sizeof inherited, nullptr, nullptr);
  STARTUPINFOEXW si{};
  si.StartupInfo.cb = sizeof si;
  si.StartupInfo.dwFlags = STARTF_USESTDHANDLES;
  si.StartupInfo.hStdInput = inherited[0];
  si.StartupInfo.hStdOutput = inherited[1];
  si.StartupInfo.hStdError = inherited[2];
  si.lpAttributeList = attrs;
  // Suspended until spawn() has put it in its job, so nothing it starts escapes the job.
  DWORD flags = EXTENDED_STARTUPINFO_PRESENT | CREATE_UNICODE_ENVIRONMENT | CREATE_NEW_PROCESS_GROUP | CREATE_SUSPENDED;
  flags |= spec.group == child_group::own_session ? DETACHED_PROCESS : CREATE_NO_WINDOW;
  auto line = command_line(spec.argv);
  auto env = environment_block(spec.extra_env);
  std::wstring program = spec.program.empty() ? std::wstring() : spec.program.wstring();
  BOOL ok = ::CreateProcessW(program.empty() ? nullptr : program.c_str(), line.data(), nullptr, nullptr, TRUE, flags,
                             env.data(), nullptr, &si.StartupInfo, &pi);
  DWORD err = ok ? 0 : ::GetLastError();
  ::DeleteProcThreadAttributeList(attrs);
  if (ok) return {};
  if (err == ERROR_FILE_NOT_FOUND || err == ERROR_PATH_NOT_FOUND) return std::make_error_code(std::errc::no_such_file_or_directory);
  return std::error_code(static_cast<int>(err), std::system_category());
}

// The POSIX process group's counterpart: a job object holding the child, which everything
// the child starts joins too, so kill_group ends the whole tree (npm and the node it runs).
// Null where the child cannot be put in a job; kill_group then ends the child alone.
windows::unique_handle job_for(HANDLE process) {
  windows::unique_handle job(::CreateJobObjectW(nullptr, nullptr));
  if (!job.valid() || !::AssignProcessToJobObject(job.get(), process)) return windows::unique_handle();
  return job;
}

exit_status status_of(HANDLE process) {
  exit_status st;
  DWORD code = 0;
  if (::GetExitCodeProcess(process, &code)) st.code = static_cast<int>(code);
  return st;
}

}  // namespace

void close_handle(native_handle h) noexcept {
  if (h != kNoHandle && h != 0) ::CloseHandle(as_handle(h));
}

std::error_code spawn(const child_spec& spec, child& out) {
  if (spec.argv.empty() || spec.argv[0].empty()) return std::make_error_code(std::errc::invalid_argument);
  std_handles h;
  if (auto ec = prepare_handles(spec, h)) return ec;
  PROCESS_INFORMATION pi{};
  if (auto ec = start_process(spec, h, pi)) return ec;
  out = child();
  if (spec.group == child_group::own_process_group) out.job_ = as_native(job_for(pi.hProcess).release());
  ::ResumeThread(pi.hThread);
  ::CloseHandle(pi.hThread);
  out.pid_ = static_cast<long>(pi.dwProcessId);
  out.process_ = as_native(pi.hProcess);
  out.out_ = as_native(h.out_read.release());
  out.err_ = as_native(h.err_read.release());
  return {};
}

native_handle child::take_exit_handle() noexcept {
  if (reaped_ || process_ == kNoHandle) return kNoHandle;
  HANDLE dup = nullptr;
  if (!::DuplicateHandle(::GetCurrentProcess(), as_handle(process_), ::GetCurrentProcess(), &dup, SYNCHRONIZE, FALSE, 0))
    return kNoHandle;
  return as_native(dup);
}

std::optional<exit_status> child::try_wait() {
  if (reaped_ || process_ == kNoHandle) return status_.value_or(exit_status{});
  if (::WaitForSingleObject(as_handle(process_), 0) == WAIT_TIMEOUT) return std::nullopt;
  reaped_ = true;
  status_ = status_of(as_handle(process_));
  return status_;
}

exit_status child::wait() {
  if (reaped_ || process_ == kNoHandle) return status_.value_or(exit_status{});
  ::WaitForSingleObject(as_handle(process_), INFINITE);
  reaped_ = true;
  status_ = status_of(as_handle(process_));
  return *status_;
}

std::error_code request_termination(long pid) {
  if (pid <= 0) return std::make_error_code(std::errc::invalid_argument);
  windows::unique_handle h(::OpenProcess(PROCESS_TERMINATE, FALSE, static_cast<DWORD>(pid)));
  if (!h.valid() || !::TerminateProcess(h.get(), 1)) return windows::last_error();
  return {};
}

void child::kill_group(bool /*force*/) noexcept {
  if (reaped_ || process_ == kNoHandle) return;
  if (job_ != kNoHandle && ::TerminateJobObject(as_handle(job_), 1)) return;
  ::TerminateProcess(as_handle(process_), 1);
}

std::ptrdiff_t read_pipe(native_handle h, char* buf, std::size_t size) noexcept {
  // The read ends are overlapped: a read is issued and waited for.
  OVERLAPPED ov{};
  windows::unique_handle done(::CreateEventW(nullptr, TRUE, FALSE, nullptr));
  ov.hEvent = done.get();
  DWORD n = 0;
  DWORD want = size > 0x10000000 ? 0x10000000 : static_cast<DWORD>(size);
  if (!::ReadFile(as_handle(h), buf, want, nullptr, &ov) && ::GetLastError() != ERROR_IO_PENDING)
    return ::GetLastError() == ERROR_BROKEN_PIPE ? 0 : -1;
  if (!::GetOverlappedResult(as_handle(h), &ov, &n, TRUE)) return ::GetLastError() == ERROR_BROKEN_PIPE ? 0 : -1;
  return static_cast<std::ptrdiff_t>(n);
}

unsigned wait_readable(std::span<const native_handle> pipes, std::chrono::milliseconds timeout) {
  // Pipes have no readiness wait on Windows: peek every few milliseconds until the deadline.
  auto deadline = std::chrono::steady_clock::now() + timeout;
  for (;;) {
    unsigned ready = 0;
    for (std::size_t i = 0; i < pipes.size(); ++i) {
      if (pipes[i] == kNoHandle) continue;
      DWORD available = 0;
      if (!::PeekNamedPipe(as_handle(pipes[i]), nullptr, 0, nullptr, &available, nullptr) || available > 0) ready |= 1U << i;
    }
    if (ready || std::chrono::steady_clock::now() >= deadline) return ready;
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
}

}  // namespace opentabs::platform
