//===- SourceSlicing.cpp - LDoctor source instructions of a loop ---------===//
//
// Slices backwards from a loop's side-effect instructions over data and
// control dependences and returns the instructions the slice stops at: the
// *source instructions* of LDoctor (paper section 3.2.2), for the
// cross-iteration and the cross-loop variant, with the static pruning of
// section 3.2.5 (MemorySSA, ScalarEvolution).  docs/redundancy.md.
//
//===----------------------------------------------------------------------===//

#include "RedundancyPasses.h"
#include "llvm/IR/InstIterator.h"
#include "vprof/DebugInfoUtils.h"
#include "vprof/LoopProbes.h"

#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/Statistic.h"
#include "llvm/Analysis/AliasAnalysis.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/MemorySSA.h"
#include "llvm/Analysis/PostDominators.h"
#include "llvm/Analysis/ScalarEvolution.h"
#include "llvm/Analysis/ScalarEvolutionExpressions.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/DebugInfoMetadata.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Operator.h"
#include "llvm/Support/CommandLine.h"

#include <deque>
#include <map>

#define DEBUG_TYPE "vprof-redundancy"

using namespace llvm;

STATISTIC(NumSources, "Number of source instructions found");
STATISTIC(NumStrides, "Number of strided accesses recorded as ranges");
STATISTIC(NumPrunedInvariant, "Number of loads pruned as loop-invariant");
STATISTIC(NumRanges, "Number of loads recorded as an address range");
STATISTIC(NumIVLoops, "Number of loops with an induction-variable source");
STATISTIC(NumConstantWork, "Number of loops whose work is constant (no input)");

static cl::opt<unsigned>
    MaxCalleeDepth("vprof-redundancy-callee-depth", cl::init(2), cl::Hidden,
                   cl::desc("How deep the slice follows called functions"));

namespace vprof {
static bool isCounterUpdate(llvm::LoadInst *LdI);
}

namespace vprof {

namespace {

/// Where a value is sliced: the loop's function (depth 0), or a function
/// called from the slice, reached through `Site` in `Parent`.
struct Context {
  Function *F;
  CallBase *Site;
  const Context *Parent;
  unsigned Depth;
};

enum Variant { CrossIteration = 0, CrossLoop = 1 };

class Slicer {
public:
  Slicer(Loop &L, const FunctionAnalyses &FA,
         function_ref<PostDominatorTree &(Function &)> PDTOf)
      : L(L), FA(FA), PDTOf(PDTOf) {}

  /// Runs the slice of one variant from the side-effect sites.
  void run(Variant V, const LoopSideEffects &E);

  /// Sources found, in discovery order, with the kind per variant.
  struct Found {
    vp_redund_source_kind Kind;
    unsigned Depth;
    bool In[2] = {false, false};
  };
  MapVector<Value *, Found> Sources;

private:
  Loop &L;
  const FunctionAnalyses &FA;
  function_ref<PostDominatorTree &(Function &)> PDTOf;
  std::deque<Context> Contexts;
  std::map<std::pair<Function *, const Context *>, const Context *> CtxOf;
  SmallVector<std::pair<Value *, const Context *>, 32> Work;
  DenseSet<std::pair<Value *, const Context *>> Seen;
  /// Blocks whose control dependences were added (in a context): each
  /// costs a post-dominance test per block of the loop or callee, and every
  /// value pushed asks for its block's (sqlite3.c's loops took a minute).
  DenseSet<std::pair<BasicBlock *, const Context *>> ControlDone;
  Variant Var = CrossIteration;

  void push(Value *V, const Context *C) {
    if (isa<Constant>(V) && !isa<GlobalValue>(V))
      return; // constants never make iterations differ
    if (isa<GlobalValue>(V) || isa<BasicBlock>(V) || isa<MetadataAsValue>(V))
      return; // an address, not a value that varies
    if (auto *I = dyn_cast<Instruction>(V))
      if (isProbeInstruction(*I))
        return; // a gate or another pass's counter, not the program
    if (Seen.insert({V, C}).second)
      Work.push_back({V, C});
  }
  /// Pushes the values of the loop that `V`, a result seen after the loop,
  /// is made of: phis, selects and casts computed after the loop (the merge
  /// of a return) are walked back to what the loop and the code before it
  /// produced; a value computed after the loop is not an input of the loop.
  void pushResult(Value *V, const Context *C) {
    SmallVector<Value *, 8> Todo{V};
    SmallPtrSet<Value *, 16> Done;
    while (!Todo.empty()) {
      Value *X = Todo.pop_back_val();
      if (!Done.insert(X).second)
        continue;
      auto *I = dyn_cast<Instruction>(X);
      if (!I || L.contains(I) ||
          FA.DT->properlyDominates(I->getParent(), L.getHeader())) {
        push(X, C);
        continue;
      }
      if (auto *P = dyn_cast<PHINode>(I))
        Todo.append(P->op_begin(), P->op_end());
      else if (isa<SelectInst>(I) || isa<CastInst>(I))
        Todo.append(I->op_begin(), I->op_end());
    }
  }
  /// True if `I`, outside the loop, is computed before it (its block
  /// dominates the header) rather than on the way out.
  bool definedBefore(Instruction *I) const {
    return FA.DT->properlyDominates(I->getParent(), L.getHeader());
  }
  void addSource(Value *V, vp_redund_source_kind K, unsigned Depth) {
    auto It = Sources.insert({V, Found{K, Depth}}).first;
    It->second.In[Var] = true;
    if (Var == CrossIteration)
      It->second.Kind = K; // a carried source is carried in its own variant
  }
  const Context *calleeContext(Function *Callee, CallBase *Site,
                               const Context *C);
  void visit(Value *V, const Context *C);
  void visitLocalLoad(LoadInst *LdI, AllocaInst *A, const Context *C);
  void addControlDeps(BasicBlock *BB, const Context *C);
  void addCalleeEffects(Function &Callee, const Context *CC);
};

} // namespace

/// True if `A` is a local whose address is only loaded from and stored to:
/// its value flows through loads and stores we can follow.
static bool isPrivateLocal(const AllocaInst *A) {
  for (const User *U : A->users()) {
    if (isa<LoadInst>(U))
      continue;
    if (auto *S = dyn_cast<StoreInst>(U))
      if (S->getPointerOperand() == A)
        continue;
    if (auto *II = dyn_cast<IntrinsicInst>(U))
      if (II->isLifetimeStartOrEnd() || isa<DbgInfoIntrinsic>(II))
        continue;
    return false;
  }
  return true;
}

/// The local variable `Ptr` points to, if it is a private one.
static AllocaInst *privateLocalOf(Value *Ptr) {
  auto *A = dyn_cast<AllocaInst>(getUnderlyingObject(Ptr));
  return A && A->getAllocatedType()->isSingleValueType() && A == Ptr &&
                 isPrivateLocal(A)
             ? A
             : nullptr;
}

const Context *Slicer::calleeContext(Function *Callee, CallBase *Site,
                                     const Context *C) {
  if (Callee->isDeclaration() || C->Depth + 1 > MaxCalleeDepth)
    return nullptr;
  for (const Context *P = C; P; P = P->Parent)
    if (P->F == Callee)
      return nullptr; // recursion: the outer context already slices it
  Contexts.push_back(Context{Callee, Site, C, C->Depth + 1});
  return &Contexts.back();
}

/// Branches `BB` is control dependent on (Ferrante et al. through the
/// post-dominator tree): a branch T whose one successor `BB` post-dominates
/// while `BB` does not post-dominate T.  In the loop's function only branches
/// of the loop count, and not the loop's own exiting branches: they decide
/// whether an iteration happens, not what it computes.
void Slicer::addControlDeps(BasicBlock *BB, const Context *C) {
  if (!ControlDone.insert({BB, C}).second)
    return;
  Function *F = C->F;
  PostDominatorTree &PDT = C->Depth ? PDTOf(*F) : *FA.PDT;
  auto Consider = [&](BasicBlock *T) {
    auto *Br = T->getTerminator();
    if (Br->getNumSuccessors() < 2)
      return;
    if (!C->Depth && L.isLoopExiting(T))
      return;
    if (PDT.properlyDominates(BB, T))
      return;
    for (BasicBlock *S : successors(T))
      if (PDT.dominates(BB, S)) {
        push(Br, C);
        return;
      }
  };
  if (!C->Depth) {
    for (BasicBlock *T : L.blocks())
      Consider(T);
  } else {
    for (BasicBlock &T : *F)
      Consider(&T);
  }
}

/// A callee's own side effects and returned values feed the caller's.
void Slicer::addCalleeEffects(Function &Callee, const Context *CC) {
  for (BasicBlock &B : Callee)
    for (Instruction &I : B) {
      // A gate's call of the probed clone (and its ret) is not the
      // callee's work: the original body is.
      if (isProbeInstruction(I))
        continue;
      if (auto *R = dyn_cast<ReturnInst>(&I)) {
        if (Value *RV = R->getReturnValue())
          push(RV, CC);
        continue;
      }
      if (auto *S = dyn_cast<StoreInst>(&I)) {
        if (isa<AllocaInst>(getUnderlyingObject(S->getPointerOperand())))
          continue; // the callee's own frame
        push(S->getValueOperand(), CC);
        push(S->getPointerOperand(), CC);
        addControlDeps(&B, CC);
        continue;
      }
      if (auto *CB = dyn_cast<CallBase>(&I)) {
        // Calls that only read are reached through their users.
        if (!CB->onlyReadsMemory() && !isa<DbgInfoIntrinsic>(CB)) {
          push(CB, CC);
          addControlDeps(&B, CC);
        }
      }
    }
}

/// Follows a read of a private local variable to the stores that may
/// produce its value.  A store that dominates the read in the same iteration
/// is an ordinary data dependence; any other store reaches it from an
/// earlier iteration (or the read sees the value from before the loop): for
/// the cross-iteration variant the read is then a source, for the
/// cross-loop variant the slice goes on through the stored values.
void Slicer::visitLocalLoad(LoadInst *LdI, AllocaInst *A, const Context *C) {
  bool Dominated = false, Carried = false;
  for (User *U : A->users()) {
    auto *S = dyn_cast<StoreInst>(U);
    if (!S)
      continue;
    if (C->Depth) { // a callee's local: one call is one whole region
      push(S->getValueOperand(), C);
      addControlDeps(S->getParent(), C);
      continue;
    }
    if (!L.contains(S))
      continue;
    if (FA.DT->dominates(S, LdI)) {
      Dominated = true;
      push(S->getValueOperand(), C);
      addControlDeps(S->getParent(), C);
      continue;
    }
    Carried = true;
    if (Var == CrossLoop) {
      push(S->getValueOperand(), C);
      addControlDeps(S->getParent(), C);
    }
  }
  if (C->Depth)
    return;
  if (!Dominated && Var == CrossIteration && Carried)
    addSource(LdI, VP_SRC_CARRIED_LOAD, 0);
  else if (!Dominated)
    addSource(LdI, VP_SRC_OUTSIDE, 0); // initial value comes from outside
}

void Slicer::visit(Value *V, const Context *C) {
  if (auto *A = dyn_cast<Argument>(V)) {
    if (C->Depth && C->Site) { // a callee parameter: the caller's argument
      if (A->getArgNo() < C->Site->arg_size())
        push(C->Site->getArgOperand(A->getArgNo()), C->Parent);
      return;
    }
    addSource(A, VP_SRC_OUTSIDE, 0);
    return;
  }
  auto *I = dyn_cast<Instruction>(V);
  if (!I)
    return;
  if (!C->Depth && !L.contains(I) && definedBefore(I)) {
    addSource(I, VP_SRC_OUTSIDE, 0); // defined before the loop
    return;
  }
  // (Computed on the way out, e.g. the message of an error exit: its
  // inputs are what the loop produced.)
  addControlDeps(I->getParent(), C);

  if (auto *P = dyn_cast<PHINode>(I)) {
    if (!C->Depth && P->getParent() == L.getHeader() && Var == CrossIteration) {
      addSource(P, VP_SRC_CARRIED_PHI, 0); // the value of the last iteration
      return;
    }
    for (unsigned i = 0, e = P->getNumIncomingValues(); i != e; ++i) {
      push(P->getIncomingValue(i), C);
      BasicBlock *In = P->getIncomingBlock(i);
      if (Instruction *T = In->getTerminator())
        if (T->getNumSuccessors() > 1 && (C->Depth || L.contains(In)) &&
            !(!C->Depth && L.isLoopExiting(In) && P->getParent() == L.getHeader()))
          push(T, C);
      addControlDeps(In, C);
    }
    return;
  }

  if (auto *LdI = dyn_cast<LoadInst>(I)) {
    if (AllocaInst *A = privateLocalOf(LdI->getPointerOperand()))
      if (A->getFunction() == C->F) {
        visitLocalLoad(LdI, A, C);
        return;
      }
    // A statistics counter in a called function (`calls++`) feeds only
    // itself and differs in every call: not an input of the call's work,
    // as for recursion (docs/redundancy.md, "Repeated calls").
    if (C->Depth && isCounterUpdate(LdI))
      return;
    // A read of heap, global or argument memory: the slice stops here.
    addSource(LdI, C->Depth ? VP_SRC_CALLEE_LOAD : VP_SRC_LOAD, C->Depth);
    return;
  }

  if (auto *CB = dyn_cast<CallBase>(I)) {
    if (isa<DbgInfoIntrinsic>(CB))
      return;
    Function *Callee = CB->getCalledFunction();
    const Context *CC = Callee ? calleeContext(Callee, CB, C) : nullptr;
    if (CC) {
      addCalleeEffects(*Callee, CC);
      return;
    }
    // External, indirect or too deep: its result is read from outside the
    // slice, its arguments decide it.
    if (!CB->getType()->isVoidTy() &&
        !(CB->getCalledFunction() && CB->getCalledFunction()->isIntrinsic()))
      addSource(CB, C->Depth ? VP_SRC_CALLEE_LOAD : VP_SRC_CALL_RESULT,
                C->Depth);
    for (Value *Arg : CB->args())
      push(Arg, C);
    return;
  }

  if (auto *S = dyn_cast<StoreInst>(I)) {
    push(S->getValueOperand(), C);
    push(S->getPointerOperand(), C);
    return;
  }
  if (isa<AllocaInst>(I))
    return; // an address in the frame, not a value
  for (Value *Op : I->operands())
    push(Op, C);
}

void Slicer::run(Variant V, const LoopSideEffects &E) {
  Var = V;
  Seen.clear();
  ControlDone.clear();
  Contexts.clear();
  Contexts.push_back(Context{L.getHeader()->getParent(), nullptr, nullptr, 0});
  const Context *Root = &Contexts.front();
  for (const SideEffectSite &S : E.Sites) {
    Instruction *I = S.Inst;
    if (auto *CB = dyn_cast<CallBase>(I)) {
      // A defined callee is sliced inside; an external one by its
      // arguments (its own result is not an input of its effect).
      Function *Callee = CB->getCalledFunction();
      if (Callee && !Callee->isDeclaration())
        push(CB, Root);
      else
        for (Value *A : CB->args())
          push(A, Root);
      if (L.contains(CB))
        addControlDeps(CB->getParent(), Root);
      continue;
    }
    if (S.Kind == SiteKind::LiveOut || S.Kind == SiteKind::Return) {
      // Results: the value computed in the loop (or what the exit block
      // returns).  An exit-choice site is the exit block's first
      // instruction: which exit was taken depends on the exiting branches.
      // How many iterations ran decides a live-out value: the exiting
      // branches are part of its slice.
      SmallVector<BasicBlock *, 4> Exiting;
      L.getExitingBlocks(Exiting);
      for (BasicBlock *X : Exiting)
        push(X->getTerminator(), Root);
      if (auto *R = dyn_cast<ReturnInst>(I)) {
        if (Value *RV = R->getReturnValue())
          pushResult(RV, Root);
      } else if (L.contains(I)) {
        push(I, Root);
      } else {
        for (PHINode &P : I->getParent()->phis())
          for (unsigned i = 0, e = P.getNumIncomingValues(); i != e; ++i)
            if (L.contains(P.getIncomingBlock(i)))
              pushResult(P.getIncomingValue(i), Root);
      }
      continue;
    }
    push(I, Root);
  }
  while (!Work.empty()) {
    auto [Val, C] = Work.pop_back_val();
    visit(Val, C);
  }
}

/// True if some instruction of `Blocks` may write the memory `Ptr` points
/// into (any offset: the whole underlying object).
template <typename BlockRange>
static bool regionMayWrite(BlockRange &&Blocks, Value *Ptr, AAResults &AA) {
  MemoryLocation Loc = MemoryLocation::getBeforeOrAfter(getUnderlyingObject(Ptr));
  for (BasicBlock &B : Blocks)
    for (Instruction &I : B)
      if (I.mayWriteToMemory() && !isProbeInstruction(I) &&
          isModSet(AA.getModRefInfo(&I, Loc)))
        return true;
  return false;
}

/// The load's address does not change in `L` and no write of `L` may clobber
/// it: the value is the same in every iteration.  MemorySSA's walker gives
/// the clobbering access; outside the loop (or live-on-entry) proves it.
static bool isInvariantLoad(LoadInst *LdI, Loop &L, const FunctionAnalyses &FA) {
  Value *Ptr = LdI->getPointerOperand();
  if (!L.isLoopInvariant(Ptr) &&
      !FA.SE->isLoopInvariant(FA.SE->getSCEV(Ptr), &L))
    return false;
  MemoryAccess *MA = FA.MSSA->getMemoryAccess(LdI);
  if (!MA)
    return false;
  MemorySSAWalker *W = FA.MSSA->getWalker();
  MemoryAccess *Clobber = W->getClobberingMemoryAccess(MA);
  // Another pass's counters (loopclass's, in its clone) write only
  // runtime-owned memory: look past them.
  MemoryLocation Loc = MemoryLocation::get(LdI);
  for (unsigned N = 0; N < 16; ++N) {
    auto *Def = dyn_cast<MemoryDef>(Clobber);
    if (!Def || !Def->getMemoryInst() ||
        !isProbeInstruction(*Def->getMemoryInst()))
      break;
    Clobber = W->getClobberingMemoryAccess(Def->getDefiningAccess(), Loc);
  }
  return FA.MSSA->isLiveOnEntryDef(Clobber) ||
         !L.contains(Clobber->getBlock());
}

/// The load's address is an affine recurrence of `L` over memory that the
/// loop's function never writes: the addresses of one instance are
/// determined by its first and last, and so are the values read.  (Not
/// only the outermost loop: consecutive instances may be in different
/// calls, and a buffer the function fills before the loop, such as a
/// local array refilled on every call, has new contents at the same
/// addresses.)
static bool isAffineRangeLoad(LoadInst *LdI, Loop &L, const FunctionAnalyses &FA) {
  // Only inside an enclosing loop (LDoctor's setting: the instances
  // compared run in one outer instance).  The instances of an outermost
  // loop are in different calls, between which other code may rewrite
  // the memory at the same addresses (a page buffer checksummed after
  // every write): equal ranges would claim equal values.
  if (!L.getParentLoop())
    return false;
  Value *Ptr = LdI->getPointerOperand();
  const auto *AR = dyn_cast<SCEVAddRecExpr>(FA.SE->getSCEV(Ptr));
  if (!AR || AR->getLoop() != &L || !AR->isAffine())
    return false;
  return !regionMayWrite(*L.getHeader()->getParent(), Ptr, *FA.AA);
}

/// A loop-carried value that ScalarEvolution sees as an affine recurrence of
/// `L` with a non-zero step changes in every iteration.
static bool isInductionOf(Value *V, Loop &L, ScalarEvolution &SE) {
  if (!SE.isSCEVable(V->getType()))
    return false;
  const auto *AR = dyn_cast<SCEVAddRecExpr>(SE.getSCEV(V));
  return AR && AR->getLoop() == &L && AR->isAffine() &&
         !AR->getStepRecurrence(SE)->isZero();
}

static std::pair<unsigned, unsigned> locationOf(Value *V) {
  auto *I = dyn_cast<Instruction>(V);
  if (!I) {
    if (auto *A = dyn_cast<Argument>(V))
      if (DISubprogram *SP = A->getParent()->getSubprogram())
        return {SP->getLine(), 0};
    return {0, 0};
  }
  if (isa<PHINode>(I))
    I = I->getParent()->getFirstNonPHIOrDbg();
  for (auto It = I->getIterator(), E = I->getParent()->end(); It != E; ++It)
    if (const DebugLoc &DL = It->getDebugLoc())
      if (DL.getLine())
        return {DL.getLine(), DL.getCol()};
  return {0, 0};
}

static std::string functionNameOf(Value *V) {
  Function *F = nullptr;
  if (auto *I = dyn_cast<Instruction>(V))
    F = I->getFunction();
  else if (auto *A = dyn_cast<Argument>(V))
    F = A->getParent();
  if (!F)
    return "";
  if (DISubprogram *SP = F->getSubprogram())
    return SP->getName().str();
  return F->getName().str();
}

/// True if some I/O call of the loop body runs in every iteration (its block
/// dominates every latch; loopclass's test) and every in-body side effect
/// is an I/O call.
static bool ioEveryIteration(Loop &L, const LoopSideEffects &E,
                             DominatorTree &DT) {
  bool Every = false;
  for (const SideEffectSite &S : E.Sites) {
    if (!S.InBody)
      continue;
    if (!ModRefSummary::isIOFunction(S.Callee))
      return false;
    Every |= runsInEveryIteration(S.block(), L, DT);
  }
  return Every;
}

/// True if every in-body side effect of `L` writes one location that stays
/// the same for the whole instance: a live-out or returned value (one
/// variable), or a store to a loop-invariant address.  Then each instance
/// writes a constant number of locations, whatever the number of writes
/// (LDoctor 3.2.6: constant -> memoization).  Calls write locations the
/// pass does not see.
static bool fixedWriteLocations(Loop &L, const LoopSideEffects &E,
                                ScalarEvolution *SE) {
  bool Any = false;
  for (const SideEffectSite &S : E.Sites) {
    if (!S.InBody)
      continue;
    Any = true;
    if (S.Kind == SiteKind::LiveOut || S.Kind == SiteKind::Return)
      continue;
    auto *St = dyn_cast<StoreInst>(S.Inst);
    if (S.Kind != SiteKind::Store || !St)
      return false;
    Value *P = St->getPointerOperand();
    if (L.isLoopInvariant(P))
      continue;
    if (!SE || !SE->isSCEVable(P->getType()) || !SE->isLoopInvariant(SE->getSCEV(P), &L))
      return false;
  }
  return Any;
}

unsigned recordWords(Type *Ty) {
  uint64_t Words = 0;
  if (Ty->isPointerTy()) {
    Words = 1;
  } else if (Ty->isIntegerTy() || Ty->isFloatingPointTy()) {
    Words = (Ty->getPrimitiveSizeInBits().getFixedSize() + 63) / 64;
  } else if (auto *VT = dyn_cast<FixedVectorType>(Ty)) {
    Words = (uint64_t)VT->getNumElements() * recordWords(VT->getElementType());
  } else if (auto *AT = dyn_cast<ArrayType>(Ty)) {
    Words = AT->getNumElements() * recordWords(AT->getElementType());
  } else if (auto *ST = dyn_cast<StructType>(Ty); ST && !ST->isOpaque()) {
    for (Type *E : ST->elements()) {
      unsigned W = recordWords(E);
      if (!W)
        return 0;
      Words += W;
    }
  }
  return Words <= kMaxRecordWords ? (unsigned)Words : 0;
}

/// A store's source position (file, line, column), the same in every copy
/// the optimiser makes of it (inlined, unrolled, cloned by a probe pass).
using StorePlace = std::tuple<StringRef, unsigned, unsigned>;
static Optional<StorePlace> placeOf(const Instruction &I) {
  const DebugLoc &DL = I.getDebugLoc();
  if (!DL || !DL.getLine())
    return None;
  auto *Scope = cast<DIScope>(DL.getScope());
  return StorePlace{Scope->getFilename(), DL.getLine(), DL.getCol()};
}

/// True if every write of `GV` in the module is a store at one of
/// `Places` (the loop's own stores, wherever the optimiser copied them),
/// and its address goes nowhere a write could come from: it is only
/// loaded from, stored to, compared, or offset (GEP, cast, phi, select).
/// A call that takes it (memset, a function filling it), a store of the
/// address itself or a cast to an integer ends the search: that code may
/// write it.
static bool writtenOnlyAt(GlobalVariable &GV,
                          const SmallVectorImpl<StorePlace> &Places) {
  SmallVector<const Value *, 16> Work{&GV};
  SmallPtrSet<const Value *, 16> Seen{&GV};
  while (!Work.empty()) {
    const Value *P = Work.pop_back_val();
    for (const User *U : P->users()) {
      if (isa<LoadInst>(U) || isa<ICmpInst>(U))
        continue;
      if (const auto *St = dyn_cast<StoreInst>(U)) {
        if (St->getValueOperand() == P)
          return false; // the address is stored: written elsewhere
        Optional<StorePlace> At = placeOf(*St);
        if (!At || !is_contained(Places, *At))
          return false;
        continue;
      }
      bool Offset = isa<GEPOperator>(U) || isa<BitCastOperator>(U) ||
                    isa<PHINode>(U) || isa<SelectInst>(U) ||
                    isa<AddrSpaceCastOperator>(U);
      if (!Offset)
        return false;
      if (Seen.insert(U).second)
        Work.push_back(U);
    }
  }
  return true;
}

/// The first global of constant work (VP_REDF_CL_CONST), or null: every
/// side effect of `L` is a store in the loop to a module-private global
/// that nothing else writes, or a value the loop leaves behind (live-out
/// or returned).  The caller has checked that the cross-loop slice found
/// no source, so what the stores write, where, and the values left
/// behind, come from constants and the iteration count alone: an instance
/// writes again what the one before it wrote.
static GlobalVariable *constantWorkObject(Loop &L, const LoopSideEffects &E) {
  SmallVector<std::pair<StoreInst *, GlobalVariable *>, 4> Stores;
  for (const SideEffectSite &S : E.Sites) {
    if (S.Kind == SiteKind::LiveOut || S.Kind == SiteKind::Return)
      continue;
    auto *St = dyn_cast<StoreInst>(S.Inst);
    if (S.Kind != SiteKind::Store || !St || !L.contains(St))
      return nullptr;
    auto *GV = dyn_cast<GlobalVariable>(
        getUnderlyingObject(St->getPointerOperand(), 0));
    if (!GV || !GV->hasLocalLinkage() || GV->isConstant())
      return nullptr;
    Stores.push_back({St, GV});
  }
  if (Stores.empty())
    return nullptr;
  SmallVector<StorePlace, 4> Places;
  for (auto &[St, GV] : Stores) {
    Optional<StorePlace> At = placeOf(*St);
    if (!At)
      return nullptr;
    Places.push_back(*At);
  }
  for (auto &[St, GV] : Stores)
    if (!writtenOnlyAt(*GV, Places))
      return nullptr;
  return Stores.front().second;
}

/// A global's name as its source spells it (a function's static keeps its
/// own name, not the `fn.name` of the IR), never empty.
static std::string sourceNameOf(GlobalVariable &GV) {
  if (DIVariable *Var = findVariableOf(&GV); Var && !Var->getName().empty())
    return Var->getName().str();
  return GV.hasName() ? GV.getName().str() : "a static variable";
}

/// The loop's strided accesses (docs/vprof-loop.md, "Strided walks"): the
/// loads and stores of `L`'s own blocks whose address is an affine
/// recurrence of `L` stepping by a loop-invariant amount that is not a
/// constant below a cache line (or within the access itself), at most
/// VP_RED_STRIDES_PER_LOOP, one per source position.  Each is a source of
/// its own kind: a constant step is kept in the table; otherwise (for
/// `a[i * n + j]` the step is known only at run time), if `Recorded` (the
/// loop's instances are recorded for their values), a recorded instance
/// keeps its addresses as a range, from which the report reads the step.
static void addStrideSources(Loop &L, const FunctionAnalyses &FA, LoopSources &LS,
                             bool Recorded) {
  const DataLayout &Layout = L.getHeader()->getModule()->getDataLayout();
  struct Access {
    Instruction *I;
    const SCEVAddRecExpr *AR;
    uint64_t Size;
  };
  SmallVector<Access, 16> Walks; // the affine accesses of L's own blocks
  for (BasicBlock *BB : L.blocks()) {
    if (FA.LI->getLoopFor(BB) != &L)
      continue;
    for (Instruction &I : *BB) {
      auto *LdI = dyn_cast<LoadInst>(&I);
      auto *StI = dyn_cast<StoreInst>(&I);
      if ((!LdI || !LdI->isSimple()) && (!StI || !StI->isSimple()))
        continue;
      if (isProbeInstruction(I))
        continue;
      Value *Ptr = getLoadStorePointerOperand(&I);
      if (!FA.SE->isSCEVable(Ptr->getType()))
        continue;
      const auto *AR = dyn_cast<SCEVAddRecExpr>(FA.SE->getSCEV(Ptr));
      TypeSize Size = Layout.getTypeStoreSize(getLoadStoreType(&I));
      if (!AR || AR->getLoop() != &L || !AR->isAffine() || Size.isScalable())
        continue;
      const SCEV *Step = AR->getStepRecurrence(*FA.SE);
      if (Step->isZero() || !FA.SE->isLoopInvariant(Step, &L))
        continue;
      Walks.push_back({&I, AR, Size.getFixedSize()});
    }
  }
  // A constant step that the loop's accesses with the same step and base
  // fill at least half of is a dense walk, unrolled or vectorized (four
  // 16-byte vector loads at 0, 16, 32, 48 stepping 64 bytes): not strided.
  auto Dense = [&](const Access &A, uint64_t Step) {
    SmallVector<std::pair<uint64_t, uint64_t>, 8> Parts; // [from, to) in [0, Step)
    for (const Access &B : Walks) {
      if (B.AR->getStepRecurrence(*FA.SE) != A.AR->getStepRecurrence(*FA.SE) ||
          B.AR->getStart()->getType() != A.AR->getStart()->getType())
        continue;
      const auto *D = dyn_cast<SCEVConstant>(
          FA.SE->getMinusSCEV(B.AR->getStart(), A.AR->getStart()));
      if (!D || D->getAPInt().getMinSignedBits() > 64)
        continue;
      int64_t Off = D->getAPInt().getSExtValue() % (int64_t)Step;
      uint64_t From = Off < 0 ? (uint64_t)(Off + (int64_t)Step) : (uint64_t)Off;
      Parts.push_back({From, std::min(From + B.Size, Step)});
    }
    llvm::sort(Parts);
    uint64_t Covered = 0, End = 0;
    for (auto [From, To] : Parts) {
      From = std::max(From, End);
      if (To > From) {
        Covered += To - From;
        End = To;
      }
    }
    return 2 * Covered >= Step;
  };
  SmallVector<std::pair<unsigned, unsigned>, VP_RED_STRIDES_PER_LOOP> Seen;
  for (const Access &A : Walks) {
    if (Seen.size() == VP_RED_STRIDES_PER_LOOP)
      return;
    Instruction &I = *A.I;
    const DebugLoc &DL = I.getDebugLoc();
    if (!DL || !DL.getLine())
      continue;
    int64_t Constant = 0;
    if (const auto *C = dyn_cast<SCEVConstant>(A.AR->getStepRecurrence(*FA.SE))) {
      const APInt &V = C->getAPInt();
      if (V.getMinSignedBits() > 33) // the table holds 32 bits of it
        continue;
      uint64_t Abs = V.abs().getZExtValue();
      if (Abs < 64 || Abs <= A.Size || Dense(A, Abs))
        continue;
      Constant = V.getSExtValue();
    }
    if (!Constant && !Recorded)
      continue;
    std::pair<unsigned, unsigned> At{DL.getLine(), DL.getCol()};
    if (is_contained(Seen, At))
      continue;
    SourceInfo SI;
    SI.V = &I;
    SI.Kind = VP_SRC_STRIDE;
    SI.Line = At.first;
    SI.Column = At.second;
    SI.Function = functionNameOf(&I);
    SI.Id = VP_RED_SRC_STRIDE_BIT | (uint32_t)Seen.size();
    // a constant step is in the table: nothing to record
    SI.ConstantStride = Constant;
    SI.CL = Constant ? VP_SRCD_NONE : VP_SRCD_RANGE;
    LS.Sources.push_back(std::move(SI));
    Seen.push_back(At);
    ++NumStrides;
  }
}

LoopSources
findLoopSources(Loop &L, const LoopSideEffects &E, const FunctionAnalyses &FA,
                function_ref<PostDominatorTree &(Function &)> PDTOf,
                DenseMap<Value *, uint32_t> &CalleeIds) {
  LoopSources LS;
  Slicer S(L, FA, PDTOf);
  S.run(CrossIteration, E);
  S.run(CrossLoop, E);

  for (const SideEffectSite &Site : E.Sites) {
    if (!Site.InBody || !L.contains(Site.Inst))
      continue;
    LS.SideEffects.push_back(Site.Inst);
    const DebugLoc &DL = Site.Inst->getDebugLoc();
    LS.SideEffectLocs.push_back({DL ? DL.getLine() : 0, DL ? DL.getCol() : 0});
    if (FA.LI->getLoopFor(Site.Inst->getParent()) != &L)
      LS.SideEffectInInner = true;
  }
  LS.IOEveryIteration = ioEveryIteration(L, E, *FA.DT);
  LS.FixedWriteLocations = fixedWriteLocations(L, E, FA.SE);

  uint32_t NextId = 0;
  for (auto &[V, Found] : S.Sources) {
    SourceInfo SI;
    SI.V = V;
    SI.Kind = Found.Kind;
    SI.Depth = Found.Depth;
    std::tie(SI.Line, SI.Column) = locationOf(V);
    SI.Function = functionNameOf(V);
    if (SI.Depth) {
      auto Ins = CalleeIds.insert({V, 0x80000000u | CalleeIds.size()});
      SI.Id = Ins.first->second;
    } else {
      SI.Id = NextId++;
    }
    bool Wide = recordWords(V->getType()) == 0;

    // Cross-iteration: outside values are the same in every iteration of an
    // instance; invariant loads too; an induction variable ends the story.
    if (Found.In[CrossIteration]) {
      SI.CI = VP_SRCD_RECORD;
      if (SI.Kind == VP_SRC_OUTSIDE)
        SI.CI = VP_SRCD_OUTSIDE;
      else if (auto *LdI = dyn_cast<LoadInst>(V);
               LdI && !SI.Depth && L.contains(LdI) && isInvariantLoad(LdI, L, FA)) {
        SI.CI = VP_SRCD_INVARIANT;
        ++NumPrunedInvariant;
      } else if (SI.Kind == VP_SRC_CARRIED_PHI && isInductionOf(V, L, *FA.SE)) {
        SI.CI = VP_SRCD_IV;
        if (!LS.IVSource)
          LS.IVLine = SI.Line;
        LS.IVSource = true;
      }
      if (Wide && SI.CI == VP_SRCD_RECORD)
        SI.CI = VP_SRCD_UNSUPPORTED;
    }
    // Cross-loop: values from before the loop once per instance; an affine
    // walk over unwritten memory as its address range.
    // A source computed on the way out (after the last iteration) has no
    // value in the iterations, and none in the preheader either.
    if (auto *I = dyn_cast<Instruction>(V);
        I && !SI.Depth && !L.contains(I) &&
        !FA.DT->properlyDominates(I->getParent(), L.getHeader())) {
      SI.CI = SI.CL = VP_SRCD_NONE;
      LS.Sources.push_back(std::move(SI));
      ++NumSources;
      continue;
    }
    if (Found.In[CrossLoop]) {
      SI.CL = VP_SRCD_RECORD;
      if (auto *I = dyn_cast<Instruction>(V); !I || (!SI.Depth && !L.contains(I)))
        SI.CL = VP_SRCD_ONCE;
      else if (auto *LdI = dyn_cast<LoadInst>(V);
               LdI && !SI.Depth && isAffineRangeLoad(LdI, L, FA)) {
        SI.CL = VP_SRCD_RANGE;
        ++NumRanges;
      }
      if (Wide && (SI.CL == VP_SRCD_RECORD || SI.CL == VP_SRCD_ONCE))
        SI.CL = VP_SRCD_UNSUPPORTED;
    }
    LS.Sources.push_back(std::move(SI));
    ++NumSources;
  }
  // Where an affine walk starts is already in what it reads (a range's
  // first address, or the values read from there on): an outside pointer
  // that starts such a walk would make every instance differ when a scan
  // restarts one element further (strend(pos), strend(pos + 1):
  // MySQL#15811), though it re-reads the same memory.
  SmallVector<const SCEV *, 4> RangeStarts;
  for (const SourceInfo &SI : LS.Sources)
    if (SI.CL == VP_SRCD_RANGE || SI.CL == VP_SRCD_RECORD)
      if (auto *LdI = dyn_cast<LoadInst>(SI.V); LdI && L.contains(LdI))
        if (auto *AR = dyn_cast<SCEVAddRecExpr>(
                FA.SE->getSCEV(LdI->getPointerOperand()));
            AR && AR->getLoop() == &L && AR->isAffine())
          RangeStarts.push_back(AR->getStart());
  for (SourceInfo &SI : LS.Sources) {
    if (SI.CL != VP_SRCD_ONCE || !FA.SE->isSCEVable(SI.V->getType()))
      continue;
    const SCEV *V = FA.SE->getSCEV(SI.V);
    if (any_of(RangeStarts, [&](const SCEV *Start) {
          return V->getType() == Start->getType() &&
                 isa<SCEVConstant>(FA.SE->getMinusSCEV(Start, V));
        }))
      SI.CL = VP_SRCD_NONE;
  }

  // No source at all in the cross-loop slice: the loop reads no input.
  if (none_of(S.Sources, [](const auto &KV) { return KV.second.In[CrossLoop]; }))
    if (GlobalVariable *GV = constantWorkObject(L, E)) {
      LS.ConstantObject = sourceNameOf(*GV);
      ++NumConstantWork;
    }

  // A step known only at run time only in a loop whose instances are
  // recorded anyway: a stride alone would make recorded instances of loops
  // that have no value to compare.
  addStrideSources(L, FA, LS, any_of(LS.Sources, [](const SourceInfo &SI) {
                     return SI.CL == VP_SRCD_RECORD || SI.CL == VP_SRCD_RANGE;
                   }));

  if (LS.IVSource) {
    ++NumIVLoops;
    for (SourceInfo &SI : LS.Sources)
      if (SI.CI == VP_SRCD_RECORD)
        SI.CI = VP_SRCD_IV; // nothing is recorded for this loop
  }
  return LS;
}

const char *sourceKindName(vp_redund_source_kind K) {
  switch (K) {
  case VP_SRC_LOAD:
    return "load";
  case VP_SRC_CARRIED_PHI:
    return "carried-phi";
  case VP_SRC_CARRIED_LOAD:
    return "carried-load";
  case VP_SRC_OUTSIDE:
    return "outside";
  case VP_SRC_CALL_RESULT:
    return "call-result";
  case VP_SRC_CALLEE_LOAD:
    return "callee-load";
  case VP_SRC_STRIDE:
    return "stride";
  case VP_SRC_VIA:
    return "via";
  }
  return "?";
}

const char *decisionName(vp_redund_decision D) {
  switch (D) {
  case VP_SRCD_NONE:
    return "-";
  case VP_SRCD_RECORD:
    return "record";
  case VP_SRCD_INVARIANT:
    return "pruned-invariant";
  case VP_SRCD_OUTSIDE:
    return "pruned-outside";
  case VP_SRCD_IV:
    return "iv";
  case VP_SRCD_RANGE:
    return "range";
  case VP_SRCD_ONCE:
    return "once";
  case VP_SRCD_UNSUPPORTED:
    return "unsupported";
  }
  return "?";
}

} // namespace vprof

namespace vprof {

/// True if `LdI` only feeds its own update, `*p = *p + c` (a statistics
/// counter such as `calls++`): the count is the call's side effect, not an
/// input of its work, and it differs in every call.
static bool isCounterUpdate(LoadInst *LdI) {
  if (!LdI->hasOneUse())
    return false;
  auto *Op = dyn_cast<BinaryOperator>(LdI->user_back());
  if (!Op || !Op->hasOneUse() || !isa<Constant>(Op->getOperand(1)) ||
      (Op->getOpcode() != Instruction::Add &&
       Op->getOpcode() != Instruction::Sub))
    return false;
  auto *St = dyn_cast<StoreInst>(Op->user_back());
  return St && St->getValueOperand() == Op &&
         St->getPointerOperand() == LdI->getPointerOperand();
}

LoopSources findRecursionSources(Function &F) {
  LoopSources LS;
  auto Add = [&](Value *V, vp_redund_source_kind K) {
    SourceInfo SI;
    SI.V = V;
    SI.Kind = K;
    std::tie(SI.Line, SI.Column) = locationOf(V);
    SI.Function = functionNameOf(V);
    SI.Id = LS.Sources.size();
    SI.CI = recordWords(V->getType()) ? VP_SRCD_RECORD : VP_SRCD_UNSUPPORTED;
    SI.CL = VP_SRCD_NONE;
    LS.Sources.push_back(std::move(SI));
    ++NumSources;
  };
  for (Argument &A : F.args())
    Add(&A, VP_SRC_OUTSIDE);
  for (Instruction &I : instructions(F)) {
    auto *LdI = dyn_cast<LoadInst>(&I);
    if (!LdI || isProbeInstruction(I))
      continue;
    // The frame is private to the call (at -O0 the arguments live there).
    if (isa<AllocaInst>(getUnderlyingObject(LdI->getPointerOperand())))
      continue;
    if (isCounterUpdate(LdI))
      continue;
    Add(LdI, VP_SRC_LOAD);
  }
  return LS;
}

} // namespace vprof
