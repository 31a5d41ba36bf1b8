//===- LoopClassify.cpp - static resultless class of every loop ----------===//
//
// Decides, for every natural loop and directly recursive function, LDoctor's
// static resultless class (paper section 3.1.1) from its side-effect
// instructions: 0* (none), 1* (on every iteration), [0|1]* (avoidable, in the
// body) or 0*1? (only on the way out).  Results are plain data so that the
// probe and table passes can use them after the IR changes.
//
//===----------------------------------------------------------------------===//

#include "LoopclassPasses.h"
#include "vprof/LoopIds.h"

#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/Statistic.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/InlineAsm.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/PostDominators.h"
#include "llvm/Analysis/ScalarEvolution.h"
#include "llvm/Analysis/ScalarEvolutionExpressions.h"
#include "llvm/IR/DebugInfoMetadata.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/InstrTypes.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/Debug.h"

#include <algorithm>
#include <tuple>

#define DEBUG_TYPE "vprof-loopclass"

using namespace llvm;

STATISTIC(NumLoops, "Number of natural loops classified");
STATISTIC(NumRecursions, "Number of recursive functions classified");
STATISTIC(NumZeroStar, "Number of 0* loops");
STATISTIC(NumZeroStarOne, "Number of 0*1? loops");
STATISTIC(NumZeroOrOne, "Number of [0|1]* loops");
STATISTIC(NumOneStar, "Number of 1* loops");
STATISTIC(NumIndirectDependent, "Loops whose class depends on calls through pointers");

namespace vprof {

AnalysisKey LoopClassAnalysis::Key;

bool LoopClassInfo::invalidate(Module &, const PreservedAnalyses &PA,
                               ModuleAnalysisManager::Invalidator &) {
  auto PAC = PA.getChecker<LoopClassAnalysis>();
  return !PAC.preserved() && !PAC.preservedSet<AllAnalysesOn<Module>>();
}

const char *loopClassName(vp_loop_class C) {
  switch (C) {
  case VP_CLASS_ZERO_STAR:
    return "0*";
  case VP_CLASS_ZERO_STAR_ONE:
    return "0*1?";
  case VP_CLASS_ZERO_OR_ONE:
    return "[0|1]*";
  case VP_CLASS_ONE_STAR:
    return "1*";
  }
  return "?";
}

/// True if some path from the header back to the header avoids every block
/// in `Blocks`.  This assumes `Blocks` are blocks of `L`.
static bool hasIterationAvoiding(const Loop &L,
                                 const SmallPtrSetImpl<BasicBlock *> &Blocks) {
  BasicBlock *Header = L.getHeader();
  if (Blocks.count(Header))
    return false;
  SmallPtrSet<BasicBlock *, 32> Seen;
  SmallVector<BasicBlock *, 16> Work{Header};
  while (!Work.empty()) {
    BasicBlock *B = Work.pop_back_val();
    for (BasicBlock *S : successors(B)) {
      if (S == Header)
        return true;
      if (!L.contains(S) || Blocks.count(S) || !Seen.insert(S).second)
        continue;
      Work.push_back(S);
    }
  }
  return false;
}

/// LDoctor's classification of a natural loop: no side effect is 0*; a
/// side-effect block on every header-to-header path is 1*; avoidable
/// side-effect blocks in the body are [0|1]*; results only on the way out
/// (exit-path blocks, live-out cursor, exit choice) are 0*1?.
static vp_loop_class classifyLoop(const Loop &L, const LoopSideEffects &E) {
  if (E.BodyBlocks.empty())
    return E.Sites.empty() ? VP_CLASS_ZERO_STAR : VP_CLASS_ZERO_STAR_ONE;
  return hasIterationAvoiding(L, E.BodyBlocks) ? VP_CLASS_ZERO_OR_ONE
                                               : VP_CLASS_ONE_STAR;
}

/// Whether `S` is a call through a pointer, whose probe counts a result
/// only for a callee not known to write nothing.
static bool isIndirectSite(const SideEffectSite &S) {
  auto *CB = dyn_cast<CallBase>(S.Inst);
  return S.Kind == SiteKind::Indirect && CB && !CB->isInlineAsm();
}

/// Body blocks whose only in-body results are selects that keep the old
/// value on one arm (SideEffectSite::KeepsOld), with those selects; with
/// `WithIndirect`, also those that have calls through pointers besides.
static MapVector<BasicBlock *, LoopRecord::KeepSelects>
keepOrUpdateBlocks(const LoopSideEffects &E, bool WithIndirect = false) {
  MapVector<BasicBlock *, LoopRecord::KeepSelects> Sel;
  SmallPtrSet<BasicBlock *, 8> Other;
  for (const SideEffectSite &S : E.Sites) {
    if (!S.InBody)
      continue;
    BasicBlock *B = S.block();
    if (S.KeepsOld)
      Sel[B].push_back({cast<SelectInst>(S.Inst), S.KeepsOnTrue});
    else if (!WithIndirect || !isIndirectSite(S))
      Other.insert(B);
  }
  for (BasicBlock *B : Other)
    Sel.erase(B);
  return Sel;
}

/// The class of the source loop when the compiler turned `if (c) m = x;`
/// into `m = c ? x : m` (docs/loopclass.md, "Selects"): a block whose only
/// results are such selects is a result only in the iterations that update,
/// like the branch it was, so it makes the loop [0|1]* unless another
/// block has a result on every path (1*).
static vp_loop_class classifySource(const Loop &L, const LoopSideEffects &E) {
  auto Sel = keepOrUpdateBlocks(E);
  if (Sel.empty())
    return classifyLoop(L, E);
  LoopSideEffects E2 = E;
  E2.Sites.clear();
  for (const SideEffectSite &S : E.Sites)
    if (!(S.InBody && Sel.count(S.block())))
      E2.Sites.push_back(S);
  for (auto &KV : Sel)
    E2.BodyBlocks.erase(KV.first);
  vp_loop_class C = classifyLoop(L, E2);
  return C == VP_CLASS_ONE_STAR ? C : VP_CLASS_ZERO_OR_ONE;
}

/// Calls through pointers (docs/loopclass.md, "Calls through pointers"):
/// the body blocks whose only side effects are such calls.  When the class
/// without them differs, the loop gets VP_LOOPF_INDIRECT, that class, and
/// the blocks with their calls, whose probes then count a result only for a
/// callee not registered as writing nothing.
static void splitIndirect(LoopRecord &Rec, const Loop &L, const LoopSideEffects &E) {
  MapVector<BasicBlock *, std::vector<CallBase *>> Calls;
  SmallPtrSet<BasicBlock *, 8> Direct;
  for (const SideEffectSite &S : E.Sites) {
    if (!S.InBody)
      continue;
    BasicBlock *B = S.block();
    if (isIndirectSite(S))
      Calls[B].push_back(cast<CallBase>(S.Inst));
    else if (!S.KeepsOld) /* a select's block is no result of its own */
      Direct.insert(B);
  }
  LoopSideEffects E2 = E;
  E2.Sites.clear();
  for (const SideEffectSite &S : E.Sites)
    if (!(S.InBody && isIndirectSite(S) && !Direct.count(S.block())))
      E2.Sites.push_back(S);
  for (auto &[B, CBs] : Calls)
    if (!Direct.count(B) && none_of(E2.Sites, [B = B](const SideEffectSite &S) {
          return S.InBody && S.block() == B;
        }))
      E2.BodyBlocks.erase(B);
  vp_loop_class C = classifySource(L, E2);
  if (C == Rec.Class)
    return;
  Rec.Flags |= VP_LOOPF_INDIRECT;
  Rec.DirectClass = C;
  for (auto &[B, CBs] : Calls)
    if (!Direct.count(B))
      Rec.IndirectOnly.push_back({B, CBs});
  ++NumIndirectDependent;
}

/// The functions a call through a pointer may reach that write nothing a
/// caller can see: defined here, address-taken (or visible to other modules,
/// which may take it), summary WE_None; and the known-pure C library
/// functions whose address is taken here (strcmp as a comparator).
static std::vector<Function *> pureFunctions(Module &M, const ModRefSummary &S) {
  std::vector<Function *> Out;
  for (Function &F : M) {
    if (F.isIntrinsic() || F.getName().startswith("__vprof") ||
        F.getName().contains(".vprof_") || F.hasAvailableExternallyLinkage())
      continue;
    if (F.isDeclaration()) {
      if (ModRefSummary::isKnownPure(F.getName()) && F.hasAddressTaken())
        Out.push_back(&F);
      continue;
    }
    if ((F.hasAddressTaken() || !F.hasLocalLinkage()) && S.effectOf(F) == WE_None)
      Out.push_back(&F);
  }
  return Out;
}

/// The same rule for recursion, one call being one iteration: 1* when every
/// path from the entry to a return passes a side-effect block.
static vp_loop_class classifyRecursion(Function &F, const LoopSideEffects &E) {
  if (E.BodyBlocks.empty())
    return E.Sites.empty() ? VP_CLASS_ZERO_STAR : VP_CLASS_ZERO_STAR_ONE;
  BasicBlock *Entry = &F.getEntryBlock();
  if (E.BodyBlocks.count(Entry))
    return VP_CLASS_ONE_STAR;
  SmallPtrSet<BasicBlock *, 32> Seen{Entry};
  SmallVector<BasicBlock *, 16> Work{Entry};
  while (!Work.empty()) {
    BasicBlock *B = Work.pop_back_val();
    if (isa<ReturnInst>(B->getTerminator()))
      return VP_CLASS_ZERO_OR_ONE;
    for (BasicBlock *S : successors(B))
      if (!E.BodyBlocks.count(S) && Seen.insert(S).second)
        Work.push_back(S);
  }
  return VP_CLASS_ONE_STAR;
}

/// The frame a loop's sites are reported in: its subprogram, and where
/// that was inlined (null: not inlined).
struct SiteFrame {
  const DISubprogram *SP = nullptr;
  const DILocation *InlinedAt = nullptr;
};

/// `DL`, or the call in `Fr` that it was inlined through: a side effect in
/// a callee inlined into the loop is reported at the loop's own call line,
/// in the loop's file (before 2026-11-24 it kept the callee's line, and
/// vprof-loop quoted that line number from the loop's file: "the side
/// effect at line 264 cannot run: `{`" in an std::__heap_select loop whose
/// store was in stl_heap.h).
static const DILocation *inFrame(const DILocation *DL, const SiteFrame &Fr) {
  if (!Fr.SP)
    return DL;
  for (const DILocation *D = DL; D; D = D->getInlinedAt())
    if (D->getScope()->getSubprogram() == Fr.SP && D->getInlinedAt() == Fr.InlinedAt)
      return D;
  return DL;
}

/// Line and column of `I`, or of the next instruction of its block that has
/// a location (phis and some generated code have none), or of a user of `I`
/// (a live-out phi merging values at the end of a block); in frame `Fr`.
static std::pair<unsigned, unsigned> siteLocation(Instruction *I, const SiteFrame &Fr) {
  auto At = [&](const DebugLoc &DL) -> std::pair<unsigned, unsigned> {
    const DILocation *D = inFrame(DL.get(), Fr);
    return {D->getLine(), D->getColumn()};
  };
  for (BasicBlock::iterator It = I->getIterator(), E = I->getParent()->end();
       It != E; ++It)
    if (const DebugLoc &DL = It->getDebugLoc())
      if (DL.getLine())
        return At(DL);
  for (User *U : I->users())
    if (auto *UI = dyn_cast<Instruction>(U))
      if (const DebugLoc &DL = UI->getDebugLoc())
        if (DL.getLine())
          return At(DL);
  return {0, 0};
}

namespace {
/// Whether a call always calls a C library function of a list (the I/O
/// functions, ModRefSummary::isIOFunction, or the waits): its callee is one,
/// or a function of the module in which every path from the entry to a
/// return passes such a call (a `write` whose failure aborts still counts:
/// that path does not return).  Calls through pointers, recursion and
/// chains deeper than MaxDepth do not.
class AlwaysCallsLibrary {
  static constexpr unsigned MaxDepth = 8;
  DenseMap<const Function *, bool> Memo;
  bool (*IsLibrary)(StringRef);

public:
  explicit AlwaysCallsLibrary(bool (*IsLibrary)(StringRef))
      : IsLibrary(IsLibrary) {}

  bool call(const CallBase &CB, unsigned Depth = 0) {
    const Function *F = CB.getCalledFunction();
    return F && function(*F, Depth);
  }

  bool function(const Function &F, unsigned Depth) {
    if (F.isDeclaration())
      return IsLibrary(F.getName());
    if (auto It = Memo.find(&F); It != Memo.end())
      return It->second;
    if (Depth >= MaxDepth)
      return false;
    Memo[&F] = false; // a cycle does not count
    SmallPtrSet<const BasicBlock *, 16> IOBlocks;
    for (const BasicBlock &B : F)
      for (const Instruction &I : B)
        if (auto *CB = dyn_cast<CallBase>(&I); CB && call(*CB, Depth + 1)) {
          IOBlocks.insert(&B);
          break;
        }
    bool Always = !IOBlocks.empty();
    SmallPtrSet<const BasicBlock *, 32> Seen;
    SmallVector<const BasicBlock *, 16> Work;
    if (Always && !IOBlocks.count(&F.getEntryBlock())) {
      Seen.insert(&F.getEntryBlock());
      Work.push_back(&F.getEntryBlock());
    }
    while (Always && !Work.empty()) {
      const BasicBlock *B = Work.pop_back_val();
      if (isa<ReturnInst>(B->getTerminator()))
        Always = false;
      for (const BasicBlock *S : successors(B))
        if (!IOBlocks.count(S) && Seen.insert(S).second)
          Work.push_back(S);
    }
    return Memo[&F] = Always;
  }
};
} // namespace

/// The two analyses of calls markEveryIteration asks.
struct AlwaysCalls {
  AlwaysCallsLibrary IO{ModRefSummary::isIOFunction}, Wait{ModRefSummary::isWaitFunction};
};

/// The constant byte count of a direct read/write-like system call wrapper
/// (its third argument for each of these), when it is 1 ..
/// VP_SITE_SYSCALL_BYTES_MAX; else 0.  Such a call in every iteration is a
/// system call per few bytes (docs/loopclass.md, "A system call per few
/// bytes").
static unsigned syscallBytes(const CallBase &CB) {
  static const StringSet<> Names = [] {
    StringSet<> S;
    for (const char *N : {"read", "write", "pread", "pread64", "pwrite", "pwrite64", "recv",
                          "send", "recvfrom", "sendto", "__read_chk", "__pread_chk",
                          "__pread64_chk", "__recv_chk", "__recvfrom_chk"})
      S.insert(N);
    return S;
  }();
  const Function *F = CB.getCalledFunction();
  if (!F || !F->isDeclaration() || !Names.count(F->getName()) || CB.arg_size() < 3)
    return 0;
  auto *N = dyn_cast<ConstantInt>(CB.getArgOperand(2));
  if (!N || N->isNegative() || N->isZero() || N->getZExtValue() > VP_SITE_SYSCALL_BYTES_MAX)
    return 0;
  return (unsigned)N->getZExtValue();
}

/// Marks the in-body calls that run in every iteration -- their block
/// dominates every latch (LDoctor 3.2.6, "the same statement is executed in
/// every loop iteration") -- and do I/O, or wait, on every call, or are a
/// system call for a few bytes.
static void markEveryIteration(std::vector<SiteRecord> &Out, const LoopSideEffects &E,
                               Loop &L, DominatorTree &DT, AlwaysCalls &A) {
  for (size_t i = 0; i != E.Sites.size(); ++i) {
    const SideEffectSite &S = E.Sites[i];
    auto *CB = dyn_cast<CallBase>(S.Inst);
    if (!S.InBody || !CB)
      continue;
    bool IO = A.IO.call(*CB), Wait = A.Wait.call(*CB);
    unsigned Bytes = syscallBytes(*CB);
    if ((IO || Wait || Bytes) && runsInEveryIteration(CB->getParent(), L, DT)) {
      Out[i].IOEveryIteration = IO;
      Out[i].WaitEveryIteration = Wait;
      Out[i].SyscallBytes = Bytes;
    }
  }
}

static void addSites(LoopRecord &Rec, const LoopSideEffects &E, const SiteFrame &Fr,
                     Loop *L = nullptr, DominatorTree *DT = nullptr,
                     AlwaysCalls *Calls = nullptr) {
  std::vector<SiteRecord> New;
  for (const SideEffectSite &S : E.Sites) {
    SiteRecord SR;
    std::tie(SR.Line, SR.Column) = siteLocation(S.Inst, Fr);
    SR.Kind = S.Kind;
    SR.InBody = S.InBody;
    SR.Callee = S.Callee.str();
    New.push_back(std::move(SR));
  }
  if (L && DT && Calls)
    markEveryIteration(New, E, *L, *DT, *Calls);
  for (SiteRecord &SR : New)
    Rec.Sites.push_back(std::move(SR));
  auto Key = [](const SiteRecord &S) {
    return std::make_tuple(!S.InBody, S.Line, S.Column, (int)S.Kind, S.Callee);
  };
  // the most flagged site first among equal ones, so that unique keeps it
  auto Rank = [](const SiteRecord &S) {
    return -(int)S.IOEveryIteration - (int)S.WaitEveryIteration - (int)(S.SyscallBytes != 0);
  };
  std::sort(Rec.Sites.begin(), Rec.Sites.end(),
            [&](const SiteRecord &A, const SiteRecord &B) {
              return std::make_pair(Key(A), Rank(A)) < std::make_pair(Key(B), Rank(B));
            });
  Rec.Sites.erase(std::unique(Rec.Sites.begin(), Rec.Sites.end(),
                              [&](const SiteRecord &A, const SiteRecord &B) {
                                return Key(A) == Key(B);
                              }),
                  Rec.Sites.end());
  for (BasicBlock *B : E.BodyBlocks)
    Rec.BodyBlocks.push_back(B);
  if (E.LiveOutIV)
    Rec.Flags |= VP_LOOPF_LIVEOUT_IV;
  if (E.IOOnly)
    Rec.Flags |= VP_LOOPF_IO_ONLY;
}

/// Whether a block of the loop itself (not of an inner loop) computes a
/// vector value: the loop vectorizer's body, or a scalar loop the SLP
/// vectorizer packed.
static bool hasVectorValues(const Loop &L, const LoopInfo &LI) {
  for (BasicBlock *B : L.blocks()) {
    if (LI.getLoopFor(B) != &L)
      continue;
    for (Instruction &I : *B)
      if (I.getType()->isVectorTy())
        return true;
  }
  return false;
}

/// Whether \p V is an index into a bucket array: a remainder (h % n, or
/// h & mask with a mask of low bits), through integer casts, or the result
/// of a call of a function of the module every return of which is one
/// (`b = bucket_of(key)`).
static bool isBucketIndex(const Value *V, bool Calls = true, int Depth = 0) {
  while (isa<ZExtInst>(V) || isa<SExtInst>(V) || isa<TruncInst>(V))
    V = cast<Instruction>(V)->getOperand(0);
  if (Depth > 4)
    return false;
  if (auto *CB = dyn_cast<CallBase>(V)) {
    const Function *F = CB->getCalledFunction();
    if (!Calls || !F || F->isDeclaration())
      return false;
    bool Any = false;
    for (const BasicBlock &B : *F)
      if (auto *R = dyn_cast<ReturnInst>(B.getTerminator())) {
        if (!R->getReturnValue() || !isBucketIndex(R->getReturnValue(), false, Depth + 1))
          return false;
        Any = true;
      }
    return Any;
  }
  // a remainder on some paths and a constant on the others (`return 0;` for
  // an empty key)
  if (auto *P = dyn_cast<PHINode>(V)) {
    bool Any = false;
    for (const Value *In : P->incoming_values()) {
      if (isa<Constant>(In))
        continue;
      if (!isBucketIndex(In, Calls, Depth + 1))
        return false;
      Any = true;
    }
    return Any;
  }
  auto *B = dyn_cast<BinaryOperator>(V);
  if (!B)
    return false;
  if (B->getOpcode() == Instruction::URem || B->getOpcode() == Instruction::SRem)
    return true;
  if (B->getOpcode() != Instruction::And)
    return false;
  for (const Value *Op : B->operands())
    if (auto *C = dyn_cast<ConstantInt>(Op))
      if (C->getValue().ugt(1) && (C->getValue() + 1).isPowerOf2())
        return true;
  return false;
}

/// The line of the load that gives \p L the head of a hash bucket's chain
/// (the loop's line when the load has none), or 0 when L is no such walk:
/// a pointer phi of the header whose value from the latch is loaded
/// through the phi (`e = e->next`) and whose value
/// from outside the loop is loaded from an array slot indexed by a
/// remainder (`table[h % n]`), directly or through up to two loads at
/// constant offsets (a bucket holding a pointer to the node before the
/// first: libstdc++'s unordered containers).  The walk's length is then the
/// bucket's occupancy: a long one means colliding keys, not a missing index
/// (docs/loopclass.md, "Hash bucket chains").
static unsigned bucketChainLine(const Loop &L) {
  BasicBlock *H = L.getHeader();
  for (PHINode &P : H->phis()) {
    if (!P.getType()->isPointerTy())
      continue;
    Value *Init = nullptr, *Next = nullptr;
    bool One = true;
    for (unsigned i = 0; i != P.getNumIncomingValues(); ++i) {
      Value *&Slot = L.contains(P.getIncomingBlock(i)) ? Next : Init;
      One &= !Slot || Slot == P.getIncomingValue(i);
      Slot = P.getIncomingValue(i);
    }
    // (LLVM 14's typed pointers put casts between the loads and the phi)
    auto *NL = Next ? dyn_cast<LoadInst>(Next->stripPointerCasts()) : nullptr;
    if (!One || !Init || !NL ||
        NL->getPointerOperand()->stripInBoundsConstantOffsets() != P.stripPointerCasts())
      continue;
    Value *V = Init->stripPointerCasts();
    for (int Depth = 0; Depth != 3; ++Depth) {
      auto *LI = dyn_cast<LoadInst>(V);
      if (!LI)
        break;
      auto *G = dyn_cast<GetElementPtrInst>(LI->getPointerOperand());
      if (G && any_of(G->indices(), [](const Use &U) { return isBucketIndex(U.get()); })) {
        // the load's line, else the loop's (a walk with no line at all is
        // not reported: there would be nothing to quote)
        const DebugLoc &DL = LI->getDebugLoc();
        if (DL && DL.getLine())
          return DL.getLine();
        return L.getStartLoc() ? L.getStartLoc().getLine() : 0;
      }
      V = LI->getPointerOperand()->stripInBoundsConstantOffsets();
    }
  }
  return 0;
}

/// The loop vectorizer's bodies among the loops of one function (their
/// records, in `Recs`, parallel to `Loops`): a loop with vector values
/// whose twin (a loop at the same source position) is the scalar remainder
/// LLVM 14 marks llvm.loop.isvectorized and that has none.  Each iteration
/// of the body covers several of the source loop (lanes x interleave).  A
/// scalar loop the SLP vectorizer packed has no such twin (its iterations
/// are the source's), and neither has a body whose remainder was deleted (a
/// trip count the vector width divides): both stay unmarked.
static void markVectorBodies(ArrayRef<Loop *> Loops, MutableArrayRef<LoopRecord> Recs,
                             const LoopInfo &LI) {
  SmallVector<bool, 8> Vec;
  for (Loop *L : Loops)
    Vec.push_back(hasVectorValues(*L, LI));
  for (size_t i = 0; i != Loops.size(); ++i) {
    if (!Vec[i])
      continue;
    for (size_t j = 0; j != Loops.size(); ++j)
      if (j != i && !Vec[j] && Recs[j].Line == Recs[i].Line &&
          Recs[j].Column == Recs[i].Column &&
          getBooleanLoopAttribute(Loops[j], "llvm.loop.isvectorized")) {
        Recs[i].Flags |= VP_LOOPF_VECTOR;
        break;
      }
  }
}

/// How many copies of the source loop's body the loop unroller made \p L's
/// body of (one of its iterations covers that many source iterations), or
/// 0 when it is not an unrolled body.  The evidence is the unroller's copies
/// of one induction update: an integer source variable is bound
/// (llvm.dbg.value) in the loop's own blocks to values affine in L with one
/// constant step S, and those of them computed in the loop (not phis) come
/// from one source location and fall on k >= 2 evenly spaced residues
/// modulo S.  A source loop that bumps its counter twice per iteration
/// (`a = p[i++]; b = p[i++];`) stays unmarked, and so does a loop whose
/// bindings the optimiser dropped (docs/loopclass.md, "Unrolled loops").
static unsigned unrollFactor(const Loop &L, const LoopInfo &LI, ScalarEvolution &SE) {
  struct Binding {
    const SCEVAddRecExpr *AR;
    const Value *V;
  };
  MapVector<std::pair<const DILocalVariable *, const DILocation *>, SmallVector<Binding, 8>>
      Vars;
  for (BasicBlock *B : L.blocks()) {
    if (LI.getLoopFor(B) != &L)
      continue;
    for (Instruction &I : *B) {
      auto *DVI = dyn_cast<DbgValueInst>(&I);
      if (!DVI || DVI->hasArgList() || DVI->getExpression()->getNumElements() != 0)
        continue;
      // Integer variables only: differences of pointer SCEVs need a common
      // base, and a pointer IV's loop has its index or counter bound too.
      Value *V = DVI->getVariableLocationOp(0);
      if (!V || !V->getType()->isIntegerTy() || !SE.isSCEVable(V->getType()))
        continue;
      auto *AR = dyn_cast<SCEVAddRecExpr>(SE.getSCEV(V));
      if (!AR || AR->getLoop() != &L || !AR->isAffine() ||
          !isa<SCEVConstant>(AR->getStepRecurrence(SE)))
        continue;
      Vars[{DVI->getVariable(), DVI->getDebugLoc().getInlinedAt()}].push_back({AR, V});
    }
  }
  for (auto &KV : Vars) {
    const SmallVectorImpl<Binding> &Bs = KV.second;
    const APInt &Step = cast<SCEVConstant>(Bs[0].AR->getStepRecurrence(SE))->getAPInt();
    if (Step.getMinSignedBits() > 32)
      continue;
    int64_t S = std::abs(Step.getSExtValue());
    if (S < 2)
      continue;
    // Residues of the values computed in the loop (not its phis): the
    // unroller's copies of one update give all k of them, the last copy
    // (i + S) the residue of the phi.  A loop that updates its counter at
    // two places may have a phi at one residue and its one computed value
    // at the other (clang keeps `i + 1` as a phi of its own): that is not
    // k copies of anything.
    SmallVector<int64_t, 8> Residues;
    const DILocation *UpdateLoc = nullptr;
    bool Ok = true;
    for (const Binding &Bn : Bs) {
      if (Bn.V->getType() != Bs[0].V->getType() ||
          cast<SCEVConstant>(Bn.AR->getStepRecurrence(SE))->getAPInt() != Step) {
        Ok = false;
        break;
      }
      if (isa<PHINode>(Bn.V))
        continue;
      auto *D = dyn_cast<SCEVConstant>(SE.getMinusSCEV(Bn.AR->getStart(), Bs[0].AR->getStart()));
      const auto *Def = dyn_cast<Instruction>(Bn.V);
      const DILocation *Loc = Def ? Def->getDebugLoc().get() : nullptr;
      if (!D || D->getAPInt().getMinSignedBits() > 32 || !Loc) {
        Ok = false;
        break;
      }
      if (!UpdateLoc)
        UpdateLoc = Loc;
      else if (Loc->getLine() != UpdateLoc->getLine() ||
               Loc->getColumn() != UpdateLoc->getColumn() ||
               Loc->getScope() != UpdateLoc->getScope() ||
               Loc->getInlinedAt() != UpdateLoc->getInlinedAt()) {
        Ok = false;
        break;
      }
      int64_t R = ((D->getAPInt().getSExtValue() % S) + S) % S;
      if (!is_contained(Residues, R))
        Residues.push_back(R);
    }
    int64_t K = (int64_t)Residues.size();
    if (!Ok || K < 2 || S % K != 0)
      continue;
    bool Even = true;
    for (int64_t R : Residues)
      Even &= (R - Residues[0]) % (S / K) == 0;
    if (Even)
      return (unsigned)std::min<int64_t>(K, 255);
  }
  return 0;
}

/// The atomic (or volatile) read or read-modify-write of a loop-invariant
/// address in \p L that \p V, an exit condition, is computed from, through
/// compares, casts, bit operations, selects and extractvalue; null if none.
static const Instruction *spinAtomic(const Loop &L, const Value *V, int Depth = 0) {
  auto *I = dyn_cast<Instruction>(V);
  if (!I || !L.contains(I) || Depth > 6)
    return nullptr;
  const Value *Ptr = nullptr;
  if (auto *RMW = dyn_cast<AtomicRMWInst>(I))
    Ptr = RMW->getPointerOperand();
  else if (auto *CX = dyn_cast<AtomicCmpXchgInst>(I))
    Ptr = CX->getPointerOperand();
  else if (auto *LD = dyn_cast<LoadInst>(I))
    Ptr = LD->isAtomic() || LD->isVolatile() ? LD->getPointerOperand() : nullptr;
  if (Ptr)
    return L.isLoopInvariant(Ptr) ? I : nullptr;
  if (!isa<CmpInst>(I) && !isa<CastInst>(I) && !isa<BinaryOperator>(I) &&
      !isa<SelectInst>(I) && !isa<ExtractValueInst>(I) && !isa<FreezeInst>(I))
    return nullptr;
  for (const Value *Op : I->operands())
    if (const Instruction *A = spinAtomic(L, Op, Depth + 1))
      return A;
  return nullptr;
}

/// Whether \p CB is a call a spin loop may make besides its atomics: a
/// pause or yield hint (an intrinsic or inline assembly) or giving the CPU
/// up (sched_yield, a short sleep).
static bool isSpinPause(const CallBase &CB) {
  if (auto *IA = dyn_cast<InlineAsm>(CB.getCalledOperand())) {
    StringRef A = IA->getAsmString();
    return A.contains("pause") || A.contains("yield") || A.trim() == "nop" || A.empty();
  }
  const Function *F = CB.getCalledFunction();
  if (!F)
    return false;
  if (F->isIntrinsic())
    return !CB.mayWriteToMemory() || F->getIntrinsicID() == Intrinsic::lifetime_start ||
           F->getIntrinsicID() == Intrinsic::lifetime_end ||
           F->getName().startswith("llvm.x86.sse2.pause") ||
           F->getName().startswith("llvm.aarch64.hint") ||
           F->getName().startswith("llvm.arm.hint");
  return StringSwitch<bool>(F->getName())
      .Cases("sched_yield", "pthread_yield", "thrd_yield", "usleep", "nanosleep", true)
      .Default(false);
}

/// The line of the atomic operation \p L spins on, or 0 when L is no spin
/// loop: some exit of L is decided by an atomic (or volatile) read or
/// read-modify-write of a loop-invariant address (a lock, a flag), and L
/// writes nothing else -- only atomics, its own stack slots, pause hints
/// and yields.  Its tries but the last change nothing: under contention
/// the time is waiting for other threads (docs/loopclass.md, "Spin
/// loops").  \p Update: the access is a compare-and-swap of a new value
/// computed from the tries (a lock-free update), not a lock's constant.
static unsigned spinLine(const Loop &L, bool &Update) {
  const Instruction *Atomic = nullptr;
  Update = false;
  SmallVector<BasicBlock *, 4> Exiting;
  L.getExitingBlocks(Exiting);
  for (BasicBlock *B : Exiting)
    if (auto *Br = dyn_cast<BranchInst>(B->getTerminator()))
      if (Br->isConditional() && (Atomic = spinAtomic(L, Br->getCondition())))
        break;
  if (!Atomic)
    return 0;
  for (BasicBlock *B : L.blocks())
    for (Instruction &I : *B) {
      // (LLVM counts a volatile or ordered atomic load as a write: it is a
      // read here)
      if (!I.mayWriteToMemory() || isa<LoadInst>(I) || isa<AtomicRMWInst>(I) ||
          isa<AtomicCmpXchgInst>(I) || isa<FenceInst>(I))
        continue;
      if (auto *SI = dyn_cast<StoreInst>(&I)) {
        if (!SI->isVolatile() && !SI->isAtomic() &&
            isa<AllocaInst>(getUnderlyingObject(SI->getPointerOperand())))
          continue;
        return 0;
      }
      if (auto *CB = dyn_cast<CallBase>(&I))
        if (isSpinPause(*CB))
          continue;
      return 0;
    }
  // a CAS whose new value varies with the tries (old + d) updates a shared
  // value; a constant one (0 -> 1) takes a lock
  if (auto *CX = dyn_cast<AtomicCmpXchgInst>(Atomic))
    Update = !L.isLoopInvariant(CX->getNewValOperand());
  if (const DebugLoc &DL = Atomic->getDebugLoc())
    if (DL.getLine())
      return DL.getLine();
  return L.getStartLoc() ? L.getStartLoc().getLine() : 0;
}

/// Fills function, file and position of `Rec` and gives it its id
/// (vprof/LoopIds.h).  Records must come in table order.
static void setSource(LoopRecord &Rec, const DILocation *Loc, Function &F,
                      LoopIdAssigner &Ids) {
  LoopSource S = loopSourceOf(Loc, F);
  Rec.Id = Ids.assign(S);
  Rec.Function = std::move(S.Function);
  Rec.Linkage = std::move(S.Linkage);
  Rec.File = std::move(S.File);
  Rec.Line = S.Line;
  Rec.Column = S.Column;
  Rec.Container = F.getName().str();
  Rec.Host = Rec.Container;
  if (const DISubprogram *SP = F.getSubprogram())
    Rec.Host = SP->getLinkageName().startswith("_Z") ? SP->getLinkageName().str()
                                                     : SP->getName().str();
}

LoopClassInfo LoopClassAnalysis::run(Module &M, ModuleAnalysisManager &MAM) {
  LoopClassInfo Info;
  ModRefSummary Summary(M);
  AlwaysCalls Calls;
  LoopIdAssigner Ids;
  auto &FAM = MAM.getResult<FunctionAnalysisManagerModuleProxy>(M).getManager();

  for (Function &F : M) {
    if (!isLoopTableFunction(F))
      continue;

    bool Recursive = isDirectlyRecursive(F);
    if (Recursive) {
      LoopSideEffects E = findRecursionSideEffects(F, Summary);
      LoopRecord Rec;
      setSource(Rec, nullptr, F, Ids);
      Rec.Kind = VP_LOOP_RECURSION;
      Rec.Class = classifyRecursion(F, E);
      Rec.F = &F;
      addSites(Rec, E, SiteFrame{F.getSubprogram(), nullptr});
      Info.Loops.push_back(std::move(Rec));
      ++NumRecursions;
    }

    auto &LI = FAM.getResult<LoopAnalysis>(F);
    if (LI.empty())
      continue;
    auto &DT = FAM.getResult<DominatorTreeAnalysis>(F);
    auto &PDT = FAM.getResult<PostDominatorTreeAnalysis>(F);
    auto &SE = FAM.getResult<ScalarEvolutionAnalysis>(F);
    DenseMap<const Loop *, uint64_t> IdOf;
    SmallVector<Loop *, 8> Order = LI.getLoopsInPreorder();
    size_t First = Info.Loops.size();
    for (Loop *L : Order) {
      LoopSideEffects E = findLoopSideEffects(*L, Summary, DT, PDT, LI, &SE);
      LoopRecord Rec;
      LoopLocation Loc = loopLocationOf(*L);
      setSource(Rec, Loc.Start, F, Ids);
      Rec.EndLine = Loc.EndLine;
      Rec.Kind = VP_LOOP_NATURAL;
      Rec.Depth = L->getLoopDepth();
      Rec.Class = classifySource(*L, E);
      for (auto &KV : keepOrUpdateBlocks(E, /*WithIndirect=*/true))
        Rec.KeepOrUpdate.push_back({KV.first, KV.second});
      Rec.F = &F;
      Rec.Header = L->getHeader();
      SiteFrame Fr;
      if (Loc.Start) {
        Fr.SP = Loc.Start->getScope()->getSubprogram();
        Fr.InlinedAt = Loc.Start->getInlinedAt();
      }
      addSites(Rec, E, Fr, L, &DT, &Calls);
      splitIndirect(Rec, *L, E);
      if (Recursive && isTailRecursionLoop(*L, F))
        Rec.Flags |= VP_LOOPF_TAIL_CALLS;
      if ((Rec.BucketLine = bucketChainLine(*L)))
        Rec.Flags |= VP_LOOPF_BUCKET_CHAIN;
      else if (bool Update; (Rec.SpinLine = spinLine(*L, Update)))
        Rec.Flags |= VP_LOOPF_SPIN | (Update ? VP_LOOPF_SPIN_UPDATE : 0);
      if (Loop *P = L->getParentLoop())
        Rec.ParentId = IdOf.lookup(P);
      IdOf[L] = Rec.Id;
      LLVM_DEBUG(dbgs() << "vprof-loopclass: " << F.getName() << " line "
                        << Rec.Line << " " << loopClassName(Rec.Class) << "\n");
      Info.Loops.push_back(std::move(Rec));
      ++NumLoops;
    }
    markVectorBodies(Order, MutableArrayRef<LoopRecord>(Info.Loops).slice(First), LI);
    for (size_t i = 0; i != Order.size(); ++i) {
      LoopRecord &Rec = Info.Loops[First + i];
      if (Rec.Flags & VP_LOOPF_VECTOR)
        continue;
      if (unsigned K = unrollFactor(*Order[i], LI, SE)) {
        Rec.Flags |= VP_LOOPF_UNROLLED;
        Rec.UnrollFactor = K;
      }
    }
  }
  Info.PureFunctions = pureFunctions(M, Summary);
  for (const LoopRecord &R : Info.Loops) {
    switch (R.Class) {
    case VP_CLASS_ZERO_STAR:
      ++NumZeroStar;
      break;
    case VP_CLASS_ZERO_STAR_ONE:
      ++NumZeroStarOne;
      break;
    case VP_CLASS_ZERO_OR_ONE:
      ++NumZeroOrOne;
      break;
    case VP_CLASS_ONE_STAR:
      ++NumOneStar;
      break;
    }
  }
  return Info;
}

} // namespace vprof
