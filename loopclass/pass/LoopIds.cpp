//===- LoopIds.cpp - stable ids and source positions of loops -------------===//
//
// See vprof/LoopIds.h.
//
//===----------------------------------------------------------------------===//

#include "vprof/LoopIds.h"
#include "vprof/DebugInfoUtils.h"
#include "vprof/LoopProbes.h"

#include "llvm/IR/DebugInfoMetadata.h"
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
