// The rewrite's result as JSON (sanitize/json.hpp).
#include "sanitize/json.hpp"

namespace clh::sanitize {

void to_json(nlohmann::json& j, const Instrumented& r) {
  j = {{"source", r.source},
       {"original_args", r.original_args},
       {"async_copies", r.async_copies},
       {"error", r.error},
       {"sites", nlohmann::json::array()},
       {"globals", nlohmann::json::array()},
       {"locals", nlohmann::json::array()},
       {"unchecked", nlohmann::json::array()}};
  for (const Site& s : r.sites)
    j["sites"].push_back({s.line, s.column, static_cast<int>(s.kind), s.space, s.text, s.bytes,
                          s.barrier_line, s.hint});
  for (const GlobalBuffer& g : r.globals) j["globals"].push_back({g.name, g.arg_index, g.bytes});
  for (const LocalObject& l : r.locals)
    j["locals"].push_back({l.name, l.arg_index, l.bytes, l.shadow_at});
  for (const Unchecked& u : r.unchecked)
    j["unchecked"].push_back({u.line, u.column, u.what, u.why});
}

void from_json(const nlohmann::json& j, Instrumented& r) {
  r.source = j.at("source").get<std::string>();
  r.original_args = j.at("original_args").get<int>();
  r.async_copies = j.at("async_copies").get<bool>();
  r.error = j.at("error").get<std::string>();
  for (const auto& s : j.at("sites"))
    r.sites.push_back({s[0].get<int>(), s[1].get<int>(), static_cast<AccessKind>(s[2].get<int>()),
                       s[3].get<std::string>(), s[4].get<std::string>(), s[5].get<size_t>(),
                       s.size() > 6 ? s[6].get<int>() : 0, s.size() > 7 ? s[7].get<int>() : -1});
  for (const auto& g : j.at("globals"))
    r.globals.push_back({g[0], g[1].get<int>(), g.size() > 2 ? g[2].get<size_t>() : 0});
  for (const auto& l : j.at("locals"))
    r.locals.push_back({l[0], l[1].get<int>(), l[2].get<size_t>(), l[3].get<size_t>()});
  for (const auto& u : j.at("unchecked"))
    r.unchecked.push_back({u[0].get<int>(), u[1].get<int>(), u[2], u[3]});
}

}  // namespace clh::sanitize
