//===- SideEffects.h - side-effect instructions of loops and recursion ---===//
//
// The LDoctor side-effect analysis (paper section 3.1.1), shared by the
// loopclass passes and the redundancy pass.  A side-effect instruction is one
// whose effect is visible after the loop:
//   - a write to memory that is not private to the loop (globals, heap,
//     pointer arguments, escaping locals, and function locals whose value is
//     read after the loop);
//   - a call to a function that may write such memory (a module-wide mod/ref
//     summary, LLVM function attributes, and a list of known-pure libc
//     functions), to an external function, or through a pointer;
//   - a value computed in the loop and used after it (a result).
// docs/loopclass.md gives the precise rules and examples.
//
//===----------------------------------------------------------------------===//
#ifndef VPROF_SIDEEFFECTS_H
#define VPROF_SIDEEFFECTS_H

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/IR/Instruction.h"

#include <cstdint>

namespace llvm {
class BasicBlock;
class CallBase;
class DominatorTree;
class Function;
class Instruction;
class Loop;
class LoopInfo;
class Module;
class PostDominatorTree;
class ScalarEvolution;
class Value;
} // namespace llvm

namespace vprof {

/// What a function may write, as seen by its callers.  A bit set.
enum WriteEffect : uint8_t {
  WE_None = 0,   ///< writes nothing its callers can observe
  WE_ArgMem = 1, ///< writes only memory reachable from its pointer arguments
  WE_Other = 2,  ///< writes globals, heap or unknown memory
};

/// Interprocedural summary of which functions write non-local memory,
/// computed bottom-up over the call graph SCCs of one module.  Writes to a
/// function's own stack frame are invisible to its callers and ignored.
class ModRefSummary {
public:
  explicit ModRefSummary(llvm::Module &M);

  /// The write effect of calling `F` (declarations included).
  uint8_t effectOf(const llvm::Function &F) const;

  /// For a WE_ArgMem function: whether it may write through its pointer
  /// argument `ArgNo` (a pointer it only reads through, or only passes to
  /// callees that read through it, is not written).  Declarations: unless
  /// the parameter is `readonly`/`readnone`.  True when unknown.
  bool mayWriteArg(const llvm::Function &F, unsigned ArgNo) const;

  /// True if `Name` is a C library function on the known-pure list: it
  /// writes no memory (docs/loopclass.md lists them; math functions that set
  /// errno are on the list: errno writes are ignored).
  static bool isKnownPure(llvm::StringRef Name);

  /// True if `Name` is a C library I/O function (printf, fwrite, write...).
  static bool isIOFunction(llvm::StringRef Name);

  /// True if `Name` is a C library function whose purpose is to wait: for
  /// input to arrive (poll, select, accept...), for time to pass, or for
  /// another thread or process.  Reads are not.
  static bool isWaitFunction(llvm::StringRef Name);

private:
  uint8_t computeDeclaration(const llvm::Function &F) const;
  uint8_t computeDefinition(const llvm::Function &F, uint64_t &Args) const;
  uint8_t pointerEffect(const llvm::Value *Ptr, uint64_t &Args) const;
  llvm::DenseMap<const llvm::Function *, uint8_t> Effects;
  /// Bit i: may write through argument i; bit 63 stands for every argument
  /// from 63 on.  Definitions only (absent: every argument).
  llvm::DenseMap<const llvm::Function *, uint64_t> WrittenArgs;
};

/// Same values as enum vp_site_kind in vprof/format.h.
enum class SiteKind : uint8_t {
  Store = 0,
  Call = 1,
  External = 2,
  Indirect = 3,
  LiveOut = 4,
  Return = 5,
};

const char *siteKindName(SiteKind K);

/// One side-effect instruction.  For live-out results `Inst` is the
/// instruction that computes (or, for an induction variable, updates) the
/// value, possibly a phi; a live-out the function returns is a `Return`
/// site.  For an exit-choice result it is the `ret` or the first
/// instruction of the exit block.
struct SideEffectSite {
  llvm::Instruction *Inst = nullptr;
  SiteKind Kind = SiteKind::Store;
  bool InBody = true;      ///< inside the loop body, not on the way out
  llvm::StringRef Callee;  ///< for calls: the callee's name ("" if indirect)
  /// A live-out update that is a select keeping the old value (the header
  /// phi) on one arm, on the arm given: `m = c ? x : m`, the compiler's
  /// if-conversion of `if (c) m = x;`.  Its iteration has a result only
  /// when it takes the other arm (docs/loopclass.md, "Selects").
  bool KeepsOld = false, KeepsOnTrue = false;
  /// Where the result happens when that is not `Inst`'s block: for a value
  /// that a phi of the loop takes from one predecessor while another keeps
  /// the old value (the branch form of `if (c) m = x;`), that predecessor.
  llvm::BasicBlock *Block = nullptr;
  llvm::BasicBlock *block() const { return Block ? Block : Inst->getParent(); }
};

/// The side effects of one loop (or of one recursive function).
struct LoopSideEffects {
  llvm::SmallVector<SideEffectSite, 8> Sites;
  /// Blocks of the loop that hold an in-body side-effect instruction: the
  /// `side_effect_blocks` of LDoctor.
  llvm::SmallPtrSet<llvm::BasicBlock *, 8> BodyBlocks;
  /// Blocks that hold a result on the way out: outside the loop, or (for a
  /// live-out value) the loop block that computes it.
  llvm::SmallPtrSet<llvm::BasicBlock *, 8> ExitBlocks;
  /// A live-out induction (cursor) variable is a result on exit.
  bool LiveOutIV = false;
  /// Every call site is an I/O call and there are no stores.
  bool IOOnly = false;
};

/// Side-effect instructions of the natural loop `L` of function `F`.
/// Works on SSA form (after mem2reg) and on -O0 code where locals live in
/// allocas; does not modify the IR.  `SE` may be null (no induction
/// variable recognition beyond the exit-condition rule).
LoopSideEffects findLoopSideEffects(llvm::Loop &L, const ModRefSummary &S,
                                    llvm::DominatorTree &DT,
                                    llvm::PostDominatorTree &PDT,
                                    llvm::LoopInfo &LI,
                                    llvm::ScalarEvolution *SE);

/// True if `BB`, a block of loop `L`, runs in every iteration: it dominates
/// every latch (LDoctor 3.2.6, "the same statement is executed in every
/// loop iteration").  False for a loop without a latch.
bool runsInEveryIteration(const llvm::BasicBlock *BB, const llvm::Loop &L,
                          const llvm::DominatorTree &DT);

/// True if `F` calls itself directly.
bool isDirectlyRecursive(const llvm::Function &F);

/// Side effects of a directly recursive function, one call being one
/// iteration: the recursive calls themselves are not side effects, the
/// function's own stack frame is private, a returned value is a result
/// (in the body if it is computed after a recursive call, on the way out
/// otherwise).
LoopSideEffects findRecursionSideEffects(llvm::Function &F,
                                         const ModRefSummary &S);

} // namespace vprof

#endif // VPROF_SIDEEFFECTS_H
