// Which branches of a function decide whether a barrier is reached (for the divergence check):
// clang's syntax tree, so only the rewrite's units include this header.
#pragma once

#include <clang/AST/Decl.h>
#include <clang/AST/Expr.h>
#include <clang/Basic/SourceManager.h>

#include <map>
#include <set>
#include <vector>

namespace clh::sanitize {

/// A branch whose condition decides whether a barrier is reached: an `if` with a barrier in it, a
/// loop with a barrier in its body, or an `if` around a `return`, `break` or `continue` that skips
/// one. `chosen` is the side that skips the barrier (taken by a group that disagrees).
struct BarrierBranch {
  const clang::Expr* cond = nullptr;
  int chosen = 0;
  clang::SourceLocation barrier;  ///< the barrier call it decides (the first, when several)
};

/// A barrier in a construct the check does not follow (a `switch`, `?:`, `&&`, `||`).
struct UnfollowedBarrier {
  clang::SourceLocation at;
  const char* construct;
};

/// The analysis over the main file's functions; a function's barriers include those of the
/// functions of the file it calls.
class BarrierFlow {
 public:
  explicit BarrierFlow(const clang::SourceManager& sm) : sm_(sm) {}
  /// Whether `f` reaches a barrier (itself or through a function of the file it calls).
  bool hasBarrier(const clang::FunctionDecl* f);
  /// The branches of `f`'s body that decide a barrier, in source order, and the barriers whose
  /// divergence is not looked at.
  std::vector<BarrierBranch> branches(const clang::FunctionDecl* f,
                                      std::vector<UnfollowedBarrier>& unfollowed);

 private:
  struct Frame {
    const clang::Stmt* loop;  ///< a loop or a switch (a `break` in a switch leaves the switch)
    bool is_switch;
  };
  void points(const clang::Stmt* s, std::vector<clang::SourceLocation>& out);
  void walk(const clang::Stmt* s, std::vector<Frame>& frames);
  void walkIf(const clang::IfStmt* s, std::vector<Frame>& frames);
  clang::SourceLocation skipped(const clang::Stmt* s, std::vector<Frame>& frames);
  clang::SourceLocation firstPoint(const clang::Stmt* s);
  unsigned offset(clang::SourceLocation l) const {
    return sm_.getFileOffset(sm_.getExpansionLoc(l));
  }

  const clang::SourceManager& sm_;
  std::map<const clang::FunctionDecl*, bool> memo_;
  std::set<const clang::FunctionDecl*> inProgress_;
  std::vector<clang::SourceLocation> fnPoints_;  ///< the function's barrier points, in order
  std::vector<BarrierBranch>* out_ = nullptr;
  std::vector<UnfollowedBarrier>* unfollowed_ = nullptr;
};

}  // namespace clh::sanitize
