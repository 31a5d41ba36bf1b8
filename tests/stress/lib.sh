# tests/stress/lib.sh - the stress harness (docs/hardening.md).
#
# A stress case builds one target program with vprof-cc and runs it three
# ways: plain, under `vprof record`, and under `vprof-loop --function HOT`
# (loop probes on).  The outcome under the profiler must be the plain one:
# the same standard output, the same exit status (code or signal), and no
# hang (every run has a timeout; a timeout is a failure, never a retry).
#
# Usage in a case file (tests/stress/<name>.sh, run as
# `bash <name>.sh BUILD SRC`):
#   source "$(dirname "$0")/lib.sh" "$@"
#   stress_cc prog progs/prog.c [flags...]
#   stress_compare HOT ./prog args...      # plain vs record vs vprof-loop
#   ... extra checks on $work/rec.vprof, then stress_pass
#
# The target's standard output is compared; its standard error is free
# (vprof-loop sends the target's stdout to its own stderr, so the target
# programs write their results to stdout only and the harness filters
# vprof's own lines ("vprof: ...", "vprof-loop: ...") out of stderr there).
set -uo pipefail
build=$(cd "$1" && pwd) src=$(cd "$2" && pwd)
STRESS_NAME=$(basename "$0" .sh)
STRESS_TIMEOUT=${STRESS_TIMEOUT:-60}
work=$(mktemp -d "${TMPDIR:-/tmp}/vprof-stress.XXXXXX")
trap 'rm -rf "$work"' EXIT
cd "$work"
VPROF="$build/bin/vprof"
VPROF_LOOP="$build/bin/vprof-loop"
# Tests that want the runtime's write under a particular condition set this.
export VPROF_FREQ=${VPROF_FREQ:-997}
# Sanitizer builds: the target is not instrumented, but the commands are.
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=0}

stress_fail() { echo "FAIL[$STRESS_NAME]: $*" >&2; exit 1; }
stress_pass() { echo "PASS[$STRESS_NAME]${1:+: $1}"; exit 0; }

# stress_cc OUT SRC [FLAGS...]: build SRC (relative to tests/stress/) with
# vprof-cc (vprof-c++ for .cc/.cpp).
stress_cc() {
    local out=$1 s=$2; shift 2
    local cc="$build/bin/vprof-cc"
    case $s in *.cc|*.cpp) cc="$build/bin/vprof-c++" ;; esac
    "$cc" -O1 "$@" "$src/tests/stress/$s" -o "$work/$out" -lpthread -ldl \
        || stress_fail "cannot build $s"
}

# run_timed OUTFILE ERRFILE CMD...: runs CMD with the timeout and prints
# its outcome as a word: "exit N", "signal N" (timeout(1) reports a command
# killed by signal N as 128+N) or "hang" (still running at the timeout: the
# elapsed time decides, since timeout's own status 124/137 is ambiguous).
run_timed() {
    local o=$1 e=$2; shift 2
    local t0=$SECONDS rc
    timeout -k 5 "$STRESS_TIMEOUT" "$@" >"$o" 2>"$e" </dev/null
    rc=$?
    if [ $((SECONDS - t0)) -ge "$STRESS_TIMEOUT" ]; then echo hang
    elif [ "$rc" -gt 128 ]; then echo "signal $((rc - 128))"
    else echo "exit $rc"; fi
}

# Runs the three ways; sets PLAIN_STATUS, REC_STATUS, LOOP_STATUS and leaves
# plain.out, rec.out/rec.err/rec.vprof, loop.out/loop.err/loop.json in $work.
# Fails on any difference.  STRESS_RUNS may restrict the modes ("plain rec").
stress_compare() {
    local hot=$1; shift
    local runs=${STRESS_RUNS:-"plain rec loop"}
    mkdir -p "$work/plain" "$work/rec" "$work/loop"
    # Each mode runs in its own directory: targets that write files (daemon
    # markers, child profiles) do not see each other's.
    local abs=("$@")
    [ -x "$work/${1#./}" ] && abs[0]="$work/${1#./}"
    PLAIN_STATUS=$(cd "$work/plain" && run_timed "$work/plain.out" "$work/plain.err" "${abs[@]}")
    [ "$PLAIN_STATUS" = hang ] && stress_fail "the plain run hangs: the case is broken"
    [ -n "${STRESS_EXPECT_STATUS:-}" ] && [ "$PLAIN_STATUS" != "$STRESS_EXPECT_STATUS" ] &&
        stress_fail "the plain run ended with '$PLAIN_STATUS', the case expects '$STRESS_EXPECT_STATUS'"
    [ -s "$work/plain.out" ] || stress_fail "the plain run printed nothing: the case is broken"
    case " $runs " in *" rec "*)
        REC_STATUS=$(cd "$work/rec" && run_timed "$work/rec.out" "$work/rec.err" \
            "$VPROF" record -o "$work/rec/rec.vprof" -- "${abs[@]}")
        [ "$REC_STATUS" = hang ] && { cat "$work/rec.err" >&2; stress_fail "vprof record: hang (no exit within ${STRESS_TIMEOUT}s)"; }
        [ "$REC_STATUS" = "$PLAIN_STATUS" ] || { cat "$work/rec.err" >&2; stress_fail "vprof record: status '$REC_STATUS', plain '$PLAIN_STATUS'"; }
        diff -u "$work/plain.out" "$work/rec.out" >&2 || stress_fail "vprof record: the target's output changed"
        echo "outcome[$STRESS_NAME] record: $REC_STATUS (= plain), same output, no hang"
        ;;
    esac
    case " $runs " in *" loop "*)
        local lst
        lst=$(cd "$work/loop" && run_timed "$work/loop.stdout" "$work/loop.err" \
            "$VPROF_LOOP" --function "$hot" --format json -o "$work/loop.json" -- "${abs[@]}")
        [ "$lst" = hang ] && { cat "$work/loop.err" >&2; stress_fail "vprof-loop: hang (no exit within ${STRESS_TIMEOUT}s)"; }
        case $lst in "exit 0"|"exit 1") ;; *) cat "$work/loop.err" >&2; stress_fail "vprof-loop itself ended with '$lst'";; esac
        # The workload's status, as vprof-loop saw it.
        local sig code
        sig=$(sed -n 's/^vprof-loop: the slow workload was killed by signal \([0-9]*\).*/\1/p' "$work/loop.err" | head -1)
        code=$(sed -n 's/^vprof-loop: the slow workload exited with status \([0-9]*\).*/\1/p' "$work/loop.err" | head -1)
        if [ -n "$sig" ]; then LOOP_STATUS="signal $sig"
        elif [ -n "$code" ]; then LOOP_STATUS="exit $code"
        elif [ -s "$work/loop.json" ]; then
            LOOP_STATUS="exit $(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["workload_status"])' "$work/loop.json")"
        else
            cat "$work/loop.err" >&2; stress_fail "vprof-loop: no report and no workload status"
        fi
        [ "$LOOP_STATUS" = "$PLAIN_STATUS" ] || { cat "$work/loop.err" >&2; stress_fail "vprof-loop: workload status '$LOOP_STATUS', plain '$PLAIN_STATUS'"; }
        grep -v -E '^vprof(-loop)?: ' "$work/loop.err" >"$work/loop.out"
        diff -u "$work/plain.out" "$work/loop.out" >&2 || stress_fail "vprof-loop: the target's output changed"
        echo "outcome[$STRESS_NAME] vprof-loop --function $hot: $LOOP_STATUS (= plain), same output, no hang"
        ;;
    esac
    return 0
}

# stress_profile_ok FILE: the file is a valid profile (`vprof dump` reads
# every record of it); its flat report is left in $work/report.txt.
stress_profile_ok() {
    "$VPROF" dump "$1" >"$work/dump.txt" 2>"$work/dump.err" ||
        { cat "$work/dump.err" >&2; stress_fail "$1 is not a valid profile"; }
    "$VPROF" report "$1" >"$work/report.txt" 2>"$work/report.err" || true
}

# stress_profile_samples FILE: prints the PC-sample count of FILE.
stress_profile_samples() {
    "$VPROF" report --format json "$1" | python3 -c '
import json, sys
d = json.load(sys.stdin)
print(sum(f.get("self_samples", 0) for f in d["functions"]))'
}

# stress_no_temp DIR: no half-written profile left behind.
stress_no_temp() {
    local left
    left=$(find "$1" -name '*.tmp.*' | head -5)
    [ -z "$left" ] || stress_fail "temporary files left behind: $left"
}

# stress_loop_ran FN: vprof-loop produced a report whose loops include FN.
stress_loop_ran() {
    python3 - "$work/loop.json" "$1" <<'PY' || stress_fail "vprof-loop found no loop of $1 (probes did not run?)"
import json, sys
d = json.load(open(sys.argv[1]))
sys.exit(0 if any(l["function"] == sys.argv[2] for l in d.get("loops", [])) else 1)
PY
}
