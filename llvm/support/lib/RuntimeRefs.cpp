//===- RuntimeRefs.cpp - how instrumented code refers to libvprof-rt.so --===//

#include "vprof/RuntimeRefs.h"

#include "llvm/IR/Constants.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/GlobalVariable.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Module.h"
#include "llvm/Transforms/Utils/ModuleUtils.h"

using namespace llvm;

namespace vprof {

FunctionCallee declareWeakRuntimeFunction(Module &M, StringRef Name, FunctionType *FTy) {
  FunctionCallee FC = M.getOrInsertFunction(Name, FTy);
  if (auto *Fn = dyn_cast<Function>(FC.getCallee()))
    if (Fn->isDeclaration())
      Fn->setLinkage(GlobalValue::ExternalWeakLinkage);
  return FC;
}

void branchOnRuntime(BasicBlock *From, FunctionCallee Fn, BasicBlock *Present,
                     BasicBlock *Absent) {
  IRBuilder<> B(From);
  auto *I8Ptr = Type::getInt8PtrTy(From->getContext());
  B.CreateCondBr(B.CreateICmpNE(B.CreatePointerCast(Fn.getCallee(), I8Ptr),
                                ConstantPointerNull::get(I8Ptr)),
                 Present, Absent);
}

void addRuntimeRegistration(Module &M, FunctionCallee Fn, ArrayRef<Value *> Args,
                            StringRef Name) {
  LLVMContext &Ctx = M.getContext();
  Function *Ctor = Function::Create(FunctionType::get(Type::getVoidTy(Ctx), false),
                                    GlobalValue::InternalLinkage, Name, M);
  BasicBlock *Entry = BasicBlock::Create(Ctx, "entry", Ctor);
  BasicBlock *Call = BasicBlock::Create(Ctx, "register", Ctor);
  BasicBlock *Done = BasicBlock::Create(Ctx, "done", Ctor);
  branchOnRuntime(Entry, Fn, Call, Done);
  IRBuilder<> B(Call);
  B.CreateCall(Fn, Args);
  B.CreateBr(Done);
  B.SetInsertPoint(Done);
  B.CreateRetVoid();
  appendToGlobalCtors(M, Ctor, 65535);
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
