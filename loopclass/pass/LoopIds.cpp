//===- LoopIds.cpp - stable ids and source positions of loops -------------===//
//
// See vprof/LoopIds.h.
//
//===----------------------------------------------------------------------===//

#include "vprof/LoopIds.h"
#include "vprof/DebugInfoUtils.h"
#include "vprof/LoopProbes.h"

#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/IR/DebugInfoMetadata.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/xxhash.h"

using namespace llvm;

namespace vprof {

LoopSource loopSourceOf(const DILocation *Loc, const Function &F) {
  LoopSource S;
  const DISubprogram *SP = F.getSubprogram();
  if (Loc && Loc->getScope()->getSubprogram())
    SP = Loc->getScope()->getSubprogram();
  if (SP) {
    S.Function = SP->getName().str();
    S.Linkage = SP->getLinkageName().empty() ? S.Function
                                             : SP->getLinkageName().str();
  } else {
    S.Function = S.Linkage = F.getName().str();
  }
  if (Loc) {
    S.File = absoluteFilePath(Loc);
    S.Line = Loc->getLine();
    S.Column = Loc->getColumn();
  } else if (SP) {
    S.File = absoluteFilePath(static_cast<const DIScope *>(SP));
    S.Line = SP->getLine();
  } else {
    S.File = normalisePath(F.getParent()->getSourceFileName());
  }
  return S;
}

/// The `llvm.loop` node of `L`.  LLVM reads it from the latches only
/// (Loop::getLoopID).  A rotated loop whose latch the optimiser split off
/// (a load of the next iteration moved into a block of its own) keeps it on
/// the branch that held it, the loop's exit test, where getLoopID does not
/// look: `for (i = 0; i < strlen(s); i++)` inlined at -O2 was placed at the
/// header's first line, the body's (23), and the samples of its condition
/// (22, the strlen calls) fell outside it.  So without a latch node: the one
/// node on the exit tests of L's own blocks (not a subloop's), when it starts
/// no later than the header's first line in the same inlining context.
static MDNode *loopIdOf(const Loop &L) {
  if (MDNode *Id = L.getLoopID())
    return Id;
  MDNode *Found = nullptr;
  for (const BasicBlock *BB : L.blocks()) {
    if (llvm::any_of(L.getSubLoops(), [&](const Loop *Sub) { return Sub->contains(BB); }))
      continue;
    const Instruction *T = BB->getTerminator();
    MDNode *Id = T ? T->getMetadata(LLVMContext::MD_loop) : nullptr;
    if (!Id || Id->getNumOperands() == 0 || Id->getOperand(0) != Id ||
        llvm::all_of(successors(BB), [&](const BasicBlock *S) { return L.contains(S); }))
      continue;
    if (Found && Found != Id)
      return nullptr;
    Found = Id;
  }
  if (!Found)
    return nullptr;
  const DILocation *Start = nullptr;
  for (unsigned I = 1, E = Found->getNumOperands(); I < E && !Start; ++I)
    Start = dyn_cast<DILocation>(Found->getOperand(I));
  if (!Start)
    return nullptr;
  // The node must be this loop's, not a subloop's that unrolling or
  // threading left on one of L's branches: no line of L's own code in the
  // node's inlining context comes before its start.
  bool Own = false;
  for (const BasicBlock *BB : L.blocks()) {
    if (llvm::any_of(L.getSubLoops(), [&](const Loop *Sub) { return Sub->contains(BB); }))
      continue;
    for (const Instruction &I : *BB) {
      const DILocation *DL = I.getDebugLoc().get();
      if (isa<DbgInfoIntrinsic>(I) || !DL || !DL->getLine() ||
          DL->getInlinedAt() != Start->getInlinedAt() || DL->getFilename() != Start->getFilename())
        continue;
      if (DL->getLine() < Start->getLine())
        return nullptr;
      Own = true;
    }
  }
  return Own ? Found : nullptr;
}

/// Start and end of `L` from its `llvm.loop` node (Loop::getLocRange's
/// reading: the first DILocation is the start, the second the end).
static bool loopIdRange(const Loop &L, LoopLocation &Out) {
  MDNode *Id = loopIdOf(L);
  if (!Id)
    return false;
  const DILocation *Start = nullptr, *End = nullptr;
  for (unsigned I = 1, E = Id->getNumOperands(); I < E; ++I)
    if (const auto *DL = dyn_cast<DILocation>(Id->getOperand(I))) {
      if (!Start)
        Start = DL;
      else if (!End)
        End = DL;
    }
  if (!Start)
    return false;
  Out = LoopLocation{Start, End ? End->getLine() : 0u};
  return true;
}

static bool hasLoopIdLocation(const Loop &L) {
  LoopLocation Unused;
  return loopIdRange(L, Unused);
}

static const DILocalScope *parentScope(const DILocalScope *S) {
  if (isa<DISubprogram>(S))
    return nullptr;
  return dyn_cast_or_null<DILocalScope>(S->getScope());
}

/// The innermost scope enclosing both `A` and `B` (lexical-block files
/// skipped), or null when they belong to different subprograms.
static const DILocalScope *commonScope(const DILocalScope *A, const DILocalScope *B) {
  SmallPtrSet<const DILocalScope *, 8> Chain;
  for (const DILocalScope *S = A; S; S = parentScope(S))
    Chain.insert(S->getNonLexicalBlockFileScope());
  for (const DILocalScope *S = B; S; S = parentScope(S))
    if (Chain.count(S->getNonLexicalBlockFileScope()))
      return S->getNonLexicalBlockFileScope();
  return nullptr;
}

/// The position of a loop made by `goto` (`retry: switch (...) { ...
/// goto retry; }`): the header's first source position after the
/// function's opening lines, the statement after the label, or for a header
/// without one (the shared `indirectbr` block of a computed goto) the
/// loop's first position; `EndLine` its last. In inlining context `Ctx`.
static bool gotoLoopLocation(const Loop &L, const DISubprogram *SP, const DILocation *Ctx,
                             LoopLocation &Out) {
  if (!SP)
    return false;
  unsigned Open = std::max(SP->getLine(), SP->getScopeLine());
  const DILocation *First = nullptr, *Min = nullptr;
  unsigned Last = 0;
  for (const BasicBlock *BB : L.blocks())
    for (const Instruction &I : *BB) {
      const DILocation *DL = I.getDebugLoc().get();
      if (isa<DbgInfoIntrinsic>(I) || !DL || DL->getLine() <= Open || DL->getInlinedAt() != Ctx)
        continue;
      if (!First && BB == L.getHeader())
        First = DL;
      if (!Min || DL->getLine() < Min->getLine() ||
          (DL->getLine() == Min->getLine() && DL->getColumn() < Min->getColumn()))
        Min = DL;
      Last = std::max(Last, DL->getLine());
    }
  if (!First)
    First = Min;
  if (!First)
    return false;
  Out.Start = First;
  Out.EndLine = std::max(Last, First->getLine());
  return true;
}

/// The innermost lexical block holding the loop's own instructions (outside
/// its subloops), in inlining context `Ctx`, when it starts at or before
/// them and before `FB`; null `Out.Start` otherwise.
static LoopLocation lexicalBlockLocation(const Loop &L, const DILocation *FB,
                                         const DILocation *Ctx) {
  LoopLocation None{nullptr, 0};
  const DILocalScope *Common = nullptr;
  unsigned MinLine = ~0u, MaxLine = 0;
  for (const BasicBlock *BB : L.blocks()) {
    bool Own = none_of(L.getSubLoops(), [&](const Loop *S) { return S->contains(BB); });
    for (const Instruction &I : *BB) {
      if (isa<DbgInfoIntrinsic>(I))
        continue;
      const DILocation *DL = I.getDebugLoc().get();
      if (!DL || DL->getLine() == 0 || DL->getInlinedAt() != Ctx)
        continue;
      MaxLine = std::max(MaxLine, DL->getLine());
      if (!Own)
        continue;
      MinLine = std::min(MinLine, DL->getLine());
      Common = Common ? commonScope(Common, DL->getScope()) : DL->getScope()->getNonLexicalBlockFileScope();
      if (!Common)
        return None;
    }
  }
  const auto *Block = dyn_cast_or_null<DILexicalBlock>(Common);
  if (!Block || Block->getLine() == 0 || Block->getLine() > MinLine ||
      (FB && Block->getLine() >= FB->getLine()))
    return None;
  return LoopLocation{DILocation::get(L.getHeader()->getContext(), Block->getLine(),
                                      Block->getColumn(), const_cast<DILexicalBlock *>(Block),
                                      const_cast<DILocation *>(Ctx)),
                      MaxLine};
}

/// Whether inlining context `Ctx` (an inlinedAt location, null for the
/// function's own code) encloses `DL`.
static bool withinContext(const DILocation *DL, const DILocation *Ctx) {
  for (const DILocation *C = DL->getInlinedAt();; C = C->getInlinedAt()) {
    if (C == Ctx)
      return true;
    if (!C)
      return false;
  }
}

/// `DL` as a position of code in inlining context `Ctx`, which encloses
/// it: the call in `Ctx` that leads to it, or itself.
static const DILocation *positionIn(const DILocation *DL, const DILocation *Ctx) {
  while (DL->getInlinedAt() != Ctx)
    DL = DL->getInlinedAt();
  return DL;
}

/// LLVM's fallback position of `L` (`R`), or, when it is inside a function
/// inlined into the loop's own code, the position where that code calls
/// the function.  A `while (in.next(r))` whose condition is inlined starts
/// at the inlined body's first line, but the loop also holds code of the
/// caller (its body), so it is the caller's loop, at the call.  The loop's
/// context is the innermost inlining context that encloses all of its
/// instructions with a line; its last line is the last of theirs there.
static LoopLocation fallbackLocation(const Loop &L, const Loop::LocRange &R) {
  LoopLocation Out{R.getStart().get(), R.getEnd() ? R.getEnd()->getLine() : 0u};
  const DILocation *FB = Out.Start;
  if (!FB || !FB->getInlinedAt())
    return Out;
  SmallVector<const DILocation *, 8> Chain; // FB's contexts, innermost first
  for (const DILocation *C = FB->getInlinedAt(); C; C = C->getInlinedAt())
    Chain.push_back(C);
  Chain.push_back(nullptr);
  size_t Outer = 0;
  for (const BasicBlock *BB : L.blocks())
    for (const Instruction &I : *BB) {
      const DILocation *DL = I.getDebugLoc().get();
      if (isa<DbgInfoIntrinsic>(I) || !DL || !DL->getLine())
        continue;
      while (Outer + 1 < Chain.size() && !withinContext(DL, Chain[Outer]))
        Outer++;
    }
  if (!Outer)
    return Out;
  // Chain[Outer - 1] is the call in context Chain[Outer].
  Out = LoopLocation{Chain[Outer - 1], Chain[Outer - 1]->getLine()};
  for (const BasicBlock *BB : L.blocks())
    for (const Instruction &I : *BB) {
      const DILocation *DL = I.getDebugLoc().get();
      if (isa<DbgInfoIntrinsic>(I) || !DL || !DL->getLine())
        continue;
      const DILocation *P = positionIn(DL, Chain[Outer]);
      if (P->getFilename() == Out.Start->getFilename())
        Out.EndLine = std::max(Out.EndLine, P->getLine());
    }
  return Out;
}

LoopLocation loopLocationOf(const Loop &L) {
  LoopLocation Out;
  if (loopIdRange(L, Out))
    return Out;
  Out = fallbackLocation(L, L.getLocRange());
  const DILocation *FB = Out.Start;
  // A loop made by `goto` has no loop location either, and LLVM's fallback
  // is the preheader's branch, which for a loop entered from the function's
  // first block is the function's opening line (its name or its `{`), or
  // nothing at all: no loop is there.
  if (FB) {
    const DISubprogram *SP = FB->getScope()->getSubprogram();
    if (SP && FB->getLine() <= std::max(SP->getLine(), SP->getScopeLine()) &&
        gotoLoopLocation(L, SP, FB->getInlinedAt(), Out))
      return Out;
  }
  // A copy the optimiser made without a location (the runtime unroller's
  // remainder, a vectorized loop's scalar epilogue: `llvm.loop` holds only
  // "unroll.disable") falls back to its header's first instruction, the
  // `i++` of `for (...; i++)`: a position of its own, so the report listed
  // the copy as another loop of the same line.  When that instruction's
  // scope is a lexical block opening on the same line before it (the `for`
  // statement's), the block is the position, the one the loop's other
  // copies carry (docs/loopclass.md, "Loop positions").
  if (FB)
    if (const auto *B = dyn_cast<DILexicalBlock>(FB->getScope()))
      if (B->getLine() == FB->getLine() && B->getColumn() && B->getColumn() < FB->getColumn() &&
          B->getFile() == FB->getFile() && L.getSubLoops().empty()) {
        Out.Start = DILocation::get(FB->getContext(), B->getLine(), B->getColumn(),
                                    const_cast<DILexicalBlock *>(B),
                                    const_cast<DILocation *>(FB->getInlinedAt()));
        FB = Out.Start;
      }
  // Is the fallback position really a subloop's?
  bool Suspect = !FB;
  for (const Loop *Sub : L.getSubLoops()) {
    LoopLocation SL;
    if (!loopIdRange(*Sub, SL)) {
      Loop::LocRange SR = Sub->getLocRange();
      SL = LoopLocation{SR.getStart().get(), SR.getEnd() ? SR.getEnd()->getLine() : 0u};
    }
    const DILocation *SS = SL.Start;
    if (!FB || !SS || SS->getFilename() != FB->getFilename())
      continue;
    unsigned SEnd = SL.EndLine ? SL.EndLine : SS->getLine();
    if (FB->getLine() >= SS->getLine() && FB->getLine() <= SEnd)
      Suspect = true;
  }
  if (!Suspect) {
    // LLVM's fallback is one position: the loop ends at its last line (a
    // computed goto's dispatch loop spans its whole interpreter, not the
    // line of its `goto *`).
    for (const BasicBlock *BB : L.blocks())
      for (const Instruction &I : *BB) {
        const DILocation *DL = I.getDebugLoc().get();
        if (!isa<DbgInfoIntrinsic>(I) && DL && DL->getInlinedAt() == FB->getInlinedAt() &&
            DL->getFilename() == FB->getFilename())
          Out.EndLine = std::max(Out.EndLine, DL->getLine());
      }
    return Out;
  }
  const DILocation *Ctx = FB ? FB->getInlinedAt() : nullptr;
  LoopLocation Block = lexicalBlockLocation(L, FB, Ctx);
  if (Block.Start)
    return Block;
  if (!FB)
    gotoLoopLocation(L, L.getHeader()->getParent()->getSubprogram(), nullptr, Out);
  return Out;
}

bool isTailRecursionLoop(const Loop &L, const Function &F) {
  if (L.getParentLoop() || !F.getSubprogram() || hasLoopIdLocation(L))
    return false;
  for (const Instruction &I : *L.getHeader()) {
    const auto *DV = dyn_cast<DbgValueInst>(&I);
    if (!DV || !DV->getVariable() || !DV->getVariable()->isParameter() ||
        DV->getDebugLoc().getInlinedAt() ||
        DV->getVariable()->getScope()->getSubprogram() != F.getSubprogram())
      continue;
    for (Value *V : DV->location_ops())
      if (auto *Phi = dyn_cast<PHINode>(V); Phi && Phi->getParent() == L.getHeader())
        return true;
  }
  return false;
}

bool isLoopTableFunction(const Function &F) {
  return !F.isDeclaration() && !F.hasAvailableExternallyLinkage() &&
         !isProbedClone(F);
}

uint64_t LoopIdAssigner::assign(const LoopSource &S) {
  std::string Key = S.File + '\0' + S.Linkage + '\0' + std::to_string(S.Line) +
                    ':' + std::to_string(S.Column);
  unsigned Ordinal = Seen[Key]++;
  Key += '#' + std::to_string(Ordinal);
  uint64_t Id = xxHash64(Key);
  return Id ? Id : 1;
}

} // namespace vprof
