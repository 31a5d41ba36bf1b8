# lit configuration for llvm/ (the schema pass and the vprof-cc wrappers).
# Paths come from lit.site.cfg.py, generated into the build tree.
import os

import lit.formats

config.name = "vprof-llvm"
config.test_format = lit.formats.ShTest(execute_external=False)
config.suffixes = [".c", ".cpp", ".test"]
config.excludes = ["Inputs", "CMakeLists.txt"]
config.test_source_root = os.path.dirname(__file__)

# FileCheck, not, llvm-readobj, opt ... from LLVM 14 first on PATH.
config.environment["PATH"] = os.pathsep.join(
    [config.llvm_tools_dir, config.environment.get("PATH", "/usr/bin:/bin")])
# The schema pass reads this at compile time; tests set it explicitly.
config.environment.pop("VPROF_COMPONENT", None)

dump = os.path.join(config.vprof_llvm_source_dir, "utils", "vprof-schema-dump.py")
config.substitutions += [
    ("%vprof-cc", os.path.join(config.vprof_bin_dir, "vprof-cc")),
    ("%vprof-cxx", os.path.join(config.vprof_bin_dir, "vprof-c++")),
    ("%vprof ", os.path.join(config.vprof_bin_dir, "vprof") + " "),
    ("%vprof-plugin", config.vprof_plugin),
    ("%schema-dump", config.python + " " + dump),
    ("%python", config.python),
    ("%clang", config.clang),
    ("FileCheck", config.filecheck),
]
