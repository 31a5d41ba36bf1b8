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
#include "llvm/ADT/SmallPtrSet.h"
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
STATISTIC(NumExitAccumulators, "Loop header phis that are exit-tested accumulators");

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

/// Whether \p V (an i1) is, or combines with and/or/not/select, a compare
/// that reads \p A or \p B.
static bool conditionReads(Value *V, Value *A, Value *B, unsigned Depth = 0) {
  if (Depth > 4)
    return false;
  if (auto *C = dyn_cast<ICmpInst>(V))
    return C->getOperand(0) == A || C->getOperand(1) == A ||
           C->getOperand(0) == B || C->getOperand(1) == B;
  if (auto *BO = dyn_cast<BinaryOperator>(V))
    if (BO->getType()->isIntegerTy(1))
      return conditionReads(BO->getOperand(0), A, B, Depth + 1) ||
             conditionReads(BO->getOperand(1), A, B, Depth + 1);
  if (auto *S = dyn_cast<SelectInst>(V))
    return conditionReads(S->getTrueValue(), A, B, Depth + 1) ||
           conditionReads(S->getFalseValue(), A, B, Depth + 1);
  return false;
}

/// A loop-carried integer that grows or shrinks every iteration by a
/// varying amount and that the loop's exit tests: `offset += delta(sn);
/// if (offset == target) return sn;` walks as far as the input makes it,
/// like an IV, but ScalarEvolution sees no affine recurrence.  It counts the
/// loop's progress, so it gets `loop` (docs/schema-pass.md, "Exit-tested
/// accumulators").  Required: the back-edge value is `phi + x` or `phi - x`,
/// and a compare of the phi or of that update decides a branch that leaves
/// the loop, or that leads to a block that does (short-circuit `&&`).
static bool isExitTestedAccumulator(Loop &L, PHINode &PN) {
  if (!PN.getType()->isIntegerTy())
    return false;
  BasicBlock *Latch = L.getLoopLatch();
  if (!Latch || PN.getBasicBlockIndex(Latch) < 0)
    return false;
  auto *Upd = dyn_cast<BinaryOperator>(PN.getIncomingValueForBlock(Latch));
  if (!Upd || !L.contains(Upd) ||
      !(Upd->getOpcode() == Instruction::Add ||
        (Upd->getOpcode() == Instruction::Sub && Upd->getOperand(0) == &PN)) ||
      (Upd->getOperand(0) != &PN && Upd->getOperand(1) != &PN))
    return false;
  SmallVector<BasicBlock *, 4> Exiting;
  L.getExitingBlocks(Exiting);
  SmallPtrSet<BasicBlock *, 4> ExitingSet(Exiting.begin(), Exiting.end());
  for (BasicBlock *BB : L.blocks()) {
    auto *Br = dyn_cast<BranchInst>(BB->getTerminator());
    if (!Br || !Br->isConditional() ||
        !conditionReads(Br->getCondition(), &PN, Upd))
      continue;
    for (BasicBlock *S : Br->successors())
      if (!L.contains(S) || (ExitingSet.count(S) && S != L.getHeader()))
        return true;
  }
  return false;
}

/// Adds to \p IVs the (clone-side) variables described by dbg.values of the
/// header phis of \p L that ScalarEvolution sees as affine add recurrences
/// of L, and of its exit-tested accumulators.
/// Assumes \p L is in simplified form (one latch), so the phi has a single
/// back-edge value for createAddRecFromPHI to analyse.
static void collectLoopIVs(Loop &L, ScalarEvolution &SE,
                           SmallVectorImpl<const DIVariable *> &IVs) {
  for (PHINode &PN : L.getHeader()->phis()) {
    if (!SE.isSCEVable(PN.getType()))
      continue;
    const auto *AR = dyn_cast<SCEVAddRecExpr>(SE.getSCEV(&PN));
    // Affine: {start,+,step} with a loop-invariant step counts iterations;
    // `sum += i` ({0,+,0,+,1}) is an accumulator, not an IV -- unless the
    // loop's exit tests it (isExitTestedAccumulator).
    if (AR && AR->getLoop() == &L && AR->isAffine())
      ++NumIVPhis;
    else if (isExitTestedAccumulator(L, PN))
      ++NumExitAccumulators;
    else
      continue;
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
