#!/usr/bin/env bash
# Drives the real desktop app by keyboard alone, as a user without a mouse would, and saves
# a screenshot of the screen after each step: open the sample bundle from the welcome page,
# read the culprit, step through collectives, Search All Logs, copy a verification command
# from the root-cause panel and run it, export the report as HTML and as PDF.
#
# Runs on a private Xvfb display with the openbox window manager (real window focus and
# dialogs), types with xdotool and reads the clipboard with xclip. Settings live in a
# private HOME, so the run starts from the welcome page and never touches the user's.
#
# usage: tools/gui-walkthrough.sh [RANKSCOPE_BINARY] [OUT_DIR]
#   defaults: build-gui/app/gui/rankscope (else build/app/gui/rankscope), build-gui/walkthrough
# Exit 0 when every step's check passed, 1 otherwise, 77 when a tool is missing.
set -uo pipefail
cd "$(dirname "$0")/.."

app=${1:-}
if [[ -z "$app" ]]; then
    for candidate in build-gui/app/gui/rankscope build/app/gui/rankscope; do
        [[ -x "$candidate" ]] && app=$candidate && break
    done
fi
out=${2:-$(dirname "$(dirname "$(dirname "${app:-build-gui/app/gui/x}")")")/walkthrough}
sample=$PWD/resources/samples/hung-allreduce

for tool in Xvfb openbox xdotool xclip import; do
    if ! command -v "$tool" >/dev/null 2>&1; then
        echo "SKIPPED: $tool is not installed (apt-get install xvfb openbox xdotool xclip imagemagick)"
        exit 77
    fi
done
if [[ ! -x "$app" ]]; then
    echo "gui-walkthrough: no rankscope binary (build it first, or pass its path)" >&2
    exit 2
fi

mkdir -p "$out"
rm -f "$out"/*.png "$out"/report.* "$out"/log.txt
home=$(mktemp -d)
pids=()
cleanup() {
    for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null; done
    wait 2>/dev/null
    rm -rf "$home"
}
trap cleanup EXIT
export HOME=$home XDG_CONFIG_HOME=$home/.config XDG_RUNTIME_DIR=$home
chmod 700 "$home"

# A display number Xvfb picks itself.
exec 5> >(cat >"$home/display")
Xvfb -displayfd 5 -screen 0 1360x850x24 -nolisten tcp >"$home/xvfb.log" 2>&1 &
pids+=($!)
for _ in $(seq 50); do [[ -s "$home/display" ]] && break; sleep 0.1; done
export DISPLAY=:$(head -n1 "$home/display")
openbox >"$home/openbox.log" 2>&1 &
pids+=($!)
sleep 1

failures=0
step=0
log() { echo "$*" | tee -a "$out/log.txt"; }
check() { # check DESCRIPTION COMMAND...
    local what=$1
    shift
    if "$@"; then log "  ok: $what"; else log "  FAILED: $what"; failures=$((failures + 1)); fi
}
shot() { # shot NAME: the whole screen, so dialogs and tooltips are in it
    step=$((step + 1))
    local file
    file=$(printf '%s/%02d-%s.png' "$out" "$step" "$1")
    sleep "${2:-0.6}"
    import -window root "$file"
    log "screenshot $file"
}
keys() { xdotool key --clearmodifiers --delay 80 "$@"; }
type_text() { xdotool type --clearmodifiers --delay 20 "$1"; }
title() { xdotool getactivewindow getwindowname 2>/dev/null; }
wait_title() { # wait_title REGEX SECONDS
    for _ in $(seq $((${2:-30} * 10))); do
        title | grep -Eq "$1" && return 0
        sleep 0.1
    done
    log "  (window title is '$(title)')"
    return 1
}
wait_file() { # wait_file PATH SECONDS
    for _ in $(seq $((${2:-60} * 10))); do
        [[ -s "$1" ]] && return 0
        sleep 0.1
    done
    return 1
}

log "== rankscope $("$app" --version 2>/dev/null | head -n1) on $DISPLAY"
"$app" >"$home/app.out" 2>"$home/app.err" &
app_pid=$!
pids+=($app_pid)
xdotool search --sync --onlyvisible --name '^Rankscope$' windowactivate --sync >/dev/null 2>&1
shot welcome 1

log "1. open the sample bundle: File → Open the Sample Bundle (Alt+F, S)"
keys alt+f
shot file-menu 0.4
keys s
check "the sample loads and the title names the verdict" wait_title 'hung-allreduce — Hang diagnosed' 120
shot loaded 1.5

log "2. find the culprit: Alt+1 focuses the root-cause panel"
keys alt+1
shot root-cause

log "3. step collectives: Alt+0 focuses the timeline, N steps forward twice, P back once"
keys alt+0 n n p
shot stepped

log "4. Search All Logs (Ctrl+Shift+F): 'Watchdog caught', Enter"
keys ctrl+shift+f
sleep 0.5
type_text 'Watchdog caught'
keys Return
shot search-all-logs 2
keys Escape

log "5. copy a verification command from the root-cause panel (Alt+1, Alt+C, Space) and run it"
printf '' | xclip -selection clipboard
keys alt+1 alt+c space
sleep 0.5
command=$(xclip -selection clipboard -o 2>/dev/null)
log "  clipboard: $command"
shot copied
check "the clipboard holds a command" test -n "$command"
check "the command is shell syntax, not prose" bash -n -c "$command"
# Run it: the sample's hosts do not exist here, so a remote command fails to connect; the
# shell must get as far as running it (exit 127 would be "command not found", 2 a usage
# or syntax error from the shell).
(timeout 20 bash -c "$command" >"$home/command.out" 2>&1 </dev/null)
rc=$?
log "  ran it: exit $rc; $(head -c 300 "$home/command.out" | tr '\n' ' ')"
check "the shell ran the command (exit $rc)" test "$rc" -ne 127 -a "$rc" -ne 2

export_report() { # export_report FORMAT_TITLE FILE
    keys ctrl+e
    sleep 1
    shot "export-dialog-$1" 0.8
    keys alt+f ctrl+a
    type_text "$2"
    # The format follows the file's extension; Enter presses Export.
    keys Return
    check "$1 report written" wait_file "$2" 120
    sleep 1
    shot "exported-$1" 0.5
    keys Escape
}

log "6. export the report as HTML (Ctrl+E, Alt+F, the path, Enter)"
export_report html "$out/report.html"
check "the HTML report names the verdict" grep -q 'Hang diagnosed' "$out/report.html"

log "7. export the report as PDF"
export_report pdf "$out/report.pdf"
check "the PDF report is a PDF" sh -c "head -c 5 '$out/report.pdf' | grep -q '%PDF-'"
if command -v pdftoppm >/dev/null 2>&1 && [[ -s "$out/report.pdf" ]]; then
    pdftoppm -png -r 50 -f 1 -l 1 "$out/report.pdf" "$out/report-page" && log "screenshot $out/report-page-1.png"
fi

log "8. quit (Ctrl+Q)"
keys ctrl+q
for _ in $(seq 50); do kill -0 "$app_pid" 2>/dev/null || break; sleep 0.1; done
check "the app quit" sh -c "! kill -0 $app_pid 2>/dev/null"
if grep -q . "$home/app.err"; then
    log "app stderr:"
    tee -a "$out/log.txt" <"$home/app.err"
fi
log "== $failures failed step(s); screenshots in $out"
[[ $failures -eq 0 ]]
