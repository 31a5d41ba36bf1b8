//===- RuntimeRefs.cpp - how instrumented code refers to libvprof-rt.so --===//

#include "vprof/RuntimeRefs.h"

#include "llvm/IR/Constants.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/GlobalVariable.h"
#include "llvm/IR/Module.h"

using namespace llvm;

namespace vprof {

FunctionCallee declareWeakRuntimeFunction(Module &M, StringRef Name, FunctionType *FTy) {
  FunctionCallee FC = M.getOrInsertFunction(Name, FTy);
  if (auto *Fn = dyn_cast<Function>(FC.getCallee()))
    if (Fn->isDeclaration())
      Fn->setLinkage(GlobalValue::ExternalWeakLinkage);
  return FC;
}

Constant *RuntimeStrings::get(StringRef S) {
  auto It = Cache.find(S);
  if (It != Cache.end())
    return It->second;
  Constant *Init = ConstantDataArray::getString(M.getContext(), S);
  auto *GV = new GlobalVariable(M, Init->getType(), /*isConstant=*/true,
                                GlobalValue::PrivateLinkage, Init, GlobalName);
  GV->setUnnamedAddr(GlobalValue::UnnamedAddr::Global);
  Constant *Ptr =
      ConstantExpr::getPointerCast(GV, Type::getInt8PtrTy(M.getContext()));
  Cache[S] = Ptr;
  return Ptr;
}

} // namespace vprof
