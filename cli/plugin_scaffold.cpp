// Plugin project scaffolding (see plugin_scaffold.hpp).
#include "cli/plugin_scaffold.hpp"

#include <algorithm>
#include <cctype>

#include "cli/cli_failure.hpp"
#include "json/json.hpp"

namespace opentabs::cli {

namespace {

bool kebab(std::string_view s) {
  if (s.empty() || s.size() > 64 || s.front() == '-' || s.back() == '-') return false;
  char prev = 0;
  for (char c : s) {
    if (!(std::islower(static_cast<unsigned char>(c)) || std::isdigit(static_cast<unsigned char>(c)) || c == '-'))
      return false;
    if (c == '-' && prev == '-') return false;
    prev = c;
  }
  return true;
}

bool valid_domain(std::string_view d) {
  if (d.empty() || d.size() > 253 || d.find('.') == std::string_view::npos) return false;
  for (char c : d)
    if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '.')) return false;
  return d.front() != '.' && d.back() != '.';
}

std::string js_string(std::string_view s) { return json::dump(json::str(s)); }

}  // namespace

std::string display_name_from(std::string_view name) {
  std::string out;
  bool upper = true;
  for (char c : name) {
    if (c == '-') {
      out.push_back(' ');
      upper = true;
    } else {
      out.push_back(upper ? static_cast<char>(std::toupper(static_cast<unsigned char>(c))) : c);
      upper = false;
    }
  }
  return out;
}

status validate_scaffold(const scaffold_inputs& in) {
  static const char* reserved[] = {"system", "browser", "opentabs", "extension", "config", "plugin", "tool", "mcp"};
  if (!kebab(in.name))
    return make_error(cli_failure::usage, "invalid plugin name '" + in.name + "': use lowercase letters, digits and single dashes (e.g. acme-crm)");
  for (const char* r : reserved)
    if (in.name == r) return make_error(cli_failure::usage, "'" + in.name + "' is a reserved name; choose another");
  if (!in.domain.empty() && !valid_domain(in.domain))
    return make_error(cli_failure::usage, "invalid --domain '" + in.domain + "': expected a host name like app.example.com");
  return ok();
}

std::map<std::string, std::string> scaffold_files(const scaffold_inputs& in) {
  const std::string domain = in.domain.empty() ? in.name + ".com" : in.domain;
  const std::string display = in.display.empty() ? display_name_from(in.name) : in.display;
  const std::string description = in.description.empty() ? "OpenTabs plugin for " + display : in.description;
  const std::string pattern = "*://" + domain + "/*";
  std::string klass;
  for (char c : display_name_from(in.name))
    if (c != ' ') klass.push_back(c);
  klass += "Plugin";

  json::object pkg{
      {"name", json::str("opentabs-plugin-" + in.name)},
      {"version", "0.0.1"},
      {"description", json::str(description)},
      {"type", "module"},
      {"main", "dist/adapter.iife.js"},
      {"keywords", json::array{"opentabs-plugin"}},
      {"files", json::array{"dist"}},
      {"scripts", json::object{{"build", "tsc && opentabs-plugin build"}, {"dev", "opentabs-plugin build --watch"}}},
      {"opentabs", json::object{{"displayName", json::str(display)},
                                {"description", json::str(description)},
                                {"urlPatterns", json::array{json::str(pattern)}},
                                {"homepage", json::str("https://" + domain)}}},
      {"dependencies", json::object{{"@opentabs-dev/plugin-sdk", "latest"}, {"zod", "^4.0.0"}}},
      {"devDependencies", json::object{{"@opentabs-dev/plugin-tools", "latest"}, {"typescript", "^5.6.0"}}},
  };
  json::object tsconfig{{"compilerOptions", json::object{{"target", "ES2022"},
                                                         {"module", "ESNext"},
                                                         {"moduleResolution", "Bundler"},
                                                         {"strict", true},
                                                         {"outDir", "dist"},
                                                         {"rootDir", "src"},
                                                         {"declaration", false},
                                                         {"skipLibCheck", true}}},
                        {"include", json::array{"src"}}};

  std::map<std::string, std::string> files;
  files["package.json"] = json::dump_pretty(pkg);
  files["tsconfig.json"] = json::dump_pretty(tsconfig);
  files[".gitignore"] = "node_modules/\ndist/\n";
  files["src/index.ts"] =
      "// The " + display + " plugin: tools that run inside " + domain + " tabs with the user's session.\n"
      "import { OpenTabsPlugin, defineTool } from '@opentabs-dev/plugin-sdk';\n"
      "import { z } from 'zod';\n\n"
      "const getPageTitle = defineTool({\n"
      "  name: 'get_page_title',\n"
      "  displayName: 'Get page title',\n"
      "  description: 'Returns the title of the current " + display + " page.',\n"
      "  icon: 'file-text',\n"
      "  input: z.object({}),\n"
      "  output: z.object({ title: z.string() }),\n"
      "  async handle() {\n"
      "    return { title: document.title };\n"
      "  },\n"
      "});\n\n"
      "class " + klass + " extends OpenTabsPlugin {\n"
      "  readonly name = " + js_string(in.name) + ";\n"
      "  readonly displayName = " + js_string(display) + ";\n"
      "  readonly description = " + js_string(description) + ";\n"
      "  override readonly urlPatterns = [" + js_string(pattern) + "];\n"
      "  readonly tools = [getPageTitle];\n\n"
      "  async isReady(): Promise<boolean> {\n"
      "    return document.readyState === 'complete';\n"
      "  }\n"
      "}\n\n"
      "export default new " + klass + "();\n";
  files["README.md"] = "# " + display + " (OpenTabs plugin)\n\n" + description +
                       "\n\n```sh\nnpm install\nnpm run build   # builds dist/ and registers the plugin with opentabs\n```\n";
  return files;
}

}  // namespace opentabs::cli
