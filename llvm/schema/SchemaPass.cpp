//===- SchemaPass.cpp - Which variables vProf samples, per TU --------------===//
//
// Decides the variables vProf watches in this translation unit (globals,
// loop induction variables found with ScalarEvolution, branch-condition and
// call-argument variables; vProf section 3.1) and stores that schema in the
// object file as the ".vprof.schema" section, so sampling needs no side file.
//
// It runs first (PipelineStartEP) at every -O level: there the IR is still
// allocas + llvm.dbg.declare, so every source variable is visible whatever
// the optimizer would later fold.  It is a required pass, so `optnone`
// functions (all of them at -O0) are analysed too.
//
// Options: VPROF_COMPONENT=<prefix>[,<prefix>...] in the environment keeps
// only variables declared in files under those path prefixes;
// -mllvm -vprof-print-schema prints the entries to stderr.
//
//===----------------------------------------------------------------------===//

#include "Schema.h"

#include "vprof/DebugInfoUtils.h"
#include "vprof/PassHooks.h"
#include "vprof/format.h"

#include "llvm/ADT/Statistic.h"
#include "llvm/Analysis/TargetLibraryInfo.h"
#include "llvm/IR/DebugInfoMetadata.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/PassManager.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/Debug.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdlib>

using namespace llvm;

#define DEBUG_TYPE "vprof-schema"

STATISTIC(NumEntries, "Schema entries emitted");
STATISTIC(NumFilteredOut, "Variables outside VPROF_COMPONENT");
STATISTIC(NumSystemHeader, "Variables declared in system headers");

static cl::opt<bool>
    PrintSchema("vprof-print-schema", cl::init(false), cl::Hidden,
                cl::desc("Print the vprof schema entries of the TU to stderr"));

namespace vprof {
namespace {

class SchemaPass : public PassInfoMixin<SchemaPass> {
public:
  PreservedAnalyses run(Module &M, ModuleAnalysisManager &MAM);
  /// Never skipped, not even for optnone functions at -O0.
  static bool isRequired() { return true; }
};

} // namespace

/// The VPROF_COMPONENT prefixes, absolute and normalised (relative ones are
/// relative to the compiler's cwd).  Empty means "everything".
static SmallVector<std::string, 4> componentPrefixes() {
  SmallVector<std::string, 4> Prefixes;
  const char *Env = std::getenv("VPROF_COMPONENT");
  if (!Env)
    return Prefixes;
  SmallVector<StringRef, 4> Parts;
  StringRef(Env).split(Parts, ',', /*MaxSplit=*/-1, /*KeepEmpty=*/false);
  for (StringRef P : Parts) {
    P = P.trim();
    if (!P.empty())
      Prefixes.push_back(normalisePath(P));
  }
  return Prefixes;
}

/// True if \p File is under one of \p Prefixes, or there are none.
static bool inComponent(StringRef File, ArrayRef<std::string> Prefixes) {
  if (Prefixes.empty())
    return true;
  for (const std::string &P : Prefixes)
    if (pathHasPrefix(File, P))
      return true;
  return false;
}

/// True if \p File is a system header (glibc's inline wrappers such as
/// atol's `__nptr`): variables there are the C library's, not the program's,
/// and a developer can do nothing with their values.  Kept out of the schema
/// unless a VPROF_COMPONENT prefix names them explicitly.
static bool isSystemHeader(StringRef File) {
  static const char *const SystemDirs[] = {"/usr/include", "/usr/local/include",
                                           "/usr/lib"};
  for (const char *D : SystemDirs)
    if (pathHasPrefix(File, D))
      return true;
  return false;
}

/// DW_AT_comp_dir of the TU (first compile unit), "" without debug info.
static StringRef compilationDirectory(const Module &M) {
  for (const DICompileUnit *CU : M.debug_compile_units())
    return CU->getDirectory();
  return "";
}

PreservedAnalyses SchemaPass::run(Module &M, ModuleAnalysisManager &MAM) {
  // Already done for this module (the pass was scheduled twice).
  if (M.getNamedGlobal(SchemaGlobalName))
    return PreservedAnalyses::all();

  FunctionAnalysisManager &FAM =
      MAM.getResult<FunctionAnalysisManagerModuleProxy>(M).getManager();
  auto GetTLI = [&FAM](Function &F) -> TargetLibraryInfo & {
    return FAM.getResult<TargetLibraryAnalysis>(F);
  };

  SmallVector<std::string, 4> Prefixes = componentPrefixes();
  std::vector<SchemaEntry> Entries;
  for (const SchemaVariable &V : selectVariables(M, GetTLI)) {
    SchemaEntry E = describeVariable(V);
    // A use record has no file; it only adds to a definition that passed
    // these filters in its own TU.
    bool UseOnly = E.Flags & VP_SCHEMA_USE_ONLY;
    if (!UseOnly && !inComponent(E.File, Prefixes)) {
      ++NumFilteredOut;
      continue;
    }
    if (!UseOnly && Prefixes.empty() && isSystemHeader(E.File)) {
      ++NumSystemHeader;
      continue;
    }
    Entries.push_back(std::move(E));
  }
  sortSchemaEntries(Entries);
  NumEntries += Entries.size();
  LLVM_DEBUG(dbgs() << "vprof-schema: " << Entries.size() << " entries in "
                    << M.getSourceFileName() << "\n");

  if (PrintSchema)
    for (const SchemaEntry &E : Entries)
      printSchemaEntry(errs(), E);

  emitSchemaSection(M, serialiseSchema(Entries, compilationDirectory(M)));
  // A new global and a clone created and erased per function with loops:
  // nothing cached can be trusted blindly.
  return PreservedAnalyses::none();
}

void registerSchemaPasses(PassBuilder &PB) {
  PB.registerPipelineStartEPCallback(
      [](ModulePassManager &MPM, OptimizationLevel) {
        MPM.addPass(SchemaPass());
      });
  PB.registerPipelineParsingCallback(
      [](StringRef Name, ModulePassManager &MPM,
         ArrayRef<PassBuilder::PipelineElement>) {
        if (Name != "vprof-schema")
          return false;
        MPM.addPass(SchemaPass());
        return true;
      });
}

} // namespace vprof
