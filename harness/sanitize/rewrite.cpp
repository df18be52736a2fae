// The instrumenting rewrite on clang's syntax tree: every load and store through __global and
// __local memory in the kernel and the functions it calls goes through the runtime (runtime.cpp).
#include "sanitize/rewrite.hpp"

#include <clang/AST/ASTConsumer.h>
#include <clang/AST/RecursiveASTVisitor.h>
#include <clang/Frontend/CompilerInstance.h>
#include <clang/Frontend/FrontendAction.h>
#include <clang/Frontend/TextDiagnosticPrinter.h>
#include <clang/Lex/Lexer.h>
#include <clang/Rewrite/Core/Rewriter.h>
#include <clang/Tooling/Tooling.h>

#include <algorithm>
#include <map>
#include <optional>
#include <regex>
#include <set>
#include <sstream>

#include "sanitize/barrier_flow.hpp"
#include "sanitize/runtime.hpp"

namespace clh::sanitize {

namespace {

using namespace clang;

constexpr int kMaxSites = 65000;  // a site id takes 16 bits in the local shadow

bool isKernel(const FunctionDecl* f) {
  return f->hasAttr<OpenCLKernelAttr>();
}

// Parentheses and vector lanes (`a[i].x`: the access is the whole vector) around an access.
const Expr* accessRoot(const Expr* e) {
  while (true) {
    e = e->IgnoreParens();
    if (const auto* v = dyn_cast<ExtVectorElementExpr>(e))
      e = v->getBase();
    else
      return e;
  }
}

// vloadN, vstoreN and their half forms: which arguments are the offset and the pointer, how many
// elements they touch and how far apart the vectors are (vloada_half3: 4).
struct VectorCall {
  bool store = false, half = false;
  unsigned offset_arg = 0, pointer_arg = 1;
  int elements = 1, stride = 1;
};

std::optional<VectorCall> vectorCall(const std::string& name) {
  static const std::regex form("(vload|vstore)(a?)(_half)?([0-9]*)(_rt[ezpn])?");
  std::smatch m;
  if (!std::regex_match(name, m, form)) return std::nullopt;
  VectorCall v;
  v.store = m[1] == "vstore";
  v.half = m[3].matched && m[3].length() > 0;
  if ((m[2].length() > 0 || m[5].length() > 0) && !v.half) return std::nullopt;
  if (m[5].length() > 0 && !v.store) return std::nullopt;
  if (m[4].length() == 0 && !v.half) return std::nullopt;
  v.elements = m[4].length() > 0 ? std::stoi(m[4]) : 1;
  v.stride = m[2].length() > 0 && v.elements == 3 ? 4 : v.elements;
  v.offset_arg = v.store ? 1 : 0;
  v.pointer_arg = v.store ? 2 : 1;
  return v;
}

// The address space a pointer argument points into: "global", "local" or "" (others).
std::string pointeeSpace(const Expr* e) {
  const QualType t = e->getType();
  if (!t->isPointerType()) return "";
  const LangAS as = t->getPointeeType().getAddressSpace();
  return as == LangAS::opencl_global ? "global" : as == LangAS::opencl_local ? "local" : "";
}

class Visitor : public RecursiveASTVisitor<Visitor> {
 public:
  Visitor(ASTContext& ctx, Rewriter& rw, const std::string& kernel, Instrumented& out)
      : ctx_(ctx), sm_(ctx.getSourceManager()), rw_(rw), kernel_(kernel), out_(out), flow_(sm_) {}

  bool TraverseFunctionDecl(FunctionDecl* f) {
    if (!sm_.isInMainFile(f->getLocation())) return true;
    const FunctionDecl* def = f->getDefinition();
    if (!def) return true;  // a builtin or a declaration never defined: left as it is
    if (!isKernel(f)) addContextParameter(f);
    if (!f->doesThisDeclarationHaveABody()) return true;
    current_ = f;
    target_ = isKernel(f) && f->getName() == kernel_;
    if (isKernel(f)) kernelPrologue(f);
    if (inScope()) guardBranches(f);
    bool ok = RecursiveASTVisitor::TraverseFunctionDecl(f);
    current_ = nullptr;
    target_ = false;
    return ok;
  }

  bool VisitBinaryOperator(BinaryOperator* b) {
    if (b->isAssignmentOp())
      kinds_[accessRoot(b->getLHS())] =
          b->isCompoundAssignmentOp() ? AccessKind::read_write : AccessKind::write;
    return true;
  }

  bool VisitUnaryOperator(UnaryOperator* u) {
    if (u->isIncrementDecrementOp()) kinds_[accessRoot(u->getSubExpr())] = AccessKind::read_write;
    if (u->getOpcode() == UO_AddrOf && !atomics_.count(accessRoot(u->getSubExpr())))
      notAccess_.insert(accessRoot(u->getSubExpr()));
    if (u->getOpcode() == UO_Deref) access(u);
    return true;
  }

  bool VisitArraySubscriptExpr(ArraySubscriptExpr* e) {
    access(e);
    return true;
  }

  bool VisitMemberExpr(MemberExpr* m) {
    if (!m->isArrow()) notAccess_.insert(m->getBase()->IgnoreParens());  // the field is
    access(m);
    return true;
  }

  bool VisitDeclRefExpr(DeclRefExpr* d) {
    access(d);  // a __local variable named directly
    return true;
  }

  bool VisitDeclStmt(DeclStmt* s) {
    if (!target_) return true;
    for (Decl* d : s->decls()) {
      auto* v = dyn_cast<VarDecl>(d);
      if (!v || v->getType().getAddressSpace() != LangAS::opencl_local) continue;
      registerLocal(v, s);
    }
    return true;
  }

  bool VisitCallExpr(CallExpr* c);
  void collectVariables(TranslationUnitDecl* tu);

 private:
  bool inScope() const { return current_ && (target_ || !isKernel(current_)); }
  void access(Expr* e);
  int addSite(const Expr* e, AccessKind kind, const std::string& space, const std::string& text,
              size_t bytes);
  bool routeVector(CallExpr* c, const VectorCall& v);
  bool routeCopy(CallExpr* c, const std::string& name);
  bool routeAtomicPointer(CallExpr* c, const Expr* a);
  void guardBranches(FunctionDecl* f);
  bool anyMacro(std::initializer_list<const Expr*> es) const;
  CharSourceRange fileRange(const Expr* e) const;
  void wrap(const Expr* e, const std::string& before, const std::string& after);
  int pointerHint(const Expr* e, bool local) const;
  std::string typeText(QualType t) const {
    return t.getAsString(PrintingPolicy(ctx_.getLangOpts()));
  }
  size_t sizeOf(QualType t) const {
    return static_cast<size_t>(ctx_.getTypeSizeInChars(t).getQuantity());
  }
  void addContextParameter(FunctionDecl* f);
  std::string registerParameters(FunctionDecl* f, int& nlArgs);
  void kernelPrologue(FunctionDecl* f);
  void registerLocal(VarDecl* v, DeclStmt* s);
  std::string registerVariables(size_t params);
  bool unregisteredVariable(const Expr* e) const;
  void unchecked(SourceLocation at, const std::string& what, const std::string& why);
  int hintFor(const Expr* e, bool local) const;
  std::string text(SourceRange r) const {
    CharSourceRange c =
        Lexer::makeFileCharRange(CharSourceRange::getTokenRange(r), sm_, ctx_.getLangOpts());
    if (c.isInvalid()) c = CharSourceRange::getTokenRange(r);
    return Lexer::getSourceText(c, sm_, ctx_.getLangOpts()).str();
  }

  ASTContext& ctx_;
  SourceManager& sm_;
  Rewriter& rw_;
  const std::string& kernel_;
  Instrumented& out_;
  FunctionDecl* current_ = nullptr;
  bool target_ = false;
  std::map<const Expr*, AccessKind> kinds_;
  std::set<const Expr*> notAccess_, atomics_;
  std::map<const Decl*, int> globalIds_, localIds_;
  std::vector<const VarDecl*> variables_;  // program-scope __global ones the kernel can register
  size_t declaredWords_ = 0;
  BarrierFlow flow_;
};

void Visitor::unchecked(SourceLocation at, const std::string& what, const std::string& why) {
  const PresumedLoc p = sm_.getPresumedLoc(sm_.getExpansionLoc(at));
  out_.unchecked.push_back({p.isValid() ? static_cast<int>(p.getLine()) : 0,
                            p.isValid() ? static_cast<int>(p.getColumn()) : 0, what, why});
}

// The table entry an access names directly (`a[i]` with `a` a parameter or a __local variable of
// the kernel): the runtime checks the bounds against it; -1: found by the address at run time.
int Visitor::hintFor(const Expr* e, bool local) const {
  while (true) {
    e = e->IgnoreParenImpCasts();
    if (const auto* s = dyn_cast<ArraySubscriptExpr>(e))
      e = s->getBase();
    else
      break;
  }
  const auto* d = dyn_cast<DeclRefExpr>(e);
  if (!d || !target_) return -1;
  const auto& ids = local ? localIds_ : globalIds_;
  auto it = ids.find(d->getDecl());
  return it == ids.end() ? -1 : it->second;
}

int Visitor::addSite(const Expr* e, AccessKind kind, const std::string& space,
                     const std::string& shown, size_t bytes) {
  if (out_.sites.size() >= static_cast<size_t>(kMaxSites)) {
    unchecked(e->getBeginLoc(), shown, "past the sanitizer's limit of accesses per program");
    return -1;
  }
  Site site;
  site.kind = kind;
  const PresumedLoc p = sm_.getPresumedLoc(sm_.getExpansionLoc(e->getBeginLoc()));
  site.line = static_cast<int>(p.getLine());
  site.column = static_cast<int>(p.getColumn());
  site.space = space;
  site.text = shown;
  site.bytes = bytes;
  out_.sites.push_back(site);
  return static_cast<int>(out_.sites.size()) - 1;
}

// Whether an expression cannot be wrapped: it does not map to one stretch of the file (written
// inside a macro; a macro the expression starts or ends with, as in `t < n / TS`, is fine).
bool Visitor::anyMacro(std::initializer_list<const Expr*> es) const {
  for (const Expr* e : es)
    if (fileRange(e).isInvalid()) return true;
  return false;
}

CharSourceRange Visitor::fileRange(const Expr* e) const {
  return Lexer::makeFileCharRange(CharSourceRange::getTokenRange(e->getSourceRange()), sm_,
                                  ctx_.getLangOpts());
}

// Text around an expression. Calls are visited before their arguments, so what is wrapped here
// holds what the arguments' own accesses insert later at the same places.
void Visitor::wrap(const Expr* e, const std::string& before, const std::string& after) {
  const CharSourceRange r = fileRange(e);
  rw_.InsertTextAfter(r.getBegin(), before);
  rw_.InsertTextBefore(r.getEnd(), after);
}

// The table entry a pointer expression starts from (`a`, `a + i`, `&a[i]`, a __local array), or -1.
int Visitor::pointerHint(const Expr* e, bool local) const {
  while (true) {
    e = e->IgnoreParenCasts();
    const auto* b = dyn_cast<BinaryOperator>(e);
    if (!b || !b->isAdditiveOp()) break;
    e = b->getLHS()->getType()->isPointerType() ? b->getLHS() : b->getRHS();
  }
  if (const auto* u = dyn_cast<UnaryOperator>(e); u && u->getOpcode() == UO_AddrOf)
    return hintFor(u->getSubExpr(), local);
  return isa<DeclRefExpr>(e) ? hintFor(e, local) : -1;
}

void Visitor::access(Expr* e) {
  if (!inScope() || !e->isLValue() || notAccess_.count(e)) return;
  const QualType t = e->getType();
  const LangAS as = t.getAddressSpace();
  if (as != LangAS::opencl_global && as != LangAS::opencl_local) return;
  if (t->isArrayType() || t->isFunctionType()) return;
  const bool local = as == LangAS::opencl_local;
  if (auto* d = dyn_cast<DeclRefExpr>(e); d && !local) return;  // a __global variable (2.0)
  const std::string shown = text(e->getSourceRange());
  if (!local && unregisteredVariable(e)) {
    unchecked(e->getBeginLoc(), shown,
              "a program-scope __global variable declared after the kernel: not looked at");
    return;
  }
  if (e->getBeginLoc().isMacroID() || e->getEndLoc().isMacroID()) {
    unchecked(e->getBeginLoc(), shown, "written inside a macro");
    return;
  }
  auto k = kinds_.find(e);
  const AccessKind kind = k == kinds_.end() ? AccessKind::read : k->second;
  const size_t bytes = sizeOf(t);
  const int id = addSite(e, kind, local ? "local" : "global", shown, bytes);
  if (id < 0) return;
  out_.sites[id].hint = hintFor(e, local);
  const std::string pointer = typeText(ctx_.getPointerType(t));
  wrap(e,
       "(*(" + pointer + ")" + (local ? "__clh_la" : "__clh_ga") + "(__clh_c, " +
           std::to_string(id) + ", " + std::to_string(out_.sites[id].hint) + ", " +
           std::to_string(static_cast<int>(kind)) + ", (" + (local ? "__local" : "__global") +
           " void*)&(",
       "), " + std::to_string(bytes) + "))");
}

bool Visitor::VisitCallExpr(CallExpr* c) {
  if (!inScope()) return true;
  const FunctionDecl* f = c->getDirectCallee();
  if (!f) return true;
  const std::string name = f->getNameAsString();
  if (c->getBeginLoc().isMacroID()) {
    if (vectorCall(name) || name.rfind("async_work_group", 0) == 0) {
      unchecked(c->getBeginLoc(), name,
                "written inside a macro: the accesses it makes are not checked");
      out_.async_copies = out_.async_copies || name.rfind("async_work_group", 0) == 0;
    }
    return true;
  }
  if (const FunctionDecl* def = f->getDefinition(); def && sm_.isInMainFile(def->getLocation())) {
    if (isKernel(def)) return true;
    // A first argument written as a macro (`f(s[i])`, `#define s a`): the context goes before
    // the macro's name in the file, where the Rewriter can put it.
    SourceLocation at = c->getNumArgs() > 0 ? c->getArg(0)->getBeginLoc() : c->getRParenLoc();
    if (at.isMacroID() && !c->getCallee()->getBeginLoc().isMacroID()) at = sm_.getExpansionLoc(at);
    rw_.InsertTextBefore(at, c->getNumArgs() > 0 ? "__clh_c, " : "__clh_c");
    return true;
  }
  if (name == "barrier" || name == "work_group_barrier") {
    rw_.InsertTextBefore(c->getCallee()->getBeginLoc(), "__clh_");
    return true;
  }
  if (name == "wait_group_events" && c->getNumArgs() == 2) {
    rw_.ReplaceText(c->getCallee()->getBeginLoc(), static_cast<unsigned>(name.size()),
                    "__clh_wait");
    rw_.InsertTextBefore(c->getArg(0)->getBeginLoc(), "__clh_c, ");
    return true;
  }
  if (const auto v = vectorCall(name); v && routeVector(c, *v)) return true;
  if (name.rfind("async_work_group", 0) == 0 && routeCopy(c, name)) return true;
  if (name.rfind("async_work_group", 0) == 0) out_.async_copies = true;
  const bool atomic = name.rfind("atomic_", 0) == 0 || name.rfind("atom_", 0) == 0;
  for (unsigned i = 0; i < c->getNumArgs(); ++i) {
    const Expr* a = c->getArg(i)->IgnoreParenImpCasts();
    const std::string space = pointeeSpace(a);
    if (space.empty()) continue;
    const auto* addr = dyn_cast<UnaryOperator>(a);
    if (atomic && i == 0 && addr && addr->getOpcode() == UO_AddrOf) {
      kinds_[accessRoot(addr->getSubExpr())] = AccessKind::atomic;
      atomics_.insert(accessRoot(addr->getSubExpr()));
      continue;
    }
    if (atomic && i == 0 && routeAtomicPointer(c, c->getArg(0))) continue;
    unchecked(
        c->getBeginLoc(), text(c->getSourceRange()),
        "'" + name + "' is given a __" + space + " pointer: the accesses it makes are not checked");
    break;
  }
  return true;
}

// vloadN(off, p), vstoreN(v, off, p) and the half forms: `p + off * stride` goes through
// __clh_gvec/__clh_lvec (each element checked), and the call reads or writes at offset 0 of what
// that returns: `vload4(0, (T*)__clh_gvec(ctx, SITE, HINT, KIND, (ulong)(off), p, ...))`.
bool Visitor::routeVector(CallExpr* c, const VectorCall& v) {
  if (c->getNumArgs() <= v.pointer_arg) return false;
  const Expr* ptr = c->getArg(v.pointer_arg);
  const Expr* off = c->getArg(v.offset_arg);
  const std::string space = pointeeSpace(ptr);
  if (space.empty()) return false;
  const std::string shown = text(c->getSourceRange());
  if (anyMacro({ptr, off, c})) {
    unchecked(c->getBeginLoc(), shown,
              "written inside a macro: the accesses it makes are not checked");
    return true;
  }
  const bool local = space == "local";
  const size_t elem = v.half ? 2 : sizeOf(ptr->getType()->getPointeeType());
  const AccessKind kind = v.store ? AccessKind::write : AccessKind::read;
  const int id = addSite(c, kind, space, shown, elem);
  if (id < 0) return true;
  out_.sites[id].hint = pointerHint(ptr, local);
  wrap(off,
       "0, (" + typeText(ptr->getType()) + ")" + (local ? "__clh_lvec" : "__clh_gvec") +
           "(__clh_c, " + std::to_string(id) + ", " + std::to_string(out_.sites[id].hint) + ", " +
           std::to_string(static_cast<int>(kind)) + ", (ulong)(",
       ")");
  wrap(ptr, std::string("(") + (local ? "__local" : "__global") + " void*)(",
       "), " + std::to_string(elem) + ", " + std::to_string(v.elements) + ", " +
           std::to_string(v.stride) + ")");
  return true;
}

// async_work_group_copy(dst, src, n, e) and the strided form, either way between __global and
// __local memory: `__clh_acopy_lg(ctx, DST_SITE, SRC_SITE, DST_HINT, SRC_HINT, ELEMENT, dst, src,
// n, e)`, the group's copy made element by element through the runtime (runtime_calls.cpp).
bool Visitor::routeCopy(CallExpr* c, const std::string& name) {
  const bool strided = name == "async_work_group_strided_copy";
  if ((name != "async_work_group_copy" && !strided) || c->getNumArgs() < (strided ? 5u : 4u))
    return false;
  const Expr *dst = c->getArg(0), *src = c->getArg(1);
  const std::string ds = pointeeSpace(dst), ss = pointeeSpace(src);
  const bool toLocal = ds == "local" && ss == "global";
  if (!toLocal && !(ds == "global" && ss == "local")) return false;
  const std::string shown = text(c->getSourceRange());
  if (anyMacro({dst, src, c}) || out_.sites.size() + 2 > static_cast<size_t>(kMaxSites)) {
    unchecked(c->getBeginLoc(), shown, "written inside a macro or past the limit of sites");
    out_.async_copies = true;
    return true;
  }
  const size_t elem = sizeOf(dst->getType()->getPointeeType());
  const int sd = addSite(dst, AccessKind::write, ds, shown, elem);
  const int sr = addSite(src, AccessKind::read, ss, shown, elem);
  out_.sites[sd].hint = pointerHint(dst, ds == "local");
  out_.sites[sr].hint = pointerHint(src, ss == "local");
  rw_.ReplaceText(c->getCallee()->getBeginLoc(), static_cast<unsigned>(name.size()),
                  std::string("__clh_acopy_") + (toLocal ? "lg" : "gl") + (strided ? "s" : ""));
  wrap(dst,
       "__clh_c, " + std::to_string(sd) + ", " + std::to_string(sr) + ", " +
           std::to_string(pointerHint(dst, ds == "local")) + ", " +
           std::to_string(pointerHint(src, ss == "local")) + ", " + std::to_string(elem) + ", (__" +
           ds + " void*)(",
       ")");
  wrap(src, "(const __" + ss + " void*)(", ")");
  return true;
}

// An atomic given a pointer (`atomic_add(p + i, v)`): the pointer goes through __clh_ga/__clh_la
// as an atomic access (bounds only), `atomic_add((T*)__clh_ga(ctx, SITE, HINT, 4, p + i, N), v)`.
bool Visitor::routeAtomicPointer(CallExpr* c, const Expr* a) {
  const std::string space = pointeeSpace(a);
  if (space.empty()) return false;
  const std::string shown = text(a->getSourceRange());
  if (anyMacro({a, c})) {
    unchecked(c->getBeginLoc(), shown, "written inside a macro: the atomic access is not checked");
    return true;
  }
  const bool local = space == "local";
  const size_t elem = sizeOf(a->getType()->getPointeeType());
  const int id = addSite(a, AccessKind::atomic, space, shown, elem);
  if (id < 0) return true;
  out_.sites[id].hint = pointerHint(a, local);
  wrap(a,
       "(" + typeText(a->getType()) + ")" + (local ? "__clh_la" : "__clh_ga") + "(__clh_c, " +
           std::to_string(id) + ", " + std::to_string(pointerHint(a, local)) + ", 4, (__" + space +
           " void*)(",
       "), " + std::to_string(elem) + ")");
  return true;
}

// The branches of `f` that decide whether a barrier is reached: their conditions go through
// __clh_cond (runtime_calls.cpp), which checks that the whole work-group agrees.
void Visitor::guardBranches(FunctionDecl* f) {
  if (!f->doesThisDeclarationHaveABody()) return;
  std::vector<UnfollowedBarrier> unfollowed;
  for (const BarrierBranch& b : flow_.branches(f, unfollowed)) {
    const std::string shown = text(b.cond->getSourceRange());
    if (anyMacro({b.cond})) {
      unchecked(b.cond->getBeginLoc(), shown,
                "a branch that decides a barrier, written inside a macro: barrier divergence there "
                "is not looked at");
      continue;
    }
    const int id = addSite(b.cond, AccessKind::branch, "", shown, 0);
    if (id < 0) continue;
    out_.sites[id].barrier_line =
        static_cast<int>(sm_.getPresumedLoc(sm_.getExpansionLoc(b.barrier)).getLine());
    wrap(b.cond, "__clh_cond(__clh_c, " + std::to_string(id) + ", (",
         ") ? 1 : 0, " + std::to_string(b.chosen) + ")");
  }
  for (const UnfollowedBarrier& u : unfollowed)
    unchecked(u.at, "barrier",
              std::string("a barrier under ") + u.construct +
                  ": barrier divergence there is not looked at");
}

// A function the kernel may call gets the runtime's context as its first parameter.
void Visitor::addContextParameter(FunctionDecl* f) {
  const char* param = "struct __clh_ctx* __clh_c";
  if (f->getNumParams() > 0) {
    rw_.InsertTextBefore(f->getParamDecl(0)->getBeginLoc(), std::string(param) + ", ");
    return;
  }
  FunctionTypeLoc tl = f->getFunctionTypeLoc();
  if (tl.isNull()) return;
  const SourceLocation open = tl.getLParenLoc().getLocWithOffset(1), close = tl.getRParenLoc();
  const unsigned length = sm_.getFileOffset(close) - sm_.getFileOffset(open);
  if (length > 0)
    rw_.ReplaceText(open, length, param);  // `(void)`
  else
    rw_.InsertTextBefore(close, param);
}

// The kernel's __global and __local pointer parameters in the tables (`nlArgs` the __local ones):
// the statements that set their bases.
std::string Visitor::registerParameters(FunctionDecl* f, int& nlArgs) {
  std::string bases;
  for (unsigned i = 0; i < f->getNumParams(); ++i) {
    const ParmVarDecl* p = f->getParamDecl(i);
    const QualType t = p->getType();
    if (!t->isPointerType()) continue;
    const LangAS as = t->getPointeeType().getAddressSpace();
    const std::string name = p->getNameAsString();
    if (as == LangAS::opencl_global) {
      const int id = static_cast<int>(out_.globals.size());
      globalIds_[p] = id;
      out_.globals.push_back({name, static_cast<int>(i)});
      bases += "__clh_c->gbase[" + std::to_string(id) + "] = (ulong)(" + name + "); ";
    } else if (as == LangAS::opencl_local) {
      const int id = nlArgs++;
      localIds_[p] = id;
      out_.locals.push_back({name, static_cast<int>(i), 0, 0});
      bases += "__clh_c->lbase[" + std::to_string(id) + "] = (ulong)(" + name + "); ";
    }
  }
  return bases;
}

// The kernel's hidden parameters and the context every access uses: on for the kernel scanned,
// off for the file's other kernels (the functions they share take it too).
void Visitor::kernelPrologue(FunctionDecl* f) {
  auto* body = dyn_cast_or_null<CompoundStmt>(f->getBody());
  if (!body) return;
  const SourceLocation open = body->getLBracLoc().getLocWithOffset(1);
  std::string pro = "struct __clh_xctx __clh_x0; struct __clh_ctx* __clh_c = &__clh_x0.c; ";
  // A kernel that reaches a barrier: its branches that decide one vote (__clh_cond), the votes
  // cleared before the first (a barrier at the kernel's start, where the group is together).
  const bool votes = flow_.hasBarrier(f);
  if (votes) pro = "__local uint __clh_votes[3]; " + pro;
  const std::string xinit = std::string(" __clh_xinit(__clh_c, ") + (target_ ? "__clh_rec" : "0") +
                            ", " + (votes ? "__clh_votes); barrier(CLK_LOCAL_MEM_FENCE);" : "0);");
  if (!target_) {
    rw_.InsertTextAfter(open, pro + "__clh_c->on = 0;" + xinit);
    return;
  }
  out_.original_args = static_cast<int>(f->getNumParams());
  int nlArgs = 0;
  const std::string bases = registerParameters(f, nlArgs);
  const size_t params = out_.globals.size();
  pro += "__clh_init(__clh_c, __clh_sizes, __clh_rec, __clh_lsh, __clh_dummy, __clh_gsh, " +
         std::to_string(params) + ", " + std::to_string(nlArgs) + "); " + bases +
         registerVariables(params) + "__clh_begin(__clh_c);" + xinit;
  rw_.InsertTextAfter(open, pro);
  const char* hidden =
      "__global ulong* __clh_sizes, __global uint* __clh_rec, __local uint* __clh_lsh, "
      "__global uchar* __clh_dummy, __global uint* __clh_gsh";
  FunctionTypeLoc tl = f->getFunctionTypeLoc();
  const SourceLocation lp = tl.getLParenLoc().getLocWithOffset(1), rp = tl.getRParenLoc();
  const unsigned length = sm_.getFileOffset(rp) - sm_.getFileOffset(lp);
  if (f->getNumParams() > 0)
    rw_.InsertTextBefore(rp, std::string(", ") + hidden);
  else if (length > 0)
    rw_.ReplaceText(lp, length, hidden);
  else
    rw_.InsertTextBefore(rp, hidden);
}

// The program-scope __global variables (OpenCL 2.0) declared in the file before the kernel scanned,
// which its prologue can name: they get table entries after the parameters' so that an access to
// one, or through a pointer into one, is checked against the variable and not charged to the
// nearest buffer.
void Visitor::collectVariables(TranslationUnitDecl* tu) {
  const FunctionDecl* kernel = nullptr;
  for (Decl* d : tu->decls())
    if (auto* f = dyn_cast<FunctionDecl>(d);
        f && isKernel(f) && f->getName() == kernel_ && f->doesThisDeclarationHaveABody())
      kernel = f;
  if (!kernel) return;
  for (Decl* d : tu->decls()) {
    const auto* v = dyn_cast<VarDecl>(d);
    if (!v || !sm_.isInMainFile(v->getLocation()) || v->hasExternalStorage() ||
        v->getType().getAddressSpace() != LangAS::opencl_global ||
        !sm_.isBeforeInTranslationUnit(v->getLocation(), kernel->getBeginLoc()))
      continue;
    variables_.push_back(v);
  }
}

// The table entries of those variables: base and size from the variable itself, and a shadow
// offset past any shadow (the host sizes no shadow for them): bounds only, said as not looked at.
std::string Visitor::registerVariables(size_t params) {
  std::string set;
  for (const VarDecl* v : variables_) {
    const int id = static_cast<int>(out_.globals.size());
    const size_t bytes = sizeOf(v->getType());
    const std::string name = v->getNameAsString(), k = std::to_string(id);
    globalIds_[v] = id;
    out_.globals.push_back({name, -1, bytes});
    set += "__clh_c->gbase[" + k + "] = (ulong)&(" + name + "); __clh_c->gsize[" + k +
           "] = " + std::to_string(bytes) + "; __clh_c->goff[" + k + "] = ~0ul >> 1; ";
    unchecked(v->getLocation(), name,
              "a program-scope __global variable: its bounds are checked, races on it are not "
              "looked at");
  }
  if (out_.globals.size() > params)
    set += "__clh_c->ng = " + std::to_string(out_.globals.size()) + "; ";
  return set;
}

// Whether an access is to a __global variable (by name, `g[i]`, `g.f`) the table has no entry
// for: declared after the kernel, or static in a function.
bool Visitor::unregisteredVariable(const Expr* e) const {
  while (true) {
    e = e->IgnoreParenImpCasts();
    if (const auto* s = dyn_cast<ArraySubscriptExpr>(e))
      e = s->getBase();
    else if (const auto* m = dyn_cast<MemberExpr>(e); m && !m->isArrow())
      e = m->getBase();
    else
      break;
  }
  const auto* d = dyn_cast<DeclRefExpr>(e);
  const auto* v = d ? dyn_cast<VarDecl>(d->getDecl()) : nullptr;
  if (!v || !v->hasGlobalStorage() || v->getType().getAddressSpace() != LangAS::opencl_global)
    return false;
  return std::find(variables_.begin(), variables_.end(), v) == variables_.end();
}

// A __local variable of the kernel: its bounds and shadow words, set once it is declared.
void Visitor::registerLocal(VarDecl* v, DeclStmt* s) {
  const int id = static_cast<int>(out_.locals.size());
  const size_t bytes = static_cast<size_t>(ctx_.getTypeSizeInChars(v->getType()).getQuantity());
  localIds_[v] = id;
  out_.locals.push_back({v->getNameAsString(), -1, bytes, declaredWords_});
  const std::string name = v->getNameAsString(), k = std::to_string(id);
  const std::string reg = " __clh_local(__clh_c, " + k + ", (__local void*)&(" + name + "), " +
                          std::to_string(bytes) + ", " + std::to_string(declaredWords_) + ");";
  declaredWords_ += (bytes + 3) / 4;
  if (s->getEndLoc().isMacroID()) {
    unchecked(s->getBeginLoc(), name, "declared inside a macro: its accesses are not checked");
    return;
  }
  rw_.InsertTextAfter(s->getEndLoc().getLocWithOffset(1), reg);
}

class Consumer : public ASTConsumer {
 public:
  Consumer(Rewriter& rw, const std::string& kernel, Instrumented& out)
      : rw_(rw), kernel_(kernel), out_(out) {}
  void HandleTranslationUnit(ASTContext& ctx) override {
    if (ctx.getDiagnostics().hasErrorOccurred()) return;
    rw_.setSourceMgr(ctx.getSourceManager(), ctx.getLangOpts());
    Visitor v(ctx, rw_, kernel_, out_);
    v.collectVariables(ctx.getTranslationUnitDecl());
    v.TraverseDecl(ctx.getTranslationUnitDecl());
    const RewriteBuffer* b = rw_.getRewriteBufferFor(ctx.getSourceManager().getMainFileID());
    if (b)
      rewritten_ = std::string(b->begin(), b->end());
    else
      rewritten_ =
          ctx.getSourceManager().getBufferData(ctx.getSourceManager().getMainFileID()).str();
    done_ = true;
  }
  bool done_ = false;
  std::string rewritten_;

 private:
  Rewriter& rw_;
  const std::string& kernel_;
  Instrumented& out_;
};

class Action : public ASTFrontendAction {
 public:
  Action(const std::string& kernel, Instrumented& out, std::string& rewritten, std::string& diags)
      : kernel_(kernel), out_(out), rewritten_(rewritten), diags_(diags) {}
  std::unique_ptr<ASTConsumer> CreateASTConsumer(CompilerInstance& ci, StringRef) override {
    stream_ = std::make_unique<llvm::raw_string_ostream>(diags_);
    auto* printer = new TextDiagnosticPrinter(*stream_, &ci.getDiagnosticOpts());
    ci.getDiagnostics().setClient(printer, true);
    printer->BeginSourceFile(ci.getLangOpts(), &ci.getPreprocessor());  // as the old one was
    auto c = std::make_unique<Consumer>(rw_, kernel_, out_);
    consumer_ = c.get();
    return c;
  }
  void EndSourceFileAction() override {
    if (consumer_ && consumer_->done_) rewritten_ = consumer_->rewritten_;
    if (stream_) stream_->flush();
  }

 private:
  const std::string& kernel_;
  Instrumented& out_;
  std::string& rewritten_;
  std::string& diags_;
  Rewriter rw_;
  Consumer* consumer_ = nullptr;
  std::unique_ptr<llvm::raw_string_ostream> stream_;
};

// The options clang needs from the kernel's build options: macros, include folders, the standard.
std::vector<std::string> parseArguments(const std::string& build_options) {
  std::vector<std::string> args = {"-x",
                                   "cl",
                                   "-Xclang",
                                   "-finclude-default-header",
                                   "-Xclang",
                                   "-fdeclare-opencl-builtins",
                                   "-resource-dir=" CLH_CLANG_RESOURCE_DIR,
                                   "-fsyntax-only",
                                   "-Wno-everything"};
  std::istringstream in(build_options);
  bool standard = false;
  for (std::string word, pending; in >> word;) {
    if (!pending.empty()) {
      args.push_back(pending + word);
      pending.clear();
      continue;
    }
    if (word == "-D" || word == "-I" || word == "-U") {
      pending = word;
      continue;
    }
    if (word.rfind("-D", 0) == 0 || word.rfind("-I", 0) == 0 || word.rfind("-U", 0) == 0)
      args.push_back(word);
    if (word.rfind("-cl-std=", 0) == 0) {
      args.push_back(word);
      standard = true;
    }
  }
  if (!standard) args.push_back("-cl-std=CL1.2");
  return args;
}

}  // namespace

Instrumented instrument(const std::string& text, const std::string& file_name,
                        const std::string& kernel, const std::string& build_options) {
  Instrumented out;
  std::string rewritten, diags;
  const bool ok = clang::tooling::runToolOnCodeWithArgs(
      std::make_unique<Action>(kernel, out, rewritten, diags), text, parseArguments(build_options),
      file_name, "clharness-sanitize");
  if (!ok || rewritten.empty()) {
    out.error = diags.empty() ? "clang could not parse the file" : diags;
    return out;
  }
  if (rewritten.find("__global ulong* __clh_sizes") == std::string::npos) {
    out.error = "no kernel named '" + kernel + "' in " + file_name;
    return out;
  }
  size_t nl = out.locals.size();
  out.source = runtimeSource(out.globals.size(), nl, !out.async_copies) + "#line 1 \"" + file_name +
               "\"\n" + rewritten;
  return out;
}

}  // namespace clh::sanitize
