// The rewrite's result as JSON: what the rewriting helper (rewrite_main.cpp) writes and the tool
// reads, so that clang's libraries stay out of the tool's process.
#pragma once

#include <nlohmann/json.hpp>

#include "sanitize/rewrite.hpp"

namespace clh::sanitize {

void to_json(nlohmann::json& j, const Instrumented& r);
void from_json(const nlohmann::json& j, Instrumented& r);

}  // namespace clh::sanitize
