#!/bin/bash
# Sources the generated completion scripts in a plain bash (no bash-completion package) and
# completes words the way bash would: commands, each command's options and formats, files.
# usage: check_completion.sh COMPLETIONS_DIR
set -u
dir=$1
status=0

# complete_words PROGRAM WORD... : what the completion offers for the last WORD.
complete_words()
{
    local function
    function=$(complete -p "$1" | sed -n 's/^complete -F \([^ ]*\) .*/\1/p')
    COMP_WORDS=("$@")
    COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
    COMPREPLY=()
    "$function" "$1" "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD - 1]}"
    # In a stable order: compgen -f lists files in directory order.
    printf '%s\n' "${COMPREPLY[@]}" | LC_ALL=C sort | paste -sd ' '
}

expect()
{
    local want
    want=$(printf '%s\n' $1 | LC_ALL=C sort | paste -sd ' ')
    shift
    local got
    got=$(complete_words "$@")
    if [ "$got" != "$want" ]; then
        echo "FAILED: '$*' completes to '$got', expected '$want'"
        status=1
    else
        echo "ok: '$*' -> '$got'"
    fi
}

source "$dir/rankscope-cli" || exit 1
complete -p rankscope-cli || { echo "FAILED: no completion registered for rankscope-cli"; exit 1; }
expect "summary diagnose report why explain --help -h --version" rankscope-cli ""
expect "diagnose" rankscope-cli di
expect "text json" rankscope-cli summary logs --format ""
expect "text json md sarif gnu" rankscope-cli diagnose logs -f ""
expect "html md json" rankscope-cli report logs -o r.html --format ""
expect "--max-entry-size --max-archive-size --max-ratio" rankscope-cli diagnose logs --max
# An option of one command is offered with that command only.
expect "--rank" rankscope-cli why logs --ra
expect "" rankscope-cli diagnose logs --ra
expect "--list" rankscope-cli explain --li
expect "" rankscope-cli diagnose logs --threads ""
expect "" rankscope-cli nonsense ""

scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
mkdir -p "$scratch/job-logs" && touch "$scratch/job.tar.zst"
cd "$scratch" || exit 1
expect "job-logs job.tar.zst" rankscope-cli diagnose job
expect "job-logs job.tar.zst" rankscope-cli report logs -o job
# After "--" a word that looks like an option is a path.
touch -- "--odd.log"
expect "--odd.log" rankscope-cli diagnose -- --o

if [ -f "$dir/rankscope" ]; then
    source "$dir/rankscope" || exit 1
    complete -p rankscope || { echo "FAILED: no completion registered for rankscope"; exit 1; }
    expect "html md json pdf" rankscope --export r.html --format ""
    expect "--export" rankscope --exp
    expect "job-logs job.tar.zst" rankscope job
fi
exit $status
