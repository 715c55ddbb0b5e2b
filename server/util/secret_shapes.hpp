// Secrets recognised by what they look like, wherever they stand in a text: a value shown to
// people (the permission question, in the agent's dialog and in the side panel) must not
// hand a token to a screen, a screenshot or a transcript because it sat under an innocent
// key.  The shapes are the published formats of common credentials: GitHub tokens (ghp_,
// gho_, ghu_, ghs_, ghr_, github_pat_), GitLab (glpat-), npm (npm_), OpenAI/Anthropic-style
// keys (sk-…), Stripe (sk_live_/sk_test_/rk_…), Slack (xox?-), Google API keys (AIza…),
// AWS access key ids (AKIA/ASIA + 16), JSON Web Tokens (eyJ….….…) and PEM private keys.
#pragma once

#include <string>
#include <string_view>

namespace opentabs {

// `text` with every secret-shaped piece replaced by "[redacted <kind>]"; `found` (if given)
// is set when anything was replaced.
std::string redact_secret_shapes(std::string_view text, bool* found = nullptr);

}  // namespace opentabs
