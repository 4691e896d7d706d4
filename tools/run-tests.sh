#!/usr/bin/env bash
# Installs dependencies, builds everything and runs every test; builds the Debian packages
# and installs, runs and purges them (tools/test-packages.sh); then proves the headless
# build: a second build directory with RANKSCOPE_GUI=OFF builds rankscope-cli and the core
# tests without Qt and runs them; runs those tests again under ASan + UBSan (build-asan) and
# each libFuzzer target for a bounded time (build-fuzz). This is the README's test command
# and what CI runs.
set -euo pipefail
cd "$(dirname "$0")/.."

bash tools/install-deps.sh

jobs=$(nproc 2>/dev/null || echo 2)
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release -DRANKSCOPE_GUI=ON
cmake --build build -j "$jobs"
# GUI tests render offscreen; the end-to-end test starts the real app under xvfb-run itself.
QT_QPA_PLATFORM=offscreen ctest --test-dir build --output-on-failure -j "$jobs"
bash tools/test-packages.sh build

cmake -S . -B build-headless -G Ninja -DCMAKE_BUILD_TYPE=Release -DRANKSCOPE_GUI=OFF -DRANKSCOPE_BENCH=OFF
cmake --build build-headless -j "$jobs"
ctest --test-dir build-headless --output-on-failure -j "$jobs"

# The headless unit tests once more under AddressSanitizer + UndefinedBehaviorSanitizer, and
# every fuzz target for a bounded time (about 20 minutes more on two cores; RANKSCOPE_SANITIZERS=0
# skips both for a quick local run).
if [ "${RANKSCOPE_SANITIZERS:-1}" = 1 ]; then
cmake -S . -B build-asan -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DRANKSCOPE_GUI=OFF \
    -DRANKSCOPE_BENCH=OFF -DRANKSCOPE_SANITIZE=ON
cmake --build build-asan -j "$jobs"
ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 \
    ctest --test-dir build-asan --output-on-failure -j "$jobs"

# Every fuzz target for a bounded time (docs/fuzzing.md has the long runs' figures).
bash tools/run-fuzz.sh "${RANKSCOPE_FUZZ_SECONDS:-30}"
else
    echo "run-tests: sanitizer and fuzz runs skipped (RANKSCOPE_SANITIZERS=0)"
fi
# Nothing in the core may include Qt.
if grep -rlE '#include *[<"]Q[A-Za-z]+|#include *[<"]Qt' model parsers app/about app/core app/cli tools/docgen; then
    echo "run-tests: Qt is included from the Qt-free core (files above)" >&2
    exit 1
fi
echo "run-tests: all tests passed"
