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

LoopLocation loopLocationOf(const Loop &L) {
  Loop::LocRange R = L.getLocRange();
  LoopLocation Out{R.getStart().get(), R.getEnd() ? R.getEnd()->getLine() : 0u};
  if (hasLoopIdLocation(L))
    return Out;
  // A loop made by `goto` (`retry: switch (...) { ... goto retry; }`) has
  // no loop location, and LLVM's fallback is the preheader's branch, which
  // for a loop entered from the function's first block is the function's
  // opening line (its name or its `{`): name the header's first source position instead, the
  // statement after the label.
  if (const DILocation *FB = Out.Start) {
    const DISubprogram *SP = FB->getScope()->getSubprogram();
    unsigned Open = SP ? std::max(SP->getLine(), SP->getScopeLine()) : 0;
    if (SP && FB->getLine() <= Open) {
      const DILocation *First = nullptr;
      unsigned Last = 0;
      for (const BasicBlock *BB : L.blocks())
        for (const Instruction &I : *BB) {
          const DILocation *DL = I.getDebugLoc().get();
          if (isa<DbgInfoIntrinsic>(I) || !DL || DL->getLine() <= Open ||
              DL->getInlinedAt() != FB->getInlinedAt())
            continue;
          if (!First && BB == L.getHeader())
            First = DL;
          Last = std::max(Last, DL->getLine());
        }
      if (First) {
        Out.Start = First;
        Out.EndLine = std::max(Last, First->getLine());
        return Out;
      }
    }
  }
  // Is the fallback position really a subloop's?
  const DILocation *FB = Out.Start;
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
  if (!Suspect)
    return Out;
  // The innermost lexical block holding the loop's own instructions, in the
  // loop's inlining context.
  const DILocation *Ctx = FB ? FB->getInlinedAt() : nullptr;
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
        return Out;
    }
  }
  const auto *Block = dyn_cast_or_null<DILexicalBlock>(Common);
  if (!Block || Block->getLine() == 0 || Block->getLine() > MinLine ||
      (FB && Block->getLine() >= FB->getLine()))
    return Out;
  Out.Start = DILocation::get(L.getHeader()->getContext(), Block->getLine(),
                              Block->getColumn(), const_cast<DILexicalBlock *>(Block),
                              const_cast<DILocation *>(Ctx));
  Out.EndLine = MaxLine;
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
