//===- RuntimeRefs.h - how instrumented code refers to libvprof-rt.so ----===//
//
// A vprof-cc binary must run without the runtime preloaded, so every probe
// entry point is declared extern_weak (a null address when the runtime is
// absent; probes are gated so they never call it then), and the strings a
// probe hands to the runtime (function names, ...) are private constants.
// Shared by the loopclass and redundancy probe passes.
//
//===----------------------------------------------------------------------===//
#ifndef VPROF_RUNTIMEREFS_H
#define VPROF_RUNTIMEREFS_H

#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/IR/DerivedTypes.h"

namespace llvm {
class BasicBlock;
class Constant;
class Module;
class Value;
} // namespace llvm

namespace vprof {

/// Declares the runtime function \p Name with type \p FTy, extern_weak
/// unless the module already defines it.
llvm::FunctionCallee declareWeakRuntimeFunction(llvm::Module &M, llvm::StringRef Name,
                                                llvm::FunctionType *FTy);

/// Ends block \p From with a branch to \p Present when the weak runtime
/// function \p Fn is there (the runtime is loaded), else to \p Absent.
void branchOnRuntime(llvm::BasicBlock *From, llvm::FunctionCallee Fn,
                     llvm::BasicBlock *Present, llvm::BasicBlock *Absent);

/// Adds the constructor `static void Name(void) { if (&Fn) Fn(Args...); }`:
/// registers something with the runtime when one is loaded.
void addRuntimeRegistration(llvm::Module &M, llvm::FunctionCallee Fn,
                            llvm::ArrayRef<llvm::Value *> Args, llvm::StringRef Name);

/// Interned NUL-terminated string constants (private, unnamed_addr), as i8*.
class RuntimeStrings {
public:
  RuntimeStrings(llvm::Module &M, llvm::StringRef GlobalName)
      : M(M), GlobalName(GlobalName) {}
  /// The i8* constant holding \p S; one global per distinct string.
  llvm::Constant *get(llvm::StringRef S);

private:
  llvm::Module &M;
  std::string GlobalName;
  llvm::StringMap<llvm::Constant *> Cache;
};

} // namespace vprof

#endif // VPROF_RUNTIMEREFS_H
