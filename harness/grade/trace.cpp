// A real device's wrong elements replayed on the simulator with their stores watched.
#include "grade/trace.hpp"

#include <fmt/format.h>

#include <filesystem>
#include <fstream>

#include "core/case.hpp"
#include "core/sizes.hpp"
#include "sim/oclgrind_watch.hpp"

namespace clh::grade {

namespace {

bool isResults(FindingKind k) {
  return k == FindingKind::wrong_result || k == FindingKind::unwritten;
}

std::string elementName(const std::string& buffer, const std::vector<int64_t>& index,
                        const std::map<std::string, std::string>& names) {
  auto it = names.find(buffer);
  std::string out = it != names.end() ? it->second : buffer;
  out += "[";
  for (size_t i = 0; i < index.size(); ++i) out += (i ? ", " : "") + std::to_string(index[i]);
  return out + "]";
}

// What the simulator's own result says of one element: its mismatch, or none where the list of
// mismatches is complete.
std::string onSimulator(const CaseOutcome& out, const ElementTrace& e) {
  bool complete = true;
  for (const auto& f : out.findings) {
    if (!isResults(f.kind)) continue;
    for (const auto& m : f.mismatches)
      if (m.buffer == e.buffer && m.index == e.index) return m.unwritten ? "unwritten" : "wrong";
    if (static_cast<int64_t>(f.mismatches.size()) < f.mismatch_count) complete = false;
  }
  return complete ? "right" : "unknown";
}

std::string quoted(const SourceLine& l) {
  return fmt::format("line {}{}", l.line, l.text.empty() ? "" : " (`" + l.text + "`)");
}

}  // namespace

std::optional<SimulatorTrace> traceRequest(const std::vector<DeviceRun>& runs) {
  for (const auto& r : runs) {
    if (r.simulator || !r.unit || !r.unit->failing) continue;
    for (const auto& f : r.unit->failing->findings) {
      if (!isResults(f.kind) || f.mismatches.empty()) continue;
      SimulatorTrace t;
      t.device = r.device;
      t.sizes = r.unit->failing->sizes;
      for (const auto& m : f.mismatches) {
        if (t.elements.size() == kTracedElements) break;
        t.elements.push_back({m.buffer, m.index, -1, {}, {}, "", "unknown"});
      }
      return t;
    }
  }
  return std::nullopt;
}

SimulatorTrace traceOnSimulator(DeviceSession& session, OclgrindSession& sim, const Spec& spec,
                                const SimulatorTrace& request, uint64_t seed,
                                const std::string& file) {
  SimulatorTrace t = request;
  if (sim.watchFile().empty()) {
    t.problem = "the simulator was started without watching";
    return t;
  }
  ExprEnv env(paramNames(spec));
  Sizes sizes = t.sizes;
  completeDerived(spec, env, sizes);
  const ResolvedCase rc = resolveCase(spec, env, sizes);
  // Each element's bytes in every argument of every launch that is its buffer.
  std::vector<WatchedElement> watch;
  for (size_t k = 0; k < t.elements.size(); ++k) {
    const ElementTrace& e = t.elements[k];
    for (size_t b = 0; b < spec.buffers.size(); ++b) {
      if (spec.buffers[b].name != e.buffer) continue;
      const std::vector<int64_t>& shape = rc.shapes[b];
      int64_t flat = 0;
      for (size_t d = 0; d < e.index.size(); ++d)
        flat = flat * (d < shape.size() ? shape[d] : 1) + e.index[d];
      const uint64_t size = sizeOf(spec.buffers[b].type);
      for (const auto& launch : spec.launches)
        for (size_t a = 0; a < launch.args.size(); ++a)
          if (launch.args[a].kind == ArgSpec::Kind::buffer && launch.args[a].buffer == e.buffer)
            watch.push_back({launch.kernel, static_cast<unsigned>(a),
                             static_cast<uint64_t>(flat) * size, size, std::to_string(k)});
    }
  }
  std::error_code ec;
  const auto from = std::filesystem::file_size(sim.logPath(), ec);
  writeWatchRequest(sim.watchFile(), watch);
  CaseOutcome out;
  try {
    out = session.runCase(spec, sizes, seed);
  } catch (const std::exception& e) {
    t.problem = std::string("the simulator could not run this case: ") + e.what();
  }
  writeWatchRequest(sim.watchFile(), {});
  if (!t.problem.empty()) return t;
  for (const auto& f : out.findings)
    if (f.kind == FindingKind::tool_error || f.kind == FindingKind::build_error ||
        f.kind == FindingKind::launch_error) {
      t.problem = "the simulator could not run this case (" + std::string(toString(f.kind)) + ")";
      return t;
    }
  std::ifstream in(sim.logPath());
  in.seekg(ec ? 0 : static_cast<std::streamoff>(from));
  bool reported = false;
  for (const ElementStores& s : parseWatchLines(in, file)) {
    const size_t k = static_cast<size_t>(std::stoul(s.element.empty() ? "0" : s.element));
    if (k >= t.elements.size()) continue;
    ElementTrace& e = t.elements[k];
    reported = true;
    e.stores = std::max(e.stores, 0L) + s.stores;
    for (const auto& l : s.lines) {
      bool known = false;
      for (const auto& have : e.lines) known = known || have.line == l.line;
      if (!known) e.lines.push_back(l);
    }
    if (s.stores > 0) {
      e.last_line = s.last_line;
      e.last_work_item = s.last_work_item;
    }
  }
  if (!reported) t.problem = "the simulator's plugin reported no stores for this case";
  for (auto& e : t.elements) e.on_simulator = onSimulator(out, e);
  return t;
}

void explainWithTrace(Evidence& e, const std::vector<DeviceRun>& runs,
                      const std::map<std::string, std::string>& names) {
  Finding* finding = nullptr;
  for (auto& f : e.findings)
    if (isResults(f.kind) && !f.mismatches.empty() && !finding) finding = &f;
  if (!finding || !e.sizes) return;
  bool realDevice = false, simulatorRan = false;
  const SimulatorTrace* trace = nullptr;
  std::string lost;
  for (const auto& r : runs) {
    if (r.device == e.device) realDevice = !r.simulator;
    if (!r.simulator) continue;
    simulatorRan = true;
    if (r.trace && r.trace->device == e.device && r.trace->sizes == *e.sizes) trace = &*r.trace;
    if (r.end != RunEnd::completed) lost = std::string(toString(r.end));
  }
  if (!realDevice || !simulatorRan) return;  // nothing was asked of a simulator
  const std::string cannot = "The simulator could not tell which statement wrote these elements: ";
  if (!trace) {
    e.note = cannot + (lost.empty() ? "it did not replay this case" : "its run ended in " + lost);
    return;
  }
  if (!trace->problem.empty()) {
    e.note = cannot + trace->problem;
    return;
  }
  std::vector<std::string> said;
  for (const auto& t : trace->elements) {
    const std::string name = elementName(t.buffer, t.index, names);
    if (t.stores < 0 || t.on_simulator == "unknown") {
      said.push_back(fmt::format("for {} it could not tell", name));
    } else if (t.on_simulator == "right") {
      said.push_back(fmt::format(
          "it computes {} right in this case, so it cannot tell which statement made it wrong here "
          "(the value depends on the device: a race, an uninitialized value or undefined "
          "behaviour?)",
          name));
    } else if (t.stores == 0) {
      said.push_back(fmt::format("no statement of your kernel wrote {}", name));
    } else {
      std::string also;
      for (const auto& l : t.lines)
        if (l.line != t.last_line.line)
          also += fmt::format("{}{}", also.empty() ? "" : ", ", l.line);
      said.push_back(fmt::format("{} was last written by {}{}{}", name, quoted(t.last_line),
                                 t.last_work_item.empty() ? "" : ", work-item " + t.last_work_item,
                                 t.stores > 1
                                     ? fmt::format(" ({} stores{})", t.stores,
                                                   also.empty() ? "" : ", also by line " + also)
                                     : ""));
      for (const auto& l : t.lines) {
        bool known = false;
        for (const auto& have : finding->lines) known = known || have.line == l.line;
        if (!known) finding->lines.push_back(l);
      }
    }
  }
  std::string text;
  for (size_t i = 0; i < said.size(); ++i)
    text += (i == 0 ? "" : i + 1 == said.size() ? "; and " : "; ") + said[i];
  e.note = "Replayed on the simulator, where each store is watched: " + text;
}

}  // namespace clh::grade
