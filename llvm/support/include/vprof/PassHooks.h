//===- PassHooks.h - How the vprof passes join the plugin ------*- C++ -*-===//
//
// The one pass plugin (lib/vprof/VprofPlugin.so, llvm/plugin/Plugin.cpp)
// registers every vprof pass with the new pass manager.  Each pass folder
// provides one registration function declared here and implements it in its
// own static library; the plugin calls it when the library's CMake target
// exists:
//
//   target                   defines                  function
//   vprof_schema_pass        (always, llvm/schema/)   registerSchemaPasses
//   vprof_loopclass_pass     VPROF_HAVE_LOOPCLASS     registerLoopclassPasses,
//                                                     registerFinalPasses
//   vprof_redundancy_pass    VPROF_HAVE_REDUNDANCY    registerRedundancyPasses
//
// A registration function adds its passes through PassBuilder callbacks
// (e.g. registerPipelineStartEPCallback for the normal `vprof-cc` pipeline,
// registerPipelineParsingCallback so `opt -passes=<name>` works in tests).
// The libraries are linked into a MODULE, so they must be compiled with
// POSITION_INDEPENDENT_CODE and must not link LLVM libraries themselves:
// LLVM's symbols come from the clang process that loads the plugin.
// Linking `vprof_llvm_support` gives a target the LLVM include directories,
// definitions and -fno-rtti.
//
//===----------------------------------------------------------------------===//
#ifndef VPROF_PASSHOOKS_H
#define VPROF_PASSHOOKS_H

namespace llvm {
class PassBuilder;
} // namespace llvm

namespace vprof {

/// Registers the schema pass (llvm/schema/): at PipelineStartEP and as
/// `vprof-schema` for `opt -passes=`.
void registerSchemaPasses(llvm::PassBuilder &PB);

/// Registers the loop-classification passes (loopclass/).
void registerLoopclassPasses(llvm::PassBuilder &PB);

/// Registers the redundancy passes (redundancy/).
void registerRedundancyPasses(llvm::PassBuilder &PB);

/// Registers what runs after every other vprof pass at OptimizerLastEP
/// (loopclass/: calls of a function from its own gated clone go to the
/// clone).  The plugin calls it last.
void registerFinalPasses(llvm::PassBuilder &PB);

} // namespace vprof

#endif // VPROF_PASSHOOKS_H
