#!/bin/sh
# End-to-end: start the real `rankscope` binary under a virtual X server on a bundle (the
# sample bundle when it is there, else a fixture), wait for the verdict, save a screenshot
# of the main window. Exit 77 (CTest: skipped) when xvfb-run is not installed.
# usage: e2e_screenshot.sh RANKSCOPE FIXTURE_BUNDLE SAMPLES_DIR OUT_PNG
set -u
binary=$1
fixture=$2
samples=$3
out=$4

if ! command -v xvfb-run >/dev/null 2>&1; then
    echo "SKIPPED: xvfb-run is not installed (apt-get install xvfb) - end-to-end screenshot not taken"
    exit 77
fi
bundle=$samples/hung-allreduce
if [ ! -d "$bundle" ]; then
    echo "note: sample bundle $bundle not found, using the fixture $fixture"
    bundle=$fixture
fi
home=$(mktemp -d)
trap 'rm -rf "$home"' EXIT
mkdir -p "$(dirname "$out")"
rm -f "$out"
# A private HOME keeps the test away from the user's settings and recent list.
HOME=$home XDG_CONFIG_HOME=$home/.config XDG_RUNTIME_DIR=$home \
    xvfb-run -a -s "-screen 0 1600x1000x24" \
    "$binary" --screenshot "$out" --quit-after-load --load-timeout 240 "$bundle" >"$home/stdout" 2>"$home/stderr"
rc=$?
cat "$home/stdout"
if [ $rc -ne 0 ]; then
    echo "FAILED: rankscope exited with $rc"
    cat "$home/stderr"
    exit 1
fi
if ! grep -q '^verdict: .' "$home/stdout"; then
    echo "FAILED: no verdict printed"
    exit 1
fi
if ! grep -q '^shown after: [0-9][0-9]* ms$' "$home/stdout"; then
    echo "FAILED: no open-to-verdict time printed"
    exit 1
fi
if ! grep -q '^longest event-loop stall: [0-9][0-9]* ms$' "$home/stdout"; then
    echo "FAILED: no event-loop stall printed"
    exit 1
fi
size=$(wc -c <"$out" 2>/dev/null || echo 0)
if [ "$size" -lt 20000 ]; then
    echo "FAILED: screenshot $out missing or nearly empty ($size bytes)"
    exit 1
fi
echo "screenshot: $out ($size bytes)"
