// The command implementations, one function per command, grouped in one source file per
// command family (cmd_start.cpp, cmd_tool.cpp, ...).  Each returns the exit code.
#pragma once

#include <string>

#include "cli/args.hpp"
#include "cli/context.hpp"

namespace opentabs::cli {

int cmd_start(context& ctx, const parsed_command& cmd);
int cmd_stop(context& ctx, const parsed_command& cmd);
int cmd_status(context& ctx, const parsed_command& cmd);
int cmd_audit(context& ctx, const parsed_command& cmd);
int cmd_logs(context& ctx, const parsed_command& cmd);
int cmd_doctor(context& ctx, const parsed_command& cmd);
int cmd_extension_install(context& ctx, const parsed_command& cmd);

int cmd_plugin_search(context& ctx, const parsed_command& cmd);
int cmd_plugin_list(context& ctx, const parsed_command& cmd);
int cmd_plugin_install(context& ctx, const parsed_command& cmd);
int cmd_plugin_remove(context& ctx, const parsed_command& cmd);
int cmd_plugin_configure(context& ctx, const parsed_command& cmd);
int cmd_plugin_create(context& ctx, const parsed_command& cmd);

int cmd_tool_list(context& ctx, const parsed_command& cmd);
int cmd_tool_schema(context& ctx, const parsed_command& cmd);
int cmd_tool_call(context& ctx, const parsed_command& cmd);

int cmd_config_set(context& ctx, const parsed_command& cmd);
int cmd_config_path(context& ctx, const parsed_command& cmd);
int cmd_config_show(context& ctx, const parsed_command& cmd);
int cmd_config_reset(context& ctx, const parsed_command& cmd);
int cmd_config_rotate_secret(context& ctx, const parsed_command& cmd);

// Applies one `config set` key to config.json (section-preserving), prints the outcome and
// asks a running server to reload.  Shared by `config set` and `plugin remove` (local plugins).
int apply_config_setting(context& ctx, const std::string& key, const std::string& value);

int cmd_native_host_install(context& ctx, const parsed_command& cmd);
int cmd_native_host_uninstall(context& ctx, const parsed_command& cmd);
int cmd_native_host_status(context& ctx, const parsed_command& cmd);
int cmd_native_host_run(context& ctx, const parsed_command& cmd);

}  // namespace opentabs::cli
