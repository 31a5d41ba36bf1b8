//===- Plugin.cpp - The vprof pass plugin (VprofPlugin.so) ----------------===//
//
// Entry point clang calls for -fpass-plugin=.../lib/vprof/VprofPlugin.so
// (and opt for -load-pass-plugin).  It only registers passes: the schema
// pass always, the loop passes of loopclass/ and redundancy/ when the build
// linked them in (VPROF_HAVE_LOOPCLASS / VPROF_HAVE_REDUNDANCY, set by
// llvm/CMakeLists.txt).  See vprof/PassHooks.h for the contract.
//
//===----------------------------------------------------------------------===//

#include "vprof/PassHooks.h"

#include "llvm/Passes/PassBuilder.h"
#include "llvm/Passes/PassPlugin.h"

using namespace llvm;

/// Registers every vprof pass with \p PB.
static void registerVprofPasses(PassBuilder &PB) {
  vprof::registerSchemaPasses(PB);
#ifdef VPROF_HAVE_LOOPCLASS
  vprof::registerLoopclassPasses(PB);
#endif
#ifdef VPROF_HAVE_REDUNDANCY
  vprof::registerRedundancyPasses(PB);
#endif
#ifdef VPROF_HAVE_LOOPCLASS
  vprof::registerFinalPasses(PB); // after the others: they analyse and copy the clones
#endif
}

extern "C" LLVM_ATTRIBUTE_WEAK PassPluginLibraryInfo llvmGetPassPluginInfo() {
  return {LLVM_PLUGIN_API_VERSION, "vprof", "0.1", registerVprofPasses};
}
