#!/usr/bin/env bash
# browser_test.sh BIN_DIR RECOVERY_C OUT_DIR
#
# A real `vprof rank --format html` page: build examples/recovery with
# vprof-cc, record a normal and a slow run, rank them to OUT_DIR/rank.html
# (and, when vprof-loop is built, diagnose the loops to OUT_DIR/loop.html).
# Then check the page is self-contained (no network reference), render it in
# headless Chromium with and without JavaScript, check the rendered DOM,
# and keep screenshots (OUT_DIR/rank.png, loop.png) for people to look at.
# Without chromium: exit 77 (skip) locally, failure in CI (CI=true).
set -euo pipefail
bin=$1 src=$2 out=$3
fail() { echo "FAIL: $*" >&2; exit 1; }
mkdir -p "$out"
cd "$out"
rm -f rank.html rank-nojs.html rank.png loop.html loop.png dom.html dom-nojs.html dom-loop.html \
    chromium.log

"$bin/vprof-cc" -O2 -g "$src" -o recovery
"$bin/vprof" record -o normal.vprof -- ./recovery 1500000 1024 >/dev/null
"$bin/vprof" record -o slow.vprof -- ./recovery 1500000 1024 large >/dev/null
"$bin/vprof" rank --normal normal.vprof --buggy slow.vprof --format html --top 8 -o rank.html
[ -s rank.html ] || fail "no rank.html"
# vprof-loop's page too, when fixsuggest/ is built (run through `vprof loop`).
pages=rank.html
if [ -x "$bin/vprof-loop" ]; then
    "$bin/vprof" loop --top 3 --normal normal.vprof --buggy slow.vprof --format html \
        -o loop.html -- ./recovery 1500000 1024 large 2>/dev/null
    pages="rank.html loop.html"
fi

# Self-contained: no http(s) or protocol-relative src/href/url()/@import.
for page in $pages; do
    if grep -Eiq '(src|href|action|poster|srcset|data)[[:space:]]*=[[:space:]]*["'\'']?[[:space:]]*(https?:)?//' "$page"; then
        fail "$page references the network: $(grep -Eio '(src|href)=[^ >]*//[^ >]*' "$page" | head -3)"
    fi
    grep -Eiq 'url\([[:space:]]*["'\'']?(https?:)?//|@import|<link |<iframe' "$page" &&
        fail "$page loads external resources"
    grep -q '<svg' "$page" || fail "no chart in $page"
done

browser=""
for b in chromium chromium-browser google-chrome; do
    if command -v "$b" >/dev/null 2>&1; then browser=$(command -v "$b"); break; fi
done
if [ -z "$browser" ]; then
    if [ "${CI:-}" = "true" ]; then
        fail "chromium is not installed (scripts/deps.sh installs it); CI must render the page"
    fi
    echo "SKIP: no chromium found: install it (apt-get install chromium) to render rank.html"
    exit 77
fi

profile=$(mktemp -d)
trap 'rm -rf "$profile"' EXIT
render() { # render PAGE OUTPUT_OPTION [extra flags...]
    local page=$1; shift
    timeout 90 "$browser" --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
        --disable-background-networking --disable-component-update --disable-sync \
        --disable-dev-shm-usage --host-resolver-rules='MAP * ~NOTFOUND' \
        --user-data-dir="$profile" "$@" "file://$out/$page" 2>>chromium.log
}
# Without JavaScript: the same page with its one script removed (headless
# --dump-dom itself needs scripting, so it cannot simply be switched off).
sed 's|<script>.*</script>||' rank.html > rank-nojs.html
grep -q '<script' rank-nojs.html && fail "could not strip the script"
render rank.html --dump-dom > dom.html
render rank-nojs.html --dump-dom > dom-nojs.html
render rank.html --screenshot="$out/rank.png" --window-size=1200,2000 >/dev/null

count() { grep -o "$1" "$2" | wc -l; }
for f in dom.html dom-nojs.html; do
    [ -s "$f" ] || fail "$f: chromium rendered nothing (see chromium.log)"
    grep -q 'id="f1"' "$f" || fail "$f: no section of the first function"
    grep -q 'recv_group_scan_log_recs' "$f" || fail "$f: the root cause is not on the page"
    [ "$(count '<svg' "$f")" -ge 4 ] || fail "$f: fewer than 4 charts"
    grep -q 'class="hist decided"' "$f" || fail "$f: no deciding dimension highlighted"
    [ "$(count '<details' "$f")" -eq "$(count '</details>' "$f")" ] || fail "$f: unbalanced"
done
# The script ran (buttons shown) only where JavaScript was on.
grep -q 'id="vp-tools" style="display: block;"' dom.html || fail "the page script did not run"
grep -q 'id="vp-tools" style=' dom-nojs.html && fail "script ran with JavaScript off"
# The first sections are open without JavaScript.
grep -q '<details class="sec" id="f1" open' dom-nojs.html || fail "f1 not open without JS"

if [ -f loop.html ]; then
    render loop.html --dump-dom > dom-loop.html
    render loop.html --screenshot="$out/loop.png" --window-size=1200,2000 >/dev/null
    grep -q 'id="loop1"' dom-loop.html || fail "loop.html: no section of the first loop"
    grep -q '<pre class="src">' dom-loop.html || fail "loop.html: no quoted loop source"
    grep -Eq 'class="badge (bad|warn|ok)">' dom-loop.html || fail "loop.html: no verdict"
    [ "$(count '<details' dom-loop.html)" -eq "$(count '</details>' dom-loop.html)" ] ||
        fail "loop.html: unbalanced"
    [ "$(stat -c %s loop.png)" -gt 20000 ] || fail "loop.png is nearly empty"
fi

[ -s rank.png ] || fail "no screenshot"
size=$(stat -c %s rank.png)
[ "$size" -gt 20000 ] || fail "screenshot is nearly empty ($size bytes)"
echo "ok: rendered; screenshot $out/rank.png ($size bytes)"
