// The branches that decide whether a barrier is reached, found on clang's syntax tree
// (barrier_flow.hpp).
#include "sanitize/barrier_flow.hpp"

#include <clang/AST/Stmt.h>

#include <algorithm>

namespace clh::sanitize {

using namespace clang;

namespace {

bool isBarrierCall(const CallExpr* c) {
  const FunctionDecl* f = c->getDirectCallee();
  if (!f) return false;
  const std::string name = f->getNameAsString();
  return name == "barrier" || name == "work_group_barrier";
}

bool isLoop(const Stmt* s) {
  return isa<ForStmt>(s) || isa<WhileStmt>(s) || isa<DoStmt>(s);
}

const Expr* loopCondition(const Stmt* s) {
  if (const auto* f = dyn_cast<ForStmt>(s)) return f->getCond();
  if (const auto* w = dyn_cast<WhileStmt>(s)) return w->getCond();
  if (const auto* d = dyn_cast<DoStmt>(s)) return d->getCond();
  return nullptr;
}

const Stmt* loopBody(const Stmt* s) {
  if (const auto* f = dyn_cast<ForStmt>(s)) return f->getBody();
  if (const auto* w = dyn_cast<WhileStmt>(s)) return w->getBody();
  if (const auto* d = dyn_cast<DoStmt>(s)) return d->getBody();
  return nullptr;
}

}  // namespace

bool BarrierFlow::hasBarrier(const FunctionDecl* f) {
  const FunctionDecl* def = f ? f->getDefinition() : nullptr;
  if (!def || !def->hasBody() || !sm_.isInMainFile(def->getLocation())) return false;
  if (auto it = memo_.find(def); it != memo_.end()) return it->second;
  if (!inProgress_.insert(def).second) return false;  // recursion: OpenCL C has none
  std::vector<SourceLocation> found;
  points(def->getBody(), found);
  inProgress_.erase(def);
  return memo_[def] = !found.empty();
}

// The barrier calls under `s`, and the calls of the file's functions that reach one.
void BarrierFlow::points(const Stmt* s, std::vector<SourceLocation>& out) {
  if (!s) return;
  if (const auto* c = dyn_cast<CallExpr>(s))
    if (isBarrierCall(c) || hasBarrier(c->getDirectCallee())) out.push_back(c->getBeginLoc());
  for (const Stmt* child : s->children()) points(child, out);
}

SourceLocation BarrierFlow::firstPoint(const Stmt* s) {
  std::vector<SourceLocation> found;
  points(s, found);
  return found.empty() ? SourceLocation() : found.front();
}

std::vector<BarrierBranch> BarrierFlow::branches(const FunctionDecl* f,
                                                 std::vector<UnfollowedBarrier>& unfollowed) {
  std::vector<BarrierBranch> out;
  if (!f->hasBody() || !hasBarrier(f)) return out;
  fnPoints_.clear();
  points(f->getBody(), fnPoints_);
  std::sort(fnPoints_.begin(), fnPoints_.end(),
            [&](SourceLocation a, SourceLocation b) { return offset(a) < offset(b); });
  out_ = &out;
  unfollowed_ = &unfollowed;
  std::vector<Frame> frames;
  walk(f->getBody(), frames);
  out_ = nullptr;
  unfollowed_ = nullptr;
  return out;
}

void BarrierFlow::walk(const Stmt* s, std::vector<Frame>& frames) {
  if (!s) return;
  if (const auto* i = dyn_cast<IfStmt>(s)) return walkIf(i, frames);
  if (isLoop(s)) {
    const SourceLocation b = firstPoint(loopBody(s));
    if (b.isValid() && loopCondition(s)) out_->push_back({loopCondition(s), 0, b});
    frames.push_back({s, false});
    walk(loopBody(s), frames);
    frames.pop_back();
    return;
  }
  const char* construct = isa<SwitchStmt>(s)            ? "a switch"
                          : isa<ConditionalOperator>(s) ? "?:"
                          : isa<BinaryOperator>(s) && cast<BinaryOperator>(s)->isLogicalOp()
                              ? "&& or ||"
                              : nullptr;
  if (construct) {
    if (const SourceLocation b = firstPoint(s); b.isValid()) unfollowed_->push_back({b, construct});
    if (isa<SwitchStmt>(s)) frames.push_back({s, true});
    for (const Stmt* child : s->children()) walk(child, frames);
    if (isa<SwitchStmt>(s)) frames.pop_back();
    return;
  }
  for (const Stmt* child : s->children()) walk(child, frames);
}

// An `if`: a barrier in it, else a `return`, `break` or `continue` in it that skips one.
void BarrierFlow::walkIf(const IfStmt* s, std::vector<Frame>& frames) {
  SourceLocation b = firstPoint(s->getThen());
  if (!b.isValid()) b = firstPoint(s->getElse());
  if (b.isValid()) {
    out_->push_back({s->getCond(), 0, b});
  } else if (const SourceLocation t = skipped(s->getThen(), frames); t.isValid()) {
    out_->push_back({s->getCond(), 1, t});
  } else if (const SourceLocation e = skipped(s->getElse(), frames); e.isValid()) {
    out_->push_back({s->getCond(), 0, e});
  }
  walk(s->getThen(), frames);
  walk(s->getElse(), frames);
}

// The barrier a `return`, `break` or `continue` under `s` skips: for a return, the function's next
// barrier after it, else the first of a loop around it; for a break or continue, the first of the
// loop it leaves. Invalid when none skips one.
SourceLocation BarrierFlow::skipped(const Stmt* s, std::vector<Frame>& frames) {
  if (!s) return {};
  const Frame* target = nullptr;  // what a break or continue here leaves
  for (auto it = frames.rbegin(); it != frames.rend() && !target; ++it)
    if (isa<BreakStmt>(s) || !it->is_switch) target = &*it;
  if (isa<ReturnStmt>(s)) {
    for (SourceLocation p : fnPoints_)
      if (offset(p) > offset(s->getBeginLoc())) return p;
    for (auto it = frames.rbegin(); it != frames.rend(); ++it)
      if (!it->is_switch)
        if (SourceLocation b = firstPoint(loopBody(it->loop)); b.isValid()) return b;
    return {};
  }
  if ((isa<BreakStmt>(s) || isa<ContinueStmt>(s)) && target && !target->is_switch)
    return firstPoint(loopBody(target->loop));
  const bool nests = isLoop(s) || isa<SwitchStmt>(s);
  if (nests) frames.push_back({s, isa<SwitchStmt>(s)});
  SourceLocation found;
  for (const Stmt* child : s->children())
    if (!found.isValid()) found = skipped(child, frames);
  if (nests) frames.pop_back();
  return found;
}

}  // namespace clh::sanitize
