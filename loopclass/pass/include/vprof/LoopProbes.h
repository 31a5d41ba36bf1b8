//===- LoopProbes.h - the gated clone that holds every loop probe ---------===//
//
// A function with probed loops gets one clone, `F.vprof_probed` (internal,
// noinline), and a gate byte `__vprof_loop_gate.F`; the original starts
// with one load and one well-predicted branch that enters the clone when
// the runtime sets the gate (docs/loopclass.md, "Probe scheme and cost").
// loopclass's counters and redundancy's value probes share that clone:
// whichever pass runs first makes it, the other finds it here.
//
//===----------------------------------------------------------------------===//
#ifndef VPROF_LOOPPROBES_H
#define VPROF_LOOPPROBES_H

#include "llvm/IR/IRBuilder.h"
#include "llvm/Transforms/Utils/ValueMapper.h"

namespace llvm {
class Function;
class GlobalVariable;
} // namespace llvm

namespace vprof {

/// Marks `I` as a probe instruction (metadata `!vprof.probe`): the
/// side-effect analysis ignores probes, so a clone that holds one pass's
/// probes looks to the next like the program.
void markProbe(llvm::Instruction &I);

/// True if `I` was inserted by a vprof probe (markProbe).
bool isProbeInstruction(const llvm::Instruction &I);

/// An IRBuilder inserter that marks every instruction it inserts.
class ProbeInserter : public llvm::IRBuilderDefaultInserter {
public:
  void InsertHelper(llvm::Instruction *I, const llvm::Twine &Name,
                    llvm::BasicBlock *BB,
                    llvm::BasicBlock::iterator InsertPt) const override {
    llvm::IRBuilderDefaultInserter::InsertHelper(I, Name, BB, InsertPt);
    markProbe(*I);
  }
};

/// Builds probe instructions.
using ProbeBuilder = llvm::IRBuilder<llvm::ConstantFolder, ProbeInserter>;

/// True if `F` is a probe clone (made by makeProbedClone): analyses skip it.
bool isProbedClone(const llvm::Function &F);

/// True if every call of `F` can be forwarded to a copy of it with an
/// ordinary call of the same arguments, which varargs, musttail, inalloca
/// and friends do not allow; block addresses would refer to the original.
bool canForwardCalls(llvm::Function &F);

/// True if `F` can be cloned and entered from its gate: a definition that
/// canForwardCalls accepts.  False for a clone.
bool canProbeFunction(llvm::Function &F);

/// An internal, never-inlined copy of `F` named `F` + `Suffix`, marked as a
/// probe clone (isProbedClone: analyses skip it).  `VMap` maps `F`'s values
/// to the copy's.
llvm::Function *cloneForProbes(llvm::Function &F, llvm::ValueToValueMapTy &VMap,
                               llvm::StringRef Suffix);

/// The first instruction of `F`'s entry block after its static allocas,
/// where code that runs on every call goes.
llvm::Instruction *afterStaticAllocas(llvm::Function &F);

/// Replaces the terminator `Term` of a block of `F` by
/// `return Copy(F's arguments...)` (a tail call unless an argument is
/// byval); `Copy` is a copy of `F` (cloneForProbes).
void returnCallOf(llvm::Function &F, llvm::Function &Copy, llvm::Instruction *Term);

/// The gated clone of `F` and its gate byte.
struct ProbedClone {
  llvm::Function *Clone = nullptr;
  llvm::GlobalVariable *Gate = nullptr;
  explicit operator bool() const { return Clone && Gate; }
};

/// The clone of `F` made by makeProbedClone, if any (both members null
/// otherwise).
ProbedClone findProbedClone(llvm::Function &F);

/// Clones `F` (which canProbeFunction accepts) into `F.vprof_probed` and
/// creates its gate, closed.  `VMap` maps `F`'s values to the clone's.  The
/// original is not gated yet: call insertGate once the clone is
/// instrumented, or erase both if nothing was.
ProbedClone makeProbedClone(llvm::Function &F, llvm::ValueToValueMapTy &VMap);

/// Makes the original `F` enter `PC.Clone` when its gate byte is set:
///   entry: <allocas>; %on = load i8 gate; br %on, probed, orig (1:2^20)
///   probed: %r = call clone(args...); ret %r
void insertGate(llvm::Function &F, const ProbedClone &PC);

/// In `C`, a copy of a gated function made after insertGate, the gate is
/// taken as closed: the test folds away, and the call of the probed clone
/// with it.
void foldClosedGate(llvm::Function &C, llvm::GlobalVariable *Gate);

/// In every gated clone `F.vprof_probed`, and every copy made from it (its
/// name extended: `.vprec`), direct calls of the original `F` call the clone
/// instead: the clone runs only when F's gate is set, so the original would
/// test the gate and forward the call again (a recursive function paid its
/// whole prologue and the test on every recursive call: 14 % of gcc27733's
/// time with synth_mult selected).  Then a gated function that calls itself
/// gets a copy without the test, `F.vprof_body`, which its recursive calls
/// (in F and in the copy) call.  Run after
/// every pass that analyses or copies the clones.  Returns whether anything
/// changed.
bool redirectGatedSelfCalls(llvm::Module &M);

} // namespace vprof

#endif // VPROF_LOOPPROBES_H
