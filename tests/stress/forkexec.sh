#!/usr/bin/env bash
# fork + exec of another program (the same binary as "child", /bin/true),
# then exec of the process itself: statuses and output unchanged; the final
# image writes the plain name, every earlier image and child a valid file.
source "$(dirname "$0")/lib.sh" "$@"
stress_cc forkexec progs/forkexec.c
STRESS_EXPECT_STATUS="exit 6" stress_compare hot ./forkexec
stress_profile_ok rec/rec.vprof
for f in rec/rec.vprof.*; do [ -e "$f" ] && stress_profile_ok "$f"; done
ls rec/rec.vprof.exec* >/dev/null 2>&1 || stress_fail "no .exec profile of the image before exec"
# An exec with an environment of the program's own making still reaches the
# new image (before 2026-11-24 it ran unprofiled and rec.vprof was missing).
for how in cleanenv ownpreload; do
    rm -rf rec loop plain
    STRESS_EXPECT_STATUS="exit 6" STRESS_RUNS="plain rec" stress_compare hot ./forkexec $how
    stress_profile_ok rec/rec.vprof
    [ -e rec/rec.vprof.exec0 ] || stress_fail "$how: no .exec0 profile of the image before exec"
    grep -q '^header .* execed' dump.txt || stress_fail "$how: rec.vprof is not the image after exec"
done
# An exec into an image the runtime cannot enter (static): the message says
# so and where the earlier image's profile is.
printf '#include <stdio.h>\nint main(void){puts("static");return 0;}\n' >static.c
cc -static -O1 static.c -o static || stress_fail "cannot build a static program (libc.a missing?)"
rm -rf rec
mkdir rec
(cd rec && "$VPROF" record -o rec.vprof -- "$work/forkexec" into "$work/static" >../rec.out 2>../rec.err)
grep -q "CMD replaced itself by exec, and the last image ran without the runtime: statically linked" rec.err ||
    { cat rec.err >&2; stress_fail "exec into a static program: no message naming the exec"; }
[ -e rec/rec.vprof.exec0 ] || stress_fail "exec into a static program: no .exec0 profile"
stress_no_temp "$work"
stress_pass
