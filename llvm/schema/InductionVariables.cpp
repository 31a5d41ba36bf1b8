//===- InductionVariables.cpp - Source variables that are loop IVs --------===//
//
// Decides which source variables are loop induction variables, using
// ScalarEvolution: a variable is an IV of loop L if, once it lives in an SSA
// register, its value at L's header is an affine add recurrence
// {start,+,step}<L> (step invariant in L).
//
// The schema pass runs at PipelineStartEP, where every -O level still has
// allocas + llvm.dbg.declare, which ScalarEvolution cannot see through.  So
// we analyse a throw-away clone: promote its allocas (PromoteMemToReg turns
// each dbg.declare into dbg.values, one on every header phi it creates), put
// its loops in simplified form, ask ScalarEvolution about each header phi,
// and map the dbg.value variables of the add-recurrent phis back to the
// original function's variables.  Then the clone is deleted.
//
//===----------------------------------------------------------------------===//

#include "Schema.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/Statistic.h"
#include "llvm/Analysis/AssumptionCache.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/ScalarEvolution.h"
#include "llvm/Analysis/ScalarEvolutionExpressions.h"
#include "llvm/Analysis/TargetLibraryInfo.h"
#include "llvm/IR/DebugInfo.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/Support/Debug.h"
#include "llvm/Transforms/Utils/Cloning.h"
#include "llvm/Transforms/Utils/LoopSimplify.h"
#include "llvm/Transforms/Utils/PromoteMemToReg.h"
#include "llvm/Transforms/Utils/ValueMapper.h"

using namespace llvm;

#define DEBUG_TYPE "vprof-schema"

STATISTIC(NumFunctionsCloned, "Functions cloned for induction-variable analysis");
STATISTIC(NumIVPhis, "Loop header phis that are add recurrences");

namespace vprof {

/// True if \p F has a loop.  Cheap enough to spare loop-free functions the
/// clone; it only reads \p F.
static bool hasLoops(Function &F) {
  DominatorTree DT(F);
  LoopInfo LI(DT);
  return !LI.empty();
}

/// Maps each variable of a dbg.declare/dbg.value in \p Clone to the variable
/// of the matching intrinsic in \p F.  CloneFunction gives the clone its own
/// DISubprogram, and so its own DILocalVariables; \p VMap pairs the
/// intrinsics one for one.
static DenseMap<const DIVariable *, const DIVariable *>
mapCloneVariables(Function &F, ValueToValueMapTy &VMap) {
  DenseMap<const DIVariable *, const DIVariable *> ToOriginal;
  for (Instruction &I : instructions(F)) {
    auto *DVI = dyn_cast<DbgVariableIntrinsic>(&I);
    if (!DVI)
      continue;
    if (auto *CloneDVI = dyn_cast_or_null<DbgVariableIntrinsic>(VMap.lookup(&I)))
      ToOriginal[CloneDVI->getVariable()] = DVI->getVariable();
  }
  return ToOriginal;
}

/// Promotes every promotable alloca of the entry block of \p F to SSA
/// registers (what mem2reg does); their dbg.declares become dbg.values.
static void promoteAllocas(Function &F, DominatorTree &DT, AssumptionCache &AC) {
  SmallVector<AllocaInst *, 16> Allocas;
  for (Instruction &I : F.getEntryBlock())
    if (auto *AI = dyn_cast<AllocaInst>(&I))
      if (isAllocaPromotable(AI))
        Allocas.push_back(AI);
  if (!Allocas.empty())
    PromoteMemToReg(Allocas, DT, &AC);
}

/// Adds to \p IVs the (clone-side) variables described by dbg.values of the
/// header phis of \p L that ScalarEvolution sees as affine add recurrences
/// of L.
/// Assumes \p L is in simplified form (one latch), so the phi has a single
/// back-edge value for createAddRecFromPHI to analyse.
static void collectLoopIVs(Loop &L, ScalarEvolution &SE,
                           SmallVectorImpl<const DIVariable *> &IVs) {
  for (PHINode &PN : L.getHeader()->phis()) {
    if (!SE.isSCEVable(PN.getType()))
      continue;
    const auto *AR = dyn_cast<SCEVAddRecExpr>(SE.getSCEV(&PN));
    // Affine only: {start,+,step} with a loop-invariant step counts
    // iterations; `sum += i` ({0,+,0,+,1}) is an accumulator, not an IV.
    if (!AR || AR->getLoop() != &L || !AR->isAffine())
      continue;
    ++NumIVPhis;
    // mem2reg describes a phi it creates by a dbg.value in the header; a
    // dbg.value elsewhere means a copy (`last = i;` in the body), not an IV.
    SmallVector<DbgValueInst *, 2> DbgValues;
    findDbgValues(DbgValues, &PN);
    for (DbgValueInst *DVI : DbgValues) {
      if (DVI->getParent() != L.getHeader())
        continue;
      LLVM_DEBUG(dbgs() << "vprof-schema: IV " << DVI->getVariable()->getName()
                        << " = " << *AR << "\n");
      IVs.push_back(DVI->getVariable());
    }
  }
}

void findInductionVariables(Function &F, TargetLibraryInfo &TLI,
                            SmallPtrSetImpl<const DIVariable *> &IVs) {
  if (F.isDeclaration() || !F.getSubprogram() || !hasLoops(F))
    return;

  ValueToValueMapTy VMap;
  Function *Clone = CloneFunction(&F, VMap);
  ++NumFunctionsCloned;
  DenseMap<const DIVariable *, const DIVariable *> ToOriginal =
      mapCloneVariables(F, VMap);

  SmallVector<const DIVariable *, 8> CloneIVs;
  {
    // Analyses hold value handles into the clone: they die before it does.
    DominatorTree DT(*Clone);
    AssumptionCache AC(*Clone);
    promoteAllocas(*Clone, DT, AC);
    LoopInfo LI(DT);
    for (Loop *L : LI)
      simplifyLoop(L, &DT, &LI, /*SE=*/nullptr, &AC, /*MSSAU=*/nullptr,
                   /*PreserveLCSSA=*/false);
    ScalarEvolution SE(*Clone, TLI, AC, DT, LI);
    for (Loop *L : LI.getLoopsInPreorder())
      collectLoopIVs(*L, SE, CloneIVs);
  }
  // Map back while the clone's metadata is certainly still referenced.
  for (const DIVariable *Var : CloneIVs)
    if (const DIVariable *Orig = ToOriginal.lookup(Var))
      IVs.insert(Orig);
  Clone->eraseFromParent();
}

} // namespace vprof
