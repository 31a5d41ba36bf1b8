# lit configuration for redundancy/ (source instructions and value probes).
import os

import lit.formats

config.name = "vprof-redundancy"
config.test_format = lit.formats.ShTest(execute_external=False)
config.suffixes = [".c", ".cpp"]
config.excludes = ["Inputs", "unit", "CMakeLists.txt"]
config.test_source_root = os.path.dirname(__file__)

config.environment["PATH"] = os.pathsep.join(
    [config.llvm_tools_dir, config.environment.get("PATH", "/usr/bin:/bin")])
for var in ("VPROF_LOOP_FUNCTIONS", "VPROF_OUTPUT", "LD_PRELOAD",
            "VPROF_RED_ITER_RATE", "VPROF_RED_INSTANCE_RATE"):
    config.environment.pop(var, None)

config.substitutions += [
    ("%vprof-plugin", os.path.join(config.vprof_lib_dir, "vprof", "VprofPlugin.so")),
    ("%vprof-cc", os.path.join(config.vprof_bin_dir, "vprof-cc")),
    ("%vprof-cxx", os.path.join(config.vprof_bin_dir, "vprof-c++")),
    ("%vprof-rt", os.path.join(config.vprof_lib_dir, "libvprof-rt.so")),
    ("%redundancy-report", os.path.join(config.redundancy_bin_dir, "redundancy-report")),
    ("%loopclass-report", os.path.join(config.loopclass_bin_dir, "loopclass-report")),
    ("FileCheck", config.filecheck),
]
