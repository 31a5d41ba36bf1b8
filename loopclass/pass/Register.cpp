//===- Register.cpp - plug the loopclass passes into a PassBuilder -------===//
//
// Called by the vprof plugin (llvm/plugin/Plugin.cpp).  The passes run at
// OptimizerLastEP, on the code that actually runs, at every optimisation
// level (docs/loopclass.md, "Pipeline position").
//
//===----------------------------------------------------------------------===//

#include "LoopclassPasses.h"

#include "llvm/Passes/PassBuilder.h"

using namespace llvm;

namespace vprof {

void registerLoopclassPasses(PassBuilder &PB) {
  PB.registerAnalysisRegistrationCallback([](ModuleAnalysisManager &MAM) {
    MAM.registerPass([] { return LoopClassAnalysis(); });
  });
  PB.registerPipelineParsingCallback(
      [](StringRef Name, ModulePassManager &MPM,
         ArrayRef<PassBuilder::PipelineElement>) {
        if (Name == "vprof-loop-probes") {
          MPM.addPass(LoopProbesPass());
          return true;
        }
        if (Name == "vprof-loop-table") {
          MPM.addPass(LoopTablePass());
          return true;
        }
        return false;
      });
  PB.registerOptimizerLastEPCallback(
      [](ModulePassManager &MPM, OptimizationLevel) {
        MPM.addPass(LoopProbesPass());
        MPM.addPass(LoopTablePass());
      });
}

} // namespace vprof
