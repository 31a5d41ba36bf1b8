"""Helpers shared by the fixsuggest tests."""
import os
import subprocess


def build(bindir, srcs, out, extra=()):
    """vprof-cc -O2 -g; without the redundancy probes if the pass crashes
    the compiler (known issue, reported)."""
    cc = [os.path.join(bindir, "vprof-cc"), "-O2", "-g"] + list(extra) + list(srcs) + ["-o", out, "-lm"]
    r = subprocess.run(cc, capture_output=True, text=True)
    if r.returncode == 0 or "-vprof-redundancy-probes=0" in extra:
        if r.returncode != 0:
            raise SystemExit("vprof-cc failed:\n" + r.stderr[-3000:])
        return
    print("WARNING: vprof-cc failed; retrying without redundancy probes")
    r = subprocess.run(cc[:1] + ["-mllvm", "-vprof-redundancy-probes=0"] + cc[1:],
                       capture_output=True, text=True)
    if r.returncode != 0:
        raise SystemExit("vprof-cc failed:\n" + r.stderr[-3000:])
