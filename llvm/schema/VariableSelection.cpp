//===- VariableSelection.cpp - Which variables vProf watches --------------===//
//
// vProf section 3.1: watch every global (few, and readable from anywhere),
// and of the locals only those that explain cost: loop induction variables
// (how far a loop got), variables in branch conditions (which path was
// taken and why) and variables passed to calls (what the callee was asked
// to do).  A condition or argument is traced back through the computation
// that feeds it (loads, casts, compares, arithmetic, GEP field and index
// accesses) to the source variables it reads; `p->len < n` yields p and n.
//
//===----------------------------------------------------------------------===//

#include "Schema.h"

#include "vprof/DebugInfoUtils.h"
#include "vprof/format.h"

#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/Statistic.h"
#include "llvm/IR/DebugInfoMetadata.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/Operator.h"

using namespace llvm;

#define DEBUG_TYPE "vprof-schema"

STATISTIC(NumGlobalTags, "Variables tagged global");
STATISTIC(NumLoopTags, "Variables tagged loop");
STATISTIC(NumCondTags, "Variables tagged cond");
STATISTIC(NumArgsTags, "Variables tagged args");

namespace vprof {
namespace {

/// Bounds the backward walk from one condition or argument; real conditions
/// touch a handful of values, this only stops pathological expressions.
constexpr unsigned MaxTracedValues = 256;

class VariableSelection {
public:
  void addGlobals(Module &M);
  void visitFunction(Function &F, TargetLibraryInfo &TLI);
  std::vector<SchemaVariable> takeResult();

private:
  void addTag(const DIVariable *Var, unsigned Tag);
  void addTracedVariables(Value *Root, unsigned Tag);

  MapVector<const DIVariable *, unsigned> Tags; // first-seen order
};

} // namespace

void VariableSelection::addTag(const DIVariable *Var, unsigned Tag) {
  unsigned &T = Tags[Var];
  if (T & Tag)
    return;
  T |= Tag;
  switch (Tag) {
  case VP_TAG_GLOBAL:
    ++NumGlobalTags;
    break;
  case VP_TAG_LOOP:
    ++NumLoopTags;
    break;
  case VP_TAG_COND:
    ++NumCondTags;
    break;
  case VP_TAG_ARGS:
    ++NumArgsTags;
    break;
  }
}

/// Every global with debug info defined in this TU, function-static
/// variables included (clang gives them a DIGlobalVariable scoped to the
/// function).  Globals only declared here have no debug info in this TU and
/// are described by the TU that defines them.
void VariableSelection::addGlobals(Module &M) {
  SmallVector<DIVariable *, 1> Vars;
  for (GlobalVariable &GV : M.globals()) {
    Vars.clear();
    if (findVariablesOf(&GV, Vars))
      for (DIVariable *Var : Vars)
        addTag(Var, VP_TAG_GLOBAL);
  }
}

/// True for the calls a condition may look through: they return (a form of)
/// their first argument, like __builtin_expect behind likely()/unlikely().
static bool isValuePassThroughCall(const CallBase &CB) {
  const auto *II = dyn_cast<IntrinsicInst>(&CB);
  if (!II)
    return false;
  switch (II->getIntrinsicID()) {
  case Intrinsic::expect:
  case Intrinsic::expect_with_probability:
    return true;
  default:
    return false;
  }
}

/// Pushes what a compiler temporary without a source variable was filled
/// from: a by-value aggregate argument is memcpy'd into an unnamed alloca,
/// a C++ `const T &` argument is stored into one.
static void pushTemporarySources(AllocaInst &AI, SmallVectorImpl<Value *> &Work) {
  SmallVector<Value *, 4> Addresses{&AI};
  for (User *U : AI.users())
    if (isa<BitCastInst>(U))
      Addresses.push_back(U);
  for (Value *Addr : Addresses)
    for (User *U : Addr->users()) {
      if (auto *MT = dyn_cast<MemTransferInst>(U)) {
        if (MT->getRawDest() == Addr)
          Work.push_back(MT->getRawSource());
      } else if (auto *SI = dyn_cast<StoreInst>(U)) {
        if (SI->getPointerOperand() == Addr)
          Work.push_back(SI->getValueOperand());
      }
    }
}

/// Tags \p Tag on every source variable \p Root is computed from.  Walks
/// operands backwards and stops at the first value that is a source variable
/// (its storage, or an SSA value with a dbg.value), so `x = y + 1; if (x)`
/// yields x, not y.  Calls other than pass-through intrinsics end the walk:
/// their result is the callee's business.
void VariableSelection::addTracedVariables(Value *Root, unsigned Tag) {
  SmallVector<Value *, 16> Work{Root};
  SmallPtrSet<Value *, 16> Seen;
  SmallVector<DIVariable *, 2> Vars;
  while (!Work.empty() && Seen.size() < MaxTracedValues) {
    Value *V = Work.pop_back_val()->stripPointerCasts();
    if (!Seen.insert(V).second)
      continue;
    Vars.clear();
    if (findVariablesOf(V, Vars)) {
      for (DIVariable *Var : Vars)
        addTag(Var, Tag);
      continue;
    }
    if (auto *CE = dyn_cast<ConstantExpr>(V)) {
      // `g.len`, `table[3]`: a constant GEP or cast of a global.
      if (CE->isCast() || CE->getOpcode() == Instruction::GetElementPtr)
        Work.push_back(CE->getOperand(0));
      continue;
    }
    auto *I = dyn_cast<Instruction>(V);
    if (!I)
      continue; // constants, arguments without debug info
    if (auto *LI = dyn_cast<LoadInst>(I)) {
      Work.push_back(LI->getPointerOperand());
    } else if (auto *AI = dyn_cast<AllocaInst>(I)) {
      pushTemporarySources(*AI, Work);
    } else if (auto *CB = dyn_cast<CallBase>(I)) {
      if (isValuePassThroughCall(*CB))
        Work.push_back(CB->getArgOperand(0));
    } else if (isa<CastInst>(I) || isa<UnaryOperator>(I) ||
               isa<BinaryOperator>(I) || isa<CmpInst>(I) ||
               isa<GetElementPtrInst>(I) || isa<PHINode>(I) ||
               isa<SelectInst>(I) || isa<FreezeInst>(I) ||
               isa<ExtractValueInst>(I)) {
      // Phis here are the i1 merges of && and || (or SSA merges after
      // mem2reg); every incoming value is part of the condition.
      for (Value *Op : I->operands())
        Work.push_back(Op);
    }
  }
}

/// The condition of a conditional branch, switch or select, if \p I is one.
static Value *conditionOf(Instruction &I) {
  if (auto *BI = dyn_cast<BranchInst>(&I))
    return BI->isConditional() ? BI->getCondition() : nullptr;
  if (auto *SI = dyn_cast<SwitchInst>(&I))
    return SI->getCondition();
  if (auto *Sel = dyn_cast<SelectInst>(&I))
    return Sel->getCondition();
  return nullptr;
}

/// True for calls whose arguments are program values handed to a callee:
/// not intrinsics (llvm.dbg.*, llvm.memcpy, lifetime markers...) and not
/// inline assembly.
static bool isUserCall(const CallBase &CB) {
  if (CB.isInlineAsm())
    return false;
  const Function *Callee = CB.getCalledFunction();
  return !Callee || !Callee->isIntrinsic();
}

void VariableSelection::visitFunction(Function &F, TargetLibraryInfo &TLI) {
  if (F.isDeclaration())
    return;
  SmallPtrSet<const DIVariable *, 8> IVs;
  findInductionVariables(F, TLI, IVs);
  // Insert in instruction order, not set order, to stay deterministic.
  for (Instruction &I : instructions(F)) {
    if (auto *DVI = dyn_cast<DbgVariableIntrinsic>(&I))
      if (IVs.count(DVI->getVariable()))
        addTag(DVI->getVariable(), VP_TAG_LOOP);
  }
  for (Instruction &I : instructions(F)) {
    if (Value *Cond = conditionOf(I))
      addTracedVariables(Cond, VP_TAG_COND);
    if (auto *CB = dyn_cast<CallBase>(&I))
      if (isUserCall(*CB))
        for (Value *Arg : CB->args())
          addTracedVariables(Arg, VP_TAG_ARGS);
  }
}

std::vector<SchemaVariable> VariableSelection::takeResult() {
  std::vector<SchemaVariable> Result;
  Result.reserve(Tags.size());
  for (auto &KV : Tags)
    Result.push_back({KV.first, KV.second});
  Tags.clear();
  return Result;
}

std::vector<SchemaVariable> selectVariables(Module &M, GetTLIFn GetTLI) {
  VariableSelection Selection;
  Selection.addGlobals(M);
  // The IV analysis adds and removes clones: walk a snapshot of the list.
  SmallVector<Function *, 32> Functions;
  for (Function &F : M)
    if (!F.isDeclaration())
      Functions.push_back(&F);
  for (Function *F : Functions)
    Selection.visitFunction(*F, GetTLI(*F));
  return Selection.takeResult();
}

} // namespace vprof
