#!/usr/bin/env bash
# Installs dependencies, builds, and runs Rankscope on the built-in sample bundle
# (resources/samples/hung-allreduce: a 16-rank job where one rank stalled).
# This is the README's first command.
set -euo pipefail
cd "$(dirname "$0")/.."

bash tools/install-deps.sh

jobs=$(nproc 2>/dev/null || echo 2)
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release -DRANKSCOPE_GUI=ON
cmake --build build -j "$jobs" --target rankscope-cli

sample=resources/samples/hung-allreduce
./build/app/cli/rankscope-cli summary "$sample"
