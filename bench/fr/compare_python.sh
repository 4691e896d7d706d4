#!/usr/bin/env bash
# bench/fr/compare_python.sh — Flight Recorder dump reading: Rankscope's restricted reader +
# mapping next to Python's own unpickler on the same files, in the same run (issue 6).
#
#   bash bench/fr/compare_python.sh [BUILD_DIR] [RANKS] [ENTRIES]
#
# Writes RANKS dumps of ENTRIES entries each (default 4096 × 2000 ≈ 1.4 GB, protocol 4, the
# shape of tools/frgen/frgen.py with 4 frames per entry) to a temp dir with
# rankscope_bench_fr --write, warms the page cache, then times (best of 3):
#   python3: for each file, pickle.load(f)            (unpickling alone, nothing kept:
#            keeping 8 M entry dicts would need tens of GB)
#   rankscope_bench_fr --read DIR --threads 1         (read file + restricted reader + mapping
#   rankscope_bench_fr --read DIR --threads 2          into FrDump/FrEntry records)
#   rankscope_bench_fr --read DIR --match --threads 2  end to end: the app's loader (every dump
#                                                      read, mapped and merged into the bundle
#                                                      as it is read), then matched (the target)
# Target (issue 6): Rankscope faster than Python's unpickler alone; 4096 dumps in ≤ 1 s with
# ≤ 300 MB peak RSS (the binary prints its peak RSS from getrusage).
set -euo pipefail
build=${1:-build}
ranks=${2:-4096}
entries=${3:-2000}
bench="$build/bench/fr/rankscope_bench_fr"
[ -x "$bench" ] || { echo "build $bench first (ninja -C $build rankscope_bench_fr)" >&2; exit 2; }
command -v python3 >/dev/null || { echo "python3 is needed for the comparison" >&2; exit 2; }

work=$(mktemp -d "${TMPDIR:-/tmp}/rankscope-fr.XXXXXX")
trap 'rm -rf "$work"' EXIT
"$bench" --write "$work" --ranks "$ranks" --entries "$entries"
cat "$work"/nccl_trace_rank_* > /dev/null # warm the page cache for both contenders

best() { # best wall seconds of 3 runs of "$@"
    local best=
    for _ in 1 2 3; do
        local start end t
        start=$(date +%s.%N)
        "$@" > "$work/.out"
        end=$(date +%s.%N)
        t=$(echo "$end - $start" | bc)
        if [ -z "$best" ] || [ "$(echo "$t < $best" | bc)" = 1 ]; then best=$t; fi
    done
    echo "$best"
}

python_load() {
    python3 -c '
import glob, pickle, sys
n = 0
for f in glob.glob(sys.argv[1] + "/nccl_trace_rank_*"):
    with open(f, "rb") as fh:
        n += len(pickle.load(fh)["entries"])
print(n)' "$work"
}

py=$(best python_load)
one=$(best "$bench" --read "$work" --threads 1)
grep -E "peak RSS|dumps" "$work/.out"
two=$(best "$bench" --read "$work" --threads 2)
grep -E "peak RSS" "$work/.out"
e2e=$(best "$bench" --read "$work" --match --threads 2)
grep -E "read\+map|peak RSS after|^peak RSS" "$work/.out"
printf 'python3 pickle.load (unpickling only)  %8.3f s\n' "$py"
printf 'rankscope read+map, 1 thread           %8.3f s   (%.1fx faster)\n' "$one" "$(echo "$py / $one" | bc -l)"
printf 'rankscope read+map, 2 threads          %8.3f s   (%.1fx faster)\n' "$two" "$(echo "$py / $two" | bc -l)"
printf 'rankscope read+map+merge+match, 2 thr.  %8.3f s   (target: <= 1 s, <= 300 MB)\n' "$e2e"
