#!/bin/sh
# The generated manual pages render with no warning from man/groff (what lintian checks),
# and every option a built binary's --help names appears in its page, so the page and the
# binary cannot drift apart.
# usage: check_manpages.sh MAN_DIR BINARY...
set -u
dir=$1
shift
if ! command -v man >/dev/null 2>&1; then
    echo "SKIPPED: man is not installed (apt-get install man-db)"
    exit 77
fi
status=0
for binary in "$@"; do
    program=$(basename "$binary")
    page=$dir/$program.1
    if [ ! -s "$page" ] || [ ! -s "$page.gz" ]; then
        echo "FAILED: $page or $page.gz missing"
        status=1
        continue
    fi
    warnings=$(LC_ALL=C.UTF-8 MANWIDTH=80 man --warnings -E UTF-8 -l -Tutf8 -Z "$page" 2>&1 >/dev/null)
    if [ -n "$warnings" ]; then
        echo "FAILED: $page: $warnings"
        status=1
    fi
    text=$(LC_ALL=C.UTF-8 MANWIDTH=200 man -l "$page.gz" 2>/dev/null | col -b)
    case $text in
        *NAME*"$program - "*SYNOPSIS*OPTIONS*) ;;
        *) echo "FAILED: $page.gz does not render NAME, SYNOPSIS and OPTIONS"; status=1 ;;
    esac
    # Qt adds --help-all to the desktop app's --help by itself.
    for option in $("$binary" --help | grep -oE -- '--[a-z][a-z-]*' | sort -u); do
        [ "$option" = --help-all ] && continue
        if ! printf '%s\n' "$text" | grep -qF -- "$option"; then
            echo "FAILED: $program --help names $option, its manual page does not"
            status=1
        fi
    done
    echo "$page: renders cleanly and names every option of $program --help"
done
exit $status
