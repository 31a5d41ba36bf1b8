//===- LoopIds.h - stable ids and source positions of loops ---------------===//
//
// The loop id joins every loop-stage record (`.vprof.loops`, the probe
// descriptors, `.vprof.redund`, the profile sections): a 64-bit xxHash of
// (file, linkage name, line, column, ordinal), the ordinal counting equal
// keys in module order (docs/loopclass.md, "Section layouts").  Every pass
// that names a loop takes its position and id from here.
//
//===----------------------------------------------------------------------===//
#ifndef VPROF_LOOPIDS_H
#define VPROF_LOOPIDS_H

#include "llvm/ADT/StringMap.h"

#include <cstdint>
#include <string>

namespace llvm {
class DILocation;
class Function;
class Loop;
} // namespace llvm

namespace vprof {

/// Where a loop (or a recursive function) is in the source.
struct LoopSource {
  std::string Function; ///< DISubprogram name of the loop's source
  std::string Linkage;  ///< its linkage name (same as Function for C)
  std::string File;     ///< absolute, normalised
  unsigned Line = 0, Column = 0;
};

/// The source position of a loop whose start location is `Loc` (the
/// `llvm.loop` start location, or null) in IR function `F`.  The location's
/// own subprogram names the function, so a loop inlined from `g` into `f` is
/// `g`'s loop.  Without `Loc` (recursion, or a loop made by the optimiser)
/// the position is the line of `F`'s subprogram, column 0.
LoopSource loopSourceOf(const llvm::DILocation *Loc, const llvm::Function &F);

/// Where a natural loop starts and ends in the source.
struct LoopLocation {
  const llvm::DILocation *Start = nullptr; ///< null: no debug location
  unsigned EndLine = 0;                    ///< 0: unknown
};

/// The position of loop `L`: the `llvm.loop` range clang attaches to every
/// loop when there is one.  The optimiser drops it when it rebuilds a
/// loop's back edge (a peeled or jump-threaded `for (;;)`); LLVM's fallback,
/// the preheader's or header's branch, then often carries the line of a
/// loop nested in `L`, so that two loops share one line.  In that case the
/// position is the innermost lexical block (the `for`/`while` statement or
/// its body) that holds every instruction of `L` outside its subloops
/// (docs/loopclass.md, "Loop positions").  Every pass that names a loop
/// takes its position from here, on the original function or on a copy.
LoopLocation loopLocationOf(const llvm::Loop &L);

/// True if `L` is the loop tail-recursion elimination made of a directly
/// recursive function's tail call (`return c + f(l) + f(r)`: the call on `r`
/// becomes a back edge to the old entry), so that its iterations are calls
/// of the source.  Recognised by what TRE leaves: a top-level loop with no
/// `llvm.loop` location (clang gives every source loop one under -g) whose
/// header has a phi that a `dbg.value` describes as a parameter of `F`
/// itself (TRE replaces each argument by such a phi).  Without variable
/// debug info, false.  The caller checks that `F` is directly recursive.
bool isTailRecursionLoop(const llvm::Loop &L, const llvm::Function &F);

/// True if the loops of `F` enter the loop table and get ids: definitions
/// of the module other than available_externally ones and probe clones.
bool isLoopTableFunction(const llvm::Function &F);

/// Assigns loop ids in module order.  One assigner per module, fed every
/// loop (natural loops in preorder, recursive functions before their
/// function's loops) in the order of the loop table, so that every pass
/// computes the same ids.
class LoopIdAssigner {
  llvm::StringMap<unsigned> Seen;

public:
  /// The id of the next loop at `S`; never 0 (0 means "no parent").
  uint64_t assign(const LoopSource &S);
};

} // namespace vprof

#endif // VPROF_LOOPIDS_H
