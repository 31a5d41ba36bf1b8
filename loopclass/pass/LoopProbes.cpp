//===- LoopProbes.cpp - gated per-loop iteration/result counters ---------===//
//
// Instruments every classified loop with LDoctor's dynamic monitoring
// (section 3.1.2): per instance, iterations and iterations in which a
// side-effect block ran.  The probes live in a clone of the
// function; the original starts with one load + well-predicted branch on the
// function's gate byte, which the runtime sets only for selected functions.
//
//===----------------------------------------------------------------------===//

#include "LoopclassPasses.h"
#include "vprof/LoopProbes.h"
#include "vprof/RuntimeRefs.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/Statistic.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Analysis/ConstantFolding.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/DebugInfoMetadata.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/MDBuilder.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Transforms/Utils/BasicBlockUtils.h"
#include "llvm/Transforms/Utils/Cloning.h"
#include "llvm/Transforms/Utils/Local.h"
#include "llvm/Transforms/Utils/LoopSimplify.h"
#include "llvm/Transforms/Utils/ModuleUtils.h"
#include "llvm/Transforms/Utils/PromoteMemToReg.h"
#include "llvm/Transforms/Utils/ValueMapper.h"

#include <cstddef>

#define DEBUG_TYPE "vprof-loop-probes"

using namespace llvm;

STATISTIC(NumProbedLoops, "Number of loops given probes");
STATISTIC(NumProbedFunctions, "Number of functions cloned for probes");

static cl::opt<bool>
    EnableProbes("vprof-loop-probes", cl::init(true), cl::Hidden,
                 cl::desc("Insert the gated loopclass probes (default on)"));

namespace vprof {

/// Marks the clones, so that no analysis runs on them twice.
static const char *const ProbedCloneAttr = "vprof-probed-clone";

namespace {

/// The per-TU descriptor the runtime receives (struct vp_loop_rt_module)
/// and the runtime entry points, all declared extern_weak so that a binary
/// built with vprof-cc runs without the runtime.
class ProbeModule {
public:
  explicit ProbeModule(Module &M);

  /// Adds a loop to the descriptor and returns its index.
  uint32_t addLoop(const LoopRecord &R, GlobalVariable *Gate);
  /// Writes the descriptor and the constructor that registers it.
  void finish();
  /// `i32 stub(i8* callee, i8* cache)`: 1 unless the runtime knows the
  /// callee writes nothing (__vprof_callee_impure; 1 without a runtime).
  Function *impureStub();
  /// A new per-call-site cache ([2 x i8*]: last pure, last impure callee).
  GlobalVariable *calleeCache();
  bool empty() const { return Entries.empty(); }

  Module &M;
  LLVMContext &Ctx;
  Type *I8, *I16, *I32, *I64, *I8Ptr;
  GlobalVariable *Desc;
  /// The calling thread's counter block of this TU (null until the first
  /// instance of a selected loop asks the runtime for it).
  GlobalVariable *Block;
  FunctionCallee BlockFn, RecEnterFn, RecExitFn;
  /// The TU's internal helper that adds an instance's counts to the
  /// thread's counters (countsFunction).
  Function *countsFunction();

private:
  Function *Counts = nullptr;
  StructType *LoopTy;
  std::vector<Constant *> Entries;
  RuntimeStrings Strings{M, "__vprof_loop_str"};
  Constant *string(StringRef S) { return Strings.get(S); }
  FunctionCallee weakFunction(StringRef Name, FunctionType *FTy);
  Function *Stub = nullptr;
  unsigned Caches = 0;
};

} // namespace

ProbeModule::ProbeModule(Module &M) : M(M), Ctx(M.getContext()) {
  I8 = Type::getInt8Ty(Ctx);
  I16 = Type::getInt16Ty(Ctx);
  I32 = Type::getInt32Ty(Ctx);
  I64 = Type::getInt64Ty(Ctx);
  I8Ptr = Type::getInt8PtrTy(Ctx);
  // struct vp_loop_rt_loop
  LoopTy = StructType::get(Ctx, {I64, I8Ptr, I8Ptr, I8Ptr, I8Ptr, I8, I8, I16,
                                 I32});
  // struct vp_loop_rt_module
  StructType *ModTy = StructType::get(Ctx, {I32, I32, I8Ptr, I8Ptr, I64, I8Ptr});
  Desc = new GlobalVariable(M, ModTy, /*isConstant=*/false,
                            GlobalValue::InternalLinkage, nullptr,
                            "__vprof_loop_module");
  Type *Void = Type::getVoidTy(Ctx);
  BlockFn = weakFunction(VP_LOOP_RT_BLOCK,
                         FunctionType::get(I8Ptr, {I8Ptr}, false));
  // Thread-local, default (general-dynamic) model: the code generator picks
  // local-exec in an executable (one %fs-relative load) and local-dynamic in
  // a shared object, which also works when it is dlopen'ed (initial-exec
  // would need static TLS space that a late dlopen may not find).
  Block = new GlobalVariable(M, I8Ptr, false, GlobalValue::InternalLinkage,
                             ConstantPointerNull::get(cast<PointerType>(I8Ptr)),
                             "__vprof_loop_tls_block", nullptr,
                             GlobalValue::GeneralDynamicTLSModel);
  Block->setAlignment(Align(8));
  RecEnterFn = weakFunction(VP_LOOP_RT_REC_ENTER,
                            FunctionType::get(Void, {I8Ptr, I32}, false));
  RecExitFn = weakFunction(VP_LOOP_RT_REC_EXIT,
                           FunctionType::get(Void, {I8Ptr, I32, I64}, false));
}

FunctionCallee ProbeModule::weakFunction(StringRef Name, FunctionType *FTy) {
  return declareWeakRuntimeFunction(M, Name, FTy);
}

Function *ProbeModule::impureStub() {
  if (Stub)
    return Stub;
  FunctionType *FTy = FunctionType::get(I32, {I8Ptr, I8Ptr}, false);
  FunctionCallee RT = weakFunction("__vprof_callee_impure", FTy);
  Stub = Function::Create(FTy, GlobalValue::InternalLinkage,
                          "__vprof_callee_impure_stub", M);
  Stub->addFnAttr(Attribute::NoUnwind);
  BasicBlock *Entry = BasicBlock::Create(Ctx, "entry", Stub);
  BasicBlock *Ask = BasicBlock::Create(Ctx, "ask", Stub);
  BasicBlock *No = BasicBlock::Create(Ctx, "no_runtime", Stub);
  branchOnRuntime(Entry, RT, Ask, No);
  IRBuilder<> B(Ask);
  B.CreateRet(B.CreateCall(RT, {Stub->getArg(0), Stub->getArg(1)}));
  B.SetInsertPoint(No);
  B.CreateRet(ConstantInt::get(I32, 1));
  return Stub;
}

GlobalVariable *ProbeModule::calleeCache() {
  ArrayType *Ty = ArrayType::get(I8Ptr, 2);
  auto *G = new GlobalVariable(M, Ty, false, GlobalValue::InternalLinkage,
                               ConstantAggregateZero::get(Ty),
                               "__vprof_callee_cache." + Twine(Caches++));
  G->setAlignment(Align(16));
  return G;
}

/// Registers the module's functions that write nothing (LoopClassInfo::
/// PureFunctions) with the runtime, from a constructor:
///   if (&__vprof_pure_register) __vprof_pure_register(list, n);
static void emitPureTable(Module &M, ArrayRef<Function *> Fns) {
  if (Fns.empty())
    return;
  LLVMContext &Ctx = M.getContext();
  Type *I8Ptr = Type::getInt8PtrTy(Ctx), *I32 = Type::getInt32Ty(Ctx);
  std::vector<Constant *> Elems;
  for (Function *F : Fns)
    Elems.push_back(ConstantExpr::getPointerCast(F, I8Ptr));
  ArrayType *Ty = ArrayType::get(I8Ptr, Elems.size());
  auto *List = new GlobalVariable(M, Ty, true, GlobalValue::PrivateLinkage,
                                  ConstantArray::get(Ty, Elems), "__vprof_pure_fns");
  FunctionCallee Reg = declareWeakRuntimeFunction(
      M, "__vprof_pure_register",
      FunctionType::get(Type::getVoidTy(Ctx), {I8Ptr, I32}, false));
  addRuntimeRegistration(M, Reg,
                         {ConstantExpr::getPointerCast(List, I8Ptr),
                          ConstantInt::get(I32, Elems.size())},
                         "__vprof_pure_ctor");
}


uint32_t ProbeModule::addLoop(const LoopRecord &R, GlobalVariable *Gate) {
  Entries.push_back(ConstantStruct::get(
      LoopTy, {ConstantInt::get(I64, R.Id), string(R.Function),
               string(R.Linkage), string(R.Container),
               ConstantExpr::getPointerCast(Gate, I8Ptr),
               ConstantInt::get(I8, R.Kind), ConstantInt::get(I8, R.Class),
               ConstantInt::get(I16, 0), ConstantInt::get(I32, 0)}));
  return Entries.size() - 1;
}

void ProbeModule::finish() {
  ArrayType *LoopsTy = ArrayType::get(LoopTy, Entries.size());
  auto *Loops = new GlobalVariable(M, LoopsTy, true,
                                   GlobalValue::InternalLinkage,
                                   ConstantArray::get(LoopsTy, Entries),
                                   "__vprof_loop_loops");
  ArrayType *EnTy = ArrayType::get(I8, Entries.size());
  auto *Enabled = new GlobalVariable(M, EnTy, false,
                                     GlobalValue::InternalLinkage,
                                     ConstantAggregateZero::get(EnTy),
                                     "__vprof_loop_enabled");
  auto *ModTy = cast<StructType>(Desc->getValueType());
  Desc->setInitializer(ConstantStruct::get(
      ModTy, {ConstantInt::get(I32, VP_LOOP_RT_VERSION),
              ConstantInt::get(I32, Entries.size()),
              ConstantExpr::getPointerCast(Loops, I8Ptr),
              ConstantExpr::getPointerCast(Enabled, I8Ptr),
              ConstantInt::get(I64, 0), ConstantPointerNull::get(
                                            cast<PointerType>(I8Ptr))}));
  Desc->setAlignment(Align(8));

  // static void ctor(void) { if (&__vprof_loops_register) __vprof_loops_register(&desc); }
  FunctionCallee Reg = weakFunction(
      VP_LOOP_RT_REGISTER,
      FunctionType::get(Type::getVoidTy(Ctx), {I8Ptr}, false));
  addRuntimeRegistration(M, Reg, {ConstantExpr::getPointerCast(Desc, I8Ptr)},
                         "__vprof_loops_ctor");
}

/// True if every path from `B` to the end of the iteration (the back edge to
/// the header, or a loop exit) passes another block of `Marked`: then `B`
/// needs no result count (LDoctor only instruments the post-dominating
/// block of a pair; this is the same test, restricted to one iteration).
static bool coveredByOthers(const Loop &L, BasicBlock *B,
                            const SmallPtrSetImpl<BasicBlock *> &Marked) {
  SmallPtrSet<BasicBlock *, 32> Seen;
  SmallVector<BasicBlock *, 16> Work{B};
  while (!Work.empty()) {
    BasicBlock *X = Work.pop_back_val();
    for (BasicBlock *S : successors(X)) {
      if (S == L.getHeader() || !L.contains(S))
        return false;
      if ((S != B && Marked.count(S)) || !Seen.insert(S).second)
        continue;
      Work.push_back(S);
    }
  }
  return true;
}

namespace {
/// Instruments one cloned function.
class FunctionProber {
public:
  FunctionProber(ProbeModule &PM, Function &Clone, GlobalVariable *Gate)
      : PM(PM), C(Clone), Gate(Gate), DT(Clone), LI(DT),
        AllocaPt(&*Clone.getEntryBlock().getFirstInsertionPt()) {
    for (Loop *L : LI)
      simplifyLoop(L, &DT, &LI, nullptr, nullptr, nullptr, false);
    // Where control leaves each outermost loop, before any probe splits a
    // block: the first original instruction of each exit block.
    for (Loop *L : LI) {
      SmallVector<BasicBlock *, 4> Exits;
      L->getUniqueExitBlocks(Exits);
      for (BasicBlock *E : Exits)
        OuterExits[L].push_back(&*E->getFirstInsertionPt());
    }
  }

  /// Cond: side-effect blocks whose only effects are calls through
  /// pointers, with those calls (VP_LOOPF_INDIRECT), in the clone.
  using CondBlocks = std::vector<std::pair<BasicBlock *, std::vector<CallBase *>>>;
  /// Keep: side-effect blocks whose only results are selects that keep the
  /// old value on one arm (LoopRecord::KeepOrUpdate), in the clone.
  using KeepBlocks = std::vector<std::pair<BasicBlock *, LoopRecord::KeepSelects>>;
  bool probeLoop(LoopRecord &R, BasicBlock *Header, ArrayRef<BasicBlock *> Body,
                 const CondBlocks &Cond, const KeepBlocks &Keep);
  void probeRecursion(LoopRecord &R, ArrayRef<BasicBlock *> Body);
  /// Flushes the accumulated counts of nested loops where their outermost
  /// loop ends.  Call after every probeLoop, before promote.
  void flushAtOuterExits();
  void promote();

private:
  /// Counts of a nested loop summed over its instances in registers and
  /// added to the thread's counters when its outermost loop ends (or every
  /// FlushEvery instances, so a never-ending outer loop loses at most that).
  struct Accumulator {
    uint32_t Index;
    AllocaInst *Instances, *Iters, *Results, *Max; ///< Results may be null
  };
  static constexpr uint64_t FlushEvery = 1024;

  void addCounts(Instruction *At, uint32_t Index, Value *Instances, Value *It,
                 Value *Res, Value *Max);
  void flush(Instruction *At, const Accumulator &A);

  DenseMap<Loop *, SmallVector<Instruction *, 4>> OuterExits;
  SmallVector<std::pair<Loop *, Accumulator>, 8> Accumulators;

  ProbeModule &PM;
  Function &C;
  GlobalVariable *Gate;
  DominatorTree DT;
  LoopInfo LI;
  Instruction *AllocaPt;
  std::vector<AllocaInst *> Allocas;

  AllocaInst *local(Type *Ty, const Twine &Name) {
    auto *A = new AllocaInst(Ty, 0, Name, AllocaPt);
    Allocas.push_back(A);
    return A;
  }
  Value *descriptor(IRBuilderBase &B) {
    return B.CreatePointerCast(PM.Desc, PM.I8Ptr);
  }
};
} // namespace

/// Per instance: Iters = Results = LastResult = 0 in the preheader; per
/// iteration, in the header: Iters++; in the side-effect blocks: Results +=
/// (LastResult != Iters), LastResult = Iters, so an iteration with results
/// counts once; on every exit the counts go out inline (countInstance).
/// Loops without side-effect blocks keep only Iters.  The header pays only
/// for Iters: an iteration without a result (the hot path of the loops
/// LDoctor diagnoses) pays nothing for Results (docs/loopclass.md,
/// "Probes").
bool FunctionProber::probeLoop(LoopRecord &R, BasicBlock *Header, ArrayRef<BasicBlock *> Body,
                               const CondBlocks &Cond, const KeepBlocks &Keep) {
  Loop *L = LI.getLoopFor(Header);
  if (!L || L->getHeader() != Header)
    return false;
  BasicBlock *Preheader = L->getLoopPreheader();
  if (!Preheader || !L->hasDedicatedExits())
    return false;
  uint32_t Index = PM.addLoop(R, Gate);

  // Which blocks count a result: LDoctor's post-dominance pruning,
  // restricted to one iteration.  A loop without any (0*, 0*1?) counts no
  // results at all: its rate needs only instances and iterations.
  // A block whose only effects are calls through pointers counts one
  // only for an impure callee, so it covers no other block.
  // So does a block whose results are selects that may keep the old value.
  DenseMap<BasicBlock *, const std::vector<CallBase *> *> CondOf;
  for (const auto &[BB, Calls] : Cond)
    CondOf[BB] = &Calls;
  DenseMap<BasicBlock *, const LoopRecord::KeepSelects *> KeepOf;
  for (const auto &[BB, Sels] : Keep)
    KeepOf[BB] = &Sels;
  SmallPtrSet<BasicBlock *, 8> Marked, Covering;
  for (BasicBlock *BB : Body)
    if (L->contains(BB)) {
      Marked.insert(BB);
      if (!CondOf.count(BB) && !KeepOf.count(BB))
        Covering.insert(BB);
    }
  for (BasicBlock *BB : Body)
    if (Marked.count(BB) && coveredByOthers(*L, BB, Covering)) {
      Marked.erase(BB);
      Covering.erase(BB);
    }
  bool CountResults = !Marked.empty();

  AllocaInst *Iters = local(PM.I64, "vprof.iters");
  AllocaInst *Results = CountResults ? local(PM.I64, "vprof.results") : nullptr;
  AllocaInst *LastResult =
      CountResults ? local(PM.I64, "vprof.lastresult") : nullptr;
  Constant *Zero = ConstantInt::get(PM.I64, 0);
  Constant *One = ConstantInt::get(PM.I64, 1);

  ProbeBuilder B(Preheader->getTerminator());
  B.CreateStore(Zero, Iters);
  if (CountResults) {
    B.CreateStore(Zero, Results);
    B.CreateStore(Zero, LastResult);
  }

  B.SetInsertPoint(&*Header->getFirstInsertionPt());
  B.CreateStore(B.CreateAdd(B.CreateLoad(PM.I64, Iters), One), Iters);

  // The iteration has a result (when `Any`, for a block of calls through
  // pointers): count it unless this iteration counted one already.
  auto CountResult = [&](Value *Any) {
    Value *Cur = B.CreateLoad(PM.I64, Iters);
    Value *Last = B.CreateLoad(PM.I64, LastResult);
    Value *New = B.CreateICmpNE(Cur, Last);
    if (Any)
      New = B.CreateAnd(Any, New);
    B.CreateStore(B.CreateAdd(B.CreateLoad(PM.I64, Results), B.CreateZExt(New, PM.I64)),
                  Results);
    B.CreateStore(Any ? B.CreateSelect(Any, Cur, Last) : Cur, LastResult);
  };
  for (BasicBlock *BB : Body) {
    if (!Marked.count(BB))
      continue;
    if (auto K = KeepOf.find(BB); K != KeepOf.end()) {
      // a result when some select takes the arm that is not the old value;
      // counted after each select (an enclosing loop's probes may have
      // split the block), once per iteration all the same
      for (auto [Sel, KeepsOnTrue] : *K->second) {
        B.SetInsertPoint(Sel->getNextNode());
        CountResult(KeepsOnTrue ? B.CreateNot(Sel->getCondition()) : Sel->getCondition());
      }
    }
    auto It = CondOf.find(BB);
    if (It == CondOf.end()) {
      if (KeepOf.count(BB))
        continue;
      B.SetInsertPoint(BB->getTerminator());
      CountResult(nullptr);
      continue;
    }
    // A result when some callee of the block's calls through pointers is not
    // known to write nothing (docs/loopclass.md, "Calls through pointers").
    // Per call site, inline: the callee against the site's last pure and
    // last impure callee; only on a miss the runtime (through the stub).
    // The calls in program order (the site list's): an enclosing loop
    // probed before may have split the block at them already, so they are
    // not looked up in BB.
    Value *Any = nullptr;
    CallBase *Last = nullptr;
    for (CallBase *CB : *It->second) {
      B.SetInsertPoint(CB);
      GlobalVariable *Cache = PM.calleeCache();
      Value *P = B.CreatePointerCast(CB->getCalledOperand(), PM.I8Ptr);
      auto Word = [&](unsigned K) {
        LoadInst *W = B.CreateAlignedLoad(
            PM.I8Ptr, B.CreateConstInBoundsGEP2_32(Cache->getValueType(), Cache, 0, K),
            Align(8));
        W->setAtomic(AtomicOrdering::Unordered);
        return W;
      };
      Value *HitPure = B.CreateICmpEQ(P, Word(0));
      Value *HitImpure = B.CreateICmpEQ(P, Word(1));
      Value *Miss = B.CreateNot(B.CreateOr(HitPure, HitImpure));
      BasicBlock *Head = CB->getParent();
      Instruction *Then = SplitBlockAndInsertIfThen(
          Miss, CB, false, MDBuilder(C.getContext()).createBranchWeights(1, 1000),
          static_cast<DominatorTree *>(nullptr), &LI);
      markProbe(*Then);
      B.SetInsertPoint(Then);
      Value *Asked = B.CreateICmpNE(
          B.CreateCall(PM.impureStub(), {P, B.CreatePointerCast(Cache, PM.I8Ptr)}),
          ConstantInt::get(PM.I32, 0));
      B.SetInsertPoint(&*CB->getParent()->begin());
      PHINode *Imp = B.CreatePHI(B.getInt1Ty(), 2);
      Imp->addIncoming(HitImpure, Head);
      Imp->addIncoming(Asked, Then->getParent());
      B.SetInsertPoint(CB);
      Any = Any ? B.CreateOr(Any, Imp) : Imp;
      Last = CB;
    }
    if (!Last)
      continue;
    B.SetInsertPoint(Last->getParent()->getTerminator());
    CountResult(Any);
  }

  // A nested loop sums its instances in registers while its outermost loop
  // runs (the thread's counters are touched once per outer instance); an
  // outermost loop, or an exit that leaves the outermost loop too, counts
  // the instance directly.
  Loop *Outer = L;
  while (Outer->getParentLoop())
    Outer = Outer->getParentLoop();
  Accumulator Acc{Index, nullptr, nullptr, nullptr, nullptr};
  if (Outer != L) {
    ProbeBuilder E(AllocaPt);
    auto Zeroed = [&](const char *Name) {
      AllocaInst *A = local(PM.I64, Name);
      E.SetInsertPoint(AllocaPt);
      E.CreateStore(Zero, A);
      return A;
    };
    Acc.Instances = Zeroed("vprof.acc.instances");
    Acc.Iters = Zeroed("vprof.acc.iters");
    Acc.Results = CountResults ? Zeroed("vprof.acc.results") : nullptr;
    Acc.Max = Zeroed("vprof.acc.max");
    Accumulators.push_back({Outer, Acc});
  }
  MDNode *Unlikely = MDBuilder(C.getContext()).createBranchWeights(1, 1u << 20);

  SmallVector<BasicBlock *, 4> Exits;
  L->getUniqueExitBlocks(Exits);
  for (BasicBlock *E : Exits) {
    Instruction *At = &*E->getFirstInsertionPt();
    B.SetInsertPoint(At);
    Value *It = B.CreateLoad(PM.I64, Iters);
    Value *Res = CountResults ? B.CreateLoad(PM.I64, Results) : nullptr;
    if (Outer == L || !Outer->contains(E)) {
      addCounts(At, Index, One, It, Res, It);
      continue;
    }
    auto Sum = [&](AllocaInst *A, Value *V) {
      Value *N = B.CreateAdd(B.CreateLoad(PM.I64, A), V);
      B.CreateStore(N, A);
      return N;
    };
    Value *N = Sum(Acc.Instances, One);
    Sum(Acc.Iters, It);
    if (Res)
      Sum(Acc.Results, Res);
    Value *Max = B.CreateLoad(PM.I64, Acc.Max);
    B.CreateStore(B.CreateSelect(B.CreateICmpUGT(It, Max), It, Max), Acc.Max);
    Instruction *Then = SplitBlockAndInsertIfThen(
        B.CreateICmpUGE(N, ConstantInt::get(PM.I64, FlushEvery)), At, false,
        Unlikely);
    markProbe(*Then);
    flush(Then, Acc);
  }
  return true;
}

void FunctionProber::flush(Instruction *At, const Accumulator &A) {
  ProbeBuilder B(At);
  Value *N = B.CreateLoad(PM.I64, A.Instances);
  Value *It = B.CreateLoad(PM.I64, A.Iters);
  Value *Res = A.Results ? B.CreateLoad(PM.I64, A.Results) : nullptr;
  Value *Max = B.CreateLoad(PM.I64, A.Max);
  addCounts(At, A.Index, N, It, Res, Max);
  B.SetInsertPoint(At);
  Constant *Zero = ConstantInt::get(PM.I64, 0);
  for (AllocaInst *X : {A.Instances, A.Iters, A.Results, A.Max})
    if (X)
      B.CreateStore(Zero, X);
}

void FunctionProber::flushAtOuterExits() {
  for (auto &[Outer, Acc] : Accumulators)
    for (Instruction *At : OuterExits.lookup(Outer))
      flush(At, Acc);
}

/// Before `At`, adds `Instances` instances with `It` iterations and `Res`
/// results (null: not counted) and a maximum of `Max` iterations to the
/// thread's counters of loop `Index`: one call of the TU's helper
/// (ProbeModule::countsFunction). The update used to be inline at every
/// loop exit and every flush of an outer loop's exits; a function whose
/// loops have many exits (a recursive matcher's `return`s inside a loop
/// nest: Lua's `match`, 1.9 KB) grew tenfold (18.7 KB) from that alone.
/// An exit runs once per instance, so the call costs little.
void FunctionProber::addCounts(Instruction *At, uint32_t Index,
                               Value *Instances, Value *It, Value *Res,
                               Value *MaxV) {
  ProbeBuilder B(At);
  B.CreateCall(PM.countsFunction(),
               {ConstantInt::get(PM.I64, Index), Instances, It,
                Res ? Res : ConstantInt::get(PM.I64, 0), MaxV});
}

/// void __vprof_loop_counts(i64 idx, i64 n, i64 it, i64 res, i64 max),
/// internal to the TU:
///   %b = load __vprof_loop_tls_block (TLS)
///   br %b == null, attach, count             (weights 1:2^20)
/// attach: %b2 = __vprof_loop_block(&desc); store %b2 to TLS; br %b2 == null, done, count
/// count:  c = &b[idx]; c.instances += n; c.iterations += it; c.results += res;
///         if (max > c.max) c.max = max       (unordered atomics: the writer
///         may read them from another thread; no RMW: one writer)
/// One thread-local load, a predicted branch and a few loads/stores; the
/// runtime is called once per thread and TU.
Function *ProbeModule::countsFunction() {
  if (Counts)
    return Counts;
  FunctionType *FTy = FunctionType::get(Type::getVoidTy(Ctx), {I64, I64, I64, I64, I64}, false);
  Counts = Function::Create(FTy, GlobalValue::InternalLinkage, "__vprof_loop_counts", M);
  Counts->addFnAttr(Attribute::NoInline);
  Counts->addFnAttr(Attribute::NoUnwind);
  Counts->addFnAttr(ProbedCloneAttr); // no analysis of ours runs on it
  auto *Args = Counts->arg_begin();
  Value *Index = &Args[0], *Instances = &Args[1], *It = &Args[2], *Res = &Args[3],
        *MaxV = &Args[4];
  BasicBlock *E = BasicBlock::Create(Ctx, "entry", Counts);
  BasicBlock *Attach = BasicBlock::Create(Ctx, "attach", Counts);
  BasicBlock *Count = BasicBlock::Create(Ctx, "count", Counts);
  BasicBlock *NewMax = BasicBlock::Create(Ctx, "max", Counts);
  BasicBlock *Done = BasicBlock::Create(Ctx, "done", Counts);
  MDNode *Unlikely = MDBuilder(Ctx).createBranchWeights(1, 1u << 20);
  Constant *Null = ConstantPointerNull::get(cast<PointerType>(I8Ptr));

  IRBuilder<> B(E);
  Value *Blk = B.CreateLoad(I8Ptr, Block);
  B.CreateCondBr(B.CreateICmpEQ(Blk, Null), Attach, Count, Unlikely);

  B.SetInsertPoint(Attach);
  Value *Got = B.CreateCall(BlockFn, {B.CreatePointerCast(Desc, I8Ptr)});
  B.CreateStore(Got, Block);
  B.CreateCondBr(B.CreateICmpEQ(Got, Null), Done, Count, Unlikely);

  B.SetInsertPoint(Count);
  PHINode *Base = B.CreatePHI(I8Ptr, 2);
  Base->addIncoming(Blk, E);
  Base->addIncoming(Got, Attach);
  constexpr unsigned Fields = sizeof(vp_loop_rt_counter) / sizeof(uint64_t);
  Value *Ctr = B.CreateInBoundsGEP(I64, B.CreateBitCast(Base, I64->getPointerTo()),
                                   B.CreateMul(Index, ConstantInt::get(I64, Fields)));
  auto Field = [&](unsigned Offset) {
    return B.CreateConstInBoundsGEP1_32(I64, Ctr, Offset / sizeof(uint64_t));
  };
  auto Load = [&](Value *P) {
    LoadInst *L = B.CreateAlignedLoad(I64, P, Align(8));
    L->setAtomic(AtomicOrdering::Unordered);
    return L;
  };
  auto Store = [&](Value *V, Value *P) {
    StoreInst *S = B.CreateAlignedStore(V, P, Align(8));
    S->setAtomic(AtomicOrdering::Unordered);
  };
  auto Add = [&](unsigned Offset, Value *V) {
    Value *P = Field(Offset);
    Store(B.CreateAdd(Load(P), V), P);
  };
  Add(offsetof(vp_loop_rt_counter, instances), Instances);
  Add(offsetof(vp_loop_rt_counter, iterations), It);
  Add(offsetof(vp_loop_rt_counter, results), Res);
  // A new maximum is rare after the first instances: store only then.
  Value *MaxP = Field(offsetof(vp_loop_rt_counter, max_iterations));
  B.CreateCondBr(B.CreateICmpUGT(MaxV, Load(MaxP)), NewMax, Done);
  B.SetInsertPoint(NewMax);
  Store(MaxV, MaxP);
  B.CreateBr(Done);
  B.SetInsertPoint(Done);
  B.CreateRetVoid();
  return Counts;
}

/// One call = one iteration: the runtime tracks the recursion depth per
/// thread; HasResult is set by the side-effect blocks of this call.
void FunctionProber::probeRecursion(LoopRecord &R,
                                    ArrayRef<BasicBlock *> Body) {
  uint32_t Index = PM.addLoop(R, Gate);
  AllocaInst *HasResult = local(PM.I64, "vprof.rec.hasresult");
  ProbeBuilder B(AllocaPt);
  B.CreateStore(ConstantInt::get(PM.I64, 0), HasResult);
  B.CreateCall(PM.RecEnterFn,
               {descriptor(B), ConstantInt::get(PM.I32, Index)});
  for (BasicBlock *BB : Body) {
    B.SetInsertPoint(BB->getTerminator());
    B.CreateStore(ConstantInt::get(PM.I64, 1), HasResult);
  }
  for (BasicBlock &BB : C)
    if (auto *RI = dyn_cast<ReturnInst>(BB.getTerminator())) {
      B.SetInsertPoint(RI);
      B.CreateCall(PM.RecExitFn, {descriptor(B),
                                  ConstantInt::get(PM.I32, Index),
                                  B.CreateLoad(PM.I64, HasResult)});
    }
}

void FunctionProber::promote() {
  if (C.hasOptNone() || Allocas.empty())
    return;
  DominatorTree FreshDT(C);
  PromoteMemToReg(Allocas, FreshDT);
}

//===----------------------------------------------------------------------===//
// The gated clone (vprof/LoopProbes.h), shared with the redundancy pass
//===----------------------------------------------------------------------===//

static const char *const CloneSuffix = ".vprof_probed";
static const char *const GatePrefix = "__vprof_loop_gate.";
static const char *const BodySuffix = ".vprof_body";

static const char *const ProbeMD = "vprof.probe";

void markProbe(Instruction &I) {
  LLVMContext &Ctx = I.getContext();
  I.setMetadata(Ctx.getMDKindID(ProbeMD), MDNode::get(Ctx, {}));
}

bool isProbeInstruction(const Instruction &I) {
  return I.hasMetadataOtherThanDebugLoc() && I.getMetadata(ProbeMD);
}

bool isProbedClone(const Function &F) {
  return F.hasFnAttribute(ProbedCloneAttr);
}

bool canProbeFunction(Function &F) {
  return !F.isDeclaration() && !isProbedClone(F) && canForwardCalls(F);
}

/// Whether every use of constant `C` ends, through constant expressions and
/// aggregates, in an instruction of `F` or in the initializer of a label
/// table of `F` (`Tables`: internal constant globals used only by `F`'s
/// instructions, found on the way).
static bool usedOnlyBy(const Constant *C, const Function &F,
                       SmallPtrSetImpl<GlobalVariable *> &Tables, unsigned Depth = 0) {
  if (Depth > 8)
    return false;
  for (const User *U : C->users()) {
    if (const auto *I = dyn_cast<Instruction>(U)) {
      if (I->getFunction() != &F)
        return false;
    } else if (auto *G = const_cast<GlobalVariable *>(dyn_cast<GlobalVariable>(U))) {
      if (!G->hasLocalLinkage() || !G->isConstant() || G->isExternallyInitialized() ||
          G->getInitializer() != C)
        return false;
      if (Tables.insert(G).second)
        for (const User *GU : G->users()) {
          const auto *GI = dyn_cast<Instruction>(GU);
          const auto *GC = dyn_cast<ConstantExpr>(GU);
          if (GI ? GI->getFunction() != &F : !GC || !usedOnlyBy(GC, F, Tables, Depth + 1))
            return false;
        }
    } else if (const auto *UC = dyn_cast<Constant>(U)) {
      if (isa<GlobalValue>(UC) || !usedOnlyBy(UC, F, Tables, Depth + 1))
        return false;
    } else {
      return false;
    }
  }
  return true;
}

/// The label tables of `F` (computed goto: `static void *t[] = {&&a, ...}`)
/// when every block address of `F` is used only by `F` itself, directly or
/// through such tables, so a copy can get its own; false otherwise (a label
/// address stored elsewhere, a table another function reads, or one the
/// program writes).
static bool labelTablesOf(Function &F, SmallPtrSetImpl<GlobalVariable *> &Tables) {
  for (BasicBlock &B : F)
    if (B.hasAddressTaken()) {
      BlockAddress *BA = BlockAddress::lookup(&B);
      if (BA && !usedOnlyBy(BA, F, Tables))
        return false;
    }
  // A copy maps F itself to the copy while cloning (block addresses need
  // it): F's other references to itself are put back afterwards, which an
  // instruction operand allows and a constant expression does not.
  for (const User *U : F.users())
    if (const auto *CE = dyn_cast<ConstantExpr>(U))
      for (const User *CU : CE->users())
        if (const auto *I = dyn_cast<Instruction>(CU))
          if (I->getFunction() == &F)
            return false;
  return true;
}

bool canForwardCalls(Function &F) {
  if (F.isVarArg() || F.hasFnAttribute(Attribute::Naked))
    return false;
  for (Argument &A : F.args())
    if (A.hasInAllocaAttr() || A.hasPreallocatedAttr() ||
        A.hasSwiftErrorAttr())
      return false;
  bool Labels = false;
  for (BasicBlock &B : F) {
    Labels |= B.hasAddressTaken();
    for (Instruction &I : B)
      if (auto *CI = dyn_cast<CallInst>(&I))
        if (CI->isMustTailCall())
          return false;
  }
  SmallPtrSet<GlobalVariable *, 4> Tables;
  return !Labels || labelTablesOf(F, Tables);
}

ProbedClone findProbedClone(Function &F) {
  Module &M = *F.getParent();
  ProbedClone PC;
  Function *C = M.getFunction((F.getName() + CloneSuffix).str());
  GlobalVariable *G = M.getNamedGlobal((GatePrefix + F.getName()).str());
  if (C && G && isProbedClone(*C)) {
    PC.Clone = C;
    PC.Gate = G;
  }
  return PC;
}

/// CloneFunction for a function with a computed goto (canForwardCalls
/// accepted its label tables): the copy's block addresses and label tables
/// name the copy's blocks, or its `goto *t[i]` would jump into the
/// original's blocks with the copy's frame.  F is mapped to the copy while
/// cloning (a block address is a function and a block), each label table to
/// a copy of it; then F's references to itself in the copy (a recursive
/// call) are put back, as CloneFunction leaves them.
static Function *cloneWithLabels(Function &F, ValueToValueMapTy &VMap) {
  SmallPtrSet<GlobalVariable *, 4> Tables;
  bool OK = labelTablesOf(F, Tables);
  assert(OK && "canForwardCalls accepted F");
  (void)OK;
  SmallVector<Type *, 8> Params;
  for (const Argument &A : F.args())
    Params.push_back(A.getType());
  FunctionType *FTy = FunctionType::get(F.getReturnType(), Params, false);
  Function *NewF = Function::Create(FTy, F.getLinkage(), F.getAddressSpace(), F.getName(),
                                    F.getParent());
  auto DestI = NewF->arg_begin();
  for (const Argument &A : F.args()) {
    DestI->setName(A.getName());
    VMap[&A] = &*DestI++;
  }
  SmallVector<std::pair<GlobalVariable *, GlobalVariable *>, 4> Copies;
  for (GlobalVariable *G : Tables) {
    auto *GC = new GlobalVariable(*F.getParent(), G->getValueType(), true, G->getLinkage(),
                                  nullptr, G->getName() + ".vprof_copy", G,
                                  G->getThreadLocalMode(), G->getAddressSpace());
    GC->copyAttributesFrom(G);
    VMap[G] = GC;
    Copies.push_back({G, GC});
  }
  VMap[&F] = NewF;
  SmallVector<ReturnInst *, 8> Returns;
  CloneFunctionInto(NewF, &F, VMap, CloneFunctionChangeType::LocalChangesOnly, Returns);
  for (auto &GC : Copies)
    GC.second->setInitializer(MapValue(GC.first->getInitializer(), VMap));
  VMap.erase(&F);
  for (auto &GC : Copies)
    VMap.erase(GC.first);
  for (Use &U : make_early_inc_range(NewF->uses()))
    if (auto *I = dyn_cast<Instruction>(U.getUser()))
      if (I->getFunction() == NewF)
        U.set(&F);
  return NewF;
}

Function *cloneForProbes(Function &F, ValueToValueMapTy &VMap, StringRef Suffix) {
  bool Labels = any_of(F, [](const BasicBlock &B) { return B.hasAddressTaken(); });
  Function *Clone = Labels ? cloneWithLabels(F, VMap) : CloneFunction(&F, VMap);
  Clone->setName(F.getName() + Suffix);
  Clone->setLinkage(GlobalValue::InternalLinkage);
  Clone->setVisibility(GlobalValue::DefaultVisibility);
  Clone->setComdat(nullptr);
  Clone->removeFnAttr(Attribute::AlwaysInline);
  Clone->addFnAttr(Attribute::NoInline);
  Clone->addFnAttr(ProbedCloneAttr);
  return Clone;
}

ProbedClone makeProbedClone(Function &F, ValueToValueMapTy &VMap) {
  ProbedClone PC;
  Function *Clone = cloneForProbes(F, VMap, CloneSuffix);
  Type *I8 = Type::getInt8Ty(F.getContext());
  PC.Clone = Clone;
  PC.Gate = new GlobalVariable(*F.getParent(), I8, false,
                               GlobalValue::InternalLinkage,
                               ConstantInt::get(I8, 0), GatePrefix + F.getName());
  return PC;
}

void insertGate(Function &F, const ProbedClone &PC) {
  Function &Clone = *PC.Clone;
  GlobalVariable *Gate = PC.Gate;
  LLVMContext &Ctx = F.getContext();
  BasicBlock &Entry = F.getEntryBlock();
  BasicBlock *Orig = Entry.splitBasicBlock(afterStaticAllocas(F), "vprof.orig");
  Entry.getTerminator()->eraseFromParent();
  BasicBlock *Probed = BasicBlock::Create(Ctx, "vprof.probed", &F, Orig);

  ProbeBuilder B(&Entry);
  if (DISubprogram *SP = F.getSubprogram())
    B.SetCurrentDebugLocation(DILocation::get(Ctx, SP->getLine(), 0, SP));
  Value *On = B.CreateICmpNE(B.CreateLoad(B.getInt8Ty(), Gate, "vprof.gate"),
                             B.getInt8(0));
  B.CreateCondBr(On, Probed, Orig,
                 MDBuilder(Ctx).createBranchWeights(1, 1u << 20));
  returnCallOf(F, Clone, new UnreachableInst(Ctx, Probed));
}

void foldClosedGate(Function &C, GlobalVariable *Gate) {
  LoadInst *Ld = nullptr;
  for (Instruction &I : C.getEntryBlock())
    if (auto *L = dyn_cast<LoadInst>(&I); L && L->getPointerOperand() == Gate)
      Ld = L;
  if (!Ld)
    return;
  SmallVector<Instruction *, 2> Users;
  for (User *U : Ld->users())
    if (auto *I = dyn_cast<Instruction>(U))
      Users.push_back(I);
  Ld->replaceAllUsesWith(ConstantInt::get(Ld->getType(), 0));
  Ld->eraseFromParent();
  const DataLayout &DL = C.getParent()->getDataLayout();
  for (Instruction *I : Users)
    if (Constant *K = ConstantFoldInstruction(I, DL)) {
      I->replaceAllUsesWith(K);
      I->eraseFromParent();
    }
  ConstantFoldTerminator(&C.getEntryBlock(), true);
  removeUnreachableBlocks(C);
}

/// A gated function that calls itself gets a copy without the gate,
/// `F.vprof_body`, for its recursive calls, in F and in the copy:
///   F:            %on = load i8 gate; br %on, probed, orig
///                 orig: <F's code>, calling F.vprof_body
///   F.vprof_body: <F's code>, calling F.vprof_body
/// The gate is set once, when the runtime registers the module, before the
/// recursion can start (sampler-rt/src/loops/loop_rt.c), so a recursive
/// call need not test it again: with nothing selected gcc27733 ran 2.7 %
/// more instructions than without probes, all of it the test, and now the
/// same (docs/loopclass.md).
/// The calls from other functions keep the test in F (two instructions),
/// rather than a forwarding F that tests and jumps (three: gcc46401's
/// operand_equal_p_1, called 27M times from merge_tlist, recursing little,
/// lost a third more than it gained).  Not for functions with label
/// addresses (their tables name F's blocks).  Returns whether it made the
/// copy.
static bool addRecursiveBody(Function &F, const ProbedClone &PC) {
  if (any_of(F, [](const BasicBlock &B) { return B.hasAddressTaken(); }))
    return false;
  // The gate as insertGate made it.
  auto *Br = dyn_cast<BranchInst>(F.getEntryBlock().getTerminator());
  auto *Cmp = Br && Br->isConditional() ? dyn_cast<ICmpInst>(Br->getCondition()) : nullptr;
  auto *Ld = Cmp ? dyn_cast<LoadInst>(Cmp->getOperand(0)) : nullptr;
  if (!Ld || Ld->getPointerOperand() != PC.Gate)
    return false;
  auto SelfCalls = [&F](Function &In) {
    SmallVector<CallBase *, 4> Calls;
    for (BasicBlock &BB : In)
      for (Instruction &I : BB)
        if (auto *CB = dyn_cast<CallBase>(&I); CB && CB->getCalledOperand() == &F &&
                                               CB->getFunctionType() == F.getFunctionType())
          Calls.push_back(CB);
    return Calls;
  };
  SmallVector<CallBase *, 4> FromF = SelfCalls(F);
  if (FromF.empty())
    return false;
  ValueToValueMapTy VMap;
  Function *Body = CloneFunction(&F, VMap);
  Body->setName(F.getName() + BodySuffix);
  Body->setLinkage(GlobalValue::InternalLinkage);
  Body->setVisibility(GlobalValue::DefaultVisibility);
  Body->setComdat(nullptr);
  foldClosedGate(*Body, PC.Gate);
  for (CallBase *CB : SelfCalls(*Body))
    CB->setCalledOperand(Body);
  for (CallBase *CB : FromF)
    CB->setCalledOperand(Body);
  return true;
}

bool redirectGatedSelfCalls(Module &M) {
  bool Changed = false;
  SmallVector<std::pair<Function *, ProbedClone>, 8> Gated;
  for (Function &F : M) {
    if (F.isDeclaration() || isProbedClone(F))
      continue;
    ProbedClone PC = findProbedClone(F);
    if (!PC.Clone)
      continue;
    Gated.push_back({&F, PC});
    // The calls of F (its users), not every function's instructions: the
    // clone and its copies are named after it.
    StringRef Prefix = PC.Clone->getName();
    SmallVector<CallBase *, 8> Calls;
    for (User *U : F.users())
      if (auto *CB = dyn_cast<CallBase>(U))
        if (CB->getCalledOperand() == &F &&
            CB->getFunctionType() == PC.Clone->getFunctionType() &&
            CB->getFunction()->getName().startswith(Prefix))
          Calls.push_back(CB);
    for (CallBase *CB : Calls)
      CB->setCalledOperand(PC.Clone);
    Changed |= !Calls.empty();
  }
  // After the clones' calls are redirected (the copy is made from F).
  for (auto &[F, PC] : Gated)
    Changed |= addRecursiveBody(*F, PC);
  return Changed;
}

Instruction *afterStaticAllocas(Function &F) {
  BasicBlock::iterator At = F.getEntryBlock().begin();
  while (isa<AllocaInst>(&*At))
    ++At;
  return &*At;
}

void returnCallOf(Function &F, Function &Copy, Instruction *Term) {
  LLVMContext &Ctx = F.getContext();
  ProbeBuilder B(Term);
  // A call of a defined function in a function with debug info needs a
  // location (the verifier's rule): the function's own line.
  if (DISubprogram *SP = F.getSubprogram())
    B.SetCurrentDebugLocation(DILocation::get(Ctx, SP->getLine(), 0, SP));
  SmallVector<Value *, 8> Args;
  bool ByVal = false;
  for (Argument &A : F.args()) {
    Args.push_back(&A);
    ByVal |= A.hasByValAttr();
  }
  CallInst *CI = B.CreateCall(Copy.getFunctionType(), &Copy, Args);
  CI->setCallingConv(Copy.getCallingConv());
  AttributeList CA = Copy.getAttributes();
  SmallVector<AttributeSet, 8> ParamAttrs;
  for (unsigned i = 0, e = F.arg_size(); i != e; ++i)
    ParamAttrs.push_back(CA.getParamAttrs(i));
  CI->setAttributes(
      AttributeList::get(Ctx, AttributeSet(), CA.getRetAttrs(), ParamAttrs));
  if (!ByVal)
    CI->setTailCallKind(CallInst::TCK_Tail);
  if (F.getReturnType()->isVoidTy())
    B.CreateRetVoid();
  else
    B.CreateRet(CI);
  Term->eraseFromParent();
}

PreservedAnalyses LoopProbesPass::run(Module &M, ModuleAnalysisManager &MAM) {
  LoopClassInfo &Info = MAM.getResult<LoopClassAnalysis>(M);
  // Every module lists its functions that write nothing, loops or probes
  // or not: a loop elsewhere may call them through a pointer, and the
  // redundancy probes ask about them too.
  emitPureTable(M, Info.PureFunctions);
  PreservedAnalyses Kept = PreservedAnalyses::none();
  Kept.preserve<LoopClassAnalysis>();
  if (!EnableProbes || Info.Loops.empty())
    return Info.PureFunctions.empty() ? PreservedAnalyses::all() : Kept;

  // Records per function, in table order.
  MapVector<Function *, std::vector<LoopRecord *>> ByFunction;
  for (LoopRecord &R : Info.Loops)
    if (R.F)
      ByFunction[R.F].push_back(&R);

  ProbeModule PM(M);
  for (auto &[F, Records] : ByFunction) {
    if (!canProbeFunction(*F))
      continue;
    ValueToValueMapTy VMap;
    ProbedClone PC = makeProbedClone(*F, VMap);
    Function *Clone = PC.Clone;
    GlobalVariable *Gate = PC.Gate;
    FunctionProber Prober(PM, *Clone, Gate);
    auto Mapped = [&](const std::vector<BasicBlock *> &Blocks) {
      std::vector<BasicBlock *> Out;
      for (BasicBlock *BB : Blocks)
        Out.push_back(cast<BasicBlock>(VMap[BB]));
      return Out;
    };
    unsigned Probed = 0;
    for (LoopRecord *R : Records) {
      std::vector<BasicBlock *> Body = Mapped(R->BodyBlocks);
      bool Done;
      if (R->Kind == VP_LOOP_RECURSION) {
        Prober.probeRecursion(*R, Body);
        Done = true;
      } else {
        FunctionProber::CondBlocks Cond;
        for (auto &[BB, Calls] : R->IndirectOnly) {
          std::vector<CallBase *> Mapped;
          for (CallBase *CB : Calls)
            Mapped.push_back(cast<CallBase>(VMap[CB]));
          Cond.push_back({cast<BasicBlock>(VMap[BB]), std::move(Mapped)});
        }
        FunctionProber::KeepBlocks Keep;
        for (auto &[BB, Sels] : R->KeepOrUpdate) {
          LoopRecord::KeepSelects Mapped;
          for (auto [Sel, KeepsOnTrue] : Sels)
            Mapped.push_back({cast<SelectInst>(VMap[Sel]), KeepsOnTrue});
          Keep.push_back({cast<BasicBlock>(VMap[BB]), std::move(Mapped)});
        }
        Done = Prober.probeLoop(*R, cast<BasicBlock>(VMap[R->Header]), Body, Cond, Keep);
      }
      if (Done) {
        R->Flags |= VP_LOOPF_PROBED;
        ++Probed;
        ++NumProbedLoops;
      }
    }
    if (!Probed) {
      Clone->eraseFromParent();
      Gate->eraseFromParent();
      continue;
    }
    Prober.flushAtOuterExits();
    Prober.promote();
    insertGate(*F, PC);
    ++NumProbedFunctions;
  }

  if (PM.empty()) {
    PM.Desc->eraseFromParent();
    PM.Block->eraseFromParent();
    for (FunctionCallee FC : {PM.BlockFn, PM.RecEnterFn, PM.RecExitFn})
      if (auto *Fn = dyn_cast<Function>(FC.getCallee()))
        if (Fn->use_empty())
          Fn->eraseFromParent();
    return Info.PureFunctions.empty() ? PreservedAnalyses::all() : Kept;
  }
  PM.finish();
  PreservedAnalyses PA = PreservedAnalyses::none();
  PA.preserve<LoopClassAnalysis>();
  return PA;
}

} // namespace vprof
