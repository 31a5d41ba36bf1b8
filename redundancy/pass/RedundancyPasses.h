//===- RedundancyPasses.h - source instructions and value probes ----------===//
//
// Private to redundancy/pass.  findLoopSources() computes, for one loop,
// LDoctor's source instructions (paper section 3.2.2) for the cross-iteration
// and cross-loop variants, with the pruning of section 3.2.5.
// RedundancyPass (RedundancyProbes.cpp) analyses every loop, inserts the
// sampled value probes and writes `.vprof.redund` (RedundancyTable.cpp).
//
//===----------------------------------------------------------------------===//
#ifndef VPROF_REDUNDANCY_PASSES_H
#define VPROF_REDUNDANCY_PASSES_H

#include "vprof/SideEffects.h"
#include "vprof/format.h"

#include "llvm/IR/PassManager.h"
#include "llvm/IR/ValueHandle.h"

#include <string>
#include <vector>

namespace llvm {
class AAResults;
class CallInst;
class MemorySSA;
class Type;
class Value;
} // namespace llvm

namespace vprof {

/// One source instruction (or outside value) of a loop.
struct SourceInfo {
  llvm::Value *V = nullptr;  ///< Instruction or Argument
  vp_redund_source_kind Kind = VP_SRC_LOAD;
  vp_redund_decision CI = VP_SRCD_NONE, CL = VP_SRCD_NONE;
  unsigned Depth = 0;        ///< call depth, 0 = the loop's function
  uint32_t Id = 0;           ///< per loop; bit 31 for callee sources
  unsigned Line = 0, Column = 0;
  std::string Function;
  /// VP_SRC_STRIDE with a constant step: the step in bytes (then nothing
  /// is recorded); 0 for a step known only at run time.
  int64_t ConstantStride = 0;
};

/// The static redundancy result of one loop.
struct LoopSources {
  uint64_t LoopId = 0;
  std::string Function, File;
  unsigned Line = 0, Column = 0;
  std::vector<SourceInfo> Sources;
  /// In-body side-effect instructions (probed to count writes per instance).
  std::vector<llvm::Instruction *> SideEffects;
  /// Their line:column, for -vprof-print-sources (taken before the IR
  /// changes).
  std::vector<std::pair<unsigned, unsigned>> SideEffectLocs;
  bool IVSource = false;       ///< a cross-iteration source is an IV of the loop
  unsigned IVLine = 0;
  bool IOEveryIteration = false;
  bool SideEffectInInner = false;
  /// Every in-body side effect writes one location fixed for the instance
  /// (VP_REDF_SE_FIXED).
  bool FixedWriteLocations = false;
  /// Constant work (VP_REDF_CL_CONST): the cross-loop slice stops nowhere
  /// (every value the loop writes comes from constants and its own
  /// iteration count) and the loop writes only module-private globals that
  /// no other source line writes: every instance writes again what the one
  /// before it wrote.  The first such global's name, or "".
  std::string ConstantObject;
  bool Probed = false;
  bool OverBudget = false;     ///< left unprobed by the copy budget
  bool Recursion = false;      ///< a recursive function, one call an iteration
  /// A repeated-call unit: `Call` (in the analysed function), in the loop
  /// at index `Parent` of the result vector, to a function with loops or
  /// recursion; one call an iteration, its arguments and the callee's
  /// sources the signature.
  bool CallSite = false;
  /// For a unit calling a C library scan (strlen, memcmp, ...): its entry
  /// in the pass's table, whose bytes read are part of the signature; -1
  /// for a call of a function of the module.
  int LibScan = -1;
  /// The scan is a copy (LibScan::Copy): VP_REDF_COPY.
  bool Copy = false;
  /// The call is a setup call (LibScan::Setup): VP_REDF_SETUP.
  bool Setup = false;
  /// The call is a math call (LibScan::Pure): VP_REDF_PURE.
  bool Pure = false;
  /// The copy is a sort (LibScan::Size): VP_REDF_SORT.
  bool Sort = false;
  /// A setup call lifted from the callee `Via` (a function of the module
  /// with no loop around it, run on every call): `Call` calls `Via`, and
  /// the setup call's argument A is `Via`'s parameter LiftedArgs[A].first
  /// (the value `Call` passes), or the constant .second when that is -1
  /// ("Setup calls made again" in docs/redundancy.md).
  std::string Via;
  std::vector<std::pair<int, llvm::Constant *>> LiftedArgs;
  /// A copy lifted from the callee `Via` (a loop-free function of the
  /// module, pop's memmove): the copy call in `Via`, which the unit's probe
  /// goes before in a copy of `Via` made for this call ("Copies in a
  /// helper" in docs/redundancy.md); null otherwise.
  llvm::WeakTrackingVH LiftedCopy;
  /// The line in `Via` of the call lifted from it (VP_SRC_VIA).
  unsigned ViaLine = 0;
  llvm::WeakTrackingVH Call; ///< null if the call was deleted meanwhile
  size_t Parent = 0;
  uint32_t ProbeIndex = ~0u;
};

/// Everything findLoopSources needs about the loop's function.
struct FunctionAnalyses {
  llvm::DominatorTree *DT;
  llvm::PostDominatorTree *PDT;
  llvm::LoopInfo *LI;
  llvm::ScalarEvolution *SE;
  llvm::MemorySSA *MSSA;
  llvm::AAResults *AA;
};

/// Computes the source instructions of `L`.  `PDTOf` gives the
/// post-dominator tree of a called function (slicing into callees).
/// `CalleeIds` numbers callee sources module-wide (bit 31 set).
LoopSources findLoopSources(
    llvm::Loop &L, const LoopSideEffects &E, const FunctionAnalyses &FA,
    llvm::function_ref<llvm::PostDominatorTree &(llvm::Function &)> PDTOf,
    llvm::DenseMap<llvm::Value *, uint32_t> &CalleeIds);

/// The sources of the directly recursive function `F`, one call being one
/// iteration: its arguments and its reads of memory outside its frame, for
/// the cross-iteration variant only.
LoopSources findRecursionSources(llvm::Function &F);

/// The analysis + instrumentation + section pass (one module pass, so that
/// the instruction pointers of the analysis stay valid for the probes).
class RedundancyPass : public llvm::PassInfoMixin<RedundancyPass> {
public:
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &MAM);
  static bool isRequired() { return true; }
};

/// Writes the `.vprof.redund` section of the module (RedundancyTable.cpp).
void emitRedundancySection(llvm::Module &M,
                           const std::vector<LoopSources> &Loops);

/// Prints the sources for -vprof-print-sources (RedundancyTable.cpp).
void printLoopSources(llvm::raw_ostream &OS, const LoopSources &LS);

const char *sourceKindName(vp_redund_source_kind K);
const char *decisionName(vp_redund_decision D);

/// How many 64-bit words the probes send for a value of type \p Ty (0: not
/// recordable).  Integers, floating point and pointers; wider integers and
/// floating point in 64-bit pieces, low first; a fixed vector lane by lane,
/// in lane order, so that a vectorized loop sends the values its scalar
/// form would; a struct or array (a call's `{ i64, i64 }` result) field by
/// field (docs/redundancy.md, "Vector sources").  At most kMaxRecordWords
/// words.
unsigned recordWords(llvm::Type *Ty);
constexpr unsigned kMaxRecordWords = 64;

} // namespace vprof

#endif // VPROF_REDUNDANCY_PASSES_H
