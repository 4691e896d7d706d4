#!/usr/bin/env bash
# bench/ingest.sh — ingestion speed of `rankscope-cli summary` next to grep over the same
# bytes, measured in the same run (ratios matter on a shared machine, not absolute times).
#
#   bash bench/ingest.sh [BUILD_DIR] [RANKS] [STEPS]
#
# Generates a RANKS-rank bundle (default 4096 ranks, 200 steps ≈ 1 GB, NCCL_DEBUG=INFO with
# COLL lines, so most lines are NCCL INFO lines that must actually be parsed), then times
# (5 interleaved rounds, best of each, the page cache warmed before each run):
#   grep -rcE 'NCCL|Watchdog' DIR > FILE          (output to a file: grep stops early on /dev/null)
#   rankscope-cli summary DIR --threads 1 -o FILE
#   rankscope-cli summary DIR --threads 2 -o FILE
# Targets (issue 2): rankscope on 1 thread within 3x grep; on 2 threads within 1.5x grep.
set -euo pipefail
build=${1:-build}
ranks=${2:-4096}
steps=${3:-200}
sim="$build/tools/simulator/rankscope-simulate"
cli="$build/app/cli/rankscope-cli"
[ -x "$sim" ] && [ -x "$cli" ] || { echo "build $build first (rankscope-simulate, rankscope-cli)" >&2; exit 2; }

work=$(mktemp -d "${TMPDIR:-/tmp}/rankscope-ingest.XXXXXX")
trap 'rm -rf "$work"' EXIT
bundle="$work/bundle"
"$sim" --scenario straggler_stall --variant dataloader --ranks "$ranks" --ranks-per-node 8 \
    --steps "$steps" --nccl-debug coll --layout per-rank --seed 4242 --out "$bundle" >/dev/null
rm -f "$bundle/expected.json"
# The generator's gigabyte is still being written back to disk for a while after it exits;
# on two cores that writeback would run during (and slow) the timed runs, the later ones
# most. Flush it first, so every run meets a clean, settled page cache.
sync
bytes=$(du -sb "$bundle" | cut -f1)
files=$(find "$bundle" -type f | wc -l)
warm() { # page cache warm before every timed run: this machine's kernel reclaims idle pages
    find "$bundle" -type f -exec cat {} + > /dev/null
}

seconds() { # wall time of one run of "$@" on a warm page cache
    warm
    local s e
    s=$(date +%s.%N)
    "$@"
    e=$(date +%s.%N)
    awk -v s="$s" -v e="$e" 'BEGIN { print e - s }'
}
lower() { awk -v a="$1" -v b="$2" 'BEGIN { if (a == "" || b < a) print b; else print a }'; }

# Rounds of grep, 1 thread, 2 threads in turn, so a busy moment of the shared machine falls
# on all three alike; the best of 5 rounds for each.
t_grep="" t_one="" t_two=""
for _ in 1 2 3 4 5; do
    t_grep=$(lower "$t_grep" "$(seconds sh -c "grep -rcE 'NCCL|Watchdog' '$bundle' > '$work/grep.out'")")
    t_one=$(lower "$t_one" "$(seconds "$cli" summary "$bundle" --threads 1 -o "$work/summary1.txt")")
    t_two=$(lower "$t_two" "$(seconds "$cli" summary "$bundle" --threads 2 -o "$work/summary2.txt")")
done

awk -v b="$bytes" -v f="$files" -v g="$t_grep" -v o="$t_one" -v t="$t_two" -v r="$ranks" 'BEGIN {
    mb = b / 1048576
    printf "bundle: %d ranks, %d files, %.0f MiB\n", r, f, mb
    printf "%-44s %8.2f s %9.0f MiB/s\n", "grep -rcE '\''NCCL|Watchdog'\'' (1 core)", g, mb / g
    printf "%-44s %8.2f s %9.0f MiB/s   %.2fx grep (target <= 3x)\n", "rankscope-cli summary --threads 1", o, mb / o, o / g
    printf "%-44s %8.2f s %9.0f MiB/s   %.2fx grep (target <= 1.5x)\n", "rankscope-cli summary --threads 2", t, mb / t, t / g
}'
