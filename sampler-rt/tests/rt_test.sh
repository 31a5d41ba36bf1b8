#!/usr/bin/env bash
# rt_test.sh CASE - one sampler-rt test (ctest rt.CASE).  Needs RT_LIB (the
# runtime), RT_BIN (folder of t_cpu, t_values, mkindex, rt_dump), VPROF (the
# vprof command).
set -u
case_name=$1
W=$(mktemp -d /tmp/vprof-rt-test.XXXXXX)
trap 'rm -rf "$W"' EXIT
fail() { echo "FAIL($case_name): $*" >&2; exit 1; }
dump() { "$RT_BIN/rt_dump" "$1" > "$1.txt" || fail "invalid profile $1"; cat "$1.txt" >&2; }
field() { # field FILE LINE_PREFIX KEY -> value of KEY= on the first matching line
  grep -m1 "^$2" "$1.txt" | tr ' ' '\n' | sed -n "s/^$3=//p"; }
# pflags FILE -> the header's flags but VP_PROFF_JITTERED (16), which says
# only that the timer was perf (docs/runtime.md, "Jittered periods")
pflags() { echo $(( $(field "$1" header flags) & ~16 )); }
run() { env LD_PRELOAD="$RT_LIB" VPROF_OUTPUT="$W/p.out" "$@"; }
ENV=(env LD_PRELOAD="$RT_LIB" VPROF_OUTPUT="$W/p.out")  # for background jobs: $! must be the target

make_index() { # make_index OUT
  local syms
  syms=$(nm "$RT_BIN/t_values" | awk '$3 ~ /^(g_counter|g_int_ptr|g_bad_ptr|g_neg|g_dead_stack_ptr|vp_loop_rbx_body|vp_loop_rbx_end|vp_caller_call|vp_caller_ret)$/ {print $3"="$1}')
  "$RT_BIN/mkindex" "$1" "$(readlink -f "$RT_BIN/t_values")" $syms || fail "mkindex"
}

# fair DUMPED_PROFILE WORKERS_FILE [TOL]: every worker's share of the workers'
# weighted samples is within +-TOL (default 0.20) of its share of their CPU time (measured
# by each worker with CLOCK_THREAD_CPUTIME_ID, so a loaded host that gives a
# thread less CPU than asked does not matter).  Exit 1 when one is not.
fair() {
  awk -v tol="${3:-0.20}" 'FNR == NR { if ($1 == "tid") { split($4, a, "="); w[$2] = a[2] } next }
       $1 == "worker" { n++; tid[n] = $2; cpu[n] = $4; s[n] = w[$2] + 0; ts += s[n]; tc += $4 }
       END {
         if (n != 4 || ts < 200 || tc <= 0) { print "workers=" n " weighted samples=" ts; exit 1 }
         bad = 0
         for (i = 1; i <= n; i++) {
           e = ts * cpu[i] / tc
           ok = s[i] >= (1 - tol) * e && s[i] <= (1 + tol) * e
           printf "worker %s: cpu %.0f ms, %d weighted samples, expected %.0f%s\n", tid[i], cpu[i] / 1e6, s[i], e, ok ? "" : "  <-- off by more than " tol * 100 "%"
           if (!ok) bad = 1
         }
         exit bad }' "$1.txt" "$2" >&2
}

# threads_case [VPROF_TIMER [TOL]]: 4 workers with 1:2:3:4 units of CPU work.
threads_case() { # threads_case TIMER BOUND [RUNS]: RUNS tries (default 1) to be fair
  local i s0
  for i in $(seq 1 "${3:-1}"); do
    s0=$(steal_ms)
    run ${1:+VPROF_TIMER=$1} "$RT_BIN/t_cpu" threads > "$W/out.txt" || fail "exit"
    dump "$W/p.out"
    cat "$W/out.txt" >&2
    [ "$(field "$W/p.out" loss threads)" -ge 5 ] || fail "threads not all armed"
    [ "$(field "$W/p.out" loss timer_failures)" = 0 ] || fail "timer failures"
    fair "$W/p.out" "$W/out.txt" "${2:-0.20}" && break
    [ "$i" -lt "${3:-1}" ] || fail "samples not proportional to CPU time"
    echo "fair: not proportional in run $i (the host stole $(( $(steal_ms) - s0 )) ms of CPU): running again" >&2
  done
  # the check itself must be able to fail: swap the CPU times of the 1-unit
  # and the 4-unit worker (a 4x skew) and expect a failure
  awk '$3 == 1 { one = $4 } $3 == 4 { four = $4 } { l[NR] = $0; u[NR] = $3 }
       END { for (i = 1; i <= NR; i++) { $0 = l[i]; if (u[i] == 1) $4 = four; else if (u[i] == 4) $4 = one; print } }' \
    "$W/out.txt" > "$W/skewed.txt"
  fair "$W/p.out" "$W/skewed.txt" "${2:-0.20}" 2>/dev/null && fail "fairness check accepts a 4x skew"
  return 0
}

# rate_retry MIN PROFILE CMD...: PROFILE (dumped) holds at least MIN pc
# samples, or CMD, which writes PROFILE again, gets there in one of two more
# runs.  The kernel's task-clock hrtimer gives the nominal rate, but a host
# that takes the vCPU away (steal time, seen on CI machines) makes the timer
# fire late and the kernel drops the overruns: 225 samples in 400 ms of CPU
# once.  That is the host, not us; a runtime that loses samples loses them
# in every run.  Each retry says how much CPU the host stole meanwhile.
nocfi_case() { # nocfi_case T_CPU_MODE: no unwind error, 3 callers or more in 9 of 10 samples
  run "$RT_BIN/t_cpu" "$1" 300; rc=$?
  [ $rc = 3 ] || fail "exit status $rc, expected 3"
  dump "$W/p.out"
  n=$(field "$W/p.out" "pc " samples); [ "${n:-0}" -ge 40 ] || fail "only ${n:-0} samples"
  [ "$(field "$W/p.out" loss unwind_errors)" = 0 ] || fail "unwind errors"
  deep=$("$VPROF" dump "$W/p.out" | grep -c '^pc seq=.* flags=0x0 callers=[^,]*,[^,]*,[^,]*')
  [ "$deep" -ge $((n * 9 / 10)) ] || fail "$deep of $n samples have 3 callers"
}
steal_ms() { awk -v hz="$(getconf CLK_TCK)" '$1 == "cpu" { print int($9 * 1000 / hz); exit }' /proc/stat; }
rate_retry() {
  local min=$1 p=$2 n i s0; shift 2
  n=$(field "$p" "pc " samples)
  for i in 2 3; do
    [ "${n:-0}" -ge "$min" ] && return 0
    echo "rate: ${n:-0} pc samples, want $min: running again ($i of 3)" >&2
    s0=$(steal_ms); "$@"
    echo "rate: the host stole $(( $(steal_ms) - s0 )) ms of CPU during run $i" >&2
    dump "$p"; n=$(field "$p" "pc " samples)
  done
  [ "${n:-0}" -ge "$min" ]
}

# sigtrap_kernel: does this kernel have perf_event_attr.sigtrap (Linux >= 5.13)?
sigtrap_kernel() {
  local v; v=$(uname -r); local maj=${v%%.*} rest=${v#*.}; local min=${rest%%[!0-9]*}
  [ "$maj" -gt 5 ] || { [ "$maj" = 5 ] && [ "$min" -ge 13 ]; }
}

# short_share PROFILE: per mille of the intervals between consecutive samples
# (wall time) shorter than 0.9 of the nominal period.  A fixed CPU-time
# period gives none (a wall interval is never shorter than the CPU time in
# it, and a loaded host only lengthens it); periods drawn from [P/2, 3P/2)
# give about 400.
short_share() {
  "$VPROF" dump "$1" | awk '/^header/ { for (i = 1; i <= NF; i++) if ($i ~ /^period_ns=/) { split($i, a, "="); p = a[2] } }
    /^pc seq=/ { for (i = 1; i <= NF; i++) if ($i ~ /^time_ns=/) { split($i, a, "="); t = a[2] }
                 if (n++) { m++; if (t - prev < 0.9 * p) s++ } prev = t }
    END { print m ? int(1000 * s / m) : -1 }'
}

check_values() { # check_values PROFILE
  local f=$1
  grep -q "^variables count=9" "$f.txt" || fail "VARIABLES not copied"
  grep -q "^var 0 depth=0 status=0 .*min=0x67932 max=0x67932" "$f.txt" || fail "g_counter"
  grep -q "^var 1 depth=0 status=0 .*min=0x63 max=0x63" "$f.txt" || fail "pointer deref"
  grep -q "^var 2 depth=0 status=2 " "$f.txt" || fail "bad pointer not POINTEE_UNREADABLE"
  grep -q "^var 2 depth=0 status=0" "$f.txt" && fail "bad pointer read as OK"
  grep -q "^var 3 depth=0 status=1 " "$f.txt" || fail "bad address not UNREADABLE"
  grep -q "^var 4 depth=0 status=0 .*min=0xfffffffffffffffb max=0xfffffffffffffffb" "$f.txt" || fail "sign extension"
  local l; l=$(grep -m1 "^var 5 depth=0 status=0 " "$f.txt") || fail "no loop counter samples"
  local mx; mx=$(echo "$l" | sed -n 's/.*max=\(0x[0-9a-f]*\).*/\1/p')
  [ $((mx)) -ge 1 ] && [ $((mx)) -le 20000000 ] || fail "loop counter out of range: $l"
  grep -q "^var 5 depth=[1-9]" "$f.txt" && fail "caller-unsafe recipe used in a caller frame"
  grep -q "^var 6 depth=1 status=0 .*min=0x1234 max=0x1234" "$f.txt" || fail "callee-saved r12 in caller frame"
  grep -q "^var 7 depth=1 status=0 .*min=0x309 max=0x309" "$f.txt" || fail "CFA-relative local in caller frame"
  grep -q "^var [67] depth=0" "$f.txt" && fail "caller recipe matched at depth 0"
  # a pointer into an exited thread's unmapped stack: never read directly
  # (that would kill the target), reported unreadable
  grep -q "^var 8 depth=0 status=2 " "$f.txt" || fail "dead thread stack pointee not POINTEE_UNREADABLE"
  grep -q "^var 8 depth=0 status=0" "$f.txt" && fail "dead thread stack pointee read as OK"
  return 0
}

case $case_name in
unwind)  # the runtime's stack stepper agrees with libunwind, frame by frame (t_unwind.c)
  for t in t_unwind t_unwind_O0; do
    "$RT_BIN/$t" 1.5 > "$W/$t.txt" 2>&1; rc=$?
    cat "$W/$t.txt" >&2
    [ $rc = 0 ] || fail "$t: $(grep -m1 FAIL "$W/$t.txt")"
  done
  ;;
nocfi)
  # a frame no FDE covers (code assembled without CFI, like crtstuff's at
  # exit): stepped through its frame pointer, not an unwind error;
  # burn <- nocfi_call <- main <- libc: three callers at least, through the gap
  nocfi_case nocfi
  ;;
nocfileaf)
  # an interrupted PC no FDE covers (a leaf assembled without CFI, as
  # crtstuff's __do_global_dtors_aux at exit): stepped through the return
  # address at rsp, or above the rbp it pushed, not an unwind error;
  # nocfi_leaf <- burn_leaf <- main <- libc: three callers at least
  nocfi_case nocfileaf
  ;;
pc_only)
  run "$RT_BIN/t_cpu" spin 400; rc=$?
  [ $rc = 3 ] || fail "exit status $rc, expected 3"
  dump "$W/p.out"
  n=$(field "$W/p.out" "pc " samples); [ "${n:-0}" -ge 40 ] || fail "only ${n:-0} samples"
  [ "$(field "$W/p.out" "pc " with_callers)" -ge $((n * 9 / 10)) ] || fail "callers missing"
  clock=$(field "$W/p.out" header clock)
  [ "$clock" = 3 ] || [ "$clock" = 1 ] || fail "clock $clock"
  # callers recorded: VPROF_STACK_DEPTH (32), not the 3 frames whose
  # variables are read; down to _start without an unwind error (below)
  [ "$(field "$W/p.out" header depth)" = 32 ] || fail "depth"
  # burn <- main <- __libc_start_call_main <- __libc_start_main <- _start:
  # more than the 3 callers of before
  "$VPROF" dump "$W/p.out" | grep -q '^pc seq=.* flags=0x0 callers=[^,]*,[^,]*,[^,]*,[^,]*' ||
    fail "no sample with 4 callers"
  run VPROF_STACK_DEPTH=3 "$RT_BIN/t_cpu" spin 100; [ $? = 3 ] || fail "exit (VPROF_STACK_DEPTH=3)"
  dump "$W/p.out"
  [ "$(field "$W/p.out" header depth)" = 3 ] || fail "VPROF_STACK_DEPTH=3: depth"
  "$VPROF" dump "$W/p.out" | grep -q '^pc seq=.* callers=[^,]*,[^,]*,[^,]*,' &&
    fail "VPROF_STACK_DEPTH=3: a sample with 4 callers"
  run "$RT_BIN/t_cpu" spin 400; [ $? = 3 ] || fail "exit"
  dump "$W/p.out"
  [ "$(field "$W/p.out" header pid)" = "$(field "$W/p.out" header root_pid)" ] || fail "root pid"
  [ "$(field "$W/p.out" loss unwind_errors)" = 0 ] || fail "unwind errors"
  if [ "$clock" = 3 ]; then  # perf: the nominal rate with each way of signalling
    rate_retry 300 "$W/p.out" run "$RT_BIN/t_cpu" spin 400 ||
      fail "perf task-clock: $(field "$W/p.out" "pc " samples) samples in 400 ms of CPU, 3 runs"
    if sigtrap_kernel; then want="perf_signal=trap perf_trap_threads=1 perf_ring_threads=0 perf_refresh_threads=0 "
    else want="perf_signal=fasync perf_trap_threads=0 perf_ring_threads=1 "; fi
    for v in "default:$want" \
             "VPROF_PERF_SIGTRAP=0:perf_signal=fasync perf_trap_threads=0 perf_ring_threads=1 perf_refresh_threads=0 " \
             "VPROF_PERF_SIGTRAP=0 VPROF_PERF_RING=0:perf_signal=fasync perf_trap_threads=0 perf_ring_threads=0 perf_refresh_threads=1 "; do
      setting=${v%%:*}; [ "$setting" = default ] && setting=
      spin_debug() { run $setting VPROF_DEBUG=1 "$RT_BIN/t_cpu" spin 400 2> "$W/err.txt"; }
      spin_debug; [ $? = 3 ] || fail "exit ($setting)"
      cat "$W/err.txt" >&2; dump "$W/p.out"
      grep -q "${v#*:}" "$W/err.txt" || fail "${setting:-default}: expected ${v#*:}"
      rate_retry 300 "$W/p.out" spin_debug || fail "${setting:-default}: too few samples, 3 runs"
      grep -q " foreign_signals=0 " "$W/err.txt" || fail "${setting:-default}: our signals taken as foreign"
      # jittered periods (docs/runtime.md): ~40 % of the intervals are short
      "$VPROF" dump "$W/p.out" | grep -q '^header .* jittered$' || fail "${setting:-default}: not marked jittered"
      sh=$(short_share "$W/p.out"); echo "${setting:-default}: short intervals ${sh}/1000" >&2
      [ "$sh" -ge 200 ] || fail "${setting:-default}: ${sh}/1000 intervals under 0.9 P: periods not jittered"
    done
    # VPROF_JITTER=0: the fixed period of before, and the check can fail
    run VPROF_JITTER=0 "$RT_BIN/t_cpu" spin 400; [ $? = 3 ] || fail "exit (VPROF_JITTER=0)"
    "$VPROF" dump "$W/p.out" | grep -q '^header .* jittered$' && fail "VPROF_JITTER=0: marked jittered"
    sh=$(short_share "$W/p.out"); echo "VPROF_JITTER=0: short intervals ${sh}/1000" >&2
    [ "$sh" -le 50 ] || fail "VPROF_JITTER=0: ${sh}/1000 intervals under 0.9 P"
  fi
  # no VPROF_OUTPUT: vprof.out in the cwd; a planted symlink is replaced, not followed
  mkdir "$W/cwd" && echo victim > "$W/victim" && ln -s "$W/victim" "$W/cwd/vprof.out"
  (cd "$W/cwd" && env LD_PRELOAD="$RT_LIB" "$RT_BIN/t_cpu" spin 100); [ $? = 3 ] || fail "exit"
  [ -f "$W/cwd/vprof.out" ] && [ ! -L "$W/cwd/vprof.out" ] || fail "vprof.out not written as a file"
  [ "$(cat "$W/victim")" = victim ] || fail "symlink target overwritten"
  "$RT_BIN/rt_dump" "$W/cwd/vprof.out" >/dev/null || fail "cwd profile invalid"
  ls "$W/cwd" | grep -q tmp && fail "temporary file left behind"
  ;;
threads)  # the default source (perf task-clock where allowed, sigtrap where the kernel has it)
  threads_case
  ;;
threads_fasync)  # perf task-clock signalling through fasync
  VPROF_PERF_SIGTRAP=0 threads_case
  ;;
traps)  # sigtrap mode: the target's own SIGTRAPs (raise, int3) reach its handler, once each
  run VPROF_DEBUG=1 "$RT_BIN/t_cpu" traps > "$W/out.txt" 2> "$W/err.txt"; rc=$?
  cat "$W/err.txt" >&2
  [ $rc = 0 ] || fail "target with its own SIGTRAP handler failed: status $rc"
  grep -q "traps ok" "$W/out.txt" || fail "no output"
  dump "$W/p.out"
  # 500 ms of CPU in all, the first SIGTRAP after 40: sampling that stopped
  # there leaves under 100; 200 leaves room for a host that steals the vCPU
  [ "$(field "$W/p.out" "pc " samples)" -ge 200 ] || fail "sampling stopped"
  if grep -q "perf_signal=trap" "$W/err.txt"; then  # 5 raised, 5 int3, 1 ignored: all passed on
    grep -q " foreign_signals=11 " "$W/err.txt" || fail "expected 11 foreign SIGTRAPs"
  fi
  # a breakpoint inside the target's SIGTERM handler (which our hook calls)
  # reaches the target's SIGTRAP handler: SIGTRAP must not be blocked there,
  # or the kernel resets it to SIG_DFL and the trap kills the process
  run VPROF_PERF_SIGTRAP=yes "$RT_BIN/t_cpu" spin 50 2> "$W/err.txt"; [ $? = 3 ] || fail "exit (bad VPROF_PERF_SIGTRAP)"
  grep -q "ignoring VPROF_PERF_SIGTRAP (expected 0 or 1): yes" "$W/err.txt" || fail "bad VPROF_PERF_SIGTRAP not reported"
  run "$RT_BIN/t_cpu" termtrap; rc=$?
  [ $rc = 7 ] || fail "int3 in the target's SIGTERM handler: status $rc, expected 7"
  rm -f "$W/p.out"
  run "$RT_BIN/t_cpu" traps die > "$W/out.txt"; rc=$?
  [ $rc = 133 ] || fail "SIG_DFL SIGTRAP: status $rc, expected 133 (killed by SIGTRAP)"
  dump "$W/p.out"
  [ "$(pflags "$W/p.out")" = 2 ] || fail "not flagged SIGNALLED"
  [ "$(field "$W/p.out" header exit_status)" = 133 ] || fail "exit_status"
  ;;
traced)  # under ptrace perf events signal through fasync: a tracer sees no SIGTRAP
  # Every signal to a tracee is a ptrace stop that waits for the tracer to
  # be scheduled, so the rate here is not the point (pc_only checks it):
  # "sampled" means at least a tenth of the nominal 300, as a CI host that
  # stole the vCPU gave 98 of a possible 374 once.
  run VPROF_DEBUG=1 "$RT_BIN/t_cpu" traced "$RT_BIN/t_cpu" spin 300 > "$W/out.txt" 2> "$W/err.txt"; rc=$?
  cat "$W/out.txt" "$W/err.txt" >&2
  [ $rc = 3 ] || fail "traced target: status $rc"
  grep -q "^trap_stops=0$" "$W/out.txt" || fail "the tracer saw SIGTRAP stops"
  child=$(ls "$W" | sed -n 's/^p\.out\.\([0-9]*\)$/\1/p')
  [ -n "$child" ] || fail "no profile from the traced child"
  dump "$W/p.out.$child"
  [ "$(field "$W/p.out.$child" "pc " samples)" -ge 30 ] || fail "traced child not sampled"
  if sigtrap_kernel && grep -q "timer=perf" "$W/err.txt"; then
    grep "p.out.$child:" "$W/err.txt" | grep -q "perf_signal=fasync" || fail "traced child did not use fasync"
    # the check can fail: forced sigtrap under the tracer stops it on every sample
    rm -f "$W"/p.out*
    run VPROF_PERF_SIGTRAP=1 "$RT_BIN/t_cpu" traced "$RT_BIN/t_cpu" spin 300 > "$W/out.txt"; rc=$?
    [ $rc = 3 ] || fail "forced sigtrap under ptrace: status $rc"
    stops=$(sed -n 's/^trap_stops=//p' "$W/out.txt")
    [ "${stops:-0}" -ge 30 ] || fail "forced sigtrap: only ${stops:-0} SIGTRAP stops"
    child=$(ls "$W" | sed -n 's/^p\.out\.\([0-9]*\)$/\1/p'); dump "$W/p.out.$child"
    [ "$(field "$W/p.out.$child" "pc " samples)" -ge 30 ] || fail "samples lost through the tracer"
  fi
  ;;
valgrind)  # valgrind stops a program at a perf event's SIGTRAP: under it the
  # runtime signals through fasync (docs/runtime.md).  valgrind 3.19 cannot read
  # clang-14's DWARF 5, hence copies without debug info.  (valgrind's launcher
  # for the exec'd target runs natively with our LD_PRELOAD and writes an
  # empty p.out.exec0: the profile checked is p.out.)
  command -v valgrind >/dev/null || fail "valgrind is not installed (scripts/deps.sh)"
  strip --strip-debug -o "$W/rt.so" "$RT_LIB" || fail "strip $RT_LIB"
  strip --strip-debug -o "$W/t_cpu" "$RT_BIN/t_cpu" || fail "strip t_cpu"
  vg() { valgrind -q --tool=none --trace-children=yes env LD_PRELOAD="$W/rt.so" \
           VPROF_OUTPUT="$W/p.out" VPROF_DEBUG=1 "$@" "$W/t_cpu" spin 300 > "$W/out.txt" 2> "$W/err.txt"; }
  vg; rc=$?
  cat "$W/out.txt" "$W/err.txt" >&2
  [ $rc = 3 ] || fail "under valgrind: status $rc (spin exits 3)"
  dump "$W/p.out"
  [ "$(field "$W/p.out" "pc " samples)" -ge 100 ] || fail "not sampled under valgrind"
  if sigtrap_kernel && grep -q "timer=perf" "$W/err.txt"; then
    grep -q "perf_signal=fasync" "$W/err.txt" || fail "perf events signalled with SIGTRAP under valgrind"
    # the check can fail: forced sigtrap stops the program under valgrind
    rm -f "$W"/p.out*
    vg VPROF_PERF_SIGTRAP=1; rc=$?
    [ $rc != 3 ] || fail "forced sigtrap under valgrind: the target ran to its end"
  fi
  ;;
threads_timer)  # timer_create: expires on the tick only; on a loaded 2-core VM a short
  # thread loses up to ~30% (the unexpired rest at exit, overruns the kernel
  # folds while the signal is pending), hence the wider bound.  On the Intel
  # VM of 2026-11-26 (kernel 6.18) one CI run in three gave the 300 ms worker
  # 112 weighted samples of 260 while the total was right (1,299 of 1,300):
  # the host, not us (0 in 25 runs since), so up to two more runs, as
  # rate_retry does; a runtime that misweighs does so in every run
  threads_case thread 0.35 3
  [ "$(field "$W/p.out" header clock)" = 1 ] || fail "clock"
  ;;
fds)  # perf fds stay out of the target's way and never leak
  run VPROF_DEBUG=1 "$RT_BIN/t_cpu" fds > "$W/out.txt" 2> "$W/err.txt" || fail "exit"
  cat "$W/out.txt" "$W/err.txt" >&2
  dump "$W/p.out"
  if grep -q "timer=perf" "$W/err.txt"; then
    [ "$(field "$W/p.out" header clock)" = 3 ] || fail "perf mode not recorded as clock 3"
    lim=$(ulimit -n); floor=1024; [ "$lim" != unlimited ] && [ $((lim / 2)) -lt 1024 ] && floor=$((lim / 2))
    grep -q "^main perf_fds=1 min=$floor cloexec=1" "$W/out.txt" || fail "main thread's perf fd: not one, not at $floor or not O_CLOEXEC"
    # the runtime takes no low fd: the target's open() gets the number it
    # gets without the runtime
    plain=$("$RT_BIN/t_cpu" fds | sed -n 's/^open //p')
    grep -q "^open $plain$" "$W/out.txt" || fail "the runtime took a low fd: the target's open() no longer gets $plain"
    grep -q "^thread perf_fds=2 .*cloexec=1" "$W/out.txt" || fail "a thread's perf fd"
    grep -q "^joined perf_fds=1 " "$W/out.txt" || fail "an exited thread's perf fd was not closed"
    grep -q "^child perf_fds=1 " "$W/out.txt" || fail "a fork child kept its parent's perf fds"
  else
    echo "perf_event not available here: only the fallback was checked" >&2
    grep -q "^main perf_fds=0 " "$W/out.txt" || fail "perf fd left open after the fallback"
  fi
  ;;
fork)
  run "$RT_BIN/t_cpu" fork > "$W/out.txt" || fail "exit"
  child=$(awk '/^child/ {print $2}' "$W/out.txt")
  dump "$W/p.out"; dump "$W/p.out.$child"
  parent=$(field "$W/p.out" header pid)
  [ "$(field "$W/p.out.$child" header ppid)" = "$parent" ] || fail "child ppid"
  [ "$(field "$W/p.out.$child" header pid)" = "$child" ] || fail "child pid"
  [ "$(pflags "$W/p.out.$child")" = 1 ] || fail "child not flagged FORKED"
  [ "$(pflags "$W/p.out")" = 0 ] || fail "parent flags"
  cs=$(field "$W/p.out.$child" "pc " samples); ps=$(field "$W/p.out" "pc " samples)
  [ "$cs" -ge 30 ] && [ "$ps" -ge 30 ] || fail "samples parent=$ps child=$cs"
  # child's buffers were reset: its ~300 ms must not include the parent's first 200 ms
  [ "$cs" -le $((ps * 2)) ] || fail "child kept parent samples?"
  grep -q "^tid $parent " "$W/p.out.$child.txt" && fail "parent tid in child profile"
  ;;
forkheld|forkheld_exec|forkheld_dlopen)
  # A second thread holds glibc's loader lock (dl_iterate_phdr, which fork
  # does not reset in the child) at the fork: the child must not wait for it
  # when it writes its profile (before 2026-11-22 it hung in 5 of 5 runs).
  arg=${case_name#forkheld}; arg=${arg#_}
  # t_cpu gives the child 10 s.  If the parent itself is still running after
  # 12 s, the backtraces of every thread of it and of its child say where
  # before it is killed.  (Once on CI, 2026-11-24: the parent's exit waited
  # for the loader lock the holder keeps taking back; now it reads the
  # module list without that lock, docs/runtime.md "Modules at exit".)
  "${ENV[@]}" VPROF_DEBUG=1 "$RT_BIN/t_cpu" forkheld $arg > "$W/out.txt" 2> "$W/err.txt" & pid=$!
  for _ in $(seq 120); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
  if kill -0 "$pid" 2>/dev/null; then
    # the child from /proc (no procps on a bare machine)
    procs=("$pid" $(cat /proc/"$pid"/task/*/children 2>/dev/null))
    for p in "${procs[@]}"; do
      echo "--- threads of $p: $(tr '\0' ' ' < "/proc/$p/cmdline" 2>/dev/null)" >&2
      timeout 15 gdb -batch -nx -p "$p" -ex "thread apply all bt" 2>&1 | grep -E '^(Thread|#)' >&2
    done
    kill -9 "${procs[@]}" 2>/dev/null
    fail "t_cpu forkheld $arg still running after 12 s (backtraces above)"
  fi
  wait "$pid" || fail "the fork child hung or failed"
  cat "$W/err.txt" >&2
  # the parent's exit write: libz loaded since start-up is read without the
  # lock; otherwise the table is kept as it is
  want=1/0/0/0; [ "$arg" = dlopen ] && want=0/1/0/0
  grep -q " $W/p.out: .* modules_at_end=$want " "$W/err.txt" ||
    fail "parent's module table at exit: want modules_at_end=$want"
  child=$(awk '/^child/ {print $2}' "$W/out.txt")
  f="$W/p.out.$child"; [ "$arg" = exec ] && f="$f.exec0"
  dump "$W/p.out"; dump "$f"
  [ "$(field "$f" header ppid)" = "$(field "$W/p.out" header pid)" ] || fail "child ppid"
  [ "$(field "$f" "pc " samples)" -ge 30 ] || fail "child samples"
  flags=$(field "$f" header flags)
  if [ "$arg" = dlopen ]; then
    # libz was loaded after the runtime's scan: the child keeps the old table and says so
    [ $((flags & 8)) = 8 ] || fail "child of a parent that loaded a module: not flagged modules-stale"
    "$VPROF" report "$f" > "$W/report.txt" || fail "vprof report"
    grep -q "^modules: a fork child's table" "$W/report.txt" || fail "vprof report does not say the module table is old"
  else
    [ $((flags & 8)) = 0 ] || fail "flagged modules-stale, flags=$flags"
  fi
  ;;
forkdlopen)
  # No lock held at the fork; the child loads libz itself, so the loader lock
  # works in it and its module table is rescanned at exit.
  run "$RT_BIN/t_cpu" forkdlopen > "$W/out.txt" || fail "exit"
  child=$(awk '/^child/ {print $2}' "$W/out.txt")
  "$VPROF" dump "$W/p.out.$child" > "$W/child.txt" || fail "child profile"
  "$VPROF" dump "$W/p.out" > "$W/parent.txt" || fail "parent profile"
  grep -q "^module .*libz.so.1" "$W/child.txt" || fail "child's module table lacks libz.so.1, loaded in the child"
  grep -q "^module .*libz.so.1" "$W/parent.txt" && fail "parent's module table has libz.so.1"
  dump "$W/p.out.$child"
  [ $(( $(field "$W/p.out.$child" header flags) & 8 )) = 0 ] || fail "child flagged modules-stale"
  ;;
modules_unlocked)
  # A module loaded after start-up: at exit the runtime reads the loader's
  # list without its lock (a thread looping in dl_iterate_phdr could starve
  # the lock's waiter for seconds: rt.forkheld_dlopen, 2026-11-24).  The
  # table must be the one the locked scan (dl_iterate_phdr) gives.
  for u in 1 0; do
    run VPROF_UNLOCKED_MODULES=$u VPROF_DEBUG=1 "$RT_BIN/t_cpu" dlopen 2> "$W/err$u.txt" || fail "exit"
    "$RT_BIN/rt_dump" "$W/p.out" > "$W/p$u.txt" || fail "invalid profile"
    grep '^module ' "$W/p$u.txt" > "$W/mods$u.txt"
  done
  cat "$W/p1.txt" >&2
  grep -q "modules_at_end=0/1/0/0 " "$W/err1.txt" || fail "not read without the lock: $(cat "$W/err1.txt")"
  grep -q "modules_at_end=0/0/1/0 " "$W/err0.txt" || fail "VPROF_UNLOCKED_MODULES=0: not scanned with the lock"
  grep -q " path=/.*/libz.so.1$" "$W/mods1.txt" || fail "libz.so.1 missing from the table read without the lock"
  grep -q "^module 0 .* path=$RT_BIN/t_cpu$" "$W/mods1.txt" || fail "module 0 is not the executable"
  grep -q " build_id=[0-9a-f]\{40\} path=/.*/libc.so.6$" "$W/mods1.txt" || fail "libc's build id missing"
  diff "$W/mods0.txt" "$W/mods1.txt" >&2 || fail "the two scans disagree"
  # killed by SIGTERM: the handler's write reads the list without the lock
  # too (before, it kept the start-up table: libz's PCs had no module)
  "${ENV[@]}" VPROF_DEBUG=1 "$RT_BIN/t_cpu" dlopen 5000 2> "$W/errs.txt" & pid=$!
  sleep 0.4; kill -TERM $pid; wait $pid; rc=$?
  [ $rc = 143 ] || fail "exit status $rc, expected 143 (killed by SIGTERM)"
  "$RT_BIN/rt_dump" "$W/p.out" > "$W/ps.txt" || fail "invalid profile"
  grep -q "modules_at_end=0/1/0/0 " "$W/errs.txt" || fail "SIGTERM: not read without the lock: $(cat "$W/errs.txt")"
  grep '^module ' "$W/ps.txt" | diff "$W/mods0.txt" - >&2 || fail "SIGTERM: the table is not the locked scan's"
  # An index that names the program by a path other than its resolved one
  # (a symlink): at exit realpath matches the two; in a SIGTERM handler
  # realpath may not run (it may malloc), and the module keeps the mark the
  # start-up table gave it.  mkindex's variables all point at main.
  ln -s "$RT_BIN/t_cpu" "$W/t_cpu_link"
  a=$((16#$(nm "$RT_BIN/t_cpu" | awk '$3 == "main" {print $1}')))
  vars=()
  for v in g_counter g_int_ptr g_bad_ptr g_neg g_dead_stack_ptr; do vars+=("$v=$(printf %x $a)"); done
  "$RT_BIN/mkindex" "$W/link.index" "$W/t_cpu_link" "${vars[@]}" vp_loop_rbx_body=$(printf %x $a) \
    vp_loop_rbx_end=$(printf %x $((a + 16))) vp_caller_call=$(printf %x $((a + 32))) \
    vp_caller_ret=$(printf %x $((a + 48))) || fail "mkindex"
  run VPROF_INDEX="$W/link.index" "$W/t_cpu_link" dlopen || fail "exit (index by a symlink)"
  dump "$W/p.out"
  [ "$(field "$W/p.out" modules indexed)" = 1 ] || fail "exit: the program is not marked indexed"
  "${ENV[@]}" VPROF_INDEX="$W/link.index" VPROF_DEBUG=1 "$W/t_cpu_link" dlopen 5000 2> "$W/errs.txt" & pid=$!
  sleep 0.4; kill -TERM $pid; wait $pid; rc=$?
  [ $rc = 143 ] || fail "exit status $rc, expected 143 (killed by SIGTERM, index by a symlink)"
  grep -q "modules_at_end=0/1/0/0 " "$W/errs.txt" || fail "SIGTERM (index by a symlink): not read without the lock"
  dump "$W/p.out"
  [ "$(field "$W/p.out" modules indexed)" = 1 ] || fail "SIGTERM: the program lost its indexed mark"
  # nothing loaded since start-up: no scan at all
  run VPROF_DEBUG=1 "$RT_BIN/t_cpu" spin 50 2> "$W/err.txt"
  grep -q "modules_at_end=1/0/0/0 " "$W/err.txt" || fail "rescanned an unchanged list: $(cat "$W/err.txt")"
  ;;
values|values_fallback)
  make_index "$W/t.index"
  extra=(); [ $case_name = values_fallback ] && extra=(VPROF_TIMER=process VPROF_SAFE_READ=pipe)
  run VPROF_INDEX="$W/t.index" VPROF_DEBUG=1 "${extra[@]}" "$RT_BIN/t_values" 2> "$W/err.txt" > /dev/null || fail "exit"
  cat "$W/err.txt" >&2
  dump "$W/p.out"
  [ "$(field "$W/p.out" modules indexed)" = 1 ] || fail "module not indexed"
  check_values "$W/p.out"
  grep -q "dl_iterate_phdr_in_handler=0 " "$W/err.txt" || fail "dl_iterate_phdr called in the handler"
  # globals and the caller frame's stack slot are read with plain loads; the
  # pointees in unmapped memory (and the bad absolute address) are not
  d=$(sed -n 's/.* reads_direct=\([0-9]*\).*/\1/p' "$W/err.txt" | tail -1)
  s=$(sed -n 's/.* reads_syscall=\([0-9]*\).*/\1/p' "$W/err.txt" | tail -1)
  [ "${d:-0}" -gt 0 ] && [ "${s:-0}" -gt 0 ] || fail "reads_direct=${d:-?} reads_syscall=${s:-?}"
  [ "$d" -gt "$s" ] || fail "fewer direct reads ($d) than syscalls ($s)"
  # VPROF_DIRECT_READS=0: everything through the syscall, same values
  run VPROF_INDEX="$W/t.index" VPROF_DEBUG=1 VPROF_DIRECT_READS=0 "${extra[@]}" "$RT_BIN/t_values" 2> "$W/err.txt" > /dev/null || fail "exit (no direct reads)"
  dump "$W/p.out"
  check_values "$W/p.out"
  grep -q " reads_direct=0 " "$W/err.txt" || fail "VPROF_DIRECT_READS=0 still read directly"
  if [ $case_name = values_fallback ]; then
    [ "$(field "$W/p.out" header clock)" = 2 ] || fail "fallback clock"
    grep -q "timer=process read=pipe" "$W/err.txt" || fail "fallback modes not used"
  fi
  ;;
overflow)
  make_index "$W/t.index"
  run VPROF_INDEX="$W/t.index" VPROF_MAX_SAMPLES=10 VPROF_MAX_VALUES=7 "$RT_BIN/t_values" > /dev/null || fail "exit"
  dump "$W/p.out"
  [ "$(field "$W/p.out" "pc " samples)" = 10 ] || fail "buffer bound"
  [ "$(field "$W/p.out" loss pc_dropped)" -gt 0 ] || fail "pc drops not counted"
  [ "$(field "$W/p.out" loss values_dropped)" -gt 0 ] || fail "value drops not counted"
  [ "$(field "$W/p.out" loss value_samples)" = 7 ] || fail "value bound"
  # a corrupt index: one message, PC-only profile, no crash
  printf 'VPDXgarbage' > "$W/bad.index"
  run VPROF_INDEX="$W/bad.index" "$RT_BIN/t_cpu" spin 100 2> "$W/err.txt"; [ $? = 3 ] || fail "exit"
  grep -q "invalid index file" "$W/err.txt" || fail "no diagnostic for a bad index"
  dump "$W/p.out"
  ;;
sigterm)
  "${ENV[@]}" "$RT_BIN/t_cpu" forever & pid=$!
  sleep 0.4; kill -TERM $pid; wait $pid; rc=$?
  [ $rc = 143 ] || fail "exit status $rc, expected 143 (killed by SIGTERM)"
  dump "$W/p.out"
  [ "$(pflags "$W/p.out")" = 2 ] || fail "not flagged SIGNALLED"
  [ "$(field "$W/p.out" header exit_status)" = 143 ] || fail "exit_status"
  [ "$(field "$W/p.out" "pc " samples)" -ge 1 ] || fail "samples"  # CPU share of a loaded host varies
  rm -f "$W/p.out"
  "${ENV[@]}" "$RT_BIN/t_cpu" termhandler & pid=$!
  sleep 0.3; kill -TERM $pid; wait $pid; rc=$?
  [ $rc = 7 ] || fail "target's SIGTERM handler not honoured (status $rc)"
  dump "$W/p.out"
  [ "$(field "$W/p.out" header exit_status)" = 7 ] || fail "exit_status 7"
  set -m  # job control: otherwise bash starts background jobs with SIGINT ignored
  "${ENV[@]}" "$RT_BIN/t_cpu" forever & pid=$!
  sleep 0.3; kill -INT $pid; wait $pid; rc=$?
  [ $rc = 130 ] || fail "SIGINT status $rc"
  dump "$W/p.out"
  ;;
handlers)
  run "$RT_BIN/t_cpu" handlers > "$W/out.txt"; rc=$?
  [ $rc = 0 ] || fail "target with its own SIGPROF/SIGSEGV handlers failed: status $rc"
  grep -q "handlers ok" "$W/out.txt" || fail "no output"
  dump "$W/p.out"
  [ "$(field "$W/p.out" "pc " samples)" -ge 40 ] || fail "sampling stopped"
  ;;
exec)
  run "$RT_BIN/t_cpu" exec "$RT_BIN/t_cpu"; rc=$?
  [ $rc = 3 ] || fail "exit status $rc"
  dump "$W/p.out.exec0"; dump "$W/p.out"
  [ "$(pflags "$W/p.out")" = 4 ] || fail "new image not flagged EXECED"
  [ "$(field "$W/p.out.exec0" header pid)" = "$(field "$W/p.out" header pid)" ] || fail "pid"
  [ "$(field "$W/p.out.exec0" "pc " samples)" -ge 20 ] || fail "pre-exec samples lost"
  [ "$(field "$W/p.out" "pc " samples)" -ge 20 ] || fail "post-exec samples"
  ;;
fatal)
  # the other signals that end a process by default: written, then killed
  # by the same signal (the status is kept); before 2026-11-22 abort() and
  # SIGPIPE lost the profile
  run "$RT_BIN/t_cpu" abort; rc=$?
  [ $rc = 134 ] || fail "abort: status $rc, expected 134"
  dump "$W/p.out"
  [ "$(pflags "$W/p.out")" = 2 ] || fail "abort: not flagged SIGNALLED"
  [ "$(field "$W/p.out" header exit_status)" = 134 ] || fail "abort: exit_status"
  [ "$(field "$W/p.out" "pc " samples)" -ge 1 ] || fail "abort: samples"
  rm -f "$W/p.out"
  run "$RT_BIN/t_cpu" pipe; rc=$?
  [ $rc = 141 ] || fail "SIGPIPE: status $rc, expected 141"
  dump "$W/p.out"
  [ "$(field "$W/p.out" header exit_status)" = 141 ] || fail "SIGPIPE: exit_status"
  rm -f "$W/p.out"
  # the target's own handler is called instead
  run "$RT_BIN/t_cpu" abort handler; rc=$?
  [ $rc = 7 ] || fail "target's SIGABRT handler not honoured (status $rc)"
  dump "$W/p.out"
  [ "$(field "$W/p.out" header exit_status)" = 7 ] || fail "handler: exit_status 7"
  rm -f "$W/p.out"
  # a signal the target ignores stays ignored across exec (before, the new
  # image got SIG_DFL: our handler was in place, and exec resets handlers)
  run "$RT_BIN/t_cpu" ignexec "$RT_BIN/t_cpu" > "$W/out.txt"; rc=$?
  [ $rc = 0 ] && grep -q survived "$W/out.txt" || fail "SIGINT ignored before exec killed the new image (status $rc)"
  dump "$W/p.out"
  # ... and in children from posix_spawn and system(), which reset handled
  # signals to SIG_DFL (before 2026-11-22 the spawned child died by SIGINT)
  run "$RT_BIN/t_cpu" ignspawn "$RT_BIN/t_cpu" > "$W/out.txt"; rc=$?
  [ $rc = 0 ] || fail "SIGINT ignored by the target killed its posix_spawn/system child (status $rc)"
  rm -f "$W/p.out"
  # ignored, then back to SIG_DFL: written and killed by it, as before
  run "$RT_BIN/t_cpu" ignrestore > "$W/out.txt"; rc=$?
  [ $rc = 143 ] && grep -q ignored "$W/out.txt" || fail "ignrestore: status $rc, expected 143 after an ignored SIGTERM"
  dump "$W/p.out"
  [ "$(field "$W/p.out" header exit_status)" = 143 ] || fail "ignrestore: exit_status"
  [ "$(field "$W/p.out" "pc " samples)" -ge 20 ] || fail "ignrestore: samples"
  ;;
flush)
  "${ENV[@]}" VPROF_FLUSH_SIGNAL=40 "$RT_BIN/t_cpu" spin 1500 & pid=$!
  sleep 0.5; kill -40 $pid; sleep 0.2
  [ -f "$W/p.out" ] || fail "no file after the flush signal"
  dump "$W/p.out"; first=$(field "$W/p.out" "pc " samples)
  wait $pid; [ $? = 3 ] || fail "exit status"
  dump "$W/p.out"; last=$(field "$W/p.out" "pc " samples)
  [ "$first" -ge 1 ] && [ "$last" -gt "$first" ] || fail "flush=$first final=$last"
  ;;
*) fail "unknown case" ;;
esac
echo "PASS($case_name)"
