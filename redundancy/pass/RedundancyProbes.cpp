//===- RedundancyProbes.cpp - sampled value probes for redundancy --------===//
//
// Analyses every loop (SourceSlicing.cpp) and instruments it with LDoctor's
// sampled record-and-compare (paper section 3.2.4): each loop gets a
// recording copy of its body; a per-thread countdown in the header sends one
// iteration in ~1000 into the copy (cross-iteration) and one in ~1000
// instances, with the instance after it, through it for all iterations
// (cross-loop).  The probes live in the gated clone of the function
// (loopclass's clone when it exists), so an unselected function pays only
// the gate.  docs/redundancy.md explains the scheme and why it is cheap.
//
//===----------------------------------------------------------------------===//

#include "RedundancyPasses.h"
#include "vprof/LoopIds.h"
#include "vprof/RuntimeRefs.h"
#include "vprof/LoopProbes.h"

#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/Statistic.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Analysis/AliasAnalysis.h"
#include "llvm/Analysis/CFG.h"
#include "llvm/Analysis/ConstantFolding.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/MemorySSA.h"
#include "llvm/Analysis/PostDominators.h"
#include "llvm/Analysis/ScalarEvolution.h"
#include "llvm/Analysis/ScalarEvolutionExpressions.h"
#include "llvm/Analysis/TargetTransformInfo.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/DebugInfoMetadata.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Intrinsics.h"
#include "llvm/IR/MDBuilder.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/Verifier.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/Debug.h"
#include "llvm/Support/xxhash.h"
#include "llvm/Transforms/Utils/BasicBlockUtils.h"
#include "llvm/Transforms/Utils/Cloning.h"
#include "llvm/Transforms/Utils/Local.h"
#include "llvm/Transforms/Utils/LoopSimplify.h"
#include "llvm/Transforms/Utils/LoopUtils.h"
#include "llvm/Transforms/Utils/ModuleUtils.h"
#include "llvm/IR/DiagnosticInfo.h"
#include "llvm/Transforms/Utils/PromoteMemToReg.h"
#include "llvm/Transforms/Utils/ValueMapper.h"

#include <map>

#define DEBUG_TYPE "vprof-redundancy"

using namespace llvm;

STATISTIC(NumProbedLoops, "Number of loops given redundancy probes");
STATISTIC(NumOwnClones, "Number of functions cloned by the redundancy pass");
STATISTIC(NumCallUnits, "Number of repeated-call units");
STATISTIC(NumOverBudget, "Number of loops left unprobed by the copy budget");
STATISTIC(NumTailRecLoops, "Number of tail-recursion loops left to the per-call probes");
STATISTIC(NumMonotonicMath, "Number of math calls left without a unit: an argument never repeats");

static cl::opt<bool> PrintSources(
    "vprof-print-sources", cl::init(false), cl::Hidden,
    cl::desc("Print the source instructions of every loop to stderr"));
static cl::opt<bool>
    EnableProbes("vprof-redundancy-probes", cl::init(true), cl::Hidden,
                 cl::desc("Insert the redundancy value probes (default on)"));
static cl::opt<bool> EnableCallUnits(
    "vprof-repeated-calls", cl::init(true), cl::Hidden,
    cl::desc("Sample a loop's calls of functions with a loop as "
             "repeated-call units (default on)"));
static cl::opt<bool> EnablePrefixPairs(
    "vprof-prefix-pairs", cl::init(true), cl::Hidden,
    cl::desc("Sample consecutive calls of a C library string scan as pairs "
             "of chunk hashes, to find a string scanned again from its start "
             "(default on)"));
static cl::opt<bool> LiftCopies(
    "vprof-lift-copies", cl::init(true), cl::Hidden,
    cl::desc("Make the copy (memmove, memcpy, qsort, ...) of a loop-free "
             "helper a loop calls a unit of that loop, probed in a copy of the "
             "helper made for the call (default on)"));
static cl::opt<unsigned> LiftCopyMaxInsts(
    "vprof-lift-copy-max-insts", cl::init(256), cl::Hidden,
    cl::desc("The largest helper, in instructions, whose copy is lifted to "
             "its caller's loop (each lifted call copies the helper)"));
static cl::opt<unsigned> CopyBudget(
    "vprof-redundancy-copy-budget", cl::init(2), cl::Hidden,
    cl::desc("The loops' recording copies may add at most this many times "
             "the instructions of their function (and at least "
             "-vprof-redundancy-copy-min); 0: no limit"));
static cl::opt<unsigned> CopyMin(
    "vprof-redundancy-copy-min", cl::init(2000), cl::Hidden,
    cl::desc("Instructions the recording copies may always add to a function"));
static cl::opt<bool> FuseLatch(
    "vprof-redundancy-fuse-latch", cl::init(false), cl::Hidden,
    cl::desc("Decide an iteration in the conditional latch of loops without "
             "strides, with one branch (default off: the header's `add; je` "
             "is as cheap on most loops, docs/redundancy.md \"One branch per "
             "iteration\")"));
static cl::opt<unsigned> Stride(
    "vprof-redundancy-stride", cl::init(4), cl::Hidden,
    cl::desc("Unsampled iterations of a small innermost loop run in blocks "
             "of this many with one countdown test (docs/redundancy.md, "
             "\"Strides\"); 0 or 1: a test per iteration"));
static cl::opt<unsigned> StrideMaxBody(
    "vprof-redundancy-stride-max-body", cl::init(32), cl::Hidden,
    cl::desc("Largest loop body (IR instructions) copied for strides"));
static cl::opt<bool> ParserUseLists(
    "vprof-redundancy-parser-uselists", cl::init(true), cl::Hidden,
    cl::desc("Put the probed clones' use lists in the IR parser's order "
             "(default on; off: benchmarks)"));
static cl::opt<bool> DisjointAdds(
    "vprof-redundancy-disjoint-adds", cl::init(true), cl::Hidden,
    cl::desc("Rewrite disjoint ors as adds in probed clones (default on; "
             "off: benchmarks)"));
static cl::opt<bool> NoPruning(
    "vprof-redundancy-no-pruning", cl::init(false), cl::Hidden,
    cl::desc("Record every source (ignore the static pruning; benchmarks)"));

namespace vprof {

namespace {

/// Whether a loop with cross-iteration sampling gets strides
/// (strideIterations): innermost, with a body of at most
/// -vprof-redundancy-stride-max-body instructions and no call (but of an
/// intrinsic).  An iteration that calls a function costs the call, next to
/// which the countdown is small, and four copies of a call site made
/// gcc46401's walk 5 % slower in time for 2.5 % fewer instructions.
bool stridable(const Loop &L) {
  if (Stride < 2 || !L.getSubLoops().empty())
    return false;
  size_t Size = 0;
  for (BasicBlock *BB : L.blocks())
    for (Instruction &I : *BB) {
      if (isa<CallBase>(I) && !isa<IntrinsicInst>(I))
        return false;
      Size += !isa<DbgInfoIntrinsic>(I);
    }
  return Size <= StrideMaxBody;
}

/// The code-size budget of the recording copies (docs/redundancy.md,
/// "Code-size budget"). Each probed loop gets a copy of its body, and an
/// outer loop's copy holds its inner loops' copies, so a nest of depth d
/// costs about 2^d times its innermost body: sqlite3.c's code grew 12.8x
/// and its compile went from 29 s to 8 minutes. Innermost loops first (the
/// order of the copies), a loop whose copy (its blocks and the copies of
/// the accepted loops inside it) would take the copies past the budget is
/// left without probes: Skip[i].  A loop with cross-iteration sampling
/// (CI[i]) that gets strides counts its fast copies too.
void overBudget(Function &F, LoopInfo &LI, ArrayRef<BasicBlock *> Headers,
                ArrayRef<std::pair<unsigned, size_t>> Order, const std::vector<bool> &CI,
                std::vector<bool> &Skip) {
  if (!CopyBudget)
    return;
  uint64_t Budget = std::max<uint64_t>(uint64_t(CopyBudget) * F.getInstructionCount(), CopyMin);
  std::vector<std::pair<unsigned, size_t>> Inner(Order.begin(), Order.end());
  std::stable_sort(Inner.begin(), Inner.end(),
                   [](auto &A, auto &B) { return A.first > B.first; });
  SmallVector<std::pair<Loop *, uint64_t>, 16> Copied;
  uint64_t Added = 0;
  for (auto &[Depth, i] : Inner) {
    Loop *L = Headers[i] ? LI.getLoopFor(Headers[i]) : nullptr;
    if (!L || L->getHeader() != Headers[i])
      continue;
    uint64_t Size = 0;
    for (BasicBlock *BB : L->blocks())
      Size += BB->size();
    if (CI[i] && stridable(*L))
      Size *= 1 + Stride; // the fast copies, and the recording copy
    for (auto &[C, CSize] : Copied)
      if (C != L && L->contains(C))
        Size += CSize;
    if (Added + Size > Budget) {
      Skip[i] = true;
      continue;
    }
    Added += Size;
    Copied.push_back({L, Size});
  }
}


/// What a probe inserted at a (copy of an) instruction does.
struct Tag {
  enum What : uint8_t { Value, Range, SideEffect } W;
  uint32_t Loop; ///< index in the module descriptor
  uint32_t Src;
  uint32_t Mode; ///< vp_red_value_mode bits for Value
};

/// Runtime entry points and the per-TU descriptor.
struct ProbeModule {
  Module &M;
  LLVMContext &Ctx;
  Type *I8, *I32, *I64, *I8Ptr, *I32Ptr, *Void;
  GlobalVariable *Desc = nullptr, *Slots = nullptr, *Active = nullptr;
  FunctionCallee IterFn, IterEndFn, IterEndNFn, IterEndRunFn, InstFn, InstEndFn, ValueFn, RangeFn,
      CalleeFn, EffectFn, EffectCallFn, BytesFn, PrefixFn;
  struct Entry {
    uint64_t Id;
    std::string Function, Container;
    GlobalVariable *Gate;
    uint32_t Flags;
  };
  std::vector<Entry> Entries;
  RuntimeStrings Strings{M, "__vprof_red_str"};
  /// Per function a recorded iteration may reach with callee sources on
  /// the way, the copy its recorded calls go to (insertCalleeCopies).
  DenseMap<Function *, Function *> CalleeCopy;

  explicit ProbeModule(Module &M);
  FunctionCallee weak(StringRef Name, Type *Ret, ArrayRef<Type *> Args);
  Constant *string(StringRef S) { return Strings.get(S); }
  void createSlots();
  Value *slot(IRBuilder<> &B, uint32_t Loop);
  Value *desc(IRBuilder<> &B) { return B.CreatePointerCast(Desc, I8Ptr); }
  void finish();
  Function *activeAddress();
};

} // namespace

ProbeModule::ProbeModule(Module &M) : M(M), Ctx(M.getContext()) {
  I8 = Type::getInt8Ty(Ctx);
  I32 = Type::getInt32Ty(Ctx);
  I64 = Type::getInt64Ty(Ctx);
  I8Ptr = Type::getInt8PtrTy(Ctx);
  I32Ptr = Type::getInt32PtrTy(Ctx);
  Void = Type::getVoidTy(Ctx);
  // struct vp_red_rt_module, initialised in finish()
  StructType *ModTy = StructType::get(Ctx, {I32, I32, I8Ptr, I64, I8Ptr, I8Ptr});
  Desc = new GlobalVariable(M, ModTy, false, GlobalValue::InternalLinkage,
                            nullptr, "__vprof_red_module");
  Desc->setAlignment(Align(8));
  IterFn = weak(VP_RED_RT_ITER, I32, {I8Ptr, I32, I32Ptr});
  IterEndFn = weak(VP_RED_RT_ITER_END, Void, {I8Ptr, I32});
  IterEndNFn = weak(VP_RED_RT_ITER_END_N, Void, {I8Ptr, I32, I32});
  IterEndRunFn = weak(VP_RED_RT_ITER_END_RUN, Void, {I8Ptr, I32, I32});
  InstFn = weak(VP_RED_RT_INSTANCE, Void, {I8Ptr, I32, I32Ptr});
  InstEndFn = weak(VP_RED_RT_INSTANCE_END, Void, {I8Ptr, I32, I32Ptr});
  ValueFn = weak(VP_RED_RT_VALUE, Void, {I8Ptr, I32, I32, I64, I32});
  RangeFn = weak(VP_RED_RT_RANGE, Void, {I8Ptr, I32, I32, I64});
  CalleeFn = weak(VP_RED_RT_CALLEE, Void, {I32, I64});
  EffectFn = weak(VP_RED_RT_EFFECT, Void, {I8Ptr, I32});
  EffectCallFn = weak(VP_RED_RT_EFFECT_CALL, Void, {I8Ptr, I32, I8Ptr});
  BytesFn = weak(VP_RED_RT_BYTES, Void, {I8Ptr, I32, I32, I8Ptr, I64, I32});
  PrefixFn = weak(VP_RED_RT_PREFIX, Void, {I8Ptr, I32, I32Ptr, I32, I8Ptr, I64});
  // The "sampling active" flag, shared by every TU of the executable
  // (linkonce_odr), read by the probes of called functions.
  Active = M.getNamedGlobal("__vprof_red_active");
  if (!Active) {
    Active = new GlobalVariable(M, I32, false, GlobalValue::LinkOnceODRLinkage,
                                ConstantInt::get(I32, 0), "__vprof_red_active",
                                nullptr, GlobalValue::InitialExecTLSModel);
  }
}

FunctionCallee ProbeModule::weak(StringRef Name, Type *Ret,
                                 ArrayRef<Type *> Args) {
  return declareWeakRuntimeFunction(M, Name, FunctionType::get(Ret, Args, false));
}


/// Whether a countdown just decremented to \p Cd has run out.  The runtime
/// only ever sets a countdown to 1 or more and every decrement is tested,
/// so it runs out exactly at 0; testing `== 0` rather than `<= 0` lets the
/// code generator fold a thread-local countdown's load, decrement, store
/// and test into `addl $-1, %fs:slot; je` (2 instructions instead of 5) and
/// a register's into `add; je` (docs/redundancy.md, "Countdowns run out at
/// 0").
static Value *runsOut(IRBuilder<> &B, Value *Cd) {
  return B.CreateICmpEQ(Cd, B.getInt32(0));
}

/// At \p B, before \p Before: decrements the i32 countdown at \p Field and,
/// when it ran out, goes (unlikely) to a new block; returns that block's
/// terminator, where the runtime call goes.
static Instruction *countDown(ProbeModule &PM, IRBuilder<> &B, Value *Field,
                              Instruction *Before) {
  Value *Left = B.CreateSub(B.CreateLoad(PM.I32, Field), B.getInt32(1));
  B.CreateStore(Left, Field);
  return SplitBlockAndInsertIfThen(runsOut(B, Left), Before, false,
                                   MDBuilder(PM.Ctx).createBranchWeights(1, 1u << 20));
}

/// Per thread, per loop: struct vp_red_rt_slot.  Both countdowns start at 1
/// so the first iteration and instance ask the runtime for a random gap.
void ProbeModule::createSlots() {
  ArrayType *SlotTy = ArrayType::get(I32, 4);
  Constant *Init = ConstantArray::get(
      SlotTy, {ConstantInt::get(I32, 1), ConstantInt::get(I32, 1),
               ConstantInt::get(I32, 0), ConstantInt::get(I32, 0)});
  ArrayType *AllTy = ArrayType::get(SlotTy, Entries.size());
  Slots = new GlobalVariable(
      M, AllTy, false, GlobalValue::InternalLinkage,
      ConstantArray::get(AllTy, std::vector<Constant *>(Entries.size(), Init)),
      "__vprof_red_slots", nullptr, GlobalValue::InitialExecTLSModel);
  Slots->setAlignment(Align(16));
}

Value *ProbeModule::slot(IRBuilder<> &B, uint32_t Loop) {
  return B.CreateInBoundsGEP(Slots->getValueType(), Slots,
                             {B.getInt32(0), B.getInt32(Loop), B.getInt32(0)});
}

/// static int32_t *__vprof_red_active_addr(void) { return &__vprof_red_active; }
/// The runtime calls it to find this thread's copy (module.active).
/// Points the direct calls in \p Blocks at their functions' callee copies
/// (insertCalleeCopies): the code of a recorded iteration calls the copies,
/// which send the callee sources, and the originals test nothing.
static void redirectRecordedCalls(ProbeModule &PM, ArrayRef<BasicBlock *> Blocks) {
  if (PM.CalleeCopy.empty())
    return;
  for (BasicBlock *B : Blocks)
    for (Instruction &I : *B)
      if (auto *CB = dyn_cast<CallBase>(&I))
        if (auto *G = dyn_cast<Function>(CB->getCalledOperand()))
          if (Function *C = PM.CalleeCopy.lookup(G))
            if (CB->getFunctionType() == C->getFunctionType())
              CB->setCalledOperand(C);
}

Function *ProbeModule::activeAddress() {
  Function *F = Function::Create(FunctionType::get(I32Ptr, false),
                                 GlobalValue::InternalLinkage,
                                 "__vprof_red_active_addr", M);
  F->addFnAttr(Attribute::NoUnwind);
  IRBuilder<> B(BasicBlock::Create(Ctx, "entry", F));
  B.CreateRet(B.CreatePointerCast(Active, I32Ptr));
  return F;
}

void ProbeModule::finish() {
  StructType *LoopTy = StructType::get(Ctx, {I64, I8Ptr, I8Ptr, I8Ptr, I32, I32});
  std::vector<Constant *> Loops;
  for (const Entry &E : Entries)
    Loops.push_back(ConstantStruct::get(
        LoopTy, {ConstantInt::get(I64, E.Id), string(E.Function),
                 string(E.Container), ConstantExpr::getPointerCast(E.Gate, I8Ptr),
                 ConstantInt::get(I32, E.Flags), ConstantInt::get(I32, 0)}));
  ArrayType *LoopsTy = ArrayType::get(LoopTy, Loops.size());
  auto *LoopsGV = new GlobalVariable(M, LoopsTy, true,
                                     GlobalValue::InternalLinkage,
                                     ConstantArray::get(LoopsTy, Loops),
                                     "__vprof_red_loops");
  auto *ModTy = cast<StructType>(Desc->getValueType());
  Desc->setInitializer(ConstantStruct::get(
      ModTy, {ConstantInt::get(I32, VP_RED_RT_VERSION),
              ConstantInt::get(I32, Loops.size()),
              ConstantExpr::getPointerCast(LoopsGV, I8Ptr),
              ConstantInt::get(I64, 0),
              ConstantPointerNull::get(cast<PointerType>(I8Ptr)),
              ConstantExpr::getPointerCast(activeAddress(), I8Ptr)}));

  // static void ctor(void) { if (&__vprof_red_register) __vprof_red_register(&desc); }
  FunctionCallee Reg = weak(VP_RED_RT_REGISTER, Void, {I8Ptr});
  addRuntimeRegistration(M, Reg, {ConstantExpr::getPointerCast(Desc, I8Ptr)},
                         "__vprof_red_ctor");
}

/// The value as 64 raw bits: integers zero-extended, pointers as addresses,
/// floating point as its bit pattern.
static Value *asI64(IRBuilder<> &B, Value *V) {
  Type *Ty = V->getType();
  if (Ty->isPointerTy())
    return B.CreatePtrToInt(V, B.getInt64Ty());
  if (Ty->isFloatingPointTy())
    V = B.CreateBitCast(V, B.getIntNTy(Ty->getPrimitiveSizeInBits()));
  return B.CreateZExtOrTrunc(V, B.getInt64Ty());
}

static bool canRecord(Value *V) { return recordWords(V->getType()) != 0; }

/// Calls \p Send with each 64-bit word of a recordable value (recordWords):
/// a scalar as asI64 gives it, a wider one in 64-bit pieces (low first), a
/// vector lane by lane, a struct or array field by field.
static void forEachWord(IRBuilder<> &B, Value *V,
                        function_ref<void(Value *)> Send) {
  Type *Ty = V->getType();
  if (auto *VT = dyn_cast<FixedVectorType>(Ty)) {
    for (unsigned i = 0, n = VT->getNumElements(); i != n; ++i)
      forEachWord(B, B.CreateExtractElement(V, B.getInt64(i)), Send);
    return;
  }
  if (Ty->isAggregateType()) {
    unsigned n = isa<StructType>(Ty) ? cast<StructType>(Ty)->getNumElements()
                                     : (unsigned)cast<ArrayType>(Ty)->getNumElements();
    for (unsigned i = 0; i != n; ++i)
      forEachWord(B, B.CreateExtractValue(V, i), Send);
    return;
  }
  unsigned Bits = Ty->isPointerTy() ? 64 : Ty->getPrimitiveSizeInBits().getFixedSize();
  if (Bits <= 64)
    return Send(asI64(B, V));
  if (Ty->isFloatingPointTy())
    V = B.CreateBitCast(V, B.getIntNTy(Bits));
  for (unsigned Lo = 0; Lo < Bits; Lo += 64)
    Send(B.CreateTrunc(Lo ? B.CreateLShr(V, Lo) : V, B.getInt64Ty()));
}

// ---------------------------------------------------------------------------
// Instrumentation of one function (the gated clone).
// ---------------------------------------------------------------------------

namespace {
class FunctionInstrumenter {
public:
  FunctionInstrumenter(ProbeModule &PM, Function &F) : PM(PM), F(F) {
    AllocaPt = &*F.getEntryBlock().getFirstInsertionPt();
  }
  DenseMap<Instruction *, SmallVector<Tag, 2>> Tags;
  /// Outside values recorded once per instance, per loop index.
  DenseMap<uint32_t, SmallVector<std::pair<uint32_t, Value *>, 4>> Once;
  /// Per loop index: the iteration countdown, kept in a register while an
  /// instance runs (loaded from the slot in the preheader, stored back at
  /// the exits and around the runtime call).
  DenseMap<uint32_t, AllocaInst *> Countdown;
  /// Per loop index without cross-iteration sampling: the preheader's
  /// branch into the header and the flag "this instance is recorded".
  DenseMap<uint32_t, std::pair<Instruction *, AllocaInst *>> NoCIEntry;
  /// The blocks that branch on NoCIEntry's flag (phase 2), threaded after
  /// promote() (threadNoCIFlags).
  SmallVector<WeakVH, 4> NoCIBranches;
  /// The blocks that end a recorded iteration on a way out of its loop
  /// (`vprof.red.iterend`), of every loop instrumented so far.
  SmallPtrSet<BasicBlock *, 16> EndBlocks;

  bool instrumentInstances(BasicBlock *Header, uint32_t Index);
  void instrumentIterations(BasicBlock *Header, uint32_t Index);
  void fuseLatchDecisions(BasicBlock *Header, BasicBlock *Rest,
                          ArrayRef<BasicBlock *> Blocks, AllocaInst *CdVar);
  void strideIterations(BasicBlock *Header, BasicBlock *Rest,
                        ArrayRef<BasicBlock *> Blocks,
                        const SmallPtrSetImpl<BasicBlock *> &InLoop,
                        AllocaInst *CdVar, unsigned K);
  void promote();
  void threadNoCIFlags();
  void disjointOrsToAdds();

private:
  ProbeModule &PM;
  Function &F;
  Instruction *AllocaPt;
  std::vector<AllocaInst *> Allocas;

  void demote(Loop &L);
  void copyTags(ArrayRef<BasicBlock *> Blocks, const ValueToValueMapTy &VMap);
  SmallVector<BasicBlock *, 16> cloneBody(ArrayRef<BasicBlock *> Blocks,
                                          ValueToValueMapTy &VMap,
                                          StringRef Suffix);
  void insertProbes(ArrayRef<BasicBlock *> Copy, uint32_t Index);
};

/// Fresh loop information of `F` (the instrumentation changes the CFG) and
/// the instrumentable loop `Header` heads (null if none).
struct LoopView {
  DominatorTree DT;
  LoopInfo LI;
  Loop *L;
  LoopView(Function &F, BasicBlock *Header);
};
} // namespace

/// Takes every SSA value of `L` that crosses a block boundary through a
/// stack slot, so the loop's blocks can be cloned without rewiring SSA;
/// promote() turns the slots back into registers at the end.  Tags follow
/// a demoted phi to the load that replaces it.
///
/// Phis go first: DemotePHIToStack replaces a phi by a load in its block,
/// and that load may itself be used in another block (an exit block reading
/// a flag the body set, as loopclass's HasResult is), so the cross-block
/// values are only known once every phi is gone.
void FunctionInstrumenter::demote(Loop &L) {
  SmallVector<PHINode *, 16> Phis;
  for (BasicBlock *B : L.blocks())
    for (PHINode &P : B->phis())
      Phis.push_back(&P);
  for (PHINode *P : Phis) {
    BasicBlock *B = P->getParent();
    auto It = Tags.find(P);
    SmallVector<Tag, 2> T;
    if (It != Tags.end()) {
      T = It->second;
      Tags.erase(It);
    }
    AllocaInst *Slot = DemotePHIToStack(P, AllocaPt);
    Allocas.push_back(Slot);
    if (T.empty())
      continue;
    for (Instruction &I : *B)
      if (auto *LdI = dyn_cast<LoadInst>(&I))
        if (LdI->getPointerOperand() == Slot) {
          Tags[LdI] = T;
          break;
        }
  }
  SmallVector<Instruction *, 32> Values;
  for (BasicBlock *B : L.blocks())
    for (Instruction &I : *B)
      for (User *U : I.users())
        if (cast<Instruction>(U)->getParent() != B || isa<PHINode>(U)) {
          Values.push_back(&I);
          break;
        }
  for (Instruction *I : Values)
    Allocas.push_back(DemoteRegToStack(*I, false, AllocaPt));
}

/// Gives the copies (\p VMap) of \p Blocks' instructions their tags, of
/// every loop.  (Collected first: inserting into Tags may move the vectors
/// an iterator points at.)
void FunctionInstrumenter::copyTags(ArrayRef<BasicBlock *> Blocks,
                                    const ValueToValueMapTy &VMap) {
  SmallVector<std::pair<Instruction *, SmallVector<Tag, 2>>, 16> New;
  for (BasicBlock *B : Blocks)
    for (Instruction &I : *B) {
      auto It = Tags.find(&I);
      if (It != Tags.end())
        if (auto *C = dyn_cast_or_null<Instruction>(VMap.lookup(&I)))
          New.push_back({C, It->second});
    }
  for (auto &[C, T] : New)
    Tags[C] = std::move(T);
}

/// A copy of a (demoted) loop body: \p Blocks cloned into \p VMap, their
/// instructions remapped to each other, and their tags, of every loop,
/// given to the copies.  Edges that leave \p Blocks still go where the
/// originals' do.
SmallVector<BasicBlock *, 16>
FunctionInstrumenter::cloneBody(ArrayRef<BasicBlock *> Blocks,
                                ValueToValueMapTy &VMap, StringRef Suffix) {
  SmallVector<BasicBlock *, 16> Copy;
  for (BasicBlock *B : Blocks) {
    BasicBlock *C = CloneBasicBlock(B, VMap, Suffix, &F);
    VMap[B] = C;
    Copy.push_back(C);
  }
  remapInstructionsInBlocks(Copy, VMap);
  copyTags(Blocks, VMap);
  return Copy;
}

/// Inserts the recording probes of loop `Index` into its recording copy.
void FunctionInstrumenter::insertProbes(ArrayRef<BasicBlock *> Copy,
                                        uint32_t Index) {
  for (BasicBlock *B : Copy) {
    SmallVector<std::pair<Instruction *, Tag>, 8> Work;
    for (Instruction &I : *B) {
      auto It = Tags.find(&I);
      if (It == Tags.end())
        continue;
      for (const Tag &T : It->second)
        if (T.Loop == Index)
          Work.push_back({&I, T});
    }
    for (auto &[I, T] : Work) {
      if (T.W != Tag::SideEffect && I->isTerminator())
        continue;
      // Only while the runtime still takes this kind of value (slot
      // .recording): an outer loop's copy runs its inner loops' every
      // iteration, and stops calling once the instance or signature is full.
      Instruction *Pos = T.W == Tag::SideEffect ? I : I->getNextNode();
      // Side effects are counted past the value cap (VP_RED_MODE_SE): the
      // writes per instance decide batching against memoization.
      uint32_t Bits = T.W == Tag::Value        ? T.Mode
                      : T.W == Tag::SideEffect ? (uint32_t)VP_RED_MODE_SE
                                               : (uint32_t)VP_RED_MODE_CL;
      IRBuilder<> Bld(Pos);
      Value *Rec = Bld.CreateLoad(
          PM.I32, Bld.CreateConstGEP1_32(PM.I32, PM.slot(Bld, Index), 3));
      Value *Wanted = Bld.CreateAnd(Rec, Bits);
      Instruction *Then = SplitBlockAndInsertIfThen(
          Bld.CreateICmpNE(Wanted, Bld.getInt32(0)), Pos, false);
      Bld.SetInsertPoint(Then);
      auto *ICall = dyn_cast<CallBase>(I);
      if (ICall && (ICall->getCalledFunction() || ICall->isInlineAsm() ||
                    isa<Function>(ICall->getCalledOperand()->stripPointerCasts())))
        ICall = nullptr;
      if (T.W == Tag::SideEffect && ICall) {
        // A call through a pointer: a write only for an impure callee.
        Bld.CreateCall(PM.EffectCallFn,
                       {PM.desc(Bld), Bld.getInt32(Index),
                        Bld.CreatePointerCast(ICall->getCalledOperand(), PM.I8Ptr)});
      } else if (T.W == Tag::SideEffect) {
        Bld.CreateCall(PM.EffectFn, {PM.desc(Bld), Bld.getInt32(Index)});
      } else if (T.W == Tag::Range) {
        Value *Ptr = getLoadStorePointerOperand(I); // a store: a stride's
        Bld.CreateCall(PM.RangeFn, {PM.desc(Bld), Bld.getInt32(Index),
                                    Bld.getInt32(T.Src), asI64(Bld, Ptr)});
      } else {
        // A source of both kinds passes the kinds still recorded, not both:
        // the runtime skips the frame search of a recorded instance's
        // iteration that is not a cross-iteration sample.  (With one kind
        // the test above makes it that kind.)
        uint32_t Src = T.Src;
        Value *Mode = isPowerOf2_32(T.Mode) ? Bld.getInt32(T.Mode) : Wanted;
        forEachWord(Bld, I, [&](Value *W) {
          Bld.CreateCall(PM.ValueFn, {PM.desc(Bld), Bld.getInt32(Index),
                                      Bld.getInt32(Src), W, Mode});
        });
      }
    }
  }
}

/// The loop `Header` heads, if its blocks can be cloned: simplified form
/// (preheader, dedicated exits), no EH pads, tokens, invokes or indirect
/// branches.  Null otherwise.
static Loop *instrumentable(LoopInfo &LI, BasicBlock *Header) {
  Loop *L = LI.getLoopFor(Header);
  if (!L || L->getHeader() != Header)
    return nullptr;
  if (!L->getLoopPreheader() || !L->hasDedicatedExits())
    return nullptr;
  for (BasicBlock *B : L->blocks()) {
    if (isa<IndirectBrInst>(B->getTerminator()) ||
        isa<CallBrInst>(B->getTerminator()) || B->isEHPad())
      return nullptr;
    for (Instruction &I : *B)
      if (I.getType()->isTokenTy() || isa<InvokeInst>(&I))
        return nullptr;
  }
  return L;
}

LoopView::LoopView(Function &F, BasicBlock *Header)
    : DT(F), LI(DT), L(instrumentable(LI, Header)) {}

/// The loop shape after instrumentation:
///   preheader:  if (--slot.instance_countdown <= 0) instance_sample();
///   header:     if (--slot.iter_countdown <= 0 && iter_sample()) goto copy;
///               <original body>                 (unchanged, no probe)
///   copy:       active++; <body with probes>; active--; iter_end();
///               back to the header, or to the exits
///   exits:      if (slot.instance_active) instance_end();
/// (a loop without cross-iteration sampling: no header decision, no exit
/// probe; below) so an iteration that is not sampled runs the original
/// body after one decrement and one well-predicted branch.
///
/// Phase 1 (this function, for every loop of the function before any copy
/// is made): the preheader's decision with the outside values recorded once
/// per instance, and the exits' instance end.  The outside values may be
/// computed in a sibling or enclosing loop; inserting their uses before any
/// loop is demoted and copied lets demote() route them through the copies.
/// Returns false if the loop cannot be instrumented.
bool FunctionInstrumenter::instrumentInstances(BasicBlock *Header,
                                               uint32_t Index) {
  LoopView V(F, Header);
  Loop *L = V.L;
  if (!L)
    return false;
  BasicBlock *Preheader = L->getLoopPreheader();
  SmallVector<BasicBlock *, 4> Exits;
  L->getUniqueExitBlocks(Exits);

  LLVMContext &Ctx = F.getContext();
  IRBuilder<> B(Ctx);
  MDNode *Unlikely = MDBuilder(Ctx).createBranchWeights(1, 1u << 20);
  Instruction *PT = Preheader->getTerminator();
  B.SetInsertPoint(PT);
  bool NoCI = PM.Entries[Index].Flags & VP_RED_RTF_NO_CI;
  AllocaInst *RecFlag = nullptr;
  if (NoCI) {
    RecFlag = new AllocaInst(B.getInt1Ty(), 0, "vprof.red.inst", AllocaPt);
    Allocas.push_back(RecFlag);
    B.CreateStore(B.getFalse(), RecFlag);
  }
  Value *Slot = PM.slot(B, Index);
  Instruction *Then = countDown(PM, B, B.CreateConstGEP1_32(PM.I32, Slot, 1), PT);
  B.SetInsertPoint(Then);
  B.CreateCall(PM.InstFn, {PM.desc(B), B.getInt32(Index), Slot});
  for (auto &[Src, V] : Once.lookup(Index))
    forEachWord(B, V, [&, Src = Src](Value *W) {
      B.CreateCall(PM.ValueFn, {PM.desc(B), B.getInt32(Index), B.getInt32(Src),
                                W, B.getInt32(VP_RED_MODE_CL)});
    });
  if (NoCI) {
    // Without cross-iteration sampling only a recorded instance records
    // iterations, all of them as one frame whose end (iter_end_n) ends the
    // instance too: an instance that is not recorded pays the instance
    // countdown and nothing else, not even at its exits.  instance_sample
    // leaves the iteration countdown at 1 when it records this instance
    // (and the first time, when it is still 1 from the slot's initialiser;
    // iter_sample then answers no).
    B.CreateStore(B.CreateICmpSLE(B.CreateLoad(PM.I32, Slot), B.getInt32(1)),
                  RecFlag);
    NoCIEntry[Index] = {PT, RecFlag};
    return true;
  }
  // The iteration countdown lives in a register for the instance (after the
  // instance decision, which may have set it).
  AllocaInst *Cd = new AllocaInst(PM.I32, 0, "vprof.red.cd", AllocaPt);
  Allocas.push_back(Cd);
  Countdown[Index] = Cd;
  B.SetInsertPoint(PT);
  B.CreateStore(B.CreateLoad(PM.I32, Slot), Cd);

  // Exits close a recorded instance.
  for (BasicBlock *E : Exits) {
    Instruction *At = &*E->getFirstInsertionPt();
    B.SetInsertPoint(At);
    Value *S3 = PM.slot(B, Index);
    B.CreateStore(B.CreateLoad(PM.I32, Cd), S3); // before instance_end sets it
    Value *On = B.CreateLoad(PM.I32, B.CreateConstGEP1_32(PM.I32, S3, 2));
    Instruction *T2 = SplitBlockAndInsertIfThen(
        B.CreateICmpNE(On, B.getInt32(0)), At, false, Unlikely);
    B.SetInsertPoint(T2);
    B.CreateCall(PM.InstEndFn, {PM.desc(B), B.getInt32(Index), S3});
  }
  return true;
}

/// The source location the code a probe adds to a loop's iteration takes:
/// the loop's own (its `for`/`while` line), else that of the header's
/// first instruction with a line (not a debug intrinsic: those carry the
/// variable's scope).  Code without one is line 0 in the line table, and a
/// profiler's samples on it fall outside every loop: the per-iteration
/// countdown of a pointer walk took 5 % of the walk's samples, which
/// vprof-loop then gave to the calling loop (fixsuggest.workflow,
/// 2026-11-23).
static DebugLoc loopLine(const Loop *L, BasicBlock *Header) {
  if (const DILocation *S = vprof::loopLocationOf(*L).Start; S && S->getLine())
    return DebugLoc(S);
  for (Instruction &I : *Header)
    if (!isa<DbgInfoIntrinsic>(I))
      if (const DebugLoc &DL = I.getDebugLoc(); DL && DL.getLine())
        return DL;
  return DebugLoc();
}

/// Phase 2, innermost loops first: the header's decision and the recording
/// copy of the body (so an outer copy contains the inner decision and copy).
void FunctionInstrumenter::instrumentIterations(BasicBlock *Header,
                                                uint32_t Index) {
  LoopView V(F, Header);
  Loop *L = V.L;
  if (!L) {
    // An inner loop's copy that leaves this loop directly (a `return` in
    // the inner loop) does so through its iteration-end block, which lies
    // outside this loop: the exit is no longer dedicated.  Split it again;
    // the exit probes of phase 1 stay in the old exit blocks, after the new
    // ones, so leaving through either path still ends the instance.
    Loop *Raw = V.LI.getLoopFor(Header);
    if (Raw && Raw->getHeader() == Header && Raw->getLoopPreheader() &&
        formDedicatedExitBlocks(Raw, &V.DT, &V.LI, nullptr, false))
      L = instrumentable(V.LI, Header);
  }
  assert(L && "phase 1 accepted the loop; phase 2 keeps its shape");
  if (!L)
    return;

  const bool Strided = stridable(*L); // before the demotion adds loads and stores
  demote(*L);
  std::vector<BasicBlock *> Blocks(L->block_begin(), L->block_end());
  const DebugLoc LoopDL = loopLine(L, Header); // while the loop is whole
  BasicBlock *Rest =
      Header->splitBasicBlock(Header->getFirstInsertionPt(), "vprof.red.body");
  for (BasicBlock *&B : Blocks)
    if (B == Header)
      B = Rest;
  SmallPtrSet<BasicBlock *, 32> InLoop(Blocks.begin(), Blocks.end());
  InLoop.insert(Header);

  // The recording copy.
  ValueToValueMapTy VMap;
  SmallVector<BasicBlock *, 16> Copy = cloneBody(Blocks, VMap, ".vprec");
  redirectRecordedCalls(PM, Copy);

  LLVMContext &Ctx = F.getContext();
  IRBuilder<> B(Ctx);
  auto ActiveAdd = [&](int D) {
    Value *A = B.CreateLoad(PM.I32, PM.Active);
    B.CreateStore(B.CreateAdd(A, B.getInt32(D)), PM.Active);
  };

  // Without cross-iteration sampling (an IV source, or nothing to record
  // per iteration) only a recorded instance runs the copy, and it runs it
  // for every iteration (below).  Then the whole instance is one runtime
  // frame: the copy's back edges count the iteration in a register and go
  // straight to the copy's header, and leaving the loop closes the frame
  // with the count (iter_end_n).  The runtime is called once per recorded
  // instance instead of twice per iteration (strend, mysql15811: ~6 % of
  // the run was iter_sample/iter_end).
  auto NoCIIt = NoCIEntry.find(Index);
  bool NoCI = NoCIIt != NoCIEntry.end();
  AllocaInst *Iters = nullptr;
  if (NoCI) {
    Iters = new AllocaInst(PM.I32, 0, "vprof.red.iters", AllocaPt);
    Allocas.push_back(Iters);
  }
  // With cross-iteration sampling, a recorded instance runs the copy in
  // runs: the iterations up to the next cross-iteration sample are one
  // runtime frame (iter_sample answers 2 and puts the run's length in the
  // countdown), the copy's back edges count them down in the countdown and
  // stay in the copy, and the frame's end says how many ran
  // (iter_end_run).  Before, each of them opened and ended a frame of its
  // own, about 180 instructions of runtime an iteration (docs/redundancy.md,
  // "Runs").
  AllocaInst *CdVar = Countdown.lookup(Index);
  AllocaInst *RunFlag = nullptr;
  if (!NoCI && CdVar) {
    Iters = new AllocaInst(PM.I32, 0, "vprof.red.iters", AllocaPt);
    RunFlag = new AllocaInst(Type::getInt1Ty(Ctx), 0, "vprof.red.run", AllocaPt);
    Allocas.push_back(Iters);
    Allocas.push_back(RunFlag);
    PM.Entries[Index].Flags |= VP_RED_RTF_RUNS;
  }
  auto *CopyRest = cast<BasicBlock>(VMap[Rest]);

  // A block that ends the recorded iteration and goes on to `To`.
  auto MakeEnd = [&](BasicBlock *To) {
    BasicBlock *E = BasicBlock::Create(Ctx, "vprof.red.iterend", &F);
    B.SetInsertPoint(E);
    ActiveAdd(-1);
    if (NoCI)
      B.CreateCall(PM.IterEndNFn, {PM.desc(B), B.getInt32(Index),
                                   B.CreateLoad(PM.I32, Iters)});
    else if (RunFlag)
      B.CreateCall(PM.IterEndRunFn, {PM.desc(B), B.getInt32(Index),
                                     B.CreateLoad(PM.I32, Iters)});
    else
      B.CreateCall(PM.IterEndFn, {PM.desc(B), B.getInt32(Index)});
    B.CreateBr(To);
    return E;
  };

  // Leaving the copy ends the recorded iteration.
  SmallVector<BasicBlock *, 4> BackEnds; // ends that go back to the header
  for (BasicBlock *C : Copy) {
    Instruction *T = C->getTerminator();
    SmallDenseMap<BasicBlock *, BasicBlock *, 4> EndOf;
    for (unsigned i = 0, e = T->getNumSuccessors(); i != e; ++i) {
      BasicBlock *S = T->getSuccessor(i);
      if (S != Header && InLoop.count(S))
        continue; // VMap already points inside the copy
      if (S != Header && is_contained(Copy, S))
        continue;
      BasicBlock *&End = EndOf[S];
      if (!End && S != Header && EndBlocks.count(S)) {
        // A way out of an inner loop that leaves this loop too (LLVM folds
        // `if (!retry) break;` after the inner loop into its exit): the
        // copy reaches the inner loop's end, which is outside this loop.
        // The frames must end innermost first, so the copy gets its own
        // clone of the inner end(s) and then this loop's end; before, this
        // loop's end came first and the runtime took the inner frame for
        // one left by a longjmp (pg14b1's lazy_scan_prune).
        SmallVector<BasicBlock *, 2> Chain;
        BasicBlock *Out = S;
        while (EndBlocks.count(Out) && Out->getSingleSuccessor()) {
          Chain.push_back(Out);
          Out = Out->getSingleSuccessor();
        }
        ValueToValueMapTy EMap;
        SmallVector<BasicBlock *, 2> Clones;
        for (BasicBlock *E : Chain) {
          BasicBlock *EC = CloneBasicBlock(E, EMap, "", &F);
          EMap[E] = EC;
          if (!Clones.empty())
            Clones.back()->getTerminator()->replaceSuccessorWith(E, EC);
          Clones.push_back(EC);
          EndBlocks.insert(EC);
        }
        remapInstructionsInBlocks(Clones, EMap);
        BasicBlock *OwnEnd = MakeEnd(Out);
        EndBlocks.insert(OwnEnd);
        Clones.back()->getTerminator()->replaceSuccessorWith(Out, OwnEnd);
        for (PHINode &P : Out->phis()) {
          Value *In = P.getIncomingValueForBlock(Chain.back());
          if (Value *M = EMap.lookup(In))
            In = M;
          else if (Value *M2 = VMap.lookup(In))
            In = M2;
          P.addIncoming(In, OwnEnd);
        }
        End = Clones.front();
      } else if (!End && NoCI && S == Header) {
        // the demoted loop has no phi in the header to feed
        End = BasicBlock::Create(Ctx, "vprof.red.iternext", &F);
        B.SetInsertPoint(End);
        B.CreateStore(B.CreateAdd(B.CreateLoad(PM.I32, Iters), B.getInt32(1)), Iters);
        B.CreateBr(CopyRest);
      } else if (!End && RunFlag && S == Header) {
        //   runnext: if (!run) goto iterend
        //            if (--cd == 0) { cd = 1; goto iterend }  (the header asks)
        //            iters++; goto copy
        //   iterend: active--; iter_end_run(iters); goto header
        BasicBlock *Last = MakeEnd(Header);
        BackEnds.push_back(Last);
        End = BasicBlock::Create(Ctx, "vprof.red.runnext", &F);
        BasicBlock *Stay = BasicBlock::Create(Ctx, "vprof.red.runstay", &F);
        BasicBlock *More = BasicBlock::Create(Ctx, "vprof.red.runmore", &F);
        BasicBlock *Done = BasicBlock::Create(Ctx, "vprof.red.rundone", &F);
        B.SetInsertPoint(End);
        B.CreateCondBr(B.CreateLoad(Type::getInt1Ty(Ctx), RunFlag), Stay, Last);
        B.SetInsertPoint(Stay);
        Value *Left = B.CreateSub(B.CreateLoad(PM.I32, CdVar), B.getInt32(1));
        B.CreateStore(Left, CdVar);
        B.CreateCondBr(runsOut(B, Left), Done, More,
                       MDBuilder(Ctx).createBranchWeights(1, 64));
        B.SetInsertPoint(More);
        B.CreateStore(B.CreateAdd(B.CreateLoad(PM.I32, Iters), B.getInt32(1)), Iters);
        B.CreateBr(CopyRest);
        B.SetInsertPoint(Done);
        B.CreateStore(B.getInt32(1), CdVar);
        B.CreateBr(Last);
      } else if (!End) {
        End = MakeEnd(S);
        if (S == Header)
          BackEnds.push_back(End);
        else
          EndBlocks.insert(End);
        BasicBlock *Orig = nullptr;
        for (size_t k = 0; k != Copy.size(); ++k)
          if (Copy[k] == C)
            Orig = Blocks[k];
        for (PHINode &P : S->phis()) {
          Value *In = P.getIncomingValueForBlock(Orig);
          if (Value *M = VMap.lookup(In))
            In = M;
          P.addIncoming(In, End);
        }
      }
      T->setSuccessor(i, End);
    }
  }

  // The probes split blocks of the copy: after the exits are rewired.
  insertProbes(Copy, Index);

  MDNode *Unlikely = MDBuilder(Ctx).createBranchWeights(1, 1u << 20);
  // At the end of the current block: ask the runtime whether this iteration
  // is recorded; yes: the copy (active++), no: Else.
  auto AskRuntime = [&](Value *Slot, BasicBlock *Else) {
    Value *Rec = B.CreateCall(PM.IterFn, {PM.desc(B), B.getInt32(Index), Slot});
    if (CdVar)
      B.CreateStore(B.CreateLoad(PM.I32, Slot), CdVar);
    BasicBlock *Enter = BasicBlock::Create(Ctx, "vprof.red.record", &F);
    B.CreateCondBr(B.CreateICmpNE(Rec, B.getInt32(0)), Enter, Else);
    B.SetInsertPoint(Enter);
    ActiveAdd(1);
    if (Iters)
      B.CreateStore(B.getInt32(1), Iters);
    if (RunFlag)
      B.CreateStore(B.CreateICmpEQ(Rec, B.getInt32(2)), RunFlag);
    B.CreateBr(CopyRest);
  };
  if (NoCI) {
    // The decision moves out of the loop: the preheader enters a second
    // header when the instance decision recorded this instance (phase 1's
    // flag), which asks the runtime once and then loops through the copy;
    // the original loop is left with no probe at all, nor its exits.
    //   preheader:  if (instance recorded) goto rechead; else goto header
    //   rechead:    if (iter_sample()) { iters = 1; goto copy; } else goto header
    //   copy's back edges: iters++; goto copy
    //   copy's exits:      iter_end_n(iters), which ends the instance too
    assert(BackEnds.empty() && "NoCI back edges stay in the copy");
    BasicBlock *RecHead = BasicBlock::Create(Ctx, "vprof.red.rechead", &F);
    B.SetInsertPoint(RecHead);
    AskRuntime(PM.slot(B, Index), Header);
    Instruction *PT = NoCIIt->second.first;
    B.SetInsertPoint(PT);
    B.CreateCondBr(B.CreateLoad(B.getInt1Ty(), NoCIIt->second.second), RecHead,
                   Header, Unlikely);
    NoCIBranches.push_back(PT->getParent());
    PT->eraseFromParent();
    // The original loop's ways out now join the copy's in blocks with phis
    // (critical edges).  Left so, CodeGenPrepare drops the empty exit
    // blocks and PHI elimination puts the phis' copies in the loop: strend
    // kept its pointer in two registers with a move on the critical path,
    // 2 cycles per byte instead of 1 (+35 %).  Each such edge gets a block
    // of its own, kept by llvm.sideeffect, which generates no code.
    SmallVector<std::pair<Instruction *, unsigned>, 4> Critical;
    for (BasicBlock *BB : Blocks) {
      Instruction *T = BB->getTerminator();
      for (unsigned i = 0, e = T->getNumSuccessors(); i != e; ++i)
        if (!InLoop.count(T->getSuccessor(i)) &&
            isCriticalEdge(T, i, /*AllowIdenticalEdges=*/true))
          Critical.push_back({T, i});
    }
    Function *Keep = Intrinsic::getDeclaration(F.getParent(), Intrinsic::sideeffect);
    for (auto &[T, i] : Critical)
      if (BasicBlock *D = SplitCriticalEdge(
              T, i, CriticalEdgeSplittingOptions().setMergeIdenticalEdges()))
        CallInst::Create(Keep, "", D->getTerminator());
    return;
  }

  // The header's decision: the header decrements the countdown, the test
  // block (also entered from the fused latches below) decides.
  Header->getTerminator()->eraseFromParent();
  B.SetInsertPoint(Header);
  if (LoopDL)
    B.SetCurrentDebugLocation(LoopDL);
  BasicBlock *Test = BasicBlock::Create(Ctx, "vprof.red.test", &F, Rest);
  BasicBlock *Sample = BasicBlock::Create(Ctx, "vprof.red.sample", &F);
  B.CreateStore(B.CreateSub(B.CreateLoad(PM.I32, CdVar), B.getInt32(1)), CdVar);
  B.CreateBr(Test);
  B.SetInsertPoint(Test);
  Value *Cd = B.CreateLoad(PM.I32, CdVar);
  B.CreateCondBr(runsOut(B, Cd), Sample, Rest, Unlikely);
  B.SetInsertPoint(Sample);
  Value *Slot = PM.slot(B, Index);
  B.CreateStore(Cd, Slot); // the runtime reads and resets the slot
  AskRuntime(Slot, Rest);
  if (Strided)
    strideIterations(Header, Rest, Blocks, InLoop, CdVar, Stride);
  else if (FuseLatch)
    fuseLatchDecisions(Test, Rest, Blocks, CdVar);
}

/// The header's countdown costs every iteration a decrement and a branch,
/// a quarter of a pointer walk's (moz416628: 7 instructions a line, +21 %
/// in callgrind).  Where the next sample is more than \p K iterations away
/// the loop now runs \p K copies of its body in a row, with one test:
///   header:  if (cd > K) { cd -= K; goto fast_1 } else goto slow
///   slow:    --cd; goto test                     (the decision, as before)
///   fast_j:  the original body; its back edge goes to fast_j+1 (fast_K's
///            to the header); its exits give back the K - j iterations
///            that did not run (cd += K - j) on the way out
/// The sampled iterations are the same ones: the fast copies run only
/// iterations whose countdown would not have reached 0, and an exit leaves
/// the countdown where the slow loop would have.  Innermost loops with a
/// small body only: each copy is the whole body, and outer loops copy
/// their inner loops into their own recording copies (docs/redundancy.md,
/// "Strides").
void FunctionInstrumenter::strideIterations(
    BasicBlock *Header, BasicBlock *Rest, ArrayRef<BasicBlock *> Blocks,
    const SmallPtrSetImpl<BasicBlock *> &InLoop, AllocaInst *CdVar,
    unsigned K) {
  LLVMContext &Ctx = F.getContext();
  IRBuilder<> B(Ctx);
  // The header's decrement moves to a block of its own, the slow way in.
  BasicBlock *Slow =
      Header->splitBasicBlock(Header->getFirstInsertionPt(), "vprof.red.slow");
  DebugLoc DL = Slow->getTerminator()->getDebugLoc();
  for (Instruction &I : *Slow)
    if (!DL)
      DL = I.getDebugLoc();
  // Outer loops' recording copies record the inner loop's values from
  // whichever of its copies runs: the fast ones keep every tag (cloneBody).
  std::vector<std::unique_ptr<ValueToValueMapTy>> Maps;
  std::vector<SmallVector<BasicBlock *, 16>> Fast;
  for (unsigned j = 0; j != K; ++j) {
    Maps.push_back(std::make_unique<ValueToValueMapTy>());
    Fast.push_back(cloneBody(Blocks, *Maps.back(), ".vprof.fast"));
  }
  for (unsigned j = 0; j != K; ++j) {
    ValueToValueMapTy &M = *Maps[j];
    for (size_t k = 0; k != Blocks.size(); ++k) {
      BasicBlock *Orig = Blocks[k], *C = Fast[j][k];
      Instruction *T = C->getTerminator();
      SmallDenseMap<BasicBlock *, BasicBlock *, 4> OutOf;
      for (unsigned i = 0, e = T->getNumSuccessors(); i != e; ++i) {
        BasicBlock *S = T->getSuccessor(i);
        if (S == Header) {
          if (j + 1 != K) {
            T->setSuccessor(i, cast<BasicBlock>((*Maps[j + 1])[Rest]));
            T->setMetadata(LLVMContext::MD_loop, nullptr);
          }
          continue;
        }
        if (InLoop.count(S) || is_contained(Fast[j], S))
          continue;
        // A way out: give back the iterations of the block that did not run.
        BasicBlock *&Out = OutOf[S];
        if (!Out) {
          Out = BasicBlock::Create(Ctx, "vprof.red.fastout", &F, S);
          B.SetInsertPoint(Out);
          B.SetCurrentDebugLocation(DL);
          if (unsigned Back = K - 1 - j)
            B.CreateStore(B.CreateAdd(B.CreateLoad(PM.I32, CdVar), B.getInt32(Back)),
                          CdVar);
          B.CreateBr(S);
          for (PHINode &P : S->phis()) {
            Value *In = P.getIncomingValueForBlock(Orig);
            if (Value *Mapped = M.lookup(In))
              In = Mapped;
            P.addIncoming(In, Out);
          }
        }
        T->setSuccessor(i, Out);
      }
    }
  }
  Header->getTerminator()->eraseFromParent();
  B.SetInsertPoint(Header);
  B.SetCurrentDebugLocation(DL);
  BasicBlock *FastIn = BasicBlock::Create(Ctx, "vprof.red.fastin", &F, Slow);
  Value *Cd = B.CreateLoad(PM.I32, CdVar);
  B.CreateCondBr(B.CreateICmpSGT(Cd, B.getInt32(K)), FastIn, Slow,
                 MDBuilder(Ctx).createBranchWeights(64, 1));
  B.SetInsertPoint(FastIn);
  B.CreateStore(B.CreateSub(Cd, B.getInt32(K)), CdVar);
  B.CreateBr(cast<BasicBlock>((*Maps[0])[Rest]));
}

/// The header's decision costs every iteration a compare and a branch next
/// to the loop's own.  Where the original loop goes back through a
/// conditional branch (`br %more, header, out`), the two become one branch:
/// the latch decrements the countdown for the next iteration and goes
/// straight back to the body when `more & countdown > 0`; otherwise a
/// dispatch block (once per instance, or per sampled iteration) goes to the
/// header's test (`more`: the decision to sample) or out, giving back the
/// decrement of the iteration that does not run.  The decisions are the
/// same; an unsampled iteration pays a decrement and two flag instructions
/// instead of a compare and a second branch (docs/redundancy.md, "One
/// branch per iteration").  The condition is combined in i8 so that
/// instruction selection does not split it back into two branches.  The
/// header stays the loop's only entry (preheader, the copy's back edges),
/// so the CFG stays reducible: the fast back edge makes the body a loop of
/// its own, nested in the header's.  Loops with strides keep them.
/// Opt-in (-vprof-redundancy-fuse-latch):
/// with countdowns that run out at 0 the header's `add; je` is cheaper on
/// most loops.
void FunctionInstrumenter::fuseLatchDecisions(BasicBlock *Test,
                                              BasicBlock *Rest,
                                              ArrayRef<BasicBlock *> Blocks,
                                              AllocaInst *CdVar) {
  BasicBlock *Header = Test->getSinglePredecessor();
  LLVMContext &Ctx = F.getContext();
  IRBuilder<> B(Ctx);
  for (BasicBlock *Latch : Blocks) {
    auto *Br = dyn_cast<BranchInst>(Latch->getTerminator());
    if (!Br || !Br->isConditional())
      continue;
    unsigned Back;
    if (Br->getSuccessor(0) == Header && Br->getSuccessor(1) != Header)
      Back = 0;
    else if (Br->getSuccessor(1) == Header && Br->getSuccessor(0) != Header)
      Back = 1;
    else
      continue;
    BasicBlock *Out = Br->getSuccessor(1 - Back);
    BasicBlock *Disp = BasicBlock::Create(Ctx, "vprof.red.dispatch", &F, Out);
    B.SetInsertPoint(Br);
    if (const DebugLoc &DL = Br->getDebugLoc())
      B.SetCurrentDebugLocation(DL);
    Value *More = Br->getCondition();
    if (Back == 1)
      More = B.CreateNot(More);
    Value *Cd = B.CreateSub(B.CreateLoad(PM.I32, CdVar), B.getInt32(1));
    B.CreateStore(Cd, CdVar);
    Value *Room = B.CreateNot(runsOut(B, Cd));
    Value *Both = B.CreateAnd(B.CreateZExt(More, B.getInt8Ty()),
                              B.CreateZExt(Room, B.getInt8Ty()));
    auto *NewBr = B.CreateCondBr(B.CreateICmpNE(Both, B.getInt8(0)), Rest, Disp);
    NewBr->copyMetadata(*Br, {LLVMContext::MD_loop});
    B.SetInsertPoint(Disp);
    // Leaving: the iteration the latch counted does not run.
    B.CreateStore(B.CreateSelect(More, Cd, B.CreateAdd(Cd, B.getInt32(1))), CdVar);
    B.CreateCondBr(More, Test, Out);
    for (PHINode &P : Out->phis())
      P.replaceIncomingBlockWith(Latch, Disp);
    Br->eraseFromParent();
  }
}

/// `or X, C` whose operands share no bit is `add nuw nsw X, C`; made so
/// before the loops are demoted and copied.  Loop unrolling writes the odd
/// iteration's index of an even induction variable as `or %iv, 1`, and
/// SCEV sees an affine recurrence through it only while it can prove %iv's
/// low bit clear.  Once the probed loop's phis also merge the recording
/// copy's values it cannot (known bits give up on the chain of phis), and
/// the code generator's strength reduction recomputed the odd iteration's
/// address from the index: matmul's k loop ran 17 instructions per two
/// iterations against the original's 8 (docs/redundancy.md, "Disjoint ors
/// stay adds").  Values tagged for probes keep their tags; values recorded
/// once per instance are left as they are (their uses are found later).
void FunctionInstrumenter::disjointOrsToAdds() {
  const DataLayout &DL = F.getParent()->getDataLayout();
  SmallPtrSet<Value *, 16> Keep;
  for (auto &[Idx, Vs] : Once)
    for (auto &[Src, V] : Vs)
      Keep.insert(V);
  SmallVector<BinaryOperator *, 16> Work;
  for (Instruction &I : instructions(F))
    if (auto *BO = dyn_cast<BinaryOperator>(&I))
      if (BO->getOpcode() == Instruction::Or && BO->getType()->isIntegerTy() &&
          !Keep.count(BO) &&
          haveNoCommonBitsSet(BO->getOperand(0), BO->getOperand(1), DL))
        Work.push_back(BO);
  for (BinaryOperator *BO : Work) {
    BinaryOperator *Add =
        BinaryOperator::CreateNUWAdd(BO->getOperand(0), BO->getOperand(1), "", BO);
    Add->setHasNoSignedWrap(true);
    Add->takeName(BO);
    Add->setDebugLoc(BO->getDebugLoc());
    BO->replaceAllUsesWith(Add);
    auto It = Tags.find(BO);
    if (It != Tags.end()) {
      SmallVector<Tag, 2> T = std::move(It->second);
      Tags.erase(It);
      Tags[Add] = std::move(T);
    }
    BO->eraseFromParent();
  }
}

/// After promote(), a NoCI loop's preheader branches on a phi of its flag:
/// false from the decision's "not this instance" edge, the runtime's answer
/// from the call.  The code generator does not thread that: every instance
/// paid a materialised `false`, a test and a branch (3 instructions around
/// an inner loop of a few).  SimplifyCFG's fold of a branch on a phi of
/// constants sends the false edge straight to the header.
void FunctionInstrumenter::threadNoCIFlags() {
  if (NoCIBranches.empty() || F.hasOptNone())
    return;
  TargetTransformInfo TTI(F.getParent()->getDataLayout());
  for (WeakVH &H : NoCIBranches)
    if (auto *BB = dyn_cast_or_null<BasicBlock>(H))
      simplifyCFG(BB, TTI);
}

void FunctionInstrumenter::promote() {
  if (F.hasOptNone() || Allocas.empty())
    return;
  DominatorTree DT(F);
  std::vector<AllocaInst *> Promotable;
  for (AllocaInst *A : Allocas)
    if (isAllocaPromotable(A))
      Promotable.push_back(A);
  PromoteMemToReg(Promotable, DT);
}

/// Puts the use lists of \p F's arguments, instructions and blocks in the
/// order the IR parser gives them: users after the definition latest
/// first, then users before it (phis reached by a back edge) earliest
/// first; a block's users latest first.  Demoting, cloning and promoting
/// leave them in the order the copies were made, and the code generator
/// reads them: strength reduction collects a loop's induction users by
/// walking them.  redis8145's slot loop, probed, kept j and j + 1 in two
/// registers (one instruction more in ~20, +5 % in callgrind) until its
/// bitcode was written out and parsed again, which left its IR unchanged
/// but for these lists (docs/redundancy.md, "Use-list order").
static void normaliseUseLists(Function &F) {
  DenseMap<const Value *, unsigned> Pos;
  unsigned N = 1;
  for (BasicBlock &BB : F) {
    Pos[&BB] = N++;
    for (Instruction &I : BB)
      Pos[&I] = N++;
  }
  auto Sort = [&](Value &V, unsigned Def, bool Forward) {
    // (Not a block whose address is taken: its users are outside F.)
    if (!V.hasNUsesOrMore(2) ||
        any_of(V.uses(), [&](const Use &U) { return !Pos.count(U.getUser()); }))
      return;
    auto Key = [&](const Use &U) {
      unsigned P = Pos.lookup(U.getUser());
      bool Fwd = Forward && P <= Def;
      return std::make_tuple(Fwd, Fwd ? P : ~P,
                             Fwd ? U.getOperandNo() : ~U.getOperandNo());
    };
    V.sortUseList([&](const Use &L, const Use &R) { return Key(L) < Key(R); });
  };
  for (Argument &A : F.args())
    Sort(A, 0, false);
  for (BasicBlock &BB : F) {
    Sort(BB, Pos[&BB], false);
    for (Instruction &I : BB)
      Sort(I, Pos[&I], true);
  }
}

/// A callee source's value, after \p I: `if ((unsigned)(__vprof_red_active
/// - 1) < VP_RED_ACTIVE_FULL - 1) __vprof_red_callee_value(id, v)`: some
/// recorded frame is open on the thread and not every one is full.  In the
/// original function (\p Likely false: a callee with no copy contributes
/// only while a recorded iteration is active) or in its copy (true: it runs
/// only from recorded code, and the test only stops the calls past the
/// caps).
static void insertCalleeProbe(ProbeModule &PM, Instruction *I, uint32_t Id,
                              bool Likely) {
  if (I->isTerminator() || isa<PHINode>(I) || !canRecord(I))
    return;
  Instruction *Next = I->getNextNode();
  IRBuilder<> B(Next);
  Value *On = B.CreateICmpULT(
      B.CreateSub(B.CreateLoad(PM.I32, PM.Active), B.getInt32(1)),
      B.getInt32(VP_RED_ACTIVE_FULL - 1));
  MDBuilder MDB(PM.Ctx);
  Instruction *Then = SplitBlockAndInsertIfThen(
      On, Next, false,
      Likely ? MDB.createBranchWeights(1u << 20, 1) : MDB.createBranchWeights(1, 1u << 20));
  B.SetInsertPoint(Then);
  forEachWord(B, I, [&](Value *W) {
    B.CreateCall(PM.CalleeFn, {B.getInt32(Id), W});
  });
}

/// A recorded call's source value: `value(index, source, v, CI)`.
static void sendCallValue(ProbeModule &PM, IRBuilder<> &B, uint32_t Index,
                          const SourceInfo &S, Value *V) {
  forEachWord(B, V, [&](Value *W) {
    B.CreateCall(PM.ValueFn, {PM.desc(B), B.getInt32(Index), B.getInt32(S.Id),
                              W, B.getInt32(VP_RED_MODE_CI)});
  });
}

/// A copy of \p G for the calls of recorded iterations, registered in
/// PM.CalleeCopy.
static Function *makeCalleeCopy(ProbeModule &PM, Function &G, ValueToValueMapTy &VMap) {
  Function *C = cloneForProbes(G, VMap, ".vprof_callee");
  PM.CalleeCopy[&G] = C;
  // The copy was made after loopclass gated G: without this, a G that is
  // itself selected would leave its copy for its probed clone at once and
  // send no value, and its callers' signatures would lose its reads.
  if (GlobalVariable *Gate = findProbedClone(G).Gate)
    foldClosedGate(*C, Gate);
  return C;
}

/// A callee copy runs from recorded code.  When nothing wants its values
/// (no recorded frame is open on the thread, or every open one is full: the
/// test of insertCalleeProbe), it calls \p G itself, whose gate leads to G's
/// probed clone when G is selected.  Without it a recorded instance that
/// lasts (a driver loop's) sent every call to the copies, and a selected
/// callee's loopclass counts and own loops saw none of them: in 1 of 36
/// vprof-loop runs of gcc1687, every count of expr_cost was lost
/// (docs/redundancy.md, "Callee sources").  Made after the calls of the
/// copies are redirected, so that this call stays a call of G.
static void insertCalleeFallback(ProbeModule &PM, Function &G, Function &C) {
  Instruction *At = afterStaticAllocas(C);
  IRBuilder<> B(At);
  Value *Wanted = B.CreateICmpULT(
      B.CreateSub(B.CreateLoad(PM.I32, PM.Active), B.getInt32(1)),
      B.getInt32(VP_RED_ACTIVE_FULL - 1));
  Instruction *Unreach =
      SplitBlockAndInsertIfThen(B.CreateNot(Wanted), At, /*Unreachable=*/true);
  B.SetInsertPoint(Unreach);
  SmallVector<Value *, 8> Args;
  for (Argument &A : C.args())
    Args.push_back(&A);
  CallInst *Call = B.CreateCall(G.getFunctionType(), &G, Args);
  Call->setCallingConv(G.getCallingConv());
  Call->setAttributes(G.getAttributes());
  Call->setTailCall();
  if (C.getReturnType()->isVoidTy())
    B.CreateRetVoid();
  else
    B.CreateRet(Call);
  Unreach->eraseFromParent();
}

/// Whether a recorded iteration's calls of \p H can go to a copy of it.
static bool canCopyCallee(Function &H) {
  return canProbeFunction(H) && !H.hasOptNone();
}

/// The callee sources (docs/redundancy.md, "Callee sources").  Each
/// function G holding some gets a copy `G.vprof_callee` that sends them
/// unconditionally, and the code of a recorded iteration calls the copy
/// instead of G (redirectRecordedCalls: the loops' recording copies, the
/// repeated-call units' recorded calls, and the copies themselves).  The
/// slice reaches G through direct calls only, at most \p Depth deep, so a
/// function on such a chain that calls a copied one (\p Probed's callees
/// and theirs, down to Depth - 1) gets a copy too, with no probe.  G itself
/// is left as compiled: a call that is not recorded pays nothing.  (The
/// version before tested `__vprof_red_active` at G's entry, about one cycle
/// a call: +10 % on gcc46401, whose operand_equal_p_1 runs 432M times.)
/// Functions whose calls cannot be forwarded, and optnone ones, get no copy
/// and test the flag after each source instead; the recorded iterations
/// still raise it.
static void insertCalleeCopies(
    ProbeModule &PM,
    const MapVector<Function *, SmallVector<std::pair<Instruction *, uint32_t>, 4>> &Probes,
    ArrayRef<Function *> Probed, unsigned Depth) {
  for (const auto &[G, List] : Probes) {
    if (!canCopyCallee(*G)) {
      for (const auto &[I, Id] : List)
        insertCalleeProbe(PM, I, Id, false);
      continue;
    }
    ValueToValueMapTy VMap;
    makeCalleeCopy(PM, *G, VMap);
    for (const auto &[I, Id] : List)
      if (auto *CI = dyn_cast_or_null<Instruction>(VMap.lookup(I)))
        insertCalleeProbe(PM, CI, Id, true);
  }
  auto DirectCallees = [](Function &F, auto Fn) {
    for (Instruction &I : instructions(F))
      if (auto *CB = dyn_cast<CallBase>(&I))
        if (auto *H = dyn_cast<Function>(CB->getCalledOperand()))
          Fn(*H);
  };
  // Levels of the direct-call tree below the probed functions.
  std::vector<SetVector<Function *>> Level(Depth > 1 ? Depth : 1);
  for (Function *F : Probed)
    DirectCallees(*F, [&](Function &H) {
      if (canCopyCallee(H))
        Level[0].insert(&H);
    });
  for (size_t k = 1; k < Level.size(); ++k)
    for (Function *F : Level[k - 1])
      DirectCallees(*F, [&](Function &H) {
        if (canCopyCallee(H))
          Level[k].insert(&H);
      });
  // Bottom-up: level k (depth k + 1) may call a copy made at level k + 1.
  for (size_t k = Level.size() - 1; k-- > 0;)
    for (Function *H : Level[k]) {
      if (PM.CalleeCopy.count(H))
        continue;
      bool Calls = false;
      DirectCallees(*H, [&](Function &X) { Calls |= PM.CalleeCopy.count(&X) != 0; });
      if (Calls) {
        ValueToValueMapTy VMap;
        makeCalleeCopy(PM, *H, VMap);
      }
    }
  for (const auto &[G, C] : PM.CalleeCopy) {
    SmallVector<BasicBlock *, 16> Blocks;
    for (BasicBlock &B : *C)
      Blocks.push_back(&B);
    redirectRecordedCalls(PM, Blocks);
  }
  for (const auto &[G, C] : PM.CalleeCopy)
    insertCalleeFallback(PM, *G, *C);
}

/// A recursive function's per-call decision at its entry, after the static
/// allocas: `if (--slot.iter_countdown <= 0) On = iter_sample() != 0;`.
/// \p AtEntry adds code before it.  Then is the terminator of the block
/// that computes On.
struct CallDecision {
  Instruction *Then;
  Value *On;
};
static CallDecision insertCallDecision(ProbeModule &PM, Function &F,
                                       uint32_t Index,
                                       function_ref<void(IRBuilder<> &)> AtEntry) {
  Instruction *At = afterStaticAllocas(F);
  IRBuilder<> B(At);
  AtEntry(B);
  Value *Slot = PM.slot(B, Index);
  Instruction *Then = countDown(PM, B, Slot, At);
  B.SetInsertPoint(Then);
  Value *On = B.CreateICmpNE(
      B.CreateCall(PM.IterFn, {PM.desc(B), B.getInt32(Index), Slot}),
      B.getInt32(0));
  return {Then, On};
}

/// Per-call sampling of a directly recursive function (LDoctor 3.2.4,
/// "Handling recursive functions"), one call being one iteration, with a
/// recording copy of the whole function (as loops get one of their body):
///   F entry:  if (--slot.iter_countdown <= 0 && iter_sample())
///               return F.vprec(args...);
///             <F unchanged>
///   F.vprec:  value(arg) for each argument source; value(load) after each
///             source load; iter_end() before each return
/// so a call that is not sampled pays one decrement and one branch, and
/// the sampled copy records without testing a flag at every source.  The
/// call's signature is its arguments and the memory it reads; calls with
/// equal signatures repeat work (memoization).  The copy's recursive calls
/// go to F and decide for themselves (the runtime's frame stack keeps them
/// apart).  Only cross-iteration: no instance pairs for recursion.  The
/// copy is made before the loops' probes, so a sampled call runs its loops
/// without theirs (docs/redundancy.md, "Recursive functions").
static void instrumentRecursionCopy(ProbeModule &PM, Function &F,
                                    const LoopSources &LS,
                                    function_ref<Value *(Value *)> Map) {
  uint32_t Index = LS.ProbeIndex;
  ValueToValueMapTy RMap;
  Function *Rec = cloneForProbes(F, RMap, ".vprec");
  Rec->addFnAttr(Attribute::Cold);
  auto SendValue = [&](IRBuilder<> &B, const SourceInfo &S, Value *V) {
    sendCallValue(PM, B, Index, S, V);
  };

  // The copy: loads, returns, then the arguments at its entry.
  for (const SourceInfo &S : LS.Sources) {
    if (S.CI != VP_SRCD_RECORD)
      continue;
    auto *LdI = dyn_cast_or_null<LoadInst>(RMap.lookup(Map(S.V)));
    if (!LdI || !canRecord(LdI))
      continue;
    IRBuilder<> B(LdI->getNextNode());
    SendValue(B, S, LdI);
  }
  for (BasicBlock &BB : *Rec)
    if (auto *RI = dyn_cast<ReturnInst>(BB.getTerminator())) {
      IRBuilder<> B(RI);
      B.CreateCall(PM.IterEndFn, {PM.desc(B), B.getInt32(Index)});
    }
  {
    IRBuilder<> B(afterStaticAllocas(*Rec));
    for (const SourceInfo &S : LS.Sources)
      if (S.CI == VP_SRCD_RECORD)
        if (auto *A = dyn_cast<Argument>(S.V); A && canRecord(A))
          SendValue(B, S, Rec->getArg(A->getArgNo()));
  }

  // F's decision.
  CallDecision D = insertCallDecision(PM, F, Index, [](IRBuilder<> &) {});
  returnCallOf(F, *Rec, SplitBlockAndInsertIfThen(D.On, D.Then, false));
}

/// The same with a flag instead of a copy, for functions whose calls cannot
/// be forwarded (canForwardCalls):
///   entry:   rec = --slot.iter_countdown <= 0 && iter_sample(); if (rec)
///            value(arg) for each argument source
///   sources: if (rec) value(load)
///   returns: if (rec) iter_end()
static void instrumentRecursion(ProbeModule &PM, Function &F,
                                const LoopSources &LS,
                                function_ref<Value *(Value *)> Map) {
  if (!F.hasOptNone() && canForwardCalls(F))
    return instrumentRecursionCopy(PM, F, LS, Map);
  uint32_t Index = LS.ProbeIndex;
  BasicBlock &Entry = F.getEntryBlock();
  auto *Rec = new AllocaInst(PM.I32, 0, "vprof.red.rec", &*Entry.begin());
  auto Recording = [&](Instruction *Before) {
    IRBuilder<> B(Before);
    return SplitBlockAndInsertIfThen(
        B.CreateICmpNE(B.CreateLoad(PM.I32, Rec), B.getInt32(0)), Before,
        false);
  };
  auto SendValue = [&](IRBuilder<> &B, const SourceInfo &S, Value *V) {
    sendCallValue(PM, B, Index, S, V);
  };

  // Loads and returns first, while the blocks are as analysed.
  SmallVector<ReturnInst *, 4> Returns;
  for (BasicBlock &BB : F)
    if (auto *RI = dyn_cast<ReturnInst>(BB.getTerminator()))
      Returns.push_back(RI);
  for (const SourceInfo &S : LS.Sources) {
    if (S.CI != VP_SRCD_RECORD)
      continue;
    auto *LdI = dyn_cast<LoadInst>(Map(S.V));
    if (!LdI || !canRecord(LdI))
      continue;
    Instruction *Then = Recording(LdI->getNextNode());
    IRBuilder<> B(Then);
    SendValue(B, S, LdI);
  }
  for (ReturnInst *RI : Returns) {
    Instruction *Then = Recording(RI);
    IRBuilder<> B(Then);
    B.CreateCall(PM.IterEndFn, {PM.desc(B), B.getInt32(Index)});
  }

  // The entry's decision.
  CallDecision D = insertCallDecision(
      PM, F, Index, [&](IRBuilder<> &B) { B.CreateStore(B.getInt32(0), Rec); });
  IRBuilder<> B(D.Then);
  B.CreateStore(B.CreateZExt(D.On, PM.I32), Rec);
  Instruction *Args = SplitBlockAndInsertIfThen(D.On, D.Then, false);
  B.SetInsertPoint(Args);
  for (const SourceInfo &S : LS.Sources)
    if (S.CI == VP_SRCD_RECORD)
      if (auto *A = dyn_cast<Argument>(S.V); A && canRecord(A))
        SendValue(B, S, F.getArg(A->getArgNo()));

  if (!F.hasOptNone()) {
    DominatorTree DT(F);
    PromoteMemToReg({Rec}, DT);
  }
}

// ---------------------------------------------------------------------------
// Repeated calls (docs/redundancy.md, "Repeated calls").
// ---------------------------------------------------------------------------

/// Whether source \p S is read in a called function and gets a callee probe
/// there (insertCalleeProbes).
static bool getsCalleeProbe(const SourceInfo &S) {
  return S.Depth && (S.CI == VP_SRCD_RECORD || S.CL == VP_SRCD_RECORD);
}

/// C library functions that scan memory: a call in a loop that repeats one
/// with the same arguments over the same bytes is work an earlier
/// iteration did (`for (i = 0; i < strlen(s); i++)`, the classic).  Per
/// pointer argument (up to two): the argument bounding it, and whether the
/// scan stops at a NUL.  The bytes hashed are a superset of those the call
/// read (the whole string for strchr), so equal hashes mean equal inputs;
/// the result is not enough (a reused line buffer whose lines have few
/// distinct lengths would look redundant to strlen).  All of them only read
/// memory but strcat and strncat, which scan their destination for its end
/// before they append (the Schlemiel loop), and sscanf, which glibc makes
/// measure its whole input first (the quadratic parse of a big buffer).
///
/// \c Prefix: the pointer argument whose string the call walks from its
/// start, its cost growing with that string alone (strlen's, strstr's
/// haystack, strcat's destination): such a call is also sampled as an
/// instance of the unit, paired with the next call, its values the hashes of
/// that string in chunks, so that a string that grows and is scanned again
/// from its start makes pairs that share all but their last chunk ("Strings
/// scanned again" in docs/redundancy.md).  -1: none (strcmp and memcmp read
/// two operands alike; a key compared with many others is not a rescan).
struct LibScan {
  const char *Name;
  int8_t Ptr[2]; ///< pointer argument indices, -1 none
  int8_t Len[2]; ///< its bound's argument index, -1 none (up to the NUL)
  bool Nul;      ///< stops at a NUL (strnlen with a bound, strlen without)
  int8_t Prefix; ///< index into Ptr of the string walked from its start, -1
  bool Writes;   ///< writes memory (appends): not readonly for LLVM
  /// A copy of its Ptr[0]'s Len[0] bytes (memcpy's source, std::string's
  /// _M_replace's `s`): a unit of its instance pairs only, chunked from the
  /// start (VP_RED_SRC_PREFIX_START), with a length that is not a constant
  /// ("Copies made again" in docs/redundancy.md).  `Shown` names it.
  bool Copy = false;
  const char *Shown = nullptr;
  /// A setup call (fopen, regcomp, ...): what it opens or compiles is named
  /// by its strings (Ptr, up to their NUL, a null pointer read as "") and
  /// its integer arguments; its pointer arguments' addresses are not part of
  /// the signature (regcomp's regex_t, getaddrinfo's hints and result), nor
  /// its result.  A unit of per-call signatures only (Prefix -1), sampled
  /// densely (VP_RED_RTF_DENSE): "Setup calls made again" in
  /// docs/redundancy.md.
  bool Setup = false;
  /// A sort of its Ptr[0]'s Len[0] elements of Size bytes (qsort's base,
  /// nmemb and size): a copy unit (its input's chunks cut from the start
  /// and the end, in pairs) whose pairs of the same bytes are compared
  /// too, as sorting unchanged data again is redundant ("Sorts made again"
  /// in docs/redundancy.md).  -1: not a sort.
  int8_t Size = -1;
  /// A math function (pow, exp, log, sin, ...): its result is a function of
  /// its numeric arguments alone (it writes only errno, which is why LLVM
  /// keeps the call in the loop when its arguments do not change).  A unit
  /// of per-call signatures like a setup call's, its arguments' values the
  /// signature, sampled at the usual rate ("Math calls made again" in
  /// docs/redundancy.md).
  bool Pure = false;
  /// A C++ library template instantiated in the module, matched by the
  /// prefix `Name` of its mangled name and defined (not declared): its
  /// Ptr[0] and Len[0] are a range's first and last pointers, [first,
  /// last), its bytes last - first (0 when last is before first).
  /// libstdc++'s std::sort calls __introsort_loop(first, last, depth) for
  /// more than 16 elements ("Sorts made again" in docs/redundancy.md).
  bool Range = false;
};
static const LibScan LibScans[] = {
    {"strlen", {0, -1}, {-1, -1}, true, 0, false},
    {"strnlen", {0, -1}, {1, -1}, true, 0, false},
    {"strcmp", {0, 1}, {-1, -1}, true, -1, false},
    {"strncmp", {0, 1}, {2, 2}, true, -1, false},
    {"strcasecmp", {0, 1}, {-1, -1}, true, -1, false},
    {"strncasecmp", {0, 1}, {2, 2}, true, -1, false},
    {"strcoll", {0, 1}, {-1, -1}, true, -1, false},
    {"strchr", {0, -1}, {-1, -1}, true, 0, false},
    {"strrchr", {0, -1}, {-1, -1}, true, 0, false},
    {"strstr", {0, 1}, {-1, -1}, true, 0, false},
    {"strcasestr", {0, 1}, {-1, -1}, true, 0, false},
    {"strspn", {0, 1}, {-1, -1}, true, 0, false},
    {"strcspn", {0, 1}, {-1, -1}, true, 0, false},
    {"strpbrk", {0, 1}, {-1, -1}, true, 0, false},
    {"memcmp", {0, 1}, {2, 2}, false, -1, false},
    {"bcmp", {0, 1}, {2, 2}, false, -1, false},
    // The destination's whole string, the source up to its NUL (strncat:
    // at most n bytes of it).
    {"strcat", {0, 1}, {-1, -1}, true, 0, true},
    {"strncat", {0, 1}, {-1, 2}, true, 0, true},
    // glibc's sscanf takes the length of its whole input on every call
    // (its string stream is set up with strlen): a loop that parses a
    // buffer with sscanf and an advancing pointer is quadratic.  The
    // destinations are written; the format is read up to its NUL.
    {"sscanf", {0, 1}, {-1, -1}, true, 0, true},
    {"__isoc99_sscanf", {0, 1}, {-1, -1}, true, 0, true},
    // Not memchr: it may be given more bytes than the object holds when the
    // byte is found first (C11 7.24.5.1), so hashing all n could fault.
    //
    // Copies: a string or buffer that grows and is copied whole into a new
    // one in every iteration (`s = s + x` in C++, whose operator+ inserts
    // `s` into the new string with _M_replace; a C array grown by one with
    // malloc and memcpy).  The intrinsics match by their ID.
    {"memcpy", {1, -1}, {2, -1}, false, 0, true, true, "memcpy"},
    {"memmove", {1, -1}, {2, -1}, false, 0, true, true, "memmove"},
    {"_ZNSt7__cxx1112basic_stringIcSt11char_traitsIcESaIcEE10_M_replaceEmmPKcm",
     {3, -1}, {4, -1}, false, 0, true, true, "std::string::_M_replace"},
    // Setup calls: a file, directory, library or conversion opened, a
    // regex compiled, a host name resolved, again with the same strings.
    {"fopen", {0, 1}, {-1, -1}, true, -1, true, false, nullptr, true},
    {"fopen64", {0, 1}, {-1, -1}, true, -1, true, false, nullptr, true},
    {"open", {0, -1}, {-1, -1}, true, -1, true, false, nullptr, true},
    {"open64", {0, -1}, {-1, -1}, true, -1, true, false, nullptr, true},
    {"openat", {1, -1}, {-1, -1}, true, -1, true, false, nullptr, true},
    {"opendir", {0, -1}, {-1, -1}, true, -1, true, false, nullptr, true},
    {"dlopen", {0, -1}, {-1, -1}, true, -1, true, false, nullptr, true},
    {"iconv_open", {0, 1}, {-1, -1}, true, -1, true, false, nullptr, true},
    {"regcomp", {1, -1}, {-1, -1}, true, -1, true, false, nullptr, true},
    {"getaddrinfo", {0, 1}, {-1, -1}, true, -1, true, false, nullptr, true},
    {"gethostbyname", {0, -1}, {-1, -1}, true, -1, true, false, nullptr, true},
    // Sorts: an array sorted again after each element is added.
    {"qsort", {0, -1}, {1, -1}, false, 0, true, true, "qsort", false, 2},
    {"qsort_r", {0, -1}, {1, -1}, false, 0, true, true, "qsort_r", false, 2},
    {"_ZSt16__introsort_loopI", {0, -1}, {1, -1}, false, 0, true, true, "std::sort", false, 1,
     false, true},
    // Math functions (and their float and long double forms) with numeric
    // arguments only: a value computed again from the same arguments.  Not
    // sqrt: clang inlines its instruction and calls it only for a negative
    // argument (to set errno), so a repeat costs one instruction.
    {"pow", {-1, -1}, {-1, -1}, false, -1, true, false, nullptr, false, -1, true},
    {"powf", {-1, -1}, {-1, -1}, false, -1, true, false, nullptr, false, -1, true},
    {"powl", {-1, -1}, {-1, -1}, false, -1, true, false, nullptr, false, -1, true},
    {"exp", {-1, -1}, {-1, -1}, false, -1, true, false, nullptr, false, -1, true},
    {"expf", {-1, -1}, {-1, -1}, false, -1, true, false, nullptr, false, -1, true},
    {"expl", {-1, -1}, {-1, -1}, false, -1, true, false, nullptr, false, -1, true},
    {"exp2", {-1, -1}, {-1, -1}, false, -1, true, false, nullptr, false, -1, true},
    {"exp2f", {-1, -1}, {-1, -1}, false, -1, true, false, nullptr, false, -1, true},
    {"exp2l", {-1, -1}, {-1, -1}, false, -1, true, false, nullptr, false, -1, true},
    {"expm1", {-1, -1}, {-1, -1}, false, -1, true, false, nullptr, false, -1, true},
    {"expm1f", {-1, -1}, {-1, -1}, false, -1, true, false, nullptr, false, -1, true},
    {"expm1l", {-1, -1}, {-1, -1}, false, -1, true, false, nullptr, false, -1, true},
    {"log", {-1, -1}, {-1, -1}, false, -1, true, false, nullptr, false, -1, true},
    {"logf", {-1, -1}, {-1, -1}, false, -1, true, false, nullptr, false, -1, true},
    {"logl", {-1, -1}, {-1, -1}, false, -1, true, false, nullptr, false, -1, true},
    {"log2", {-1, -1}, {-1, -1}, false, -1, true, false, nullptr, false, -1, true},
    {"log2f", {-1, -1}, {-1, -1}, false, -1, true, false, nullptr, false, -1, true},
    {"log2l", {-1, -1}, {-1, -1}, false, -1, true, false, nullptr, false, -1, true},
    {"log10", {-1, -1}, {-1, -1}, false, -1, true, false, nullptr, false, -1, true},
    {"log10f", {-1, -1}, {-1, -1}, false, -1, true, false, nullptr, false, -1, true},
    {"log10l", {-1, -1}, {-1, -1}, false, -1, true, false, nullptr, false, -1, true},
    {"log1p", {-1, -1}, {-1, -1}, false, -1, true, false, nullptr, false, -1, true},
    {"log1pf", {-1, -1}, {-1, -1}, false, -1, true, false, nullptr, false, -1, true},
    {"log1pl", {-1, -1}, {-1, -1}, false, -1, true, false, nullptr, false, -1, true},
    {"sin", {-1, -1}, {-1, -1}, false, -1, true, false, nullptr, false, -1, true},
    {"sinf", {-1, -1}, {-1, -1}, false, -1, true, false, nullptr, false, -1, true},
    {"sinl", {-1, -1}, {-1, -1}, false, -1, true, false, nullptr, false, -1, true},
    {"cos", {-1, -1}, {-1, -1}, false, -1, true, false, nullptr, false, -1, true},
    {"cosf", {-1, -1}, {-1, -1}, false, -1, true, false, nullptr, false, -1, true},
    {"cosl", {-1, -1}, {-1, -1}, false, -1, true, false, nullptr, false, -1, true},
    {"tan", {-1, -1}, {-1, -1}, false, -1, true, false, nullptr, false, -1, true},
    {"tanf", {-1, -1}, {-1, -1}, false, -1, true, false, nullptr, false, -1, true},
    {"tanl", {-1, -1}, {-1, -1}, false, -1, true, false, nullptr, false, -1, true},
    {"asin", {-1, -1}, {-1, -1}, false, -1, true, false, nullptr, false, -1, true},
    {"asinf", {-1, -1}, {-1, -1}, false, -1, true, false, nullptr, false, -1, true},
    {"asinl", {-1, -1}, {-1, -1}, false, -1, true, false, nullptr, false, -1, true},
    {"acos", {-1, -1}, {-1, -1}, false, -1, true, false, nullptr, false, -1, true},
    {"acosf", {-1, -1}, {-1, -1}, false, -1, true, false, nullptr, false, -1, true},
    {"acosl", {-1, -1}, {-1, -1}, false, -1, true, false, nullptr, false, -1, true},
    {"atan", {-1, -1}, {-1, -1}, false, -1, true, false, nullptr, false, -1, true},
    {"atanf", {-1, -1}, {-1, -1}, false, -1, true, false, nullptr, false, -1, true},
    {"atanl", {-1, -1}, {-1, -1}, false, -1, true, false, nullptr, false, -1, true},
    {"atan2", {-1, -1}, {-1, -1}, false, -1, true, false, nullptr, false, -1, true},
    {"atan2f", {-1, -1}, {-1, -1}, false, -1, true, false, nullptr, false, -1, true},
    {"atan2l", {-1, -1}, {-1, -1}, false, -1, true, false, nullptr, false, -1, true},
    {"sinh", {-1, -1}, {-1, -1}, false, -1, true, false, nullptr, false, -1, true},
    {"sinhf", {-1, -1}, {-1, -1}, false, -1, true, false, nullptr, false, -1, true},
    {"sinhl", {-1, -1}, {-1, -1}, false, -1, true, false, nullptr, false, -1, true},
    {"cosh", {-1, -1}, {-1, -1}, false, -1, true, false, nullptr, false, -1, true},
    {"coshf", {-1, -1}, {-1, -1}, false, -1, true, false, nullptr, false, -1, true},
    {"coshl", {-1, -1}, {-1, -1}, false, -1, true, false, nullptr, false, -1, true},
    {"tanh", {-1, -1}, {-1, -1}, false, -1, true, false, nullptr, false, -1, true},
    {"tanhf", {-1, -1}, {-1, -1}, false, -1, true, false, nullptr, false, -1, true},
    {"tanhl", {-1, -1}, {-1, -1}, false, -1, true, false, nullptr, false, -1, true},
    {"asinh", {-1, -1}, {-1, -1}, false, -1, true, false, nullptr, false, -1, true},
    {"asinhf", {-1, -1}, {-1, -1}, false, -1, true, false, nullptr, false, -1, true},
    {"asinhl", {-1, -1}, {-1, -1}, false, -1, true, false, nullptr, false, -1, true},
    {"acosh", {-1, -1}, {-1, -1}, false, -1, true, false, nullptr, false, -1, true},
    {"acoshf", {-1, -1}, {-1, -1}, false, -1, true, false, nullptr, false, -1, true},
    {"acoshl", {-1, -1}, {-1, -1}, false, -1, true, false, nullptr, false, -1, true},
    {"atanh", {-1, -1}, {-1, -1}, false, -1, true, false, nullptr, false, -1, true},
    {"atanhf", {-1, -1}, {-1, -1}, false, -1, true, false, nullptr, false, -1, true},
    {"atanhl", {-1, -1}, {-1, -1}, false, -1, true, false, nullptr, false, -1, true},
    {"cbrt", {-1, -1}, {-1, -1}, false, -1, true, false, nullptr, false, -1, true},
    {"cbrtf", {-1, -1}, {-1, -1}, false, -1, true, false, nullptr, false, -1, true},
    {"cbrtl", {-1, -1}, {-1, -1}, false, -1, true, false, nullptr, false, -1, true},
    {"hypot", {-1, -1}, {-1, -1}, false, -1, true, false, nullptr, false, -1, true},
    {"hypotf", {-1, -1}, {-1, -1}, false, -1, true, false, nullptr, false, -1, true},
    {"hypotl", {-1, -1}, {-1, -1}, false, -1, true, false, nullptr, false, -1, true},
    {"erf", {-1, -1}, {-1, -1}, false, -1, true, false, nullptr, false, -1, true},
    {"erff", {-1, -1}, {-1, -1}, false, -1, true, false, nullptr, false, -1, true},
    {"erfl", {-1, -1}, {-1, -1}, false, -1, true, false, nullptr, false, -1, true},
    {"erfc", {-1, -1}, {-1, -1}, false, -1, true, false, nullptr, false, -1, true},
    {"erfcf", {-1, -1}, {-1, -1}, false, -1, true, false, nullptr, false, -1, true},
    {"erfcl", {-1, -1}, {-1, -1}, false, -1, true, false, nullptr, false, -1, true},
    {"tgamma", {-1, -1}, {-1, -1}, false, -1, true, false, nullptr, false, -1, true},
    {"tgammaf", {-1, -1}, {-1, -1}, false, -1, true, false, nullptr, false, -1, true},
    {"tgammal", {-1, -1}, {-1, -1}, false, -1, true, false, nullptr, false, -1, true},
    {"fmod", {-1, -1}, {-1, -1}, false, -1, true, false, nullptr, false, -1, true},
    {"fmodf", {-1, -1}, {-1, -1}, false, -1, true, false, nullptr, false, -1, true},
    {"fmodl", {-1, -1}, {-1, -1}, false, -1, true, false, nullptr, false, -1, true},
};

/// The LibScans entry (LibScan::Range) of a call of a C++ library
/// template defined in the module, or -1: its iterator type is a plain
/// pointer or a __normal_iterator of one (as its mangled name says), the
/// call's first two arguments are pointers to the same sized type, not
/// by value, the third an integer, and there are at most four.  A
/// call from inside the library's own code (the template's recursion, a
/// caller in namespace std) is none: its ranges are parts of one sort.
static int rangeScanOf(const CallBase &CI, const Function &G) {
  const Function *Caller = CI.getFunction();
  if (Caller == &G || Caller->getName().startswith("_ZSt") ||
      Caller->getName().startswith("_ZNSt"))
    return -1;
  for (unsigned K = 0; K < std::size(LibScans); ++K) {
    const LibScan &E = LibScans[K];
    if (!E.Range || !G.getName().startswith(E.Name) || CI.arg_size() < 3 || CI.arg_size() > 4)
      continue;
    // The iterator, the template's first argument: a pointer (P...) or a
    // std::vector's or std::string's __normal_iterator of one.  Not a
    // reverse_iterator (its first is after its last), a deque's iterator
    // (passed by value as a struct), or any other.
    StringRef It = G.getName().drop_front(strlen(E.Name));
    if (!It.startswith("P") && !It.startswith("N9__gnu_cxx17__normal_iteratorIP"))
      return -1;
    if (CI.paramHasAttr(E.Ptr[0], Attribute::ByVal) ||
        CI.paramHasAttr(E.Len[0], Attribute::ByVal))
      return -1;
    auto *T0 = dyn_cast<PointerType>(CI.getArgOperand(E.Ptr[0])->getType());
    auto *T1 = dyn_cast<PointerType>(CI.getArgOperand(E.Len[0])->getType());
    if (!T0 || T0 != T1 || T0->isOpaque() || !T0->getNonOpaquePointerElementType()->isSized() ||
        !CI.getArgOperand(2)->getType()->isIntegerTy())
      return -1;
    return (int)K;
  }
  return -1;
}

/// The LibScans entry of a call of a declared C library function, or -1.
static int libScanOf(const CallBase &CI, const Function &G) {
  if (!G.isDeclaration())
    return rangeScanOf(CI, G);
  Intrinsic::ID IID = G.getIntrinsicID();
  for (unsigned K = 0; K < std::size(LibScans); ++K) {
    const LibScan &E = LibScans[K];
    StringRef Name = IID == Intrinsic::memcpy    ? "memcpy"
                     : IID == Intrinsic::memmove ? "memmove"
                                                 : G.getName();
    if (E.Range || Name != E.Name || (!E.Copy && G.getReturnType()->isVoidTy()))
      continue;
    // a copy of a constant size (a struct) does not grow
    if (E.Copy && ((unsigned)E.Len[0] >= CI.arg_size() ||
                   isa<Constant>(CI.getArgOperand(E.Len[0]))))
      return -1;
    if (E.Size >= 0 && ((unsigned)E.Size >= CI.arg_size() ||
                        !CI.getArgOperand(E.Size)->getType()->isIntegerTy()))
      return -1;
    if (!E.Writes && !G.onlyReadsMemory())
      return -1;
    // a math function takes and gives numbers (a program's own `log` that
    // takes a message is not one)
    if (E.Pure && (!G.getReturnType()->isFloatingPointTy() ||
                   any_of(G.args(), [](const Argument &A) {
                     return !A.getType()->isFloatingPointTy();
                   })))
      return -1;
    for (int J = 0; J < 2; ++J) {
      if (E.Ptr[J] < 0)
        continue;
      if ((unsigned)E.Ptr[J] >= CI.arg_size() ||
          !CI.getArgOperand(E.Ptr[J])->getType()->isPointerTy() ||
          (E.Len[J] >= 0 && ((unsigned)E.Len[J] >= CI.arg_size() ||
                             !CI.getArgOperand(E.Len[J])->getType()->isIntegerTy())))
        return -1;
    }
    return (int)K;
  }
  return -1;
}

/// A setup call of \p G (LibScan::Setup) that can stand for every call of
/// G: the first one outside G's loops whose block post-dominates G's entry
/// (it runs on every call that returns: not an open made once and cached),
/// each of whose arguments in the signature is a constant or one of G's
/// parameters, so that the caller knows them.  \p Args gets, per argument,
/// the parameter's index, or -1 and the constant (-1 and null: a pointer
/// the signature leaves out).  Null when there is none.
static CallInst *liftableSetupCall(Function &G, LoopInfo &GLI, PostDominatorTree &GPDT,
                                   int &Lib, std::vector<std::pair<int, Constant *>> &Args) {
  if (G.isDeclaration() || G.isVarArg() || G.hasFnAttribute(Attribute::ReturnsTwice))
    return nullptr;
  for (BasicBlock &BB : G) {
    if (GLI.getLoopFor(&BB) || !GPDT.dominates(&BB, &G.getEntryBlock()))
      continue;
    for (Instruction &I : BB) {
      auto *S = dyn_cast<CallInst>(&I);
      Function *H = S ? S->getCalledFunction() : nullptr;
      int K = H && !S->isMustTailCall() ? libScanOf(*S, *H) : -1;
      if (K < 0 || !LibScans[K].Setup)
        continue;
      const LibScan &E = LibScans[K];
      Args.assign(S->arg_size(), {-1, nullptr});
      bool Known = true;
      for (unsigned A = 0; A < S->arg_size() && Known; ++A) {
        Value *V = S->getArgOperand(A);
        bool Str = (int)A == E.Ptr[0] || (int)A == E.Ptr[1];
        if (V->getType()->isPointerTy() && !Str)
          continue; // not in the signature
        if (Str)
          V = V->stripPointerCasts();
        if (auto *P = dyn_cast<Argument>(V))
          Args[A] = {(int)P->getArgNo(), nullptr};
        else if (auto *C = dyn_cast<Constant>(V))
          Args[A] = {-1, C};
        else
          Known = false;
      }
      if (Known) {
        Lib = K;
        return S;
      }
      return nullptr; // the first setup call on every path decides
    }
  }
  return nullptr;
}

/// The line of \p I in the source of \p SP, the function holding it: of
/// the call inlined into it from a header, the line that calls the header's
/// function; 0 without debug information.
static unsigned lineIn(const Instruction &I, const DISubprogram *SP) {
  const DILocation *DL = I.getDebugLoc().get();
  for (const DILocation *D = DL; D && SP; D = D->getInlinedAt())
    if (D->getScope()->getSubprogram() == SP)
      return D->getLine();
  return DL ? DL->getLine() : 0;
}

/// The copy call (LibScan::Copy: memmove, memcpy, std::string's
/// _M_replace, qsort) of a helper \p G that a loop calls, to be that loop's
/// unit: G has no loop and does not call itself, is at most
/// -vprof-lift-copy-max-insts instructions (each lifted call copies it),
/// and the first copy call in G's layout is the one.  Pop's memmove, which
/// moves the rest of an array queue down on every call, is then seen by
/// the loop that drains the queue ("Copies in a helper" in
/// docs/redundancy.md).  \p Lib gets its LibScans entry.  Null when G has
/// none.
static CallBase *liftableCopyCall(Function &G, LoopInfo &GLI, int &Lib) {
  if (!LiftCopies || !EnablePrefixPairs || G.isDeclaration() || G.isVarArg() ||
      G.hasFnAttribute(Attribute::ReturnsTwice) || !GLI.empty() ||
      G.getInstructionCount() > LiftCopyMaxInsts)
    return nullptr;
  CallBase *Found = nullptr;
  for (Instruction &I : instructions(G)) {
    auto *S = dyn_cast<CallBase>(&I);
    if (!S || (!isa<CallInst>(S) && !isa<InvokeInst>(S)))
      continue;
    Function *H = S->getCalledFunction();
    if (H == &G)
      return nullptr; // recursion: its calls are sampled per call already
    int K = H && !S->isMustTailCall() ? libScanOf(*S, *H) : -1;
    if (!Found && K >= 0 && LibScans[K].Copy) {
      Found = S;
      Lib = K;
    }
  }
  return Found;
}

/// Argument \p A of unit \p U's call as its signature sees it: the call's
/// own, or for a setup call lifted from the callee (LoopSources::Via) the
/// value \p CB passes for the callee's parameter, or a constant; null for
/// none.
static Value *unitArg(const LoopSources &U, CallBase &CB, unsigned A) {
  if (U.Via.empty())
    return A < CB.arg_size() ? CB.getArgOperand(A) : nullptr;
  if (A >= U.LiftedArgs.size())
    return nullptr;
  auto [K, C] = U.LiftedArgs[A];
  if (K < 0)
    return C;
  return (unsigned)K < CB.arg_size() ? CB.getArgOperand(K) : nullptr;
}

/// Whether floating-point value \p V takes a new value in every iteration of
/// \p L: an affine induction variable of \p L with a nonzero step, converted
/// to floating point (`i * 0.001`), or a floating-point phi of its header
/// stepped by a nonzero constant (`x += 0.5`), moved by loop-invariant
/// additions and by multiplications and divisions by loop-invariant factors
/// (not a zero constant; a factor that is zero at run time is taken not to
/// be, our decision).  A
/// math call with such an argument never repeats a call of the same
/// instance ("Math calls made again" in docs/redundancy.md).
static bool newEveryIteration(Value *V, Loop &L, ScalarEvolution &SE, unsigned Depth = 0) {
  auto *I = dyn_cast<Instruction>(V);
  if (!I || !L.contains(I) || Depth > 8)
    return false;
  auto NonzeroFP = [](Value *C) {
    auto *CF = dyn_cast<ConstantFP>(C);
    return CF && !CF->isZero() && CF->getValueAPF().isFinite();
  };
  switch (I->getOpcode()) {
  case Instruction::SIToFP:
  case Instruction::UIToFP: {
    if (!SE.isSCEVable(I->getOperand(0)->getType()))
      return false;
    auto *AR = dyn_cast<SCEVAddRecExpr>(SE.getSCEV(I->getOperand(0)));
    return AR && AR->getLoop() == &L && AR->isAffine() &&
           isa<SCEVConstant>(AR->getStepRecurrence(SE)) && !AR->getStepRecurrence(SE)->isZero() &&
           // it could repeat only after 2^32 iterations (a trunc of the
           // 64-bit counter keeps no wrap flags)
           (AR->hasNoSignedWrap() || AR->hasNoUnsignedWrap() ||
            SE.getTypeSizeInBits(AR->getType()) >= 32);
  }
  case Instruction::FNeg:
    return newEveryIteration(I->getOperand(0), L, SE, Depth + 1);
  case Instruction::FAdd:
  case Instruction::FSub:
    for (unsigned K = 0; K < 2; ++K)
      if (L.isLoopInvariant(I->getOperand(1 - K)) &&
          newEveryIteration(I->getOperand(K), L, SE, Depth + 1))
        return true;
    return false;
  case Instruction::FMul: // by a loop-invariant factor: zero only in a
                          // degenerate program (our decision)
    for (unsigned K = 0; K < 2; ++K)
      if (L.isLoopInvariant(I->getOperand(1 - K)) &&
          !(isa<ConstantFP>(I->getOperand(1 - K)) && !NonzeroFP(I->getOperand(1 - K))) &&
          newEveryIteration(I->getOperand(K), L, SE, Depth + 1))
        return true;
    return false;
  case Instruction::FDiv:
    return L.isLoopInvariant(I->getOperand(1)) &&
           !(isa<ConstantFP>(I->getOperand(1)) && !NonzeroFP(I->getOperand(1))) &&
           newEveryIteration(I->getOperand(0), L, SE, Depth + 1);
  case Instruction::PHI: {
    auto *P = cast<PHINode>(I);
    BasicBlock *Latch = L.getLoopLatch();
    if (P->getParent() != L.getHeader() || !Latch || P->getNumIncomingValues() != 2)
      return false;
    auto *Step = dyn_cast<BinaryOperator>(P->getIncomingValueForBlock(Latch));
    return Step && (Step->getOpcode() == Instruction::FAdd || Step->getOpcode() == Instruction::FSub) &&
           ((Step->getOperand(0) == P && NonzeroFP(Step->getOperand(1))) ||
            (Step->getOperand(1) == P && NonzeroFP(Step->getOperand(0)) &&
             Step->getOpcode() == Instruction::FAdd));
  }
  default:
    return false;
  }
}

/// The repeated-call units of loop \p L: its own calls (not those of its
/// subloops) to a function of the module that has a loop (\p Expensive;
/// not recursion alone: the per-call decision costs as much as a small
/// recursive call, gcc46401 went from 1.22x to 1.46x) and whose reads are
/// callee sources of the loop, so that
/// the callee's probes give each call a signature.  LDoctor's signature
/// covers a whole iteration; an iteration that also writes a new slot or
/// carries a position never repeats, though its costly call does
/// (bench layout_widthcache).  A unit is sampled per call, like a
/// recursion, and its signature is the call's arguments and the callee's
/// sources.
static std::vector<LoopSources>
repeatedCallUnits(Loop &L, const LoopSources &LS, LoopInfo &LI, ScalarEvolution &SE,
                  Function &F, function_ref<bool(Function &)> Expensive,
                  function_ref<CallInst *(Function &, int &,
                                          std::vector<std::pair<int, Constant *>> &)>
                      SetupIn,
                  function_ref<CallBase *(Function &, int &)> CopyIn) {
  std::vector<LoopSources> Units;
  if (!EnableCallUnits)
    return Units;
  SmallPtrSet<const Function *, 4> WithSources;
  for (const SourceInfo &S : LS.Sources)
    if (getsCalleeProbe(S))
      if (auto *I = dyn_cast<Instruction>(S.V))
        WithSources.insert(I->getFunction());
  unsigned Ordinal = 0;
  for (BasicBlock *BB : L.blocks()) {
    if (LI.getLoopFor(BB) != &L)
      continue;
    for (Instruction &I : *BB) {
      auto *CI = dyn_cast<CallBase>(&I);
      if (CI && !isa<CallInst>(CI) && !isa<InvokeInst>(CI))
        continue;
      Function *G = CI ? CI->getCalledFunction() : nullptr;
      int Lib = G && !CI->isMustTailCall() ? libScanOf(*CI, *G) : -1;
      // sin(i * step): a new argument in every iteration, no repeat to find
      if (Lib >= 0 && LibScans[Lib].Pure &&
          any_of(CI->args(), [&](Value *A) { return newEveryIteration(A, L, SE); })) {
        ++NumMonotonicMath;
        continue;
      }
      // A call of a helper of the module that makes a setup call on every
      // call (log_event's fopen, not inlined): the setup call's unit, at
      // this call ("Setup calls made again" in docs/redundancy.md).
      CallInst *Lifted = nullptr;
      CallBase *LiftedCopy = nullptr;
      std::vector<std::pair<int, Constant *>> LiftedArgs;
      if (Lib < 0 &&
          (!G || G == &F || G->isDeclaration() || G->isIntrinsic() || CI->isMustTailCall() ||
           G->hasFnAttribute(Attribute::ReturnsTwice) || !WithSources.count(G) ||
           !Expensive(*G))) {
        if (!G || G == &F || G->isDeclaration() || G->isIntrinsic() || CI->isMustTailCall() ||
            CI->arg_size() != G->arg_size())
          continue;
        // Else a copy in a loop-free helper (pop's memmove), probed in a
        // copy of the helper made for this call.
        if (!(isa<CallInst>(CI) && (Lifted = SetupIn(*G, Lib, LiftedArgs))) &&
            !(LiftedCopy = CopyIn(*G, Lib)))
          continue;
      }
      // An invoke (a call that may throw, in C++) is a unit only as a copy,
      // whose probe goes before it (in the helper, for a lifted one): the
      // whole-call recording clones a call.
      if (isa_and_nonnull<InvokeInst>(CI) && (Lib < 0 || !LibScans[Lib].Copy))
        continue;
      if (Lib >= 0 && LibScans[Lib].Copy && !EnablePrefixPairs)
        continue;
      LoopSources U;
      U.CallSite = true;
      U.LibScan = Lib;
      U.Copy = Lib >= 0 && LibScans[Lib].Copy;
      U.Setup = Lib >= 0 && LibScans[Lib].Setup;
      U.Sort = Lib >= 0 && LibScans[Lib].Size >= 0;
      U.Pure = Lib >= 0 && LibScans[Lib].Pure;
      U.Call = CI;
      uint64_t Key[2] = {LS.LoopId, 0x7670726663616c6cULL ^ Ordinal++};
      U.LoopId = xxHash64(ArrayRef<uint8_t>(reinterpret_cast<const uint8_t *>(Key), sizeof Key));
      if (!U.LoopId)
        U.LoopId = 1;
      if (Lifted) {
        const DISubprogram *VSP = G->getSubprogram();
        U.Via = VSP ? VSP->getName().str() : G->getName().str();
        U.LiftedArgs = std::move(LiftedArgs);
        U.ViaLine = lineIn(*Lifted, VSP);
        G = Lifted->getCalledFunction();
      } else if (LiftedCopy) {
        const DISubprogram *VSP = G->getSubprogram();
        U.Via = VSP ? VSP->getName().str() : G->getName().str();
        U.LiftedCopy = LiftedCopy;
        U.ViaLine = lineIn(*LiftedCopy, VSP);
        G = LiftedCopy->getCalledFunction();
      }
      const DISubprogram *SP = G->getSubprogram();
      // The callee's linkage name when it has one (C++: reports show it
      // demangled and qualified, vp_func_display), else its name.
      U.Function = SP && !SP->getLinkageName().empty() ? SP->getLinkageName().str()
                   : SP                                 ? SP->getName().str()
                                                        : G->getName().str();
      // glibc's C99 scanf names (__isoc99_sscanf) as the program wrote them
      if (Lib >= 0 && StringRef(U.Function).startswith("__isoc99_"))
        U.Function = U.Function.substr(strlen("__isoc99_"));
      if (Lib >= 0 && LibScans[Lib].Shown)
        U.Function = LibScans[Lib].Shown;
      U.File = LS.File;
      if (const DILocation *DL = CI->getDebugLoc().get()) {
        // In the loop's frame: a call inlined into the loop from a header
        // (std::string's operator+) is at the loop's line that calls it,
        // in the loop's file, which is the unit's.
        if (const DILocation *Start = L.getStartLoc().get())
          for (const DILocation *D = DL; D; D = D->getInlinedAt())
            if (D->getScope()->getSubprogram() == Start->getScope()->getSubprogram() &&
                D->getInlinedAt() == Start->getInlinedAt()) {
              DL = D;
              break;
            }
        U.Line = DL->getLine();
        U.Column = DL->getColumn();
      }
      unsigned NArgs = Lifted ? Lifted->arg_size() : CI->arg_size();
      for (unsigned A = 0; A < NArgs; ++A) {
        Value *V = unitArg(U, *CI, A);
        if (!V || isa<Constant>(V) || !canRecord(V) ||
            (U.Setup && V->getType()->isPointerTy()))
          continue;
        SourceInfo S;
        S.V = V;
        S.Kind = VP_SRC_OUTSIDE;
        S.CI = VP_SRCD_RECORD;
        S.Id = A;
        S.Line = U.Line;
        S.Column = U.Column;
        S.Function = LS.Function;
        U.Sources.push_back(std::move(S));
      }
      Units.push_back(std::move(U));
    }
  }
  return Units;
}

/// The number of bytes call \p CB of scan \p E reads at its pointer
/// argument \p J (P, as i8*): n for a bound that is not stopped by a NUL
/// (memcmp), else strnlen(p, n) or strlen(p).
static Value *scannedLength(ProbeModule &PM, IRBuilder<> &B, const LibScan &E, CallBase &CB,
                            int J, Value *P) {
  Type *SizeT = PM.M.getDataLayout().getIntPtrType(PM.Ctx);
  if (E.Range && J == 0) { // [first, last): last - first bytes, 0 if negative
    Value *First = B.CreatePtrToInt(CB.getArgOperand(E.Ptr[0]), SizeT);
    Value *Last = B.CreatePtrToInt(CB.getArgOperand(E.Len[0]), SizeT);
    return B.CreateSelect(B.CreateICmpULT(Last, First), ConstantInt::get(SizeT, 0),
                          B.CreateSub(Last, First));
  }
  if (E.Len[J] >= 0 && E.Size >= 0 && J == 0) // a sort's elements, in bytes
    return B.CreateMul(B.CreateZExtOrTrunc(CB.getArgOperand(E.Len[J]), SizeT),
                       B.CreateZExtOrTrunc(CB.getArgOperand(E.Size), SizeT));
  if (E.Len[J] >= 0 && !E.Nul)
    return CB.getArgOperand(E.Len[J]);
  if (E.Len[J] >= 0) {
    FunctionCallee Strnlen = PM.M.getOrInsertFunction("strnlen", SizeT, PM.I8Ptr, SizeT);
    return B.CreateCall(Strnlen, {P, B.CreateZExtOrTrunc(CB.getArgOperand(E.Len[J]), SizeT)});
  }
  FunctionCallee Strlen = PM.M.getOrInsertFunction("strlen", SizeT, PM.I8Ptr);
  return B.CreateCall(Strlen, {P});
}

/// The bytes a C library scan reads, hashed by the runtime, as sources
/// 64 + the argument's index.  Emitted before the recorded call, which
/// reads the same bytes (and writes only past them: strcat).
static void sendScannedBytes(ProbeModule &PM, IRBuilder<> &B, uint32_t Index,
                             const LoopSources &U, CallInst &CB) {
  const LibScan &E = LibScans[U.LibScan];
  for (int J = 0; J < 2; ++J) {
    Value *Arg = E.Ptr[J] < 0 ? nullptr : unitArg(U, CB, E.Ptr[J]);
    if (!Arg)
      continue;
    Value *P = B.CreatePointerCast(Arg, PM.I8Ptr);
    if (E.Setup) // dlopen(NULL), getaddrinfo(NULL, port): no string, read as ""
      P = B.CreateSelect(B.CreateIsNull(P), B.CreateGlobalStringPtr("", "vprof.red.empty"), P);
    Value *N = scannedLength(PM, B, E, CB, J, P);
    B.CreateCall(PM.BytesFn, {PM.desc(B), B.getInt32(Index), B.getInt32(64 + E.Ptr[J]), P,
                              B.CreateZExtOrTrunc(N, PM.I64), B.getInt32(VP_RED_MODE_CI)});
  }
}

/// A string scan's instance probe, before call \p CB (and before its
/// cross-iteration decision, which it leaves alone):
///   if (--slot.instance_countdown == 0) prefix(slot, 96 + arg, p, len(p));
/// The runtime makes the call an instance of the unit, paired with the next
/// call, whose values are the string's chunk hashes (docs/redundancy.md,
/// "Strings scanned again").  An unsampled call pays the countdown.
static void insertPrefixProbe(ProbeModule &PM, CallBase &CB, const LoopSources &U) {
  const LibScan &E = LibScans[U.LibScan];
  int J = E.Prefix;
  IRBuilder<> B(&CB);
  Value *Slot = PM.slot(B, U.ProbeIndex);
  B.SetInsertPoint(countDown(PM, B, B.CreateConstGEP1_32(PM.I32, Slot, 1), &CB));
  Value *P = B.CreatePointerCast(CB.getArgOperand(E.Ptr[J]), PM.I8Ptr);
  Value *N = scannedLength(PM, B, E, CB, J, P);
  B.CreateCall(PM.PrefixFn,
               {PM.desc(B), B.getInt32(U.ProbeIndex), Slot,
                B.getInt32((E.Copy ? VP_RED_SRC_PREFIX_START : VP_RED_SRC_PREFIX) + E.Ptr[J]), P,
                B.CreateZExtOrTrunc(N, PM.I64)});
}

/// A copy lifted from a helper (LoopSources::LiftedCopy): the loop's call
/// \p CB of the helper calls a copy of it made for this call, whose copy
/// call gets the unit's probe.  The helper itself, and its other callers,
/// are left as they are.  False (no probe) when the helper's copy call is
/// gone.
static bool instrumentLiftedCopy(ProbeModule &PM, CallBase &CB, const LoopSources &U) {
  auto *Copy = dyn_cast_or_null<CallBase>(static_cast<Value *>(U.LiftedCopy));
  Function *G = CB.getCalledFunction();
  if (!Copy || !G || Copy->getFunction() != G)
    return false;
  ValueToValueMapTy VMap;
  Function *C = cloneForProbes(*G, VMap, ".vprof_copy");
  auto *CopyInC = dyn_cast_or_null<CallBase>(VMap.lookup(Copy));
  if (!CopyInC) {
    C->eraseFromParent();
    return false;
  }
  insertPrefixProbe(PM, *CopyInC, U);
  CB.setCalledFunction(C);
  return true;
}

/// A repeated-call unit's probes around its call:
///   if (--slot.iter_countdown <= 0) rec = iter_sample() != 0;
///   if (rec) { value(arg) for each recorded argument; active++;
///              r = call of the callee's copy (or the callee, without one);
///              active--; iter_end(); }
///   else r = call
/// The copy sends the callee sources (insertCalleeCopies); `active` makes
/// the functions that test it after each source send theirs.  The values
/// go to every recorded frame of the thread, this one too.
static void instrumentCallUnit(ProbeModule &PM, CallInst &CB, const LoopSources &U) {
  uint32_t Index = U.ProbeIndex;
  if (U.LibScan >= 0 && LibScans[U.LibScan].Prefix >= 0 && EnablePrefixPairs)
    insertPrefixProbe(PM, CB, U);
  if (U.LibScan >= 0 && LibScans[U.LibScan].Copy)
    return; // its pairs only
  MDNode *Unlikely = MDBuilder(PM.Ctx).createBranchWeights(1, 1u << 20);
  if (U.Setup || U.Pure) {
    // A setup call's signature is known before the call (its strings and
    // integers), a math call's too (its numbers): the frame ends there, and
    // the call is left as it is, so nothing the call runs (a helper's callee
    // probes, when the call is lifted) joins it.
    IRBuilder<> B(&CB);
    Value *Slot = PM.slot(B, Index);
    B.SetInsertPoint(countDown(PM, B, Slot, &CB));
    Value *Yes = B.CreateICmpNE(B.CreateCall(PM.IterFn, {PM.desc(B), B.getInt32(Index), Slot}),
                                B.getInt32(0));
    B.SetInsertPoint(SplitBlockAndInsertIfThen(Yes, &*B.GetInsertPoint(), false, Unlikely));
    for (const SourceInfo &S : U.Sources) {
      Value *V = unitArg(U, CB, S.Id);
      if (V && !isa<Constant>(V) && canRecord(V))
        sendCallValue(PM, B, Index, S, V);
    }
    sendScannedBytes(PM, B, Index, U, CB);
    B.CreateCall(PM.IterEndFn, {PM.desc(B), B.getInt32(Index)});
    return;
  }
  BasicBlock *Head = CB.getParent();
  IRBuilder<> B(&CB);
  Value *Slot = PM.slot(B, Index);
  Instruction *Ask = countDown(PM, B, Slot, &CB);
  B.SetInsertPoint(Ask);
  Value *Yes = B.CreateICmpNE(B.CreateCall(PM.IterFn, {PM.desc(B), B.getInt32(Index), Slot}),
                              B.getInt32(0));
  BasicBlock *Tail = CB.getParent();
  PHINode *Rec = PHINode::Create(B.getInt1Ty(), 2, "vprof.red.callrec", &Tail->front());
  Rec->addIncoming(B.getFalse(), Head);
  Rec->addIncoming(Yes, Ask->getParent());
  Instruction *Then = nullptr, *Else = nullptr;
  SplitBlockAndInsertIfThenElse(Rec, &CB, &Then, &Else, Unlikely);
  BasicBlock *Join = CB.getParent();
  CB.moveBefore(Else);
  auto *RecCall = cast<CallInst>(CB.clone());
  RecCall->insertBefore(Then);
  redirectRecordedCalls(PM, {Then->getParent()});
  if (!CB.getType()->isVoidTy() && !CB.use_empty()) {
    PHINode *R = PHINode::Create(CB.getType(), 2, "", &Join->front());
    CB.replaceAllUsesWith(R);
    R->addIncoming(RecCall, Then->getParent());
    R->addIncoming(&CB, Else->getParent());
  }
  B.SetInsertPoint(RecCall);
  // The arguments as the call has them now: the loops' recording copies,
  // made before, may have replaced the values the analysis saw.
  for (const SourceInfo &S : U.Sources) {
    Value *V = unitArg(U, CB, S.Id);
    if (V && !isa<Constant>(V) && canRecord(V))
      sendCallValue(PM, B, Index, S, V);
  }
  if (U.LibScan >= 0)
    sendScannedBytes(PM, B, Index, U, CB);
  B.CreateStore(B.CreateAdd(B.CreateLoad(PM.I32, PM.Active), B.getInt32(1)), PM.Active);
  B.SetInsertPoint(Then);
  B.CreateStore(B.CreateSub(B.CreateLoad(PM.I32, PM.Active), B.getInt32(1)), PM.Active);
  B.CreateCall(PM.IterEndFn, {PM.desc(B), B.getInt32(Index)});
}

// ---------------------------------------------------------------------------
// The pass.
// ---------------------------------------------------------------------------

namespace {
/// A function whose loops are analysed, and the function its probes go to.
struct Target {
  Function *Orig;           ///< as compiled (ids are computed on it)
  Function *Analysed;       ///< loopclass's clone, else Orig, then our clone
  GlobalVariable *Gate;     ///< loopclass's gate, or null (make our own)
  bool OwnClone = false;    ///< Analysed is our clone, to be gated
  std::vector<size_t> Loops; ///< indices into the result vector
  std::vector<BasicBlock *> Headers; ///< per loop, in Analysed
};
} // namespace

PreservedAnalyses RedundancyPass::run(Module &M, ModuleAnalysisManager &MAM) {
  // Each stride is a copy of the loop's body: a mistyped count would make
  // the copy budget drop every such loop's probes, or without a budget
  // grow the code by that factor.
  // (emitError, not report_fatal_error: clang prints one error line for it
  // and fails the compile, without a crash report.)
  if (Stride > 64) {
    M.getContext().emitError("vprof-redundancy: -vprof-redundancy-stride=" +
                             Twine(unsigned(Stride)) +
                             " is too large (at most 64 copies of a loop body)");
    return PreservedAnalyses::all();
  }
  auto &FAM = MAM.getResult<FunctionAnalysisManagerModuleProxy>(M).getManager();
  ModRefSummary Summary(M);
  LoopIdAssigner Ids;
  std::vector<LoopSources> Results;
  std::vector<Target> Targets;
  DenseMap<Value *, uint32_t> CalleeIds;
  auto PDTOf = [&](Function &G) -> PostDominatorTree & {
    return FAM.getResult<PostDominatorTreeAnalysis>(G);
  };

  SmallVector<Function *, 32> Originals;
  for (Function &F : M)
    if (isLoopTableFunction(F))
      Originals.push_back(&F);

  for (Function *F : Originals) {
    // A directly recursive function is a loop whose iterations are calls
    // (its id comes first, as in the loop table).
    bool Recursive = isDirectlyRecursive(*F);
    LoopSource RecSrc;
    uint64_t RecId = 0;
    if (Recursive) {
      RecSrc = loopSourceOf(nullptr, *F);
      RecId = Ids.assign(RecSrc);
    }
    auto &OrigLI = FAM.getResult<LoopAnalysis>(*F);
    if (OrigLI.empty() && !Recursive)
      continue;
    // Ids on the original, in preorder, as the loop table does.
    struct Item {
      uint64_t Id;
      LoopSource Src;
      std::string Local; ///< line:col#ordinal within the function
    };
    std::vector<Item> Items;
    StringMap<unsigned> LocalSeen;
    for (Loop *L : OrigLI.getLoopsInPreorder()) {
      LoopSource K = loopSourceOf(loopLocationOf(*L).Start, *F);
      std::string Local = std::to_string(K.Line) + ":" + std::to_string(K.Column);
      Local += "#" + std::to_string(LocalSeen[Local]++);
      uint64_t Id = Ids.assign(K);
      Items.push_back({Id, std::move(K), Local});
    }

    // The probes go into loopclass's gated clone when it made one (then the
    // analysis runs there, on the code the probes will see); otherwise the
    // original is analysed and cloned when the probes are inserted.
    ProbedClone PC = findProbedClone(*F);
    Target T{F, PC ? PC.Clone : F, PC.Gate, false, {}, {}};
    Function &A = *T.Analysed;
    if (Recursive) {
      LoopSources LS = findRecursionSources(A);
      LS.LoopId = RecId;
      LS.Function = RecSrc.Function;
      LS.File = RecSrc.File;
      LS.Line = RecSrc.Line;
      LS.Recursion = true;
      T.Loops.push_back(Results.size());
      T.Headers.push_back(nullptr);
      Results.push_back(std::move(LS));
    }
    FunctionAnalyses FA{&FAM.getResult<DominatorTreeAnalysis>(A),
                        &FAM.getResult<PostDominatorTreeAnalysis>(A),
                        &FAM.getResult<LoopAnalysis>(A),
                        &FAM.getResult<ScalarEvolutionAnalysis>(A),
                        &FAM.getResult<MemorySSAAnalysis>(A).getMSSA(),
                        &FAM.getResult<AAManager>(A)};
    StringMap<unsigned> Seen2;
    for (Loop *L : FA.LI->getLoopsInPreorder()) {
      LoopSource K = loopSourceOf(loopLocationOf(*L).Start, *F);
      std::string Local = std::to_string(K.Line) + ":" + std::to_string(K.Column);
      Local += "#" + std::to_string(Seen2[Local]++);
      auto It = find_if(Items, [&](const Item &I) { return I.Local == Local; });
      if (It == Items.end())
        continue;
      // The loop TRE made of the tail call: its iterations are calls, which
      // the per-call decision samples already; probing it as a loop too made
      // every call pay a second countdown (gcc1687's expr_cost: +7 %;
      // docs/redundancy.md, "Recursive functions").
      if (Recursive && isTailRecursionLoop(*L, A)) {
        ++NumTailRecLoops;
        continue;
      }
      LoopSideEffects E =
          findLoopSideEffects(*L, Summary, *FA.DT, *FA.PDT, *FA.LI, FA.SE);
      LoopSources LS = findLoopSources(*L, E, FA, PDTOf, CalleeIds);
      LS.LoopId = It->Id;
      LS.Function = It->Src.Function;
      LS.File = It->Src.File;
      LS.Line = It->Src.Line;
      LS.Column = It->Src.Column;
      std::vector<LoopSources> Units =
          repeatedCallUnits(
              *L, LS, *FA.LI, *FA.SE, *F,
              [&](Function &G) { return !FAM.getResult<LoopAnalysis>(G).empty(); },
              [&](Function &G, int &Lib, std::vector<std::pair<int, Constant *>> &Args) {
                return liftableSetupCall(G, FAM.getResult<LoopAnalysis>(G), PDTOf(G), Lib,
                                         Args);
              },
              [&](Function &G, int &Lib) {
                return liftableCopyCall(G, FAM.getResult<LoopAnalysis>(G), Lib);
              });
      size_t Parent = Results.size();
      T.Loops.push_back(Parent);
      T.Headers.push_back(L->getHeader());
      Results.push_back(std::move(LS));
      for (LoopSources &U : Units) {
        U.Parent = Parent;
        T.Loops.push_back(Results.size());
        T.Headers.push_back(nullptr);
        Results.push_back(std::move(U));
        ++NumCallUnits;
      }
    }
    if (!T.Loops.empty())
      Targets.push_back(std::move(T));
  }

  if (NoPruning)
    for (LoopSources &LS : Results) {
      LS.IVSource = false;
      for (SourceInfo &S : LS.Sources) {
        if (S.CI != VP_SRCD_NONE && S.CI != VP_SRCD_UNSUPPORTED)
          S.CI = VP_SRCD_RECORD;
        if (S.CL == VP_SRCD_RANGE && S.Kind != VP_SRC_STRIDE)
          S.CL = VP_SRCD_RECORD;
      }
    }

  bool Changed = false;
  if (EnableProbes) {
    ProbeModule PM(M);
    // Decide the probed loops and their descriptor indices first: the
    // thread-local slot array is sized by them.
    std::vector<Target *> Probed;
    for (Target &T : Targets) {
      if (T.Gate == nullptr && !canProbeFunction(*T.Orig))
        continue;
      for (size_t K : T.Loops) {
        LoopSources &LS = Results[K];
        LS.ProbeIndex = PM.Entries.size();
        bool AnyCI = any_of(LS.Sources, [](const SourceInfo &S) {
          return S.CI == VP_SRCD_RECORD;
        });
        // The runtime selects an entry by its function's name: a unit's is
        // its loop's (LS.Function names the callee, for the report).
        PM.Entries.push_back({LS.LoopId,
                              LS.CallSite ? Results[LS.Parent].Function : LS.Function,
                              T.Orig->getName().str(), T.Gate,
                              ((!LS.CallSite && (LS.IVSource || !AnyCI))
                                   ? (uint32_t)VP_RED_RTF_NO_CI
                                   : 0u) |
                                  (LS.Recursion ? (uint32_t)VP_RED_RTF_NO_ACTIVE : 0u) |
                                  (LS.Setup ? (uint32_t)VP_RED_RTF_DENSE : 0u)});
      }
      Probed.push_back(&T);
    }
    if (!PM.Entries.empty()) {
      PM.createSlots();
      // Without loopclass's clone, make ours now: the analysis ran on the
      // original, whose values VMap takes into the clone.  Before the callee
      // probes go into the originals, so that no clone copies them (they
      // belong to the callers' slices, not to the clone's own loops).
      std::map<Target *, ValueToValueMapTy> VMaps;
      for (Target *T : Probed) {
        ValueToValueMapTy &VMap = VMaps[T];
        if (T->Gate)
          continue;
        ProbedClone Own = makeProbedClone(*T->Orig, VMap);
        T->Analysed = Own.Clone;
        T->Gate = Own.Gate;
        T->OwnClone = true;
        ++NumOwnClones;
        for (size_t K : T->Loops)
          PM.Entries[Results[K].ProbeIndex].Gate = T->Gate;
      }
      // Callee probes, in the original functions only (per function, in a
      // copy the original enters while a recorded iteration is active).
      DenseSet<Value *> CalleeDone;
      MapVector<Function *, SmallVector<std::pair<Instruction *, uint32_t>, 4>>
          CalleeProbes;
      for (const LoopSources &LS : Results)
        if (LS.ProbeIndex != ~0u)
          for (const SourceInfo &S : LS.Sources)
            if (getsCalleeProbe(S) && CalleeDone.insert(S.V).second)
              if (auto *I = dyn_cast<Instruction>(S.V))
                CalleeProbes[I->getFunction()].push_back({I, S.Id});
      {
        unsigned Depth = 1;
        std::vector<Function *> ProbedFns;
        for (const LoopSources &LS : Results)
          if (LS.ProbeIndex != ~0u)
            for (const SourceInfo &S : LS.Sources)
              if (getsCalleeProbe(S))
                Depth = std::max(Depth, S.Depth);
        for (Target *T : Probed)
          ProbedFns.push_back(T->Analysed);
        insertCalleeCopies(PM, CalleeProbes, ProbedFns, Depth);
      }

      for (Target *T : Probed) {
        ValueToValueMapTy &VMap = VMaps[T];
        Function *Fn = T->Analysed;
        auto Map = [&](Value *V) -> Value * {
          if (VMap.empty())
            return V;
          Value *M2 = VMap.lookup(V);
          return M2 ? M2 : V;
        };
        // The recursion's per-call probes first: the loops' recording
        // copies then copy them too.
        for (size_t i = 0; i != T->Loops.size(); ++i) {
          LoopSources &LS = Results[T->Loops[i]];
          if (!LS.Recursion)
            continue;
          instrumentRecursion(PM, *Fn, LS, Map);
          LS.Probed = true;
          ++NumProbedLoops;
        }
        FunctionInstrumenter FI(PM, *Fn);
        std::vector<std::pair<unsigned, size_t>> Order; // deepest first
        std::vector<bool> Skip(T->Loops.size()); // over the copy budget
        {
          DominatorTree DT(*Fn);
          LoopInfo LI(DT);
          for (size_t i = 0; i != T->Loops.size(); ++i) {
            if (!T->Headers[i])
              continue; // the recursion
            auto *H = cast<BasicBlock>(Map(T->Headers[i]));
            T->Headers[i] = H;
            Loop *L = LI.getLoopFor(H);
            Order.push_back({L ? L->getLoopDepth() : 0, i});
          }
          for (Loop *L : LI)
            simplifyLoop(L, &DT, &LI, nullptr, nullptr, nullptr, false);
          std::vector<bool> CI(T->Loops.size());
          for (size_t i = 0; i != T->Loops.size(); ++i) {
            const LoopSources &LS = Results[T->Loops[i]];
            CI[i] = !LS.Recursion && !LS.CallSite &&
                    !(PM.Entries[LS.ProbeIndex].Flags & VP_RED_RTF_NO_CI);
          }
          overBudget(*Fn, LI, T->Headers, Order, CI, Skip);
        }
        for (size_t i = 0; i != T->Loops.size(); ++i) {
          LoopSources &LS = Results[T->Loops[i]];
          if (LS.Recursion || LS.CallSite || Skip[i])
            continue; // a loop over the budget gets no value probes either
          uint32_t Idx = LS.ProbeIndex;
          bool CIOn = !LS.IVSource;
          for (SourceInfo &S : LS.Sources) {
            if (S.Depth)
              continue;
            Value *V = Map(S.V);
            if (S.Kind == VP_SRC_STRIDE) { // its addresses, of a load or a store
              if (auto *I = dyn_cast<Instruction>(V); I && S.CL == VP_SRCD_RANGE)
                FI.Tags[I].push_back({Tag::Range, Idx, S.Id, 0});
              continue;
            }
            uint32_t Mode = 0;
            if (S.CI == VP_SRCD_RECORD && CIOn)
              Mode |= VP_RED_MODE_CI;
            if (S.CL == VP_SRCD_ONCE) {
              if (canRecord(V))
                FI.Once[Idx].push_back({S.Id, V});
            } else if (S.CL == VP_SRCD_RECORD) {
              Mode |= VP_RED_MODE_CL;
            }
            auto *I = dyn_cast<Instruction>(V);
            if (!I || !canRecord(V))
              continue;
            if (Mode)
              FI.Tags[I].push_back({Tag::Value, Idx, S.Id, Mode});
            if (S.CL == VP_SRCD_RANGE)
              FI.Tags[I].push_back({Tag::Range, Idx, S.Id, 0});
          }
          for (Instruction *SE : LS.SideEffects)
            if (auto *I = dyn_cast<Instruction>(Map(SE)))
              FI.Tags[I].push_back({Tag::SideEffect, Idx, 0, 0});
        }
        std::stable_sort(Order.begin(), Order.end(),
                         [](auto &A, auto &B) { return A.first > B.first; });
        if (DisjointAdds)
          FI.disjointOrsToAdds();
        for (size_t i = 0; i != T->Loops.size(); ++i) {
          LoopSources &LS = Results[T->Loops[i]];
          if (LS.Recursion || LS.CallSite)
            continue;
          if (Skip[i]) {
            LS.OverBudget = true;
            ++NumOverBudget;
            continue;
          }
          if (FI.instrumentInstances(T->Headers[i], LS.ProbeIndex)) {
            LS.Probed = true;
            ++NumProbedLoops;
          }
        }
        for (auto &[Depth, i] : Order) {
          LoopSources &LS = Results[T->Loops[i]];
          if (LS.Probed && !LS.Recursion && !LS.CallSite)
            FI.instrumentIterations(T->Headers[i], LS.ProbeIndex);
        }
        // Repeated-call units last, in the loops' own bodies only: a call in
        // a recorded iteration or instance is not sampled as a unit too
        // (its frame would nest in the loop's, and the copies' hand-made
        // SSA would have to carry the unit's decision).
        for (size_t i = 0; i != T->Loops.size(); ++i) {
          LoopSources &LS = Results[T->Loops[i]];
          if (!LS.CallSite)
            continue;
          Value *C = LS.Call;
          Value *Mapped = C ? Map(C) : nullptr;
          if (LS.LiftedCopy) {
            if (auto *CB = dyn_cast_or_null<CallBase>(Mapped))
              LS.Probed = instrumentLiftedCopy(PM, *CB, LS);
          } else if (auto *CB = dyn_cast_or_null<CallInst>(Mapped)) {
            instrumentCallUnit(PM, *CB, LS);
            LS.Probed = true;
          } else if (auto *II = dyn_cast_or_null<InvokeInst>(Mapped);
                     II && LS.LibScan >= 0 && LibScans[LS.LibScan].Copy) {
            insertPrefixProbe(PM, *II, LS); // a copy's pairs only
            LS.Probed = true;
          }
        }
        FI.promote();
        FI.threadNoCIFlags();
        if (ParserUseLists)
          normaliseUseLists(*Fn);
        // The recording copies rewire SSA by hand: check the result here
        // rather than let a broken function reach the code generator.
        if (verifyFunction(*Fn, &errs()))
          report_fatal_error("vprof-redundancy: instrumenting " +
                             Fn->getName() + " produced invalid IR");
        if (T->OwnClone)
          insertGate(*T->Orig, ProbedClone{Fn, T->Gate});
        Changed = true;
      }
      PM.finish();
    } else {
      PM.Desc->eraseFromParent();
    }
  }

  if (PrintSources)
    for (const LoopSources &LS : Results)
      printLoopSources(errs(), LS);
  emitRedundancySection(M, Results);
  if (!Results.empty())
    Changed = true;
  return Changed ? PreservedAnalyses::none() : PreservedAnalyses::all();
}

} // namespace vprof
