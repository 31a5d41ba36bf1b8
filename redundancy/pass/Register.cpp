//===- Register.cpp - plug the redundancy pass into a PassBuilder --------===//
//
// Called by the vprof plugin (llvm/plugin/Plugin.cpp).  The pass runs at
// OptimizerLastEP after loopclass's probes (the plugin registers loopclass
// first), so it can put its probes into loopclass's gated clone.
//
//===----------------------------------------------------------------------===//

#include "RedundancyPasses.h"
#include "vprof/PassHooks.h"

#include "llvm/Passes/PassBuilder.h"

using namespace llvm;

namespace vprof {

void registerRedundancyPasses(PassBuilder &PB) {
  PB.registerPipelineParsingCallback(
      [](StringRef Name, ModulePassManager &MPM,
         ArrayRef<PassBuilder::PipelineElement>) {
        if (Name == "vprof-redundancy") {
          MPM.addPass(RedundancyPass());
          return true;
        }
        return false;
      });
  PB.registerOptimizerLastEPCallback(
      [](ModulePassManager &MPM, OptimizationLevel) {
        MPM.addPass(RedundancyPass());
      });
}

} // namespace vprof
