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
// For each file-scope global it also records the functions of the TU that
// use it (a load, store or address use, also through constant GEPs and
// casts), so the index builder can read the global only where it is used.
// A global the TU uses but does not define (`extern`) has no debug info
// here; it becomes a use record carrying its users and the tags its uses
// earn here (`if (verbose)` in main.c tags the definition's `verbose` cond).
//
//===----------------------------------------------------------------------===//

#include "Schema.h"

#include "vprof/DebugInfoUtils.h"
#include "vprof/format.h"

#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/SmallPtrSet.h"
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
STATISTIC(NumUseRecords, "Use records of globals defined in other TUs");
STATISTIC(NumUnnamed, "Unnamed variables left out");

namespace vprof {
namespace {

/// Bounds the backward walk from one condition or argument; real conditions
/// touch a handful of values, this only stops pathological expressions.
constexpr unsigned MaxTracedValues = 256;

class VariableSelection {
public:
  void addGlobals(Module &M);
  void findGlobalUsers(ArrayRef<Function *> Functions);
  void visitFunction(Function &F, TargetLibraryInfo &TLI);
  std::vector<SchemaVariable> takeResult();

private:
  void addTag(const DIVariable *Var, unsigned Tag);
  void addTracedVariables(Value *Root, unsigned Tag);

  MapVector<const DIVariable *, unsigned> Tags; // first-seen order
  /// The variables of constant globals: never in the schema.
  SmallPtrSet<const DIVariable *, 8> Constants;
  /// The IR global of each file-scope DIGlobalVariable of the TU.
  DenseMap<const DIVariable *, const GlobalVariable *> GlobalOf;
  /// Functions using each global, in function order.
  MapVector<const GlobalVariable *, SetVector<const Function *>> UsersOf;
  /// Tags earned by uses of globals without debug info here (extern).
  DenseMap<const GlobalVariable *, unsigned> UseTags;
};

} // namespace

/// A variable without a name is left out: C++'s unnamed parameters, the
/// `Entry &&` of an implicit move constructor among them.  A report could
/// not name it, and the schema reader rejects a blob holding one, so one of
/// them cost a C++ program all its value samples.
void VariableSelection::addTag(const DIVariable *Var, unsigned Tag) {
  if (Var->getName().empty()) {
    ++NumUnnamed;
    return;
  }
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
/// are described by the TU that defines them.  A constant global (a `static
/// const` table or string, or one the optimiser proved is never written)
/// holds the same value all run: it says nothing about performance, its
/// only "anomaly" is how long a run lasts (sqlite3's `cume_distName`, a
/// string, was the most anomalous variable of getCellInfo in processing
/// cost), and every tick read it.
void VariableSelection::addGlobals(Module &M) {
  SmallVector<DIVariable *, 1> Vars;
  for (GlobalVariable &GV : M.globals()) {
    Vars.clear();
    if (findVariablesOf(&GV, Vars))
      for (DIVariable *Var : Vars) {
        if (GV.isConstant()) {
          Constants.insert(Var); // tagged by its uses too: left out at the end
          continue;
        }
        addTag(Var, VP_TAG_GLOBAL);
        if (!isa<DILocalScope>(Var->getScope()))
          GlobalOf.try_emplace(Var, &GV);
      }
  }
}

/// Adds \p F as a user of every global \p V refers to, looking through
/// constant expressions (`&cfg.level`, `(char *)table`, nested GEPs).
static void noteGlobalUses(
    const Value *V, const Function *F,
    MapVector<const GlobalVariable *, SetVector<const Function *>> &UsersOf) {
  SmallVector<const Constant *, 4> Work;
  if (const auto *C = dyn_cast<Constant>(V))
    Work.push_back(C);
  SmallPtrSet<const Constant *, 8> Seen;
  while (!Work.empty()) {
    const Constant *C = Work.pop_back_val();
    if (!Seen.insert(C).second)
      continue;
    if (const auto *GV = dyn_cast<GlobalVariable>(C)) {
      UsersOf[GV].insert(F);
    } else if (isa<ConstantExpr>(C)) {
      for (const Use &Op : C->operands())
        Work.push_back(cast<Constant>(Op.get()));
    }
  }
}

/// Records, for every global, the functions whose instructions use it: a
/// load, a store, a call argument or any other address use.  Uses inside
/// other globals' initializers (a table of pointers) are not uses by a
/// function and are not followed.
void VariableSelection::findGlobalUsers(ArrayRef<Function *> Functions) {
  for (const Function *F : Functions)
    for (const Instruction &I : instructions(*F)) {
      if (isa<DbgInfoIntrinsic>(I))
        continue; // dbg.declare/value of the global itself are not uses
      for (const Use &Op : I.operands())
        noteGlobalUses(Op.get(), F, UsersOf);
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
    if (auto *GV = dyn_cast<GlobalVariable>(V)) {
      // Defined elsewhere: the use record carries the tag to the definition.
      if (GV->isDeclaration())
        UseTags[GV] |= Tag;
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

/// The names of the functions using \p GV: their IR names, which are the
/// names DWARF gives them (DW_AT_linkage_name for C++, DW_AT_name for C).
static std::vector<std::string>
userNames(const GlobalVariable *GV,
          const MapVector<const GlobalVariable *, SetVector<const Function *>> &UsersOf) {
  std::vector<std::string> Names;
  auto It = UsersOf.find(GV);
  if (It == UsersOf.end())
    return Names;
  for (const Function *F : It->second)
    if (Names.size() < UINT16_MAX)
      Names.push_back(F->getName().str());
  return Names;
}

std::vector<SchemaVariable> VariableSelection::takeResult() {
  std::vector<SchemaVariable> Result;
  Result.reserve(Tags.size());
  for (auto &KV : Tags) {
    if (Constants.count(KV.first))
      continue;
    SchemaVariable V{KV.first, KV.second, {}};
    auto G = GlobalOf.find(KV.first);
    if (G != GlobalOf.end()) {
      V.Users = userNames(G->second, UsersOf);
      V.External = !G->second->hasLocalLinkage();
    }
    Result.push_back(std::move(V));
  }
  // Use records: declared-only globals this TU uses.
  for (auto &KV : UsersOf) {
    const GlobalVariable *GV = KV.first;
    if (!GV->isDeclaration() || GV->isConstant() || GV->getName().startswith("llvm."))
      continue;
    SchemaVariable V{nullptr, VP_TAG_GLOBAL, {}};
    auto T = UseTags.find(GV);
    if (T != UseTags.end())
      V.Tags |= T->second;
    V.Users = userNames(GV, UsersOf);
    V.UseOnly = GV;
    ++NumUseRecords;
    Result.push_back(std::move(V));
  }
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
  Selection.findGlobalUsers(Functions);
  for (Function *F : Functions)
    Selection.visitFunction(*F, GetTLI(*F));
  return Selection.takeResult();
}

} // namespace vprof
