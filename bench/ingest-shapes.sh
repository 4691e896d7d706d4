#!/usr/bin/env bash
# bench/ingest-shapes.sh — ingestion speed on every bundle shape, next to grep over the same
# bytes in the same run (issue 18; bench/ingest.sh measures only its one shape).
#
#   bash bench/ingest-shapes.sh [BUILD_DIR] [RANKS] [STEPS] [ROUNDS] [SHAPE...]
#
# Defaults: 4096 ranks, 200 steps (about 1 GB per bundle), 5 rounds, every shape. A quick run:
#   bash bench/ingest-shapes.sh build 256 40 3 per-node srun
#
# Shapes (each bundle written by rankscope-simulate, NCCL_DEBUG=INFO with COLL lines unless
# said otherwise, `--noise high`; one is generated, timed and deleted before the next):
#   per-rank     one file per rank (bench/ingest.sh's shape, noisier)
#   per-node     one file per host, its 8 processes interleaved line by line ([defaultN]:)
#   srun         one srun --label console for the whole job ("0123: " prefixes)
#   logdir       torchrun --log-dir tree: <host>/<run>/attempt_0/<local_rank>/{stdout,stderr}.log
#   tarzst       the per-rank bundle as one .tar.zst, read in memory
#   training     per rank, PyTorch 2.6 dialect, NCCL INFO without COLL, padded to the per-rank
#                bundle's size with progress bars (\r), metric dicts, warnings (bench/noisemix.py)
#   traceback    the same padded with logged tracebacks and all-thread stack dumps
#
# Each round times, in turn and with the page cache warmed before every run:
#   grep -rcE 'NCCL|Watchdog' DIR > FILE       (-c over a .tar.zst: zstd -dc | grep -cE)
#   rankscope-cli summary DIR --threads 1|2 -o FILE
#   rankscope-cli diagnose DIR --format text --threads 1 -o FILE
#   rankscope-cli diagnose DIR --format json --threads 1|2 -o FILE
# and keeps the best of ROUNDS for each; then one more `diagnose --format json --threads 2`
# under /usr/bin/time for the peak RSS. Targets (issue 18): diagnose --format json within
# 3x grep on one thread and 1.5x on two, on every shape; json within 10 % of text.
# The last line is the worst shape's figure.
set -euo pipefail
build=${1:-build}
ranks=${2:-4096}
steps=${3:-200}
rounds=${4:-5}
shift $(($# < 4 ? $# : 4))
shapes=("$@")
[ ${#shapes[@]} -gt 0 ] || shapes=(per-rank per-node srun logdir tarzst training traceback)
here=$(cd "$(dirname "$0")" && pwd)
sim="$build/tools/simulator/rankscope-simulate"
cli="$build/app/cli/rankscope-cli"
[ -x "$sim" ] && [ -x "$cli" ] || { echo "build $build first (rankscope-simulate, rankscope-cli)" >&2; exit 2; }
cli=$(cd "$(dirname "$cli")" && pwd)/$(basename "$cli")
sim=$(cd "$(dirname "$sim")" && pwd)/$(basename "$sim")

work=$(mktemp -d "${TMPDIR:-/tmp}/rankscope-shapes.XXXXXX")
trap 'rm -rf "$work"' EXIT
results="$work/results.tsv"
: > "$results"
perrank_bytes=""

simulate() { # simulate OUT LAYOUT [extra options]
    local out=$1 layout=$2
    shift 2
    "$sim" --scenario straggler_stall --variant dataloader --ranks "$ranks" --ranks-per-node 8 \
        --steps "$steps" --nccl-debug coll --noise high --layout "$layout" --seed 4242 \
        --out "$out" "$@" >/dev/null
    rm -f "$out/expected.json"
}

make_bundle() { # make_bundle SHAPE -> prints the path to read
    local shape=$1 dir="$work/$1"
    case $shape in
    per-rank) simulate "$dir" per-rank ;;
    per-node) simulate "$dir" per-node ;;
    srun) simulate "$dir" srun-combined ;;
    logdir) simulate "$dir" torchrun-logdir ;;
    tarzst)
        simulate "$work/tarsrc" per-rank
        mkdir -p "$dir"
        tar -C "$work" -cf - tarsrc | zstd -q -3 -T2 -o "$dir/bundle.tar.zst"
        rm -rf "$work/tarsrc"
        ;;
    training | traceback)
        local torch=2.6 steps_small=$((steps / 10 > 4 ? steps / 10 : 4))
        "$sim" --scenario straggler_stall --variant dataloader --ranks "$ranks" \
            --ranks-per-node 8 --steps "$steps_small" --nccl-debug info --noise high \
            --torch "$torch" --layout per-rank --seed 4242 --out "$dir" >/dev/null
        rm -f "$dir/expected.json"
        python3 "$here/noisemix.py" "$dir" "$shape" "${perrank_bytes:-$((ranks * steps * 1300))}" 4242
        ;;
    *) echo "unknown shape $shape" >&2; exit 2 ;;
    esac
    sync
    if [ "$shape" = tarzst ]; then echo "$dir/bundle.tar.zst"; else echo "$dir"; fi
}

seconds() { # wall time of one run of "$@" on a warm page cache
    find "$target" -type f -exec cat {} + > /dev/null
    local s e
    s=$(date +%s.%N)
    "$@"
    e=$(date +%s.%N)
    awk -v s="$s" -v e="$e" 'BEGIN { print e - s }'
}
lower() { awk -v a="$1" -v b="$2" 'BEGIN { if (a == "" || b < a) print b; else print a }'; }

for shape in "${shapes[@]}"; do
    target=$(make_bundle "$shape")
    bytes=$(find "$target" -type f -printf '%s\n' | awk '{ s += $1 } END { print s }')
    if [ "$shape" = tarzst ]; then
        raw=$(zstd -dc "$target" | wc -c)
        grepcmd="zstd -dcq '$target' | grep -acE 'NCCL|Watchdog' > '$work/grep.out'"
    else
        raw=$bytes
        grepcmd="grep -rcE 'NCCL|Watchdog' '$target' > '$work/grep.out'"
    fi
    [ "$shape" = per-rank ] && perrank_bytes=$raw
    files=$(find "$target" -type f | wc -l)
    g="" s1="" s2="" t1="" j1="" j2=""
    for _ in $(seq "$rounds"); do
        g=$(lower "$g" "$(seconds sh -c "$grepcmd")")
        s1=$(lower "$s1" "$(seconds "$cli" summary "$target" --threads 1 -o "$work/out")")
        s2=$(lower "$s2" "$(seconds "$cli" summary "$target" --threads 2 -o "$work/out")")
        t1=$(lower "$t1" "$(seconds "$cli" diagnose "$target" --format text --threads 1 -o "$work/out")")
        j1=$(lower "$j1" "$(seconds "$cli" diagnose "$target" --format json --threads 1 -o "$work/out")")
        j2=$(lower "$j2" "$(seconds "$cli" diagnose "$target" --format json --threads 2 -o "$work/out")")
    done
    find "$target" -type f -exec cat {} + > /dev/null
    rss=$(/usr/bin/time -f %M "$cli" diagnose "$target" --format json --threads 2 -o "$work/out" 2>&1 >/dev/null | tail -1)
    printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$shape" "$files" "$raw" "$g" "$s1" "$s2" \
        "$t1" "$j1" "$j2" "$rss" "$bytes" >> "$results"
    # Echo each shape as it is measured (a full run takes a while).
    awk -F'\t' -v n="$(wc -l < "$results")" 'NR == n { printf "%-10s %6d files %6.0f MiB  grep %.2f s  json1 %.2fx  json2 %.2fx\n", $1, $2, $3 / 1048576, $4, $8 / $4, $9 / $4 }' "$results" >&2
    rm -rf "$work/$shape"
done

echo "ranks $ranks, steps $steps, best of $rounds rounds; times in s, ratios against grep on the same bytes"
awk -F'\t' 'BEGIN {
    printf "%-10s %6s %7s %6s | %5s %5s %5s %5s | %5s %5s %5s %5s %5s | %6s %8s\n", "shape", "files", "MiB", "grep",
        "sum1", "sum2", "json1", "json2", "sum1x", "sum2x", "json1x", "json2x", "j/t", "RSS MB", "RSS/MiB"
}
{
    mib = $3 / 1048576
    printf "%-10s %6d %7.0f %6.2f | %5.2f %5.2f %5.2f %5.2f | %5.2f %5.2f %6.2f %6.2f %5.2f | %6.0f %8.3f\n", $1, $2, mib, $4,
        $5, $6, $8, $9, $5 / $4, $6 / $4, $8 / $4, $9 / $4, $8 / $7, $10 / 1024, $10 / 1024 / mib
    if ($9 / $4 > worst2) { worst2 = $9 / $4; w2 = $1 }
    if ($8 / $4 > worst1) { worst1 = $8 / $4; w1 = $1 }
    if (!($9 / $4 <= 1.5 && $8 / $4 <= 3)) missed = missed " " $1
}
END {
    printf "targets (json2 <= 1.5x, json1 <= 3x) missed by:%s\n", (missed == "" ? " none" : missed)
    printf "WORST SHAPE: diagnose --format json %.2fx grep on 2 threads (%s), %.2fx on 1 thread (%s)\n", worst2, w2, worst1, w1
}' "$results"
