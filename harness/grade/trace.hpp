// Which statement wrote a wrong element: a real device's smallest failing case is replayed on the
// simulator with its first wrong elements watched, and the statements that stored to them (or
// that none did) are shown with the real device's evidence. docs/grading.md, "Which statement
// wrote it".
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "cl/session.hpp"
#include "grade/grade.hpp"
#include "sim/oclgrind_session.hpp"

namespace clh::grade {

/// Elements of one failing case watched at most.
inline constexpr size_t kTracedElements = 3;

/// What the simulator should replay, from the real devices' runs: the first real device whose
/// smallest failing case has wrong or unwritten elements, with its first few of them. Nothing
/// when no real device got an element wrong.
std::optional<SimulatorTrace> traceRequest(const std::vector<DeviceRun>& runs);

/// On the simulator (the child's side): runs the request's case once more with its elements
/// watched, and says for each how many stores it got and from which statements, and whether the
/// simulator's own result has it wrong too. `file`: the student's file name for the lines.
SimulatorTrace traceOnSimulator(DeviceSession& session, OclgrindSession& sim, const Spec& spec,
                                const SimulatorTrace& request, uint64_t seed,
                                const std::string& file);

/// Adds what the simulator's trace says to a real device's evidence of wrong or unwritten
/// elements: a note (the statement, that none wrote it, or why the simulator could not tell) and
/// the statements' lines on the finding. `names` renames the spec's buffers to the student's
/// parameters. Evidence the trace is not about is left alone.
void explainWithTrace(Evidence& e, const std::vector<DeviceRun>& runs,
                      const std::map<std::string, std::string>& names);

}  // namespace clh::grade
