//===- RedundancyTable.cpp - write the .vprof.redund section --------------===//
//
// Writes the static redundancy result of every analysed loop (source
// instructions, pruning decisions, the induction-variable verdict) into the
// binary as one `.vprof.redund` blob (vprof/format.h, loop-stage sections),
// keyed by the loop table's loop id.  -vprof-print-sources prints the same
// to stderr, for FileCheck.
//
//===----------------------------------------------------------------------===//

#include "RedundancyPasses.h"
#include "vprof/SectionBlob.h"

#include "llvm/ADT/StringMap.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/GlobalVariable.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Transforms/Utils/ModuleUtils.h"

#include <cstring>

using namespace llvm;

namespace vprof {


static uint16_t loopFlags(const LoopSources &LS) {
  uint16_t F = 0;
  bool AnyCI = false, AnyCL = false;
  for (const SourceInfo &S : LS.Sources) {
    if (S.Kind == VP_SRC_STRIDE)
      continue; // no input of the loop
    AnyCI |= S.CI == VP_SRCD_RECORD;
    AnyCL |= S.CL == VP_SRCD_RECORD || S.CL == VP_SRCD_RANGE ||
             S.CL == VP_SRCD_ONCE;
  }
  if (LS.Probed)
    F |= VP_REDF_PROBED;
  if (LS.OverBudget)
    F |= VP_REDF_OVER_BUDGET;
  if (LS.IVSource)
    F |= VP_REDF_CI_IV;
  if (LS.IOEveryIteration)
    F |= VP_REDF_IO_EVERY_ITER;
  if (LS.SideEffectInInner)
    F |= VP_REDF_SE_IN_INNER;
  if (LS.FixedWriteLocations)
    F |= VP_REDF_SE_FIXED;
  if (!AnyCI)
    F |= VP_REDF_CI_NONE;
  if (!AnyCL)
    F |= VP_REDF_CL_NONE;
  if (LS.CallSite)
    F |= VP_REDF_CALLSITE;
  if (LS.Copy)
    F |= VP_REDF_COPY;
  if (LS.Setup)
    F |= VP_REDF_SETUP;
  if (LS.Sort)
    F |= VP_REDF_SORT;
  if (LS.Pure)
    F |= VP_REDF_PURE;
  if (!LS.ConstantObject.empty())
    F |= VP_REDF_CL_CONST;
  if (LS.CallSite && !LS.Via.empty())
    F |= VP_REDF_VIA;
  return F;
}

/// Little-endian host layout, as the loop table (ARCHITECTURE.md).
static std::string buildBlob(const std::vector<LoopSources> &Loops) {
  BlobStringTable Strings;
  std::string Entries, Sources;
  uint32_t SourceCount = 0;
  for (const LoopSources &LS : Loops) {
    vp_redund_loop E;
    std::memset(&E, 0, sizeof(E));
    E.loop_id = LS.LoopId;
    E.first_source = SourceCount;
    bool Via = LS.CallSite && !LS.Via.empty();
    E.source_count = LS.Sources.size() + Via;
    E.function = Strings.add(LS.Function);
    E.line = LS.Line;
    E.probe_index = LS.Probed ? LS.ProbeIndex : ~0u;
    E.flags = loopFlags(LS);
    E.side_effects = std::min<size_t>(LS.SideEffects.size(), 0xffff);
    E.iv_line = LS.IVLine;
    if (LS.CallSite)
      E.reserved = static_cast<uint32_t>(LS.Parent + 1);
    else if (!LS.ConstantObject.empty())
      E.reserved = Strings.add(LS.ConstantObject);
    appendRecord(Entries, E);
    for (const SourceInfo &S : LS.Sources) {
      vp_redund_source R;
      std::memset(&R, 0, sizeof(R));
      R.id = S.Id;
      R.line = S.Line;
      R.column = S.Column;
      R.kind = S.Kind;
      R.depth = S.Depth;
      R.ci = S.CI;
      R.cl = S.CL;
      R.function = Strings.add(S.Function);
      if (S.ConstantStride) { // |step| < 2^32 (addStrideSources)
        R.reserved2 = static_cast<uint32_t>(S.ConstantStride < 0 ? -S.ConstantStride
                                                                 : S.ConstantStride);
        R.reserved = S.ConstantStride < 0 ? VP_SRC_STRIDE_BACKWARDS : 0;
      }
      appendRecord(Sources, R);
      ++SourceCount;
    }
    if (Via) { // the helper the unit's call is in (VP_SRC_VIA)
      vp_redund_source R;
      std::memset(&R, 0, sizeof(R));
      R.kind = VP_SRC_VIA;
      R.depth = 1;
      R.line = LS.ViaLine;
      R.ci = R.cl = VP_SRCD_NONE;
      R.function = Strings.add(LS.Via);
      appendRecord(Sources, R);
      ++SourceCount;
    }
  }
  vp_redund_header H;
  std::memset(&H, 0, sizeof(H));
  H.magic = VP_REDUND_MAGIC;
  H.version = VP_REDUND_VERSION;
  H.header_size = sizeof(H);
  H.loop_count = Loops.size();
  H.source_count = SourceCount;
  H.strings_offset = sizeof(H) + Entries.size() + Sources.size();
  H.strings_size = Strings.data().size();
  uint32_t Total = (H.strings_offset + H.strings_size + 7) & ~7u;
  H.total_size = Total;
  std::string Blob;
  appendRecord(Blob, H);
  Blob += Entries;
  Blob += Sources;
  Blob += Strings.data();
  Blob.resize(Total, '\0');
  return Blob;
}

void emitRedundancySection(Module &M, const std::vector<LoopSources> &Loops) {
  if (Loops.empty())
    return;
  std::string Blob = buildBlob(Loops);
  emitSectionBlob(M, Blob, "__vprof_redund_table", VP_REDUND_SECTION);
}

void printLoopSources(raw_ostream &OS, const LoopSources &LS) {
  size_t Strides = count_if(LS.Sources, [](const SourceInfo &S) {
    return S.Kind == VP_SRC_STRIDE;
  });
  OS << "vprof-sources: " << LS.Function << " "
     << sys::path::filename(LS.File) << ":" << LS.Line << ":" << LS.Column
     << " sources=" << LS.Sources.size() - Strides
     << " side-effects=" << LS.SideEffects.size();
  if (Strides)
    OS << " strides=" << Strides;
  if (LS.IOEveryIteration)
    OS << " io-every-iteration";
  if (LS.SideEffectInInner)
    OS << " side-effect-in-inner-loop";
  if (LS.Probed)
    OS << " probed";
  if (LS.OverBudget)
    OS << " over-copy-budget";
  if (LS.CallSite)
    OS << " repeated-call-unit";
  if (LS.Setup)
    OS << " setup-call";
  if (LS.Sort)
    OS << " sort";
  if (LS.Pure)
    OS << " math-call";
  if (!LS.Via.empty())
    OS << " via=" << LS.Via << ":" << LS.ViaLine;
  if (LS.Copy && !LS.Via.empty())
    OS << " lifted-copy";
  if (LS.FixedWriteLocations)
    OS << " fixed-write-locations";
  if (!LS.ConstantObject.empty())
    OS << " constant-work=" << LS.ConstantObject;
  OS << "\n";
  if (LS.IVSource)
    OS << "vprof-sources:   no cross-iteration redundancy: IV source at line "
       << LS.IVLine << "\n";
  for (auto [Line, Col] : LS.SideEffectLocs)
    OS << "vprof-side-effect: " << Line << ":" << Col << "\n";
  for (const SourceInfo &S : LS.Sources) {
    if (S.Kind == VP_SRC_STRIDE) {
      OS << "vprof-stride: " << S.Line << ":" << S.Column;
      if (S.ConstantStride)
        OS << " bytes=" << S.ConstantStride;
      OS << "\n";
      continue;
    }
    OS << "vprof-source: " << S.Line << ":" << S.Column << " "
       << sourceKindName(S.Kind);
    if (S.Depth)
      OS << " in " << S.Function << " depth=" << S.Depth;
    OS << " ci=" << decisionName(S.CI) << " cl=" << decisionName(S.CL) << "\n";
  }
}

} // namespace vprof
