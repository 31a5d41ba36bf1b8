// The probed clone's use lists are left in the order the IR parser gives
// them (docs/redundancy.md, "Use-list order").  Demoting, cloning and
// promoting leave them in the order the copies were made; the code
// generator's strength reduction reads them, and redis8145's slot loop kept
// j and j + 1 in two registers (+5 % instructions) until its IR was
// written out and parsed again.  Bitcode keeps use-list order; llvm-dis
// prints a `uselistorder` directive for every list not in the parser's
// order.  The bench case's loop, probed with and without the option:
// RUN: %vprof-cc -O2 -std=gnu11 -mllvm -vprof-loop-probes=0 -c -emit-llvm %S/../../../bench/cases/redis8145_nodes/cluster.c -o %t.bc
// RUN: llvm-dis -preserve-ll-uselistorder %t.bc -o %t.ll
// RUN: FileCheck %s --input-file=%t.ll --check-prefix=PARSER
// RUN: %vprof-cc -O2 -std=gnu11 -mllvm -vprof-loop-probes=0 -mllvm -vprof-redundancy-parser-uselists=0 -c -emit-llvm %S/../../../bench/cases/redis8145_nodes/cluster.c -o %t.off.bc
// RUN: llvm-dis -preserve-ll-uselistorder %t.off.bc -o %t.off.ll
// RUN: FileCheck %s --input-file=%t.off.ll --check-prefix=OFF
// PARSER-LABEL: define internal {{.*}} @clusterGenNodeDescription.vprof_probed(
// PARSER-NOT: uselistorder
// PARSER: {{^}}}
// OFF-LABEL: define internal {{.*}} @clusterGenNodeDescription.vprof_probed(
// OFF: uselistorder
// OFF: {{^}}}
