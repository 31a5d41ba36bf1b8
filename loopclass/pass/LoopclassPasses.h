//===- LoopclassPasses.h - the loopclass analysis and passes -------------===//
//
// Private to loopclass/pass.  LoopClassAnalysis classifies every loop and
// directly recursive function of a module; LoopProbesPass instruments them;
// LoopTablePass writes the `.vprof.loops` section (and -vprof-print-loops).
// They run in that order at OptimizerLastEP (docs/loopclass.md).
//
//===----------------------------------------------------------------------===//
#ifndef VPROF_LOOPCLASS_PASSES_H
#define VPROF_LOOPCLASS_PASSES_H

#include "vprof/SideEffects.h"
#include "vprof/format.h"

#include "llvm/IR/Instructions.h"
#include "llvm/IR/PassManager.h"

#include <string>
#include <vector>

namespace llvm {
class BasicBlock;
class Function;
class Module;
} // namespace llvm

namespace vprof {

/// One side-effect site, as plain data for the loop table.
struct SiteRecord {
  unsigned Line = 0, Column = 0;
  SiteKind Kind = SiteKind::Store;
  bool InBody = true;
  std::string Callee;
  /// A call that does I/O on every call and runs in every iteration
  /// (VP_SITEF_IO_EVERY_ITER).
  bool IOEveryIteration = false;
  /// A call that waits on the world on every call and runs in every
  /// iteration (VP_SITEF_WAIT_EVERY_ITER).
  bool WaitEveryIteration = false;
  /// A read/write-like system call with a constant count of a few bytes
  /// that runs in every iteration: that count, else 0
  /// (VP_SITEF_SYSCALL_BYTES).
  unsigned SyscallBytes = 0;
};

/// One loop (or recursive function) of the module.
struct LoopRecord {
  uint64_t Id = 0, ParentId = 0;
  std::string Function;  ///< DISubprogram name of the loop's source
  std::string Linkage;   ///< its linkage name (same as Function for C)
  std::string Container; ///< the IR function holding the code
  std::string Host;      ///< its key (C++ linkage name, else name)
  std::string File;      ///< absolute, normalised
  unsigned Line = 0, Column = 0, EndLine = 0, Depth = 1;
  vp_loop_kind Kind = VP_LOOP_NATURAL;
  vp_loop_class Class = VP_CLASS_ZERO_STAR;
  uint16_t Flags = 0;
  /// VP_LOOPF_INDIRECT: the class without the indirect-only blocks.
  vp_loop_class DirectClass = VP_CLASS_ZERO_STAR;
  /// VP_LOOPF_UNROLLED: source iterations per iteration (2..255).
  unsigned UnrollFactor = 0;
  /// VP_LOOPF_BUCKET_CHAIN: the line of the load of the chain's head.
  unsigned BucketLine = 0;
  unsigned SpinLine = 0;        ///< VP_LOOPF_SPIN: the atomic's line
  std::vector<SiteRecord> Sites;

  /// For instrumentation; valid until the function is modified.
  llvm::Function *F = nullptr;
  llvm::BasicBlock *Header = nullptr; ///< null for recursion
  std::vector<llvm::BasicBlock *> BodyBlocks;
  /// Body blocks whose only side effects are calls through pointers, with
  /// those calls (VP_LOOPF_INDIRECT).
  std::vector<std::pair<llvm::BasicBlock *, std::vector<llvm::CallBase *>>> IndirectOnly;
  /// Body blocks whose only results are selects that keep the old value on
  /// one arm, with those selects and whether that arm is the true one: a
  /// result only when some select takes its other arm.
  using KeepSelects = std::vector<std::pair<llvm::SelectInst *, bool>>;
  std::vector<std::pair<llvm::BasicBlock *, KeepSelects>> KeepOrUpdate;
};

struct LoopClassInfo {
  std::vector<LoopRecord> Loops;
  /// Address-taken functions of the module that write nothing a caller
  /// can see (summary WE_None): a call through a pointer to one of them is
  /// no side effect (LoopProbes.cpp registers them with the runtime).
  std::vector<llvm::Function *> PureFunctions;

  bool invalidate(llvm::Module &, const llvm::PreservedAnalyses &PA,
                  llvm::ModuleAnalysisManager::Invalidator &);
};

/// Classifies every natural loop and directly recursive function.
class LoopClassAnalysis : public llvm::AnalysisInfoMixin<LoopClassAnalysis> {
  friend llvm::AnalysisInfoMixin<LoopClassAnalysis>;
  static llvm::AnalysisKey Key;

public:
  using Result = LoopClassInfo;
  Result run(llvm::Module &M, llvm::ModuleAnalysisManager &MAM);
};

/// Inserts the gated loop probes (LoopProbes.cpp).
class LoopProbesPass : public llvm::PassInfoMixin<LoopProbesPass> {
public:
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &MAM);
  static bool isRequired() { return true; }
};

/// Writes the `.vprof.loops` section, prints with -vprof-print-loops
/// (LoopTable.cpp).
class LoopTablePass : public llvm::PassInfoMixin<LoopTablePass> {
public:
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &MAM);
  static bool isRequired() { return true; }
};

/// Last of all vprof passes (registerFinalPasses): calls of a function from
/// its own gated clone go to the clone (redirectGatedSelfCalls).
class ProbedSelfCallsPass : public llvm::PassInfoMixin<ProbedSelfCallsPass> {
public:
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &MAM);
  static bool isRequired() { return true; }
};

const char *loopClassName(vp_loop_class C);

} // namespace vprof

#endif // VPROF_LOOPCLASS_PASSES_H
