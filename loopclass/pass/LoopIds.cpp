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

static bool hasLoopIdLocation(const Loop &L) {
  if (MDNode *Id = L.getLoopID())
    for (unsigned I = 1, E = Id->getNumOperands(); I < E; ++I)
      if (isa<DILocation>(Id->getOperand(I)))
        return true;
  return false;
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

LoopLocation loopLocationOf(const Loop &L) {
  Loop::LocRange R = L.getLocRange();
  LoopLocation Out{R.getStart().get(), R.getEnd() ? R.getEnd()->getLine() : 0u};
  if (hasLoopIdLocation(L))
    return Out;
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
  // Is the fallback position really a subloop's?
  bool Suspect = !FB;
  for (const Loop *Sub : L.getSubLoops()) {
    Loop::LocRange SR = Sub->getLocRange();
    const DILocation *SS = SR.getStart().get();
    if (!FB || !SS || SS->getFilename() != FB->getFilename())
      continue;
    unsigned SEnd = SR.getEnd() ? SR.getEnd()->getLine() : SS->getLine();
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
