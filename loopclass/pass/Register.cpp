//===- Register.cpp - plug the loopclass passes into a PassBuilder -------===//
//
// Called by the vprof plugin (llvm/plugin/Plugin.cpp).  The passes run at
// OptimizerLastEP, on the code that actually runs, at every optimisation
// level (docs/loopclass.md, "Pipeline position").
//
//===----------------------------------------------------------------------===//

#include "LoopclassPasses.h"
#include "vprof/LoopProbes.h"
#include "vprof/PassHooks.h"

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
        if (Name == "vprof-probed-self-calls") {
          MPM.addPass(ProbedSelfCallsPass());
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

PreservedAnalyses ProbedSelfCallsPass::run(Module &M, ModuleAnalysisManager &) {
  return redirectGatedSelfCalls(M) ? PreservedAnalyses::none() : PreservedAnalyses::all();
}

void registerFinalPasses(PassBuilder &PB) {
  PB.registerOptimizerLastEPCallback(
      [](ModulePassManager &MPM, OptimizationLevel) { MPM.addPass(ProbedSelfCallsPass()); });
}

} // namespace vprof
