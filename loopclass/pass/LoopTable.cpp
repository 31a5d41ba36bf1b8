//===- LoopTable.cpp - write the .vprof.loops section --------------------===//
//
// Writes the classification of every loop of the translation unit into the
// binary as one `.vprof.loops` blob (vprof/format.h part 2), so the analysis
// can read it back from the executable without the source.  With
// -vprof-print-loops it also prints each loop to stderr, for FileCheck.
//
//===----------------------------------------------------------------------===//

#include "LoopclassPasses.h"
#include "vprof/SectionBlob.h"

#include "llvm/ADT/StringMap.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/GlobalVariable.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Transforms/Utils/ModuleUtils.h"

#include <cstring>

using namespace llvm;

static cl::opt<bool>
    PrintLoops("vprof-print-loops", cl::init(false), cl::Hidden,
               cl::desc("Print the resultless class of every loop to stderr"));

namespace vprof {


/// Serialises the loop table.  Little-endian host layout: the passes only run
/// on x86-64 / AArch64 Linux hosts (ARCHITECTURE.md).
static std::string buildBlob(const std::vector<LoopRecord> &Loops) {
  BlobStringTable Strings;
  std::string Entries, Sites;
  uint32_t SiteCount = 0;
  for (const LoopRecord &R : Loops) {
    vp_loop_entry E;
    std::memset(&E, 0, sizeof(E));
    E.loop_id = R.Id;
    E.function = Strings.add(R.Function);
    E.linkage = Strings.add(R.Linkage);
    E.file = Strings.add(R.File);
    E.line = R.Line;
    E.column = R.Column;
    E.kind = R.Kind;
    E.static_class = R.Class;
    E.depth = R.Depth;
    E.flags = R.Flags;
    E.parent_id = R.ParentId;
    E.first_site = SiteCount;
    E.site_count = R.Sites.size();
    E.end_line = R.EndLine;
    E.host = Strings.add(R.Host);
    if (R.Flags & VP_LOOPF_INDIRECT)
      E.reserved = 1u + R.DirectClass;
    if (R.Flags & VP_LOOPF_UNROLLED)
      E.reserved |= R.UnrollFactor << 8;
    if (R.Flags & VP_LOOPF_BUCKET_CHAIN)
      E.reserved2 = R.BucketLine;
    else if (R.Flags & VP_LOOPF_SPIN)
      E.reserved2 = R.SpinLine;
    appendRecord(Entries, E);
    for (const SiteRecord &S : R.Sites) {
      vp_loop_site VS;
      std::memset(&VS, 0, sizeof(VS));
      VS.line = S.Line;
      VS.column = S.Column;
      VS.kind = static_cast<uint8_t>(S.Kind);
      VS.in_body = S.InBody;
      VS.callee = Strings.add(S.Callee);
      if (S.IOEveryIteration)
        VS.reserved |= VP_SITEF_IO_EVERY_ITER;
      if (S.WaitEveryIteration)
        VS.reserved |= VP_SITEF_WAIT_EVERY_ITER;
      if (S.SyscallBytes)
        VS.reserved |= VP_SITEF_SYSCALL_BYTES | (S.SyscallBytes << VP_SITE_SYSCALL_BYTES_SHIFT);
      appendRecord(Sites, VS);
      ++SiteCount;
    }
  }
  vp_loops_header H;
  std::memset(&H, 0, sizeof(H));
  H.magic = VP_LOOPS_MAGIC;
  H.version = VP_LOOPS_VERSION;
  H.header_size = sizeof(H);
  H.loop_count = Loops.size();
  H.site_count = SiteCount;
  H.strings_offset = sizeof(H) + Entries.size() + Sites.size();
  H.strings_size = Strings.data().size();
  uint32_t Total = H.strings_offset + H.strings_size;
  Total = (Total + 7) & ~7u;
  H.total_size = Total;

  std::string Blob;
  appendRecord(Blob, H);
  Blob += Entries;
  Blob += Sites;
  Blob += Strings.data();
  Blob.resize(Total, '\0');
  return Blob;
}

static void printLoops(const std::vector<LoopRecord> &Loops) {
  raw_ostream &OS = errs();
  for (const LoopRecord &R : Loops) {
    OS << "vprof-loop: " << R.Function << " "
       << sys::path::filename(R.File) << ":" << R.Line << ":" << R.Column
       << " kind=" << (R.Kind == VP_LOOP_RECURSION ? "recursion" : "loop")
       << " depth=" << R.Depth << " class=" << loopClassName(R.Class);
    if (R.Flags & VP_LOOPF_LIVEOUT_IV)
      OS << " liveout-iv";
    if (R.Flags & VP_LOOPF_IO_ONLY)
      OS << " io-only";
    if (R.Flags & VP_LOOPF_TAIL_CALLS)
      OS << " tail-calls";
    if (R.Flags & VP_LOOPF_VECTOR)
      OS << " vector";
    if (R.Flags & VP_LOOPF_UNROLLED)
      OS << " unrolled(x" << R.UnrollFactor << ")";
    if (R.Flags & VP_LOOPF_INDIRECT)
      OS << " indirect(direct-class=" << loopClassName(R.DirectClass) << ")";
    if (R.Flags & VP_LOOPF_BUCKET_CHAIN)
      OS << " bucket-chain(line " << R.BucketLine << ")";
    if (R.Flags & VP_LOOPF_SPIN)
      OS << " spin(line " << R.SpinLine
         << ((R.Flags & VP_LOOPF_SPIN_UPDATE) ? ", update" : "") << ")";
    if (R.Flags & VP_LOOPF_PROBED)
      OS << " probed";
    OS << " sites=" << R.Sites.size() << "\n";
    for (const SiteRecord &S : R.Sites) {
      OS << "vprof-loop-site: " << S.Line << ":" << S.Column << " "
         << siteKindName(S.Kind) << " " << (S.InBody ? "body" : "exit");
      if (!S.Callee.empty())
        OS << " " << S.Callee;
      if (S.IOEveryIteration)
        OS << " io-every-iteration";
      if (S.WaitEveryIteration)
        OS << " waits-every-iteration";
      if (S.SyscallBytes)
        OS << " syscall-bytes=" << S.SyscallBytes;
      OS << "\n";
    }
  }
}

PreservedAnalyses LoopTablePass::run(Module &M, ModuleAnalysisManager &MAM) {
  const LoopClassInfo &Info = MAM.getResult<LoopClassAnalysis>(M);
  if (PrintLoops)
    printLoops(Info.Loops);
  if (Info.Loops.empty())
    return PreservedAnalyses::all();

  std::string Blob = buildBlob(Info.Loops);
  emitSectionBlob(M, Blob, "__vprof_loops_table", VP_LOOPS_SECTION);
  PreservedAnalyses PA = PreservedAnalyses::all();
  return PA;
}

} // namespace vprof
