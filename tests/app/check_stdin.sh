#!/usr/bin/env bash
# rankscope-cli reads a log from standard input ("-"), from /dev/stdin, from a FIFO and from
# process substitution, and gives the verdict the same bytes give in a file; "-" twice is a
# usage error. Usage: check_stdin.sh RANKSCOPE_CLI LOG_FILE SCRATCH_DIR
set -euo pipefail
cli=$1
log=$2
scratch=$3
rm -rf "$scratch"
mkdir -p "$scratch"
failures=0

verdict() { # the verdict object of a rankscope.diagnosis/1 document on stdin, one line
    python3 -c 'import json, sys; print(json.dumps(json.load(sys.stdin)["verdict"], sort_keys=True))'
}
check() { # NAME EXPECTED ACTUAL
    if [ "$2" == "$3" ]; then
        echo "ok: $1"
    else
        echo "FAIL: $1"
        echo "  expected: $2"
        echo "  actual:   $3"
        failures=$((failures + 1))
    fi
}

expected=$("$cli" diagnose "$log" --format json | verdict)
case "$expected" in
*'"status": "hang_diagnosed"'*) ;;
*) echo "FAIL: the excerpt itself should be diagnosed hang_diagnosed: $expected"; exit 1 ;;
esac

check "diagnose - reads a pipe" "$expected" "$(cat "$log" | "$cli" diagnose - --format json | verdict)"
check "the piped source is named stdin" '["stdin"]' \
    "$(cat "$log" | "$cli" diagnose - --format json \
        | python3 -c 'import json, sys; print(json.dumps([i["path"] for i in json.load(sys.stdin)["inputs"]]))')"
check "diagnose - reads a redirected file" "$expected" "$("$cli" diagnose - --format json < "$log" | verdict)"
check "/dev/stdin is read as a pipe" "$expected" \
    "$(cat "$log" | "$cli" diagnose /dev/stdin --format json | verdict)"
check "process substitution is read" "$expected" \
    "$("$cli" diagnose <(cat "$log") --format json | verdict)"

mkfifo "$scratch/pasted"
cat "$log" > "$scratch/pasted" &
writer=$!
check "a FIFO given by path is read" "$expected" \
    "$("$cli" diagnose "$scratch/pasted" --format json | verdict)"
wait "$writer"

# The other commands that take paths.
summary=$(cat "$log" | "$cli" summary - --format json \
    | python3 -c 'import json, sys; print(json.load(sys.stdin)["inputs"][0]["path"])')
check "summary - reads a pipe" "stdin" "$summary"
cat "$log" | "$cli" report - -o "$scratch/report.json"
check "report - reads a pipe" "$expected" "$(verdict < "$scratch/report.json")"

# One stream named twice: a usage error that says why, before anything is read.
set +e
message=$(echo "" | "$cli" diagnose - - 2>&1 >/dev/null)
status=$?
set -e
check "'-' twice exits 2" "2" "$status"
case "$message" in
*"standard input ('-') is named twice"*) echo "ok: '-' twice says why: $message" ;;
*) echo "FAIL: '-' twice should say why, said: $message"; failures=$((failures + 1)) ;;
esac

[ "$failures" -eq 0 ] && echo "all stdin checks passed"
exit "$failures"
