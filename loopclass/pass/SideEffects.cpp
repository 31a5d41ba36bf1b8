//===- SideEffects.cpp - side-effect instructions of loops ---------------===//
//
// Finds the side-effect instructions of a loop (LDoctor section 3.1.1): the
// writes, calls and results whose effect outlives the loop.  Everything the
// classification (LoopClassify.cpp), the probes (LoopProbes.cpp) and the
// redundancy pass know about "what a loop produces" comes from here.
//
//===----------------------------------------------------------------------===//

#include "vprof/SideEffects.h"
#include "vprof/LoopProbes.h"

#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/SCCIterator.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Analysis/CallGraph.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/PostDominators.h"
#include "llvm/Analysis/ScalarEvolution.h"
#include "llvm/Analysis/ScalarEvolutionExpressions.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/Debug.h"

#define DEBUG_TYPE "vprof-side-effects"

using namespace llvm;

namespace vprof {

//===----------------------------------------------------------------------===//
// Library function lists
//===----------------------------------------------------------------------===//

/// C library functions that write no memory (LDoctor's "white list").  Math
/// functions may set errno; that write is deliberately ignored, as in LDoctor.
static const char *const KnownPureNames[] = {
    // strings and memory, read-only
    "strlen", "strnlen", "strcmp", "strncmp", "strcasecmp", "strncasecmp",
    "strcoll", "memcmp", "bcmp", "strchr", "strrchr", "strchrnul", "memchr",
    "memrchr", "rawmemchr", "strstr", "strcasestr", "strspn", "strcspn",
    "strpbrk", "wcslen", "wcscmp", "wcsncmp", "wcschr", "wmemcmp", "wmemchr",
    // character classes
    "isalnum", "isalpha", "isblank", "iscntrl", "isdigit", "isgraph",
    "islower", "isprint", "ispunct", "isspace", "isupper", "isxdigit",
    "isascii", "tolower", "toupper", "__ctype_b_loc", "__ctype_tolower_loc",
    "__ctype_toupper_loc",
    // integer arithmetic
    "abs", "labs", "llabs", "imaxabs",
    // math (double, float, long double)
    "sin", "cos", "tan", "asin", "acos", "atan", "atan2", "sinh", "cosh",
    "tanh", "asinh", "acosh", "atanh", "exp", "exp2", "expm1", "log", "log2",
    "log10", "log1p", "logb", "pow", "sqrt", "cbrt", "hypot", "fabs", "floor",
    "ceil", "round", "lround", "llround", "trunc", "rint", "lrint", "llrint",
    "nearbyint", "fmod", "remainder", "fmin", "fmax", "fdim", "fma",
    "copysign", "erf", "erfc", "tgamma", "ldexp", "scalbn", "ilogb",
    "sinf", "cosf", "tanf", "asinf", "acosf", "atanf", "atan2f", "sinhf",
    "coshf", "tanhf", "expf", "exp2f", "expm1f", "logf", "log2f", "log10f",
    "log1pf", "powf", "sqrtf", "cbrtf", "hypotf", "fabsf", "floorf", "ceilf",
    "roundf", "truncf", "rintf", "nearbyintf", "fmodf", "fminf", "fmaxf",
    "fmaf", "copysignf", "ldexpf",
    "sinl", "cosl", "tanl", "expl", "logl", "powl", "sqrtl", "fabsl",
    "floorl", "ceill", "roundl", "truncl", "fmodl",
};

/// I/O functions: their side effect is output (LDoctor section 3.2.6).
static const char *const IONames[] = {
    "printf", "fprintf", "vprintf", "vfprintf", "dprintf", "puts", "fputs",
    "putchar", "putc", "fputc", "fwrite", "write", "writev", "pwrite",
    "send", "sendto", "sendmsg", "fflush", "fputs_unlocked", "fwrite_unlocked",
    "putc_unlocked", "putchar_unlocked", "fputc_unlocked", "__printf_chk",
    "__fprintf_chk", "perror", "syslog",
    // output that forces data out, or goes out by other calls: fsync per
    // record is the textbook case for batching (LDoctor 3.2.6)
    "fsync", "fdatasync", "sync_file_range", "msync", "pwrite64", "pwritev",
    "pwritev2", "sendfile", "sendmmsg", "vdprintf", "__vfprintf_chk",
    "__vprintf_chk", "__dprintf_chk", "fputws", "fputwc", "putwc", "putwchar",
    "fwprintf", "wprintf", "vfwprintf",
};

/// Functions whose purpose is to wait: for input to arrive (poll, select,
/// accept), for time to pass, or for another thread or process.  What they
/// return depends on the world, not on the program's memory, so a loop
/// calling one in every iteration polls: its instances look alike when
/// nothing arrived, which is not work a cache or a batch could save
/// (docs/loopclass.md, "Waiting in every iteration").  Reads are not
/// listed: reading the same data again is repeated work.
static const char *const WaitNames[] = {
    "poll", "ppoll", "select", "pselect", "epoll_wait", "epoll_pwait",
    "accept", "accept4", "sleep", "usleep", "nanosleep", "clock_nanosleep",
    "sched_yield", "pause", "sigsuspend", "sigwait", "sigwaitinfo",
    "sigtimedwait", "wait", "waitpid", "wait3", "wait4", "waitid",
    "pthread_cond_wait", "pthread_cond_timedwait", "pthread_join",
    "pthread_timedjoin_np", "pthread_tryjoin_np", "sem_wait", "sem_timedwait",
    "sem_trywait", "pthread_mutex_trylock", "pthread_spin_trylock",
    "pthread_rwlock_tryrdlock", "pthread_rwlock_trywrlock", "thrd_sleep",
    "thrd_yield", "cnd_wait", "cnd_timedwait", "mtx_trylock",
};

/// A name list as a set, for the lookups below (each built once).
template <size_t N> static StringSet<> nameSet(const char *const (&Names)[N]) {
  StringSet<> S;
  for (const char *Name : Names)
    S.insert(Name);
  return S;
}

/// libstdc++'s search and compare members of std::string and std::wstring
/// (`find`, `rfind`, `find_first_of`, ..., `compare`): const, they read the
/// string and write nothing, but they are compiled into libstdc++.so (extern
/// templates), so their declarations carry no memory attributes.  Mangled:
/// `_ZNKSt7__cxx1112basic_stringI<args>E<len><name>E<params>` (`K`: a const
/// member; the old ABI's `std::basic_string` is `_ZNKSs` / `_ZNKSb...`).
static bool isStdStringSearch(StringRef Name) {
  static const char *const Members[] = {
      "E4findE",           "E5rfindE",          "E13find_first_ofE", "E12find_last_ofE",
      "E17find_first_not_ofE", "E16find_last_not_ofE", "E7compareE"};
  if (Name.startswith("_ZNKSs")) { /* `Ss` is std::string: the member follows */
    for (const char *M : Members)
      if (Name.drop_front(6).startswith(StringRef(M).drop_front()))
        return true;
    return false;
  }
  if (!Name.startswith("_ZNKSt7__cxx1112basic_stringI") &&
      !Name.startswith("_ZNKSbIwSt11char_traitsIwESaIwEE"))
    return false;
  for (const char *M : Members)
    if (Name.contains(M))
      return true;
  return false;
}

bool ModRefSummary::isKnownPure(StringRef Name) {
  static const StringSet<> Set = nameSet(KnownPureNames);
  return Set.count(Name) != 0 || isStdStringSearch(Name);
}

bool ModRefSummary::isIOFunction(StringRef Name) {
  static const StringSet<> Set = nameSet(IONames);
  return Set.count(Name) != 0;
}

bool ModRefSummary::isWaitFunction(StringRef Name) {
  static const StringSet<> Set = nameSet(WaitNames);
  return Set.count(Name) != 0;
}

const char *siteKindName(SiteKind K) {
  switch (K) {
  case SiteKind::Store:
    return "store";
  case SiteKind::Call:
    return "call";
  case SiteKind::External:
    return "external";
  case SiteKind::Indirect:
    return "indirect";
  case SiteKind::LiveOut:
    return "liveout";
  case SiteKind::Return:
    return "return";
  }
  return "?";
}

//===----------------------------------------------------------------------===//
// Small helpers shared by the summary and the loop analysis
//===----------------------------------------------------------------------===//

/// Intrinsics that do not change program state: debug info, lifetime and
/// aliasing markers, hints.
static bool isNoEffectIntrinsic(const CallBase &CB) {
  const auto *II = dyn_cast<IntrinsicInst>(&CB);
  if (!II)
    return false;
  if (isa<DbgInfoIntrinsic>(II))
    return true;
  switch (II->getIntrinsicID()) {
  case Intrinsic::lifetime_start:
  case Intrinsic::lifetime_end:
  case Intrinsic::assume:
  case Intrinsic::sideeffect:
  case Intrinsic::experimental_noalias_scope_decl:
  case Intrinsic::invariant_start:
  case Intrinsic::invariant_end:
  case Intrinsic::pseudoprobe:
  case Intrinsic::donothing:
  case Intrinsic::stacksave:
  case Intrinsic::stackrestore:
  case Intrinsic::prefetch:
  case Intrinsic::var_annotation:
  case Intrinsic::ptr_annotation:
  case Intrinsic::annotation:
  case Intrinsic::launder_invariant_group:
  case Intrinsic::strip_invariant_group:
  case Intrinsic::objectsize:
  case Intrinsic::expect:
  case Intrinsic::is_constant:
    return true;
  default:
    return false;
  }
}

static const Function *calledFunction(const CallBase &CB) {
  return dyn_cast<Function>(CB.getCalledOperand()->stripPointerCasts());
}

/// The pointers a non-call instruction writes through; false if it writes
/// nothing.
static bool writtenPointer(const Instruction &I, const Value *&Ptr) {
  if (const auto *SI = dyn_cast<StoreInst>(&I))
    Ptr = SI->getPointerOperand();
  else if (const auto *RMW = dyn_cast<AtomicRMWInst>(&I))
    Ptr = RMW->getPointerOperand();
  else if (const auto *CX = dyn_cast<AtomicCmpXchgInst>(&I))
    Ptr = CX->getPointerOperand();
  else if (const auto *MI = dyn_cast<AnyMemIntrinsic>(&I))
    Ptr = MI->getRawDest();
  else
    return false;
  return true;
}

//===----------------------------------------------------------------------===//
// ModRefSummary
//===----------------------------------------------------------------------===//

uint8_t ModRefSummary::computeDeclaration(const Function &F) const {
  if (F.isIntrinsic()) {
    if (F.onlyReadsMemory())
      return WE_None;
    return F.onlyAccessesArgMemory() ? WE_ArgMem : WE_Other;
  }
  if (isKnownPure(F.getName()) || F.onlyReadsMemory())
    return WE_None;
  return F.onlyAccessesArgMemory() ? WE_ArgMem : WE_Other;
}

static uint64_t argBit(unsigned ArgNo) { return uint64_t(1) << (ArgNo < 63 ? ArgNo : 63); }

/// Effect, in the frame of `F`, of writing through `Ptr`: the function's own
/// allocas (and byval copies) die with its frame; a pointer argument is
/// caller memory (its bit goes into `Args`); anything else is global.
uint8_t ModRefSummary::pointerEffect(const Value *Ptr, uint64_t &Args) const {
  SmallVector<const Value *, 4> Objs;
  getUnderlyingObjects(Ptr, Objs, nullptr, 0);
  uint8_t E = WE_None;
  for (const Value *O : Objs) {
    if (isa<AllocaInst>(O))
      continue;
    if (const auto *A = dyn_cast<Argument>(O)) {
      if (!A->hasByValAttr()) {
        E |= WE_ArgMem;
        Args |= argBit(A->getArgNo());
      }
      continue;
    }
    E |= WE_Other;
  }
  return E;
}

bool ModRefSummary::mayWriteArg(const Function &F, unsigned ArgNo) const {
  auto It = WrittenArgs.find(&F);
  if (It != WrittenArgs.end())
    return It->second & argBit(ArgNo);
  if (F.isDeclaration() && ArgNo < F.arg_size()) {
    const Argument *A = F.getArg(ArgNo);
    return !(A->onlyReadsMemory() || A->hasAttribute(Attribute::ReadNone));
  }
  return true;
}

uint8_t ModRefSummary::computeDefinition(const Function &F, uint64_t &Args) const {
  if (F.onlyReadsMemory())
    return WE_None;
  uint8_t E = WE_None;
  for (const Instruction &I : instructions(F)) {
    if (E & WE_Other)
      break;
    // A gate's call of its probed clone, or a probe's counter store, is not
    // the function's effect (else every probed function would write).
    if (isa<LoadInst>(I) || isProbeInstruction(I))
      continue;
    const auto *CB = dyn_cast<CallBase>(&I);
    if (!CB) {
      const Value *Ptr;
      if (writtenPointer(I, Ptr))
        E |= pointerEffect(Ptr, Args);
      continue;
    }
    if (isNoEffectIntrinsic(*CB) || CB->onlyReadsMemory())
      continue;
    if (const auto *MI = dyn_cast<AnyMemIntrinsic>(CB)) {
      E |= pointerEffect(MI->getRawDest(), Args);
      continue;
    }
    const Function *Callee = calledFunction(*CB);
    uint8_t CE = WE_Other;
    if (Callee) {
      auto It = Effects.find(Callee);
      CE = It != Effects.end() ? It->second : WE_None; // same SCC, not yet seen
    } else if (CB->onlyAccessesArgMemory()) {
      CE = WE_ArgMem;
    }
    if (CE & WE_Other) {
      E |= WE_Other;
      continue;
    }
    if (CE & WE_ArgMem)
      for (unsigned K = 0; K < CB->arg_size(); K++) {
        const Value *Arg = CB->getArgOperand(K);
        if (!Arg->getType()->isPointerTy() || CB->onlyReadsMemory(K))
          continue;
        if (Callee && K < Callee->arg_size() && !mayWriteArg(*Callee, K))
          continue;
        E |= pointerEffect(Arg, Args);
      }
  }
  return E;
}

ModRefSummary::ModRefSummary(Module &M) {
  for (const Function &F : M)
    if (F.isDeclaration())
      Effects[&F] = computeDeclaration(F);

  // Bottom-up over the SCCs: callees are final when their callers are
  // computed; inside an SCC iterate to the (monotone) fixed point.
  CallGraph CG(M);
  for (scc_iterator<CallGraph *> I = scc_begin(&CG); !I.isAtEnd(); ++I) {
    SmallVector<const Function *, 4> SCC;
    for (CallGraphNode *N : *I)
      if (const Function *F = N->getFunction())
        if (!F->isDeclaration())
          SCC.push_back(F);
    for (const Function *F : SCC) {
      Effects[F] = WE_None;
      WrittenArgs[F] = 0;
    }
    bool Changed = true;
    while (Changed) {
      Changed = false;
      for (const Function *F : SCC) {
        uint64_t Args = WrittenArgs[F];
        uint8_t E = computeDefinition(*F, Args) | Effects[F];
        if (E != Effects[F] || Args != WrittenArgs[F]) {
          Effects[F] = E;
          WrittenArgs[F] = Args;
          Changed = true;
        }
      }
    }
  }
}

uint8_t ModRefSummary::effectOf(const Function &F) const {
  auto It = Effects.find(&F);
  if (It != Effects.end())
    return It->second;
  return F.isDeclaration() ? computeDeclaration(F) : WE_Other;
}

//===----------------------------------------------------------------------===//
// Per-loop analysis
//===----------------------------------------------------------------------===//

namespace {

/// How a write to one underlying object looks from outside the loop.
enum class Visibility {
  Private,  ///< dies with the loop iteration or is never read after the loop
  Cursor,   ///< a local the exit test depends on, read after the loop: the
            ///< loop's induction (cursor) variable, a result on exit
  Visible,  ///< global, heap, argument memory, escaping or live local
};

/// Finds the side effects of one natural loop (or, with `Recursion`, of one
/// recursive function).  Holds caches valid for one query only.
class SideEffectFinder {
public:
  SideEffectFinder(const ModRefSummary &S, Function &F, Loop *L,
                   DominatorTree *DT, PostDominatorTree *PDT, LoopInfo *LI,
                   ScalarEvolution *SE)
      : S(S), F(F), L(L), DT(DT), PDT(PDT), LI(LI), SE(SE) {}

  LoopSideEffects runOnLoop();
  LoopSideEffects runOnRecursion();

private:
  const ModRefSummary &S;
  Function &F;
  Loop *L;
  DominatorTree *DT;
  PostDominatorTree *PDT;
  LoopInfo *LI;
  ScalarEvolution *SE;
  LoopSideEffects R;

  DenseMap<const Value *, SmallVector<const Value *, 2>> ObjCache;
  DenseMap<const AllocaInst *, bool> EscapeCache;
  DenseMap<const AllocaInst *, bool> LiveAfterCache;
  DenseMap<const AllocaInst *, bool> ReturnSlotCache;
  SmallPtrSet<const Value *, 8> SteeringPhis;
  SmallPtrSet<const AllocaInst *, 8> SteeringAllocas;
  SmallPtrSet<const AllocaInst *, 8> CursorsReported;
  SmallPtrSet<const DILocation *, 32> LoopLocs; // carriedToRemainder's
  SmallSetVector<BasicBlock *, 16> ExitRegion; // in discovery order: the
                                               // sites' order, so the tables,
                                               // must not depend on addresses

  const SmallVectorImpl<const Value *> &objects(const Value *Ptr);
  bool pointsInto(const Value *Ptr, const AllocaInst *A);
  bool escapes(const AllocaInst *A);
  bool isReturnSlot(const AllocaInst *A);
  bool isReadFrom(const AllocaInst *A, BasicBlock *BB,
                  BasicBlock::iterator Start);
  bool liveAfterLoop(const AllocaInst *A);
  Visibility objectVisibility(const Value *Obj, Instruction *At, bool InBody);
  Visibility pointerVisibility(const Value *Ptr, Instruction *At, bool InBody,
                               const AllocaInst *&Cursor, bool &AllReturn);

  void computeSteering();
  void computeExitRegion();
  void addSite(Instruction *I, SiteKind K, bool InBody, StringRef Callee = "",
               BasicBlock *Block = nullptr);
  void visitInstruction(Instruction &I, bool InBody);
  void visitCall(CallBase &CB, bool InBody);
  void visitWrite(Instruction &I, const Value *Ptr, bool InBody,
                  SiteKind Kind, StringRef Callee);
  void findLiveOuts();
  bool carriedToRemainder(Instruction &I);
  void findExitChoices();
  bool derivedFromCursor(Value *V, PHINode *Chain, unsigned Depth = 0);
  bool choiceByBranch();
  void finish();
};

} // namespace

const SmallVectorImpl<const Value *> &
SideEffectFinder::objects(const Value *Ptr) {
  auto It = ObjCache.find(Ptr);
  if (It != ObjCache.end())
    return It->second;
  SmallVector<const Value *, 2> Objs;
  getUnderlyingObjects(Ptr, Objs, nullptr, 0);
  return ObjCache[Ptr] = std::move(Objs);
}

bool SideEffectFinder::pointsInto(const Value *Ptr, const AllocaInst *A) {
  return is_contained(objects(Ptr), A);
}

/// An alloca escapes when its address is stored, converted to an integer or
/// returned.  Passing it to a call is not an escape: the callee's mod/ref
/// summary accounts for what the call does with it (a callee that stores the
/// pointer away is a known imprecision, docs/loopclass.md).
bool SideEffectFinder::escapes(const AllocaInst *A) {
  auto It = EscapeCache.find(A);
  if (It != EscapeCache.end())
    return It->second;
  bool Escapes = false;
  SmallVector<const Value *, 8> Work{A};
  SmallPtrSet<const Value *, 16> Seen{A};
  while (!Work.empty() && !Escapes) {
    const Value *V = Work.pop_back_val();
    for (const User *U : V->users()) {
      if (isa<LoadInst>(U) || isa<CmpInst>(U))
        continue;
      if (const auto *SI = dyn_cast<StoreInst>(U)) {
        if (SI->getValueOperand() == V)
          Escapes = true;
        continue;
      }
      if (isa<CallBase>(U))
        continue;
      if (isa<GetElementPtrInst>(U) || isa<BitCastInst>(U) ||
          isa<AddrSpaceCastInst>(U) || isa<PHINode>(U) || isa<SelectInst>(U)) {
        if (Seen.insert(U).second)
          Work.push_back(U);
        continue;
      }
      if (isa<AtomicRMWInst>(U) || isa<AtomicCmpXchgInst>(U)) {
        if (U->getOperand(0) != V)
          Escapes = true;
        continue;
      }
      Escapes = true; // ptrtoint, ret, insertvalue, ...
    }
  }
  return EscapeCache[A] = Escapes;
}

/// The -O0 return slot: an alloca whose loaded value is returned.  Stores to
/// it are `return` statements.
bool SideEffectFinder::isReturnSlot(const AllocaInst *A) {
  auto It = ReturnSlotCache.find(A);
  if (It != ReturnSlotCache.end())
    return It->second;
  // Every load of the slot is returned, and there is at least one.
  bool Slot = false;
  for (const User *U : A->users()) {
    const auto *LdI = dyn_cast<LoadInst>(U);
    if (!LdI)
      continue;
    if (!LdI->hasOneUse() || !isa<ReturnInst>(LdI->user_back()))
      return ReturnSlotCache[A] = false;
    Slot = true;
  }
  return ReturnSlotCache[A] = Slot;
}

/// True if some path from `Start` in `BB` reads alloca `A` before a store or
/// lifetime marker overwrites all of it.  Calls that receive a pointer into
/// `A` count as reads.
bool SideEffectFinder::isReadFrom(const AllocaInst *A, BasicBlock *BB,
                                  BasicBlock::iterator Start) {
  const DataLayout &DL = F.getParent()->getDataLayout();
  Optional<TypeSize> AllocSize = A->getAllocationSizeInBits(DL);
  SmallPtrSet<BasicBlock *, 32> Visited;
  SmallVector<std::pair<BasicBlock *, BasicBlock::iterator>, 16> Work;
  Work.push_back({BB, Start});
  while (!Work.empty()) {
    auto [B, It] = Work.pop_back_val();
    bool Killed = false;
    for (; It != B->end() && !Killed; ++It) {
      Instruction &I = *It;
      if (auto *LdI = dyn_cast<LoadInst>(&I)) {
        if (pointsInto(LdI->getPointerOperand(), A))
          return true;
        continue;
      }
      if (auto *SI = dyn_cast<StoreInst>(&I)) {
        if (pointsInto(SI->getValueOperand(), A))
          return true;
        if (SI->getPointerOperand()->stripPointerCasts() == A && AllocSize &&
            DL.getTypeStoreSizeInBits(SI->getValueOperand()->getType()) >=
                AllocSize->getFixedSize())
          Killed = true;
        continue;
      }
      auto *CB = dyn_cast<CallBase>(&I);
      if (!CB)
        continue;
      if (auto *II = dyn_cast<IntrinsicInst>(CB)) {
        Intrinsic::ID ID = II->getIntrinsicID();
        if (ID == Intrinsic::lifetime_start || ID == Intrinsic::lifetime_end) {
          if (pointsInto(II->getArgOperand(1), A))
            Killed = true;
          continue;
        }
      }
      if (isNoEffectIntrinsic(*CB))
        continue;
      if (auto *MS = dyn_cast<MemSetInst>(CB)) {
        auto *Len = dyn_cast<ConstantInt>(MS->getLength());
        if (MS->getRawDest()->stripPointerCasts() == A && Len && AllocSize &&
            Len->getZExtValue() * 8 >= AllocSize->getFixedSize())
          Killed = true;
        continue;
      }
      for (const Value *Arg : CB->args())
        if (Arg->getType()->isPointerTy() && pointsInto(Arg, A))
          return true;
    }
    if (Killed)
      continue;
    for (BasicBlock *Succ : successors(B))
      if (Visited.insert(Succ).second)
        Work.push_back({Succ, Succ->begin()});
  }
  return false;
}

bool SideEffectFinder::liveAfterLoop(const AllocaInst *A) {
  auto It = LiveAfterCache.find(A);
  if (It != LiveAfterCache.end())
    return It->second;
  bool Live = false;
  SmallVector<BasicBlock *, 4> Exits;
  L->getUniqueExitBlocks(Exits);
  for (BasicBlock *E : Exits)
    if (isReadFrom(A, E, E->begin())) {
      Live = true;
      break;
    }
  return LiveAfterCache[A] = Live;
}

/// Visibility of a write at `At` to underlying object `Obj`.
///
/// Locals are the interesting case (LDoctor: "variables defined outside the
/// loop").  An alloca created inside the loop that does not escape is
/// private.  A non-escaping alloca of the enclosing function is visible only
/// when its value is read after the loop (or, for a write on the exit path,
/// after the write); a local that the exit test reads and that is read after
/// the loop is the loop's cursor, whose final value is a result on exit.
Visibility SideEffectFinder::objectVisibility(const Value *Obj, Instruction *At,
                                              bool InBody) {
  const auto *A = dyn_cast<AllocaInst>(Obj);
  if (!A)
    return Visibility::Visible;
  if (!L) // recursion: the frame is private to the call
    return Visibility::Private;
  if (escapes(A))
    return Visibility::Visible;
  if (L->contains(A->getParent()))
    return Visibility::Private;
  if (!InBody)
    return isReadFrom(A, At->getParent(), std::next(At->getIterator()))
               ? Visibility::Visible
               : Visibility::Private;
  if (!liveAfterLoop(A))
    return Visibility::Private;
  return SteeringAllocas.count(A) ? Visibility::Cursor : Visibility::Visible;
}

Visibility SideEffectFinder::pointerVisibility(const Value *Ptr,
                                               Instruction *At, bool InBody,
                                               const AllocaInst *&Cursor,
                                               bool &AllReturn) {
  Visibility Worst = Visibility::Private;
  AllReturn = true;
  for (const Value *O : objects(Ptr)) {
    Visibility V = objectVisibility(O, At, InBody);
    if (V == Visibility::Private)
      continue;
    if (V == Visibility::Cursor)
      Cursor = cast<AllocaInst>(O);
    const auto *A = dyn_cast<AllocaInst>(O);
    if (!A || !isReturnSlot(A))
      AllReturn = false;
    if (V == Visibility::Visible || Worst == Visibility::Private)
      Worst = V;
  }
  return Worst;
}

void SideEffectFinder::addSite(Instruction *I, SiteKind K, bool InBody,
                               StringRef Callee, BasicBlock *Block) {
  SideEffectSite Site;
  Site.Inst = I;
  Site.Kind = K;
  Site.InBody = InBody;
  Site.Callee = Callee;
  Site.Block = Block;
  R.Sites.push_back(Site);
  if (InBody)
    R.BodyBlocks.insert(Site.block());
  else
    R.ExitBlocks.insert(Site.block());
}

void SideEffectFinder::visitWrite(Instruction &I, const Value *Ptr,
                                  bool InBody, SiteKind Kind,
                                  StringRef Callee) {
  const AllocaInst *Cursor = nullptr;
  bool AllReturn = false;
  Visibility V = pointerVisibility(Ptr, &I, InBody, Cursor, AllReturn);
  if (V == Visibility::Private)
    return;
  if (V == Visibility::Cursor) {
    // The final value of the cursor is the loop's result, produced on exit.
    if (CursorsReported.insert(Cursor).second) {
      addSite(&I, SiteKind::LiveOut, /*InBody=*/false);
      R.LiveOutIV = true;
    }
    return;
  }
  if (Kind == SiteKind::Store && AllReturn)
    Kind = SiteKind::Return;
  addSite(&I, Kind, InBody, Callee);
}

void SideEffectFinder::visitCall(CallBase &CB, bool InBody) {
  if (isNoEffectIntrinsic(CB))
    return;
  if (auto *MI = dyn_cast<AnyMemIntrinsic>(&CB))
    return visitWrite(CB, MI->getRawDest(), InBody, SiteKind::Store, "");
  if (CB.onlyReadsMemory())
    return;
  if (CB.isInlineAsm())
    return addSite(&CB, SiteKind::External, InBody, "asm");
  const Function *Callee = calledFunction(CB);
  if (!Callee)
    return addSite(&CB, SiteKind::Indirect, InBody);
  if (!L && Callee == &F) // recursion: the recursive call starts an iteration
    return;
  uint8_t E = S.effectOf(*Callee);
  if (E == WE_None)
    return;
  SiteKind K = Callee->isDeclaration() ? SiteKind::External : SiteKind::Call;
  if (E & WE_Other)
    return addSite(&CB, K, InBody, Callee->getName());
  // Writes only through its pointer arguments: a side effect when one it
  // may write through points to memory visible after the loop.
  for (unsigned ArgNo = 0; ArgNo < CB.arg_size(); ArgNo++) {
    Value *Arg = CB.getArgOperand(ArgNo);
    if (!Arg->getType()->isPointerTy() || CB.onlyReadsMemory(ArgNo) ||
        (ArgNo < Callee->arg_size() && !S.mayWriteArg(*Callee, ArgNo)))
      continue;
    const AllocaInst *Cursor = nullptr;
    bool AllReturn;
    Visibility V = pointerVisibility(Arg, &CB, InBody, Cursor, AllReturn);
    if (V == Visibility::Private)
      continue;
    if (V == Visibility::Cursor) {
      if (CursorsReported.insert(Cursor).second) {
        addSite(&CB, SiteKind::LiveOut, /*InBody=*/false);
        R.LiveOutIV = true;
      }
      continue;
    }
    return addSite(&CB, K, InBody, Callee->getName());
  }
}

void SideEffectFinder::visitInstruction(Instruction &I, bool InBody) {
  if (isProbeInstruction(I))
    return; // another vprof pass's counters, not the program's effect
  if (auto *CB = dyn_cast<CallBase>(&I))
    return visitCall(*CB, InBody);
  const Value *Ptr;
  if (writtenPointer(I, Ptr))
    return visitWrite(I, Ptr, InBody, SiteKind::Store, "");
  if (auto *RI = dyn_cast<ReturnInst>(&I))
    if (!InBody && RI->getReturnValue())
      addSite(&I, SiteKind::Return, InBody);
}

/// The variables the loop's exit tests depend on: header phis (SSA form) and
/// allocas loaded in the slice of an exiting branch condition (-O0 form).
void SideEffectFinder::computeSteering() {
  SmallVector<BasicBlock *, 4> Exiting;
  L->getExitingBlocks(Exiting);
  SmallVector<Value *, 16> Work;
  for (BasicBlock *EB : Exiting) {
    Instruction *T = EB->getTerminator();
    if (auto *BI = dyn_cast<BranchInst>(T)) {
      if (BI->isConditional())
        Work.push_back(BI->getCondition());
    } else if (auto *SI = dyn_cast<SwitchInst>(T)) {
      Work.push_back(SI->getCondition());
    }
  }
  SmallPtrSet<Value *, 32> Seen;
  while (!Work.empty() && Seen.size() < 512) {
    Value *V = Work.pop_back_val();
    auto *I = dyn_cast<Instruction>(V);
    if (!I || !L->contains(I) || !Seen.insert(I).second)
      continue;
    if (isa<PHINode>(I) && I->getParent() == L->getHeader()) {
      SteeringPhis.insert(I);
      continue;
    }
    if (auto *LdI = dyn_cast<LoadInst>(I)) {
      for (const Value *O : objects(LdI->getPointerOperand()))
        if (const auto *A = dyn_cast<AllocaInst>(O))
          SteeringAllocas.insert(A);
      Work.push_back(LdI->getPointerOperand());
      continue;
    }
    for (Value *Op : I->operands())
      Work.push_back(Op);
  }
}

/// Blocks on the way out of the loop (LDoctor: "dominated by the loop header,
/// post-dominated by a loop exit, not part of the natural loop").  We take
/// the blocks reachable from the loop's exits that the header dominates but
/// that do not post-dominate the header: once control merges back into the
/// code that runs however the loop ended, we are past the way out.  Other
/// loops are not entered.
void SideEffectFinder::computeExitRegion() {
  BasicBlock *Header = L->getHeader();
  SmallVector<BasicBlock *, 4> Exits;
  L->getUniqueExitBlocks(Exits);
  SmallVector<BasicBlock *, 16> Work(Exits.begin(), Exits.end());
  while (!Work.empty()) {
    BasicBlock *B = Work.pop_back_val();
    if (ExitRegion.count(B) || L->contains(B))
      continue;
    if (!DT->dominates(Header, B) || PDT->dominates(B, Header))
      continue;
    Loop *BL = LI->getLoopFor(B);
    if (BL && !BL->contains(L))
      continue;
    ExitRegion.insert(B);
    for (BasicBlock *Succ : successors(B))
      Work.push_back(Succ);
  }
}

/// If `Sel` only decides the value the loop leaves with, the operand it
/// yields when the loop goes on; null otherwise.  That is a select in an
/// exiting block on the block's own exit condition: LLVM folds
/// `if (found) return i;` into `r = found ? i : r; br found, exit, next`,
/// so on the continuing edge `r` is unchanged and `i` is the result.
static Value *continuingOperand(const Loop &L, SelectInst &Sel) {
  auto *BI = dyn_cast<BranchInst>(Sel.getParent()->getTerminator());
  if (!BI || !BI->isConditional() || BI->getCondition() != Sel.getCondition())
    return nullptr;
  bool TrueExits = !L.contains(BI->getSuccessor(0));
  bool FalseExits = !L.contains(BI->getSuccessor(1));
  if (TrueExits == FalseExits)
    return nullptr;
  return TrueExits ? Sel.getFalseValue() : Sel.getTrueValue();
}

/// The instruction that computes the value `I` leaves the loop with: for a
/// select that only picks the value to leave with, its other operand (the
/// `i` of `r = found ? i : r`), else `I`.
static Instruction *exitValue(const Loop &L, Instruction &I) {
  auto *Sel = dyn_cast<SelectInst>(&I);
  if (!Sel)
    return &I;
  Value *Cont = continuingOperand(L, *Sel);
  if (!Cont)
    return &I;
  Value *Out = Cont == Sel->getTrueValue() ? Sel->getFalseValue()
                                           : Sel->getTrueValue();
  auto *OI = dyn_cast<Instruction>(Out);
  return OI && L.contains(OI) ? OI : &I;
}

/// True if `V`, a value of the loop, becomes the function's return value
/// through the phis, selects and casts after the loop: the loop returns it
/// (LDoctor counts a return from inside the loop as a result).
static bool reachesReturn(const Loop &L, const Value *V) {
  SmallVector<const Value *, 8> Work{V};
  SmallPtrSet<const Value *, 16> Seen{V};
  while (!Work.empty() && Seen.size() < 64) {
    const Value *X = Work.pop_back_val();
    for (const User *U : X->users()) {
      const auto *UI = dyn_cast<Instruction>(U);
      if (!UI || L.contains(UI->getParent()))
        continue;
      if (isa<ReturnInst>(UI))
        return true;
      if ((isa<PHINode>(UI) || isa<SelectInst>(UI) || isa<CastInst>(UI)) &&
          Seen.insert(UI).second)
        Work.push_back(UI);
    }
  }
  return false;
}

/// Values computed in the loop and used after it.  A header phi whose value
/// leaves the loop is either the loop's cursor (an induction variable, or a
/// variable the exit test depends on) whose final value is a result on exit,
/// or an accumulator updated in the body, whose updates are in-body results.
/// A value that is not loop-carried is the value of the last iteration: a
/// result on exit.  A result that the function returns is a `return` site.
/// Sites point at the value itself, so that a client slicing the result
/// (redundancy) starts from it, even in a clone whose exit blocks begin
/// with another pass's probes.
/// True if what `I` leaves the loop with is only carried on into the
/// remainder that the unroller or the vectorizer made of the same source
/// loop (docs/loopclass.md, "Values carried into the remainder"): every
/// use of it outside the loop, through phis, is a copy of one of the
/// loop's own instructions (the same DILocation), and nothing those copies
/// compute from it reaches code that is not such a copy, or comes round to
/// the loop again (an enclosing loop's code that merely shares the loop's
/// statements, as an interpreter's tail-duplicated dispatch does, hands the
/// value to the loop's next instance: a result).  The copies' stores and
/// branches are the remainder's own work, except a store to an address
/// fixed before the loop: that is LICM writing back a variable it kept in
/// a register, with the location of the loop's own store.  In the source, that is a value
/// one iteration hands to the next (bubble sort's `a[i + 1]`, kept in a
/// register from one unrolled iteration to the next), not a result.  Any
/// other use, an instruction without a location, or more than 256 values
/// to follow, make it a result, as before.
bool SideEffectFinder::carriedToRemainder(Instruction &I) {
  if (LoopLocs.empty())
    for (BasicBlock *B : L->blocks())
      for (Instruction &J : *B)
        if (const DILocation *Loc = J.getDebugLoc().get())
          LoopLocs.insert(Loc);
  SmallVector<Instruction *, 16> Work;
  SmallPtrSet<Instruction *, 32> Seen;
  bool Back = false; // a value that comes round to the loop again
  auto Push = [&](Instruction &From, bool Outside) {
    for (User *U : From.users())
      if (auto *UI = dyn_cast<Instruction>(U); UI && !isProbeInstruction(*UI)) {
        if (L->contains(UI->getParent()))
          Back |= Outside;
        else if (Seen.insert(UI).second)
          Work.push_back(UI);
      }
  };
  Push(I, false);
  bool Any = false;
  while (!Work.empty()) {
    Instruction *U = Work.pop_back_val();
    if (Back || Seen.size() > 256)
      return false;
    if (!isa<PHINode>(U)) {
      const DILocation *Loc = U->getDebugLoc().get();
      if (!Loc || !LoopLocs.count(Loc))
        return false;
      Any = true;
      // A store to an address fixed before the loop is LICM's write-back
      // of a promoted variable (the loop's last `len++`, with its
      // location): the value is the loop's result.
      if (auto *St = dyn_cast<StoreInst>(U)) {
        Value *P = St->getPointerOperand()->stripPointerCasts();
        auto *PI = dyn_cast<Instruction>(P);
        if (!PI || DT->dominates(PI, L->getHeader()))
          return false;
      }
      if (U->isTerminator() || isa<StoreInst>(U) || isa<CallBase>(U))
        continue; // the remainder's own branch, store or call
    }
    Push(*U, true);
  }
  return Any && !Back;
}

void SideEffectFinder::findLiveOuts() {
  BasicBlock *Header = L->getHeader();
  // Map every in-loop value of a loop-carried chain to its header phi, and
  // collect each phi's update instructions.  A select that only picks the
  // value to leave with (continuingOperand) is not an update.
  DenseMap<Value *, PHINode *> ChainOf;
  DenseMap<PHINode *, SmallVector<Instruction *, 2>> Updates;
  for (PHINode &P : Header->phis())
    ChainOf[&P] = &P;
  for (PHINode &P : Header->phis()) {
    SmallVector<Value *, 8> Work;
    for (unsigned i = 0, e = P.getNumIncomingValues(); i != e; ++i)
      if (L->contains(P.getIncomingBlock(i)))
        Work.push_back(P.getIncomingValue(i));
    while (!Work.empty()) {
      auto *I = dyn_cast<Instruction>(Work.pop_back_val());
      if (!I || I == &P || !L->contains(I) || ChainOf.count(I))
        continue;
      ChainOf[I] = &P;
      if (auto *Phi = dyn_cast<PHINode>(I)) {
        for (Value *V : Phi->incoming_values())
          Work.push_back(V);
      } else if (auto *Sel = dyn_cast<SelectInst>(I)) {
        if (Value *Cont = continuingOperand(*L, *Sel)) {
          Work.push_back(Cont);
          continue;
        }
        Updates[&P].push_back(Sel);
        // `m = c ? x : m` (or an unrolled copy's `m2 = c2 ? x2 : m1`): the
        // select is the update; x is what it takes, not an update of its
        // own.  Only the chain's phis and selects are followed then.
        auto Chain = [&](Value *V) {
          return V == &P || isa<PHINode>(V) || isa<SelectInst>(V);
        };
        bool Keeps = Chain(Sel->getTrueValue()) || Chain(Sel->getFalseValue());
        for (Value *Op : {Sel->getTrueValue(), Sel->getFalseValue()})
          if (!Keeps || Chain(Op))
            Work.push_back(Op);
      } else {
        Updates[&P].push_back(I);
      }
    }
  }

  // Where each update enters its chain.  A phi of the chain that keeps the
  // old value on some incoming edge and takes an update on another (the
  // branch form of `if (c) m = x;`, or of `if (c) continue;` past `s += x`)
  // has the update's result on that edge: its predecessor block, not the
  // block computing the value, which may run in every iteration (`&a[i]`
  // in the header).  An update taken anywhere else runs where it is.
  DenseMap<Instruction *, SmallVector<BasicBlock *, 2>> EdgesOf;
  SmallPtrSet<Instruction *, 8> Direct;
  for (auto &[I, P] : ChainOf) {
    auto *Q = dyn_cast<PHINode>(I);
    if (!Q)
      continue;
    auto &Ups = Updates[P];
    auto IsUpdate = [&](Value *V) {
      return is_contained(Ups, dyn_cast<Instruction>(V));
    };
    bool KeepsOld = false;
    for (unsigned i = 0, e = Q->getNumIncomingValues(); i != e; ++i)
      if (L->contains(Q->getIncomingBlock(i))) {
        Value *V = Q->getIncomingValue(i);
        KeepsOld |= (V == P || ChainOf.lookup(V) == P) && !IsUpdate(V);
      }
    for (unsigned i = 0, e = Q->getNumIncomingValues(); i != e; ++i) {
      BasicBlock *From = Q->getIncomingBlock(i);
      auto *U = dyn_cast<Instruction>(Q->getIncomingValue(i));
      if (!L->contains(From) || !U || !IsUpdate(U))
        continue;
      if (KeepsOld && From->getSingleSuccessor() == Q->getParent())
        EdgesOf[U].push_back(From);
      else
        Direct.insert(U);
    }
  }
  for (auto &[P, Ups] : Updates)
    for (Instruction *U : Ups)
      if (!EdgesOf.count(U))
        Direct.insert(U); // a select's arm, or not from a phi
  for (Instruction *U : Direct)
    EdgesOf.erase(U);

  // Chains updated by another pass's probes are its counters (loopclass's
  // accumulators in its clone), not results of the program.
  SmallPtrSet<PHINode *, 8> Reported;
  for (auto &[P, Ups] : Updates)
    if (any_of(Ups, [](Instruction *U) { return isProbeInstruction(*U); }))
      Reported.insert(P);
  for (BasicBlock *B : L->blocks()) {
    for (Instruction &I : *B) {
      if (isProbeInstruction(I))
        continue;
      bool UsedOutside = any_of(I.users(), [&](User *U) {
        // An exit-block phi is outside the loop even though its incoming
        // edge comes from inside: that is how LCSSA values leave the loop.
        // A probe reading a counter is not a use by the program.
        auto *UI = dyn_cast<Instruction>(U);
        return UI && !L->contains(UI->getParent()) && !isProbeInstruction(*UI);
      });
      if (!UsedOutside || carriedToRemainder(I))
        continue;
      SiteKind Kind = reachesReturn(*L, &I) ? SiteKind::Return
                                            : SiteKind::LiveOut;
      auto It = ChainOf.find(&I);
      if (It == ChainOf.end()) {
        // Last-iteration value: produced on the way out.
        addSite(&I, Kind, /*InBody=*/false);
        continue;
      }
      PHINode *P = It->second;
      if (!Reported.insert(P).second)
        continue;
      bool IsIV = SteeringPhis.count(P) != 0;
      if (!IsIV && SE && SE->isSCEVable(P->getType()))
        if (auto *AR = dyn_cast<SCEVAddRecExpr>(SE->getSCEV(P)))
          IsIV = AR->getLoop() == L;
      auto &Ups = Updates[P];
      // A chain whose updates only read one place again (the data pointer
      // of a vector reloaded after each call that might change it) leaves
      // with the last reading: a value of the last iteration, like one
      // that is not carried (docs/loopclass.md, "Reloads").
      bool Reload = !Ups.empty() && all_of(Ups, [&](Instruction *U) {
        auto *LdI = dyn_cast<LoadInst>(U);
        return LdI && L->isLoopInvariant(LdI->getPointerOperand());
      });
      if (Reload) {
        addSite(Ups.front(), Kind, /*InBody=*/false);
        continue;
      }
      // A flag whose every update is computed from the cursor and values
      // fixed for the loop (`found = i + 1 < n`, the optimiser's form of an
      // inlined `if (hit) return true;`) only restates whether the cursor
      // stopped early: a result on the way out, like the cursor.  Only
      // flags: a pointer computed from a cursor (`&pool[used]`) is data.
      bool FromCursor = !IsIV && !Ups.empty() &&
                        P->getType()->isIntegerTy(1) &&
                        all_of(Ups, [&](Instruction *U) {
                          return !EdgesOf.count(U) && derivedFromCursor(U, P);
                        });
      if (IsIV || Ups.empty() || FromCursor) {
        // The cursor's final value, or a value only chosen on exit (no
        // update on the continuing paths): a result on the way out.
        addSite(Ups.empty() ? exitValue(*L, I) : Ups.front(), Kind,
                /*InBody=*/false);
        R.LiveOutIV |= IsIV || FromCursor;
        continue;
      }
      for (Instruction *U : Ups) {
        if (auto E = EdgesOf.find(U); E != EdgesOf.end()) {
          SmallPtrSet<BasicBlock *, 4> Done;
          for (BasicBlock *From : E->second)
            if (Done.insert(From).second)
              addSite(U, SiteKind::LiveOut, /*InBody=*/true, "", From);
          continue;
        }
        addSite(U, SiteKind::LiveOut, /*InBody=*/true);
        // a select keeping the chain's value so far on one arm
        auto *Sel = dyn_cast<SelectInst>(U);
        auto Old = [&](Value *V) { return ChainOf.lookup(V) == P; };
        if (Sel && Sel->getCondition()->getType()->isIntegerTy(1) &&
            Old(Sel->getTrueValue()) != Old(Sel->getFalseValue())) {
          R.Sites.back().KeepsOld = true;
          R.Sites.back().KeepsOnTrue = Old(Sel->getTrueValue());
        }
      }
    }
  }
}

/// True if `V` is computed, without memory or calls, only from the loop's
/// cursors (header phis its exits test, or add-recurrences of the loop) and
/// values fixed for the loop; `Chain`, the phi it updates, is not one.
bool SideEffectFinder::derivedFromCursor(Value *V, PHINode *Chain,
                                         unsigned Depth) {
  if (isa<Constant>(V) || L->isLoopInvariant(V))
    return true;
  auto *I = dyn_cast<Instruction>(V);
  if (!I || Depth > 8 || I == Chain)
    return false;
  if (auto *P = dyn_cast<PHINode>(I)) {
    if (P->getParent() != L->getHeader())
      return false;
    if (SteeringPhis.count(P))
      return true;
    if (SE && SE->isSCEVable(P->getType()))
      if (auto *AR = dyn_cast<SCEVAddRecExpr>(SE->getSCEV(P)))
        return AR->getLoop() == L;
    return false;
  }
  if (!isa<BinaryOperator>(I) && !isa<CmpInst>(I) && !isa<CastInst>(I) &&
      !isa<SelectInst>(I) && !isa<GetElementPtrInst>(I))
    return false;
  return all_of(I->operands(), [&](Value *Op) {
    return derivedFromCursor(Op, Chain, Depth + 1);
  });
}

/// Which exit the loop took, when the exits lead to different code and no
/// phi merges the choice (an inlined `bool contains()` whose `return true`
/// became a branch past the caller's `if (!contains(...))` body): the
/// exiting branches decide what runs after the loop, a result on the way
/// out.  Exits are compared after the blocks that only branch on (and the
/// values their phis take); an exit into an exception handler or code that
/// ends in `unreachable` is a failure, not an answer.
bool SideEffectFinder::choiceByBranch() {
  SmallVector<BasicBlock *, 4> Exits;
  L->getUniqueExitBlocks(Exits);
  if (Exits.size() < 2)
    return false;
  auto OnlyBranches = [](BasicBlock *B) {
    for (Instruction &I : *B)
      if (!isa<DbgInfoIntrinsic>(I) && !isa<BranchInst>(I) &&
          !isProbeInstruction(I))
        return false;
    return true;
  };
  // An exit's destination: the first block that does something, with the
  // block it came from (to read the destination's phis).
  SmallVector<std::pair<BasicBlock *, BasicBlock *>, 4> Dest;
  for (BasicBlock *E : Exits) {
    if (E->isEHPad())
      continue;
    BasicBlock *From = nullptr, *B = E;
    for (unsigned Hops = 0; Hops < 8 && B->phis().empty() && OnlyBranches(B);
         ++Hops) {
      BasicBlock *Next = B->getSingleSuccessor();
      if (!Next || Next == B)
        break;
      From = B;
      B = Next;
    }
    if (isa<UnreachableInst>(B->getTerminator()))
      continue;
    Dest.push_back({B, From});
  }
  for (size_t i = 1; i < Dest.size(); ++i) {
    if (Dest[i].first != Dest[0].first)
      return true;
    if (!Dest[i].second || !Dest[0].second)
      return true; // a phi of the exit block itself tells them apart
    for (PHINode &P : Dest[0].first->phis())
      if (P.getIncomingValueForBlock(Dest[i].second) !=
          P.getIncomingValueForBlock(Dest[0].second))
        return true;
  }
  return false;
}

/// Exit phis that merge different constants (or outside values) depending
/// on which exit was taken: `for (...) if (x) return 1; return 0;`.  Which
/// way the loop ended is its result.
void SideEffectFinder::findExitChoices() {
  SmallVector<BasicBlock *, 4> Exits;
  L->getUniqueExitBlocks(Exits);
  for (BasicBlock *E : Exits) {
    for (PHINode &P : E->phis()) {
      if (P.use_empty() || P.hasConstantValue())
        continue;
      bool FromLoop = false, DefinedInLoop = false;
      for (unsigned i = 0, e = P.getNumIncomingValues(); i != e; ++i) {
        if (!L->contains(P.getIncomingBlock(i)))
          continue;
        FromLoop = true;
        if (auto *I = dyn_cast<Instruction>(P.getIncomingValue(i)))
          DefinedInLoop |= L->contains(I);
      }
      if (!FromLoop || DefinedInLoop)
        continue; // not from the loop, or already a live-out value
      bool Returned = any_of(P.users(), [](User *U) {
        return isa<ReturnInst>(U);
      });
      Instruction *At = &*E->getFirstInsertionPt();
      if (Returned)
        for (User *U : P.users())
          if (isa<ReturnInst>(U))
            At = cast<Instruction>(U);
      addSite(At, Returned ? SiteKind::Return : SiteKind::LiveOut, false);
      break;
    }
  }
  // A loop with no other result whose exits branch to different code: the
  // site is the early exit's branch (where the source says `return` or
  // `break`), not the latch's test.
  if (!R.Sites.empty() || !choiceByBranch())
    return;
  SmallVector<BasicBlock *, 4> Exiting;
  L->getExitingBlocks(Exiting);
  BasicBlock *Latch = L->getLoopLatch();
  BasicBlock *At = Exiting.front();
  for (BasicBlock *X : Exiting)
    if (X != Latch) {
      At = X;
      break;
    }
  addSite(At->getTerminator(), SiteKind::LiveOut, /*InBody=*/false);
}

void SideEffectFinder::finish() {
  bool AnyCall = false, OnlyIO = true;
  for (const SideEffectSite &Site : R.Sites) {
    if (!Site.InBody)
      continue;
    if (Site.Kind == SiteKind::Call || Site.Kind == SiteKind::External) {
      AnyCall = true;
      OnlyIO &= ModRefSummary::isIOFunction(Site.Callee);
    } else {
      OnlyIO = false;
    }
  }
  R.IOOnly = AnyCall && OnlyIO;
}

LoopSideEffects SideEffectFinder::runOnLoop() {
  computeSteering();
  computeExitRegion();
  for (BasicBlock *B : L->blocks())
    for (Instruction &I : *B)
      visitInstruction(I, /*InBody=*/true);
  for (BasicBlock *B : ExitRegion)
    for (Instruction &I : *B)
      visitInstruction(I, /*InBody=*/false);
  findLiveOuts();
  findExitChoices();
  finish();
  return std::move(R);
}

/// True if `V` is a recursive call's result or a constant/argument merged
/// with one: returning it forwards a result, it does not compute one.
static bool isForwarded(const Value *V, const Function &F) {
  SmallVector<const Value *, 4> Work{V};
  SmallPtrSet<const Value *, 8> Seen;
  while (!Work.empty()) {
    const Value *X = Work.pop_back_val();
    if (!Seen.insert(X).second)
      continue;
    if (isa<Constant>(X) || isa<Argument>(X))
      continue;
    if (const auto *CB = dyn_cast<CallBase>(X))
      if (calledFunction(*CB) == &F)
        continue;
    if (const auto *P = dyn_cast<PHINode>(X)) {
      for (const Value *In : P->incoming_values())
        Work.push_back(In);
      continue;
    }
    return false;
  }
  return true;
}

LoopSideEffects SideEffectFinder::runOnRecursion() {
  // Blocks reachable from a recursive call: a value returned there may be
  // computed from the recursive results (an in-body result).
  SmallPtrSet<BasicBlock *, 16> AfterCall;
  SmallVector<BasicBlock *, 8> Work;
  for (BasicBlock &B : F)
    for (Instruction &I : B)
      if (auto *CB = dyn_cast<CallBase>(&I))
        if (calledFunction(*CB) == &F && AfterCall.insert(&B).second)
          Work.push_back(&B);
  while (!Work.empty())
    for (BasicBlock *S : successors(Work.pop_back_val()))
      if (AfterCall.insert(S).second)
        Work.push_back(S);

  // A returned value is a result: on the way out when it is a constant or
  // argument (the base case, or "found"), skipped when it only forwards a
  // recursive call's result, in the body when computed after a recursive
  // call.  At -O0 the value goes through the return slot alloca.
  auto ReturnValue = [&](Instruction *At, Value *V) {
    if (isForwarded(V, F)) {
      if (!isa<CallBase>(V))
        addSite(At, SiteKind::Return, /*InBody=*/false);
      return;
    }
    addSite(At, SiteKind::Return, AfterCall.count(At->getParent()) != 0);
  };
  for (BasicBlock &B : F) {
    for (Instruction &I : B) {
      if (auto *RI = dyn_cast<ReturnInst>(&I)) {
        Value *V = RI->getReturnValue();
        if (!V)
          continue;
        if (auto *LdI = dyn_cast<LoadInst>(V))
          if (auto *A = dyn_cast<AllocaInst>(
                  LdI->getPointerOperand()->stripPointerCasts()))
            if (isReturnSlot(A))
              continue;
        ReturnValue(RI, V);
        continue;
      }
      if (auto *SI = dyn_cast<StoreInst>(&I))
        if (auto *A = dyn_cast<AllocaInst>(
                SI->getPointerOperand()->stripPointerCasts()))
          if (isReturnSlot(A)) {
            ReturnValue(SI, SI->getValueOperand());
            continue;
          }
      visitInstruction(I, /*InBody=*/true);
    }
  }
  finish();
  return std::move(R);
}

LoopSideEffects findLoopSideEffects(Loop &L, const ModRefSummary &S,
                                    DominatorTree &DT, PostDominatorTree &PDT,
                                    LoopInfo &LI, ScalarEvolution *SE) {
  Function &F = *L.getHeader()->getParent();
  SideEffectFinder Finder(S, F, &L, &DT, &PDT, &LI, SE);
  return Finder.runOnLoop();
}

bool runsInEveryIteration(const BasicBlock *BB, const Loop &L, const DominatorTree &DT) {
  SmallVector<BasicBlock *, 4> Latches;
  L.getLoopLatches(Latches);
  return !Latches.empty() && llvm::all_of(Latches, [&](const BasicBlock *Latch) {
           return DT.dominates(BB, Latch);
         });
}

bool isDirectlyRecursive(const Function &F) {
  for (const User *U : F.users())
    if (const auto *CB = dyn_cast<CallBase>(U))
      if (CB->getFunction() == &F && calledFunction(*CB) == &F)
        return true;
  return false;
}

LoopSideEffects findRecursionSideEffects(Function &F, const ModRefSummary &S) {
  SideEffectFinder Finder(S, F, nullptr, nullptr, nullptr, nullptr, nullptr);
  return Finder.runOnRecursion();
}

} // namespace vprof
