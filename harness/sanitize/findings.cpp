// The sanitizer's records read back as the project's findings, each charged to the kernel's
// line(s) (sanitize/findings.hpp).
#include "sanitize/findings.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <set>
#include <utility>

#include "core/text.hpp"
#include "sanitize/divergence.hpp"
#include "sanitize/runtime.hpp"

namespace clh::sanitize {

namespace {

SourceLine sourceLine(const std::string& path, const std::vector<std::string>& lines, int line) {
  const bool known = line >= 1 && static_cast<size_t>(line) <= lines.size();
  return {path, line, known ? trim(lines[static_cast<size_t>(line) - 1]) : std::string()};
}

const char* verb(AccessKind k) {
  switch (k) {
    case AccessKind::write:
      return "write";
    case AccessKind::read_write:
      return "read and write";
    case AccessKind::atomic:
      return "atomic access";
    default:
      return "read";
  }
}

std::string item3(const uint32_t* r) {
  return fmt::format("global({},{},{})", r[0], r[1], r[2]);
}

Finding outOfBounds(const Instrumented& inst, size_t s, const uint32_t* r,
                    const std::vector<uint64_t>& global_bytes,
                    const std::vector<uint64_t>& local_bytes) {
  const Site& site = inst.sites[s];
  const bool local = (r[kOobObject] & 0x10000u) != 0;
  const size_t object = r[kOobObject] & 0xFFFFu;
  const int64_t index = static_cast<int64_t>(static_cast<uint64_t>(r[kOobIndexLo]) |
                                             (static_cast<uint64_t>(r[kOobIndexHi]) << 32));
  std::string name = "?";
  uint64_t bytes = 0;
  if (local && object < inst.locals.size()) {
    name = inst.locals[object].name;
    bytes = object < local_bytes.size() ? local_bytes[object] : 0;
  } else if (!local && object < inst.globals.size()) {
    name = inst.globals[object].name;
    bytes = object < global_bytes.size() ? global_bytes[object] : 0;
  }
  const uint64_t elements = site.bytes ? bytes / site.bytes : 0;
  Finding f;
  f.kind = FindingKind::out_of_bounds;
  f.address_space = site.space;
  f.summary = fmt::format(
      "{} of {}[{}] ({}), outside {} ({} elements of {} bytes): {} such access{} at this line; "
      "not performed",
      verb(site.kind), name, index, site.text, name, elements, site.bytes, r[kOobCount],
      r[kOobCount] == 1 ? "" : "es");
  f.work_items = {item3(r + kOobItem)};
  return f;
}

// Race types (runtime.hpp): 1-3 __local, 4-6 __global across work-groups, 7-9 __global within one.
const char* raceWhere(uint32_t type) {
  if (type >= 7)
    return "on __global memory in one work-group with no barrier(CLK_GLOBAL_MEM_FENCE) between";
  if (type >= 4)
    return "on __global memory between work-groups of one launch (nothing orders them)";
  return "on __local memory in one barrier interval";
}

Finding race(const Instrumented& inst, size_t s, const uint32_t* r) {
  const Site& site = inst.sites[s];
  const size_t other = r[kRaceOther] < inst.sites.size() ? r[kRaceOther] : s;
  const bool across = r[kRaceType] >= 4 && r[kRaceType] <= 6;  // two work-groups
  const char* type = r[kRaceType] % 3 == 1 ? "write-write" : "read-write";
  std::string them =
      r[kRaceThem] == 0xFFFFu ? "several work-items" : fmt::format("local item {}", r[kRaceThem]);
  if (across)
    them = r[kRaceThem] == 0xFFFFFFFFu ? "several work-groups"
                                       : fmt::format("work-group {}", r[kRaceThem] - 1);
  Finding f;
  f.kind = FindingKind::race;
  f.address_space = site.space;
  const std::string me = across ? fmt::format("work-group {}", r[kRaceGroup])
                                : fmt::format("local item {}", r[kRaceMe]);
  f.summary = fmt::format(
      "{} data race {}: {} of {} by {} and {} of {} by {}{} ({} racing access{} at this line)",
      type, raceWhere(r[kRaceType]), verb(site.kind), site.text, me, verb(inst.sites[other].kind),
      inst.sites[other].text, them, across ? "" : fmt::format(" of work-group {}", r[kRaceGroup]),
      r[kRaceCount], r[kRaceCount] == 1 ? "" : "es");
  f.work_items = {across ? me
                         : fmt::format("local item {} of group {}", r[kRaceMe], r[kRaceGroup])};
  return f;
}

Finding uninitialized(const Instrumented& inst, size_t s, const uint32_t* r) {
  const Site& site = inst.sites[s];
  const size_t object = r[kUninitObject];
  const std::string name = object < inst.locals.size() ? inst.locals[object].name : "?";
  Finding f;
  f.kind = FindingKind::uninitialized;
  f.address_space = "local";
  f.summary = fmt::format(
      "read of {} ({}, byte {} of {}) that no work-item of work-group {} wrote ({} such read{})",
      site.text, name, r[kUninitByte], name, r[kUninitGroup], r[kUninitCount],
      r[kUninitCount] == 1 ? "" : "s");
  f.work_items = {item3(r + kUninitItem)};
  return f;
}

}  // namespace

// One race is recorded at both of its sites (whichever access came second saw the first): it is
// listed once. A read found uninitialized at a site that races with a write is the race (run in
// the other order, the read would have seen the write): it is not listed as uninitialized.
std::vector<Finding> decodeRecords(const Instrumented& inst, const std::vector<uint32_t>& records,
                                   const std::vector<uint64_t>& global_bytes,
                                   const std::vector<uint64_t>& local_bytes,
                                   const std::string& shown_path,
                                   const std::vector<std::string>& source_lines) {
  const size_t sites = std::min(inst.sites.size(), records.size() / kRecordWords);
  std::set<std::pair<size_t, size_t>> pairs;
  std::set<size_t> racing;
  std::vector<Finding> out;
  std::vector<size_t> at;  // each finding's site
  for (size_t s = 0; s < sites; ++s) {
    const uint32_t* r = records.data() + s * kRecordWords;
    std::vector<Finding> here;
    if (r[kMask] & 1u) here.push_back(outOfBounds(inst, s, r, global_bytes, local_bytes));
    const size_t other = r[kRaceOther] < sites ? r[kRaceOther] : s;
    if ((r[kMask] & 2u) && pairs.insert({std::min(s, other), std::max(s, other)}).second) {
      here.push_back(race(inst, s, r));
      if (other != s)
        here.back().lines.push_back(sourceLine(shown_path, source_lines, inst.sites[other].line));
    }
    if (r[kMask] & 2u) racing.insert({s, other});
    if (r[kMask] & 4u) here.push_back(uninitialized(inst, s, r));
    if (r[kMask] & 8u) here.push_back(divergence(inst, s, r, shown_path, source_lines));
    for (auto& f : here) {
      f.lines.insert(f.lines.begin(), sourceLine(shown_path, source_lines, inst.sites[s].line));
      f.raw = fmt::format("site {} at {}:{}:{} ({})", s, shown_path, inst.sites[s].line,
                          inst.sites[s].column, inst.sites[s].text);
      out.push_back(std::move(f));
      at.push_back(s);
    }
  }
  std::vector<Finding> kept;
  for (size_t i = 0; i < out.size(); ++i)
    if (out[i].kind != FindingKind::uninitialized || !racing.count(at[i]))
      kept.push_back(std::move(out[i]));
  return kept;
}

}  // namespace clh::sanitize
