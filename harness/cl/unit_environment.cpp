// The environment of a unit's process: the parent's, with the unit's driver defaults
// (cl/unit_environment.hpp).
#include "cl/unit_environment.hpp"

#include <algorithm>

#include "core/program_budget.hpp"

extern char** environ;

namespace clh {

std::vector<std::string> unitDriverDefaults() {
  return {"POCL_WORK_GROUP_SPECIALIZATION=0"};
}

namespace {

bool setsName(const std::vector<std::string>& env, const std::string& setting) {
  const std::string name = setting.substr(0, setting.find('=') + 1);
  return std::any_of(env.begin(), env.end(),
                     [&](const std::string& v) { return v.rfind(name, 0) == 0; });
}

std::vector<std::string> listOf(const char* const* env) {
  std::vector<std::string> out;
  for (const char* const* e = env; e && *e; ++e) out.emplace_back(*e);
  return out;
}

}  // namespace

void addDefaults(std::vector<std::string>& env, const std::vector<std::string>& defaults) {
  for (const auto& d : defaults)
    if (!setsName(env, d)) env.push_back(d);
}

std::vector<std::string> environmentWithDefaults(const char* const* parent_env,
                                                 const std::vector<std::string>& defaults) {
  std::vector<std::string> out = listOf(parent_env);
  addDefaults(out, defaults);
  return out;
}

std::vector<std::string> unitEnvironment() {
  return environmentWithDefaults(environ, unitDriverDefaults());
}

bool casesWithoutSpecialisation(const Spec& spec) {
  return spec.build_options.find('{') == std::string::npos || programsMeetSeveralLocalSizes(spec);
}

std::vector<std::string> unitDefaultsApplied() {
  const std::vector<std::string> own = listOf(environ);
  std::vector<std::string> out;
  for (const auto& d : unitDriverDefaults())
    if (!setsName(own, d)) out.push_back(d);
  return out;
}

}  // namespace clh
