// `opentabs extension install [--force]`: puts opentabs' own Chrome extension into
// <configDir>/extension (what `start` does on its own when that folder is empty or already
// ours).  A folder holding another extension — the original OpenTabs one, say — is replaced
// only with --force, after it has been moved to a backup next to it, so Chrome's settings for
// that extension can be recovered by loading the backup.
#include "app/extension_install.hpp"
#include "cli/commands.hpp"
#include "cli/output.hpp"
#include "config/auth_secret.hpp"
#include "config/config_paths.hpp"

namespace opentabs::cli {

int cmd_extension_install(context& ctx, const parsed_command& cmd) {
  if (auto st = config::ensure_config_dir(ctx.paths); !st) return report_error(ctx, st.err());
  const auto target = ctx.paths.extension_dir();
  app::install_options options;
  options.force = cmd.has("force");
  auto report = app::install_extension(app::extension_source_dir(), target, options);
  if (!report && report.err().is(errc::not_found)) return report_error(ctx, cli_failure::no_extension, report.err().message);
  if (!report) return report_error(ctx, report.err());
  if (!report->installed)
    return report_error(ctx, cli_failure::foreign_extension,
                        target.string() + " holds another extension" +
                            (report->foreign_label.empty() ? std::string() : " (" + report->foreign_label + ")") +
                            " that opentabs did not install. Run `opentabs extension install --force` to replace it; "
                            "the folder is moved to a backup next to it first");
  // The extension reads its secret from auth.json in its own folder.
  if (auto st = config::ensure_extension_dirs(ctx.paths); !st) return report_error(ctx, st.err());
  if (auto secret = config::ensure_secret(ctx.paths.auth_json()); !secret) return report_error(ctx, secret.err());
  if (ctx.json) {
    json::object out{{"installed", json::str(target.string())},
                     {"copied", report->copied},
                     {"unchanged", report->unchanged},
                     {"extensionHash", json::str(report->extension_hash)}};
    if (report->backup) out["backup"] = json::str(report->backup->string());
    print_json(out);
    return kExitOk;
  }
  bool c = ctx.term.color_stdout;
  if (report->backup)
    print_line("moved the previous extension" +
               (report->foreign_label.empty() ? std::string() : " (" + report->foreign_label + ")") + " to " +
               report->backup->string());
  print_line(green("opentabs extension installed in " + target.string(), c) + " (" + std::to_string(report->copied) +
             " files written, " + std::to_string(report->unchanged) + " unchanged)");
  if (report->backup || report->first_install)
    print_line("Load it in Chrome: chrome://extensions → Developer mode → Load unpacked → " + target.string() +
               " (remove the old OpenTabs entry first if Chrome lists it)");
  else if (report->copied > 0)
    print_line("Reload it in chrome://extensions to run the new files.");
  else
    print_line("Nothing changed: the extension Chrome loads is already this version.");
  return kExitOk;
}

}  // namespace opentabs::cli
