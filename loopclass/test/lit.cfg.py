# lit configuration for loopclass/ (the loop passes and the loop probes).
import os

import lit.formats

config.name = "vprof-loopclass"
config.test_format = lit.formats.ShTest(execute_external=False)
config.suffixes = [".c", ".cpp", ".test"]
config.excludes = ["Inputs", "CMakeLists.txt"]
config.test_source_root = os.path.dirname(__file__)

config.environment["PATH"] = os.pathsep.join(
    [config.llvm_tools_dir, config.environment.get("PATH", "/usr/bin:/bin")])
for var in ("VPROF_LOOP_FUNCTIONS", "VPROF_OUTPUT", "LD_PRELOAD"):
    config.environment.pop(var, None)

config.substitutions += [
    ("%vprof-cc", os.path.join(config.vprof_bin_dir, "vprof-cc")),
    ("%vprof-loop", os.path.join(config.vprof_bin_dir, "vprof-loop")),
    ("%vprof ", os.path.join(config.vprof_bin_dir, "vprof") + " "),
    ("%vprof-plugin", config.vprof_plugin),
    ("%vprof-rt", os.path.join(config.vprof_lib_dir, "libvprof-rt.so")),
    ("%loopclass-report", os.path.join(config.loopclass_bin_dir, "loopclass-report")),
    ("%python", config.python),
    ("FileCheck", config.filecheck),
]
