// JSON Schema `format` checks.  RapidJSON 1.1 ignores `format`; Ajv (with ajv-formats)
// enforces it, and Zod 4 emits it for z.email(), z.url(), z.uuid(), z.iso.*(), z.ipv4()...
// These are hand-written checks for the formats Zod emits most; any other format name is
// an annotation only (accepted), as the JSON Schema specification allows.
#pragma once

#include <string_view>

namespace opentabs::schema {

// True for the format names check_format() enforces: email, uri, url, uuid, date-time,
// date, time, ipv4, ipv6, hostname.
bool is_checked_format(std::string_view format) noexcept;

// True when `value` conforms to `format` (always true for formats not checked).
bool check_format(std::string_view format, std::string_view value);

}  // namespace opentabs::schema
