//===- SectionBlob.cpp - building the per-TU blobs of vprof's sections ----===//

#include "vprof/SectionBlob.h"

#include "llvm/IR/Constants.h"
#include "llvm/IR/GlobalVariable.h"
#include "llvm/IR/Module.h"
#include "llvm/Transforms/Utils/ModuleUtils.h"

using namespace llvm;

namespace vprof {

uint32_t BlobStringTable::add(StringRef S) {
  if (S.empty())
    return 0;
  auto Ins = Offsets.try_emplace(S, static_cast<uint32_t>(Data.size()));
  if (Ins.second) {
    Data.append(S.begin(), S.end());
    Data.push_back('\0');
  }
  return Ins.first->second;
}

GlobalVariable *emitSectionBlob(Module &M, StringRef Blob, StringRef GlobalName,
                                StringRef Section) {
  Constant *Init = ConstantDataArray::getRaw(Blob, Blob.size(),
                                             Type::getInt8Ty(M.getContext()));
  auto *GV = new GlobalVariable(M, Init->getType(), /*isConstant=*/true,
                                GlobalValue::PrivateLinkage, Init, GlobalName);
  GV->setSection(Section);
  GV->setAlignment(Align(8));
  appendToUsed(M, {GV});
  return GV;
}

} // namespace vprof
