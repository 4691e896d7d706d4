#!/usr/bin/env bash
# Builds the libFuzzer targets (clang, ASan + UBSan, build-fuzz/) and runs each for a bounded
# time on seed corpora made from tests/data (tools/fuzz/seed-corpora.py). Any crash, leak,
# sanitizer report or broken property fails the script; the input is left in
# build-fuzz/artifacts/ (turn it into a unit test, see docs/fuzzing.md).
#
#   bash tools/run-fuzz.sh [SECONDS_PER_TARGET] [TARGET...]     (default 45 s, all targets)
set -euo pipefail
cd "$(dirname "$0")/.."

seconds=${1:-45}
shift || true
targets=("$@")
if [ ${#targets[@]} -eq 0 ]; then
    targets=(pickle frjson archive logscan rankresolver secretmasker)
fi
jobs=${RANKSCOPE_JOBS:-$(nproc 2>/dev/null || echo 2)}

CC=clang CXX=clang++ cmake -S . -B build-fuzz -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DRANKSCOPE_FUZZ=ON -DRANKSCOPE_GUI=OFF -DRANKSCOPE_BENCH=OFF -DRANKSCOPE_TESTS=OFF >/dev/null
cmake --build build-fuzz -j "$jobs" --target rankscope_fuzz

rm -rf build-fuzz/seeds
python3 tools/fuzz/seed-corpora.py build-fuzz/seeds >/dev/null
mkdir -p build-fuzz/artifacts
for t in "${targets[@]}"; do
    # The working corpus grows across runs; the seeds and the inputs of past findings
    # (fuzz/regressions/<target>/) are read-only input, run first.
    mkdir -p "build-fuzz/corpus/$t"
    inputs=("build-fuzz/seeds/$t")
    [ -d "fuzz/regressions/$t" ] && inputs+=("fuzz/regressions/$t")
    log="build-fuzz/fuzz_$t.log"
    echo "run-fuzz: fuzz_$t for ${seconds}s"
    if ! ./build-fuzz/fuzz/fuzz_"$t" "build-fuzz/corpus/$t" "${inputs[@]}" \
        -max_total_time="$seconds" -max_len=65536 -rss_limit_mb=2048 -timeout=20 \
        -print_final_stats=1 -artifact_prefix="build-fuzz/artifacts/$t-" >"$log" 2>&1; then
        tail -n 60 "$log" >&2
        echo "run-fuzz: fuzz_$t found a problem (input in build-fuzz/artifacts/)" >&2
        exit 1
    fi
    grep -E "^stat::(number_of_executed_units|peak_rss_mb)|cov: " "$log" | tail -n 3
done
echo "run-fuzz: no finding"
