#!/usr/bin/env bash
# Installs dependencies, builds, and opens the desktop app on the built-in sample bundle
# (resources/samples/hung-allreduce: a 16-rank job where one rank stalled).
# This is the README's first command.
#
# With a display (DISPLAY or WAYLAND_DISPLAY set) the app window opens and stays open.
# Without one (a fresh server, a CI box, ssh without -X) the app still runs for real, under
# Xvfb: it loads the sample, diagnoses it, saves a screenshot of its window and quits, and
# the verdict is printed so the run is visible from a terminal.
set -euo pipefail
cd "$(dirname "$0")/.."

bash tools/install-deps.sh

jobs=$(nproc 2>/dev/null || echo 2)
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release -DRANKSCOPE_GUI=ON
cmake --build build -j "$jobs" --target rankscope rankscope-cli

sample=resources/samples/hung-allreduce
app=./build/app/gui/rankscope

if [[ -n "${DISPLAY:-}" || -n "${WAYLAND_DISPLAY:-}" ]]; then
    exec "$app" "$sample"
fi

shot=build/rankscope-sample.png
echo "run-app: no display; running the app under Xvfb and saving its window to $shot"
xvfb-run -a -s "-screen 0 1600x1000x24" "$app" --screenshot "$shot" --quit-after-load "$sample"
echo "run-app: window screenshot written to $shot"
./build/app/cli/rankscope-cli diagnose "$sample"
