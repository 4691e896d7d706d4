#!/usr/bin/env bash
# The Debian packages end to end, as a user gets them: builds rankscope-cli and rankscope with
# CPack from a built build directory, checks them with lintian, installs them with apt-get,
# runs the installed programs on the installed sample bundle, validates the installed desktop
# entry, AppStream metadata, icons, manual pages and bash completion, starts the app from its
# desktop entry under Xvfb and saves a screenshot, then purges both packages and checks that
# nothing they installed is left. Needs root or sudo (tools/run-tests.sh runs it in CI).
# usage: tools/test-packages.sh [BUILD_DIR]   (default: build)
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
build=$(realpath "${1:-build}")
started=$SECONDS

if [ "$(id -u)" -eq 0 ]; then
    SUDO=""
elif command -v sudo >/dev/null 2>&1; then
    SUDO="sudo"
else
    echo "test-packages: SKIPPED: installing packages needs root or sudo" >&2
    exit 0
fi

fail()
{
    echo "test-packages: FAILED: $*" >&2
    exit 1
}

# Purging at the end would remove a user's own installation; refuse instead.
for package in rankscope rankscope-cli; do
    if dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q 'ok installed'; then
        fail "$package is installed already; purge it first (apt-get purge $package)"
    fi
done

version=$(sed -n 's/^CMAKE_PROJECT_VERSION:STATIC=//p' "$build/CMakeCache.txt")
[ -n "$version" ] || fail "no configured build in $build"

echo "== building the packages (cpack -G DEB)"
rm -rf "$build/packages"
(cd "$build" && cpack -G DEB >"$build/cpack.log" 2>&1) || { cat "$build/cpack.log"; fail "cpack"; }
cli_deb=$build/packages/rankscope-cli_${version}_$(dpkg --print-architecture).deb
app_deb=$build/packages/rankscope_${version}_$(dpkg --print-architecture).deb
[ -f "$cli_deb" ] && [ -f "$app_deb" ] || { ls -l "$build/packages"; fail "package files missing"; }
for deb in "$cli_deb" "$app_deb"; do
    echo "-- $(basename "$deb"): $(dpkg-deb -f "$deb" Package Version Depends | tr '\n' ' ')"
done
# The command-line package must install on a node without Qt.
if dpkg-deb -f "$cli_deb" Depends | grep -qi 'qt'; then
    fail "rankscope-cli depends on Qt: $(dpkg-deb -f "$cli_deb" Depends)"
fi
if dpkg-deb -c "$cli_deb" | grep -qiE 'qt|/applications/|/icons/'; then
    fail "rankscope-cli holds files of the desktop app"
fi
dpkg-deb -f "$app_deb" Depends | grep -qF "rankscope-cli (= $version)" ||
    fail "rankscope does not depend on rankscope-cli (= $version)"
dpkg-deb -f "$app_deb" Depends | grep -q 'libqt6widgets6' ||
    fail "rankscope's dependencies were not computed from its libraries"

echo "== lintian"
command -v lintian >/dev/null || fail "lintian is not installed (tools/install-deps.sh)"
# Warnings fail too: one that does not apply is overridden, with its reason, in
# packaging/debian/<package>.lintian-overrides.
lintian --fail-on error,warning --info --show-overrides "$cli_deb" "$app_deb" ||
    fail "lintian found errors or warnings"

installed=0
scratch=$(mktemp -d)
cleanup()
{
    rm -rf "$scratch"
    # A failed check must not leave the packages installed for the next run to refuse.
    if [ "$installed" = 1 ]; then
        $SUDO apt-get purge -y -qq rankscope rankscope-cli >/dev/null 2>&1 || true
    fi
}
trap cleanup EXIT

echo "== installing with apt-get"
export DEBIAN_FRONTEND=noninteractive
installed=1
$SUDO apt-get install -y -qq "$cli_deb" "$app_deb" >"$build/apt-install.log" 2>&1 ||
    { cat "$build/apt-install.log"; fail "apt-get install"; }
installed_files=$build/packages/installed-files.txt
dpkg -L rankscope rankscope-cli | sort -u >"$installed_files"

# Away from the source tree, with a private HOME, like a user's first start.
cd "$scratch"
export HOME=$scratch/home XDG_CONFIG_HOME=$scratch/home/.config XDG_RUNTIME_DIR=$scratch/run
mkdir -p "$HOME" "$XDG_RUNTIME_DIR"
chmod 700 "$XDG_RUNTIME_DIR"
sample=/usr/share/rankscope/samples/hung-allreduce

echo "== the installed programs"
[ "$(command -v rankscope-cli)" = /usr/bin/rankscope-cli ] || fail "rankscope-cli is not /usr/bin/rankscope-cli"
rankscope-cli --version | grep -qE "^rankscope-cli $version( |$)" || fail "rankscope-cli --version"
QT_QPA_PLATFORM=offscreen rankscope --version | grep -qE "^rankscope $version( |$)" ||
    fail "rankscope --version"
rankscope-cli diagnose "$sample" >diagnosis.txt || fail "rankscope-cli diagnose $sample"
head -n 1 diagnosis.txt
grep -q '^Verdict: HANG DIAGNOSED' diagnosis.txt && grep -q '^Initiating: rank 7 ' diagnosis.txt ||
    fail "rankscope-cli diagnose did not find the sample's stalled rank 7"
QT_QPA_PLATFORM=offscreen rankscope --export report.html "$sample" || fail "rankscope --export"
grep -q 'data:image/png;base64' report.html || fail "the exported report has no figures"
echo "rankscope --export wrote report.html ($(wc -c <report.html) bytes, with figures)"

echo "== manual pages, completion, desktop entry, AppStream, icons"
for program in rankscope-cli rankscope; do
    [ "$(man -w "$program")" = "/usr/share/man/man1/$program.1.gz" ] || fail "man -w $program"
    page=$(MANWIDTH=100 man "$program" 2>&1 | col -b)
    printf '%s\n' "$page" | grep -q "^NAME" || fail "man $program does not render"
    printf '%s\n' "$page" | grep -q -- "--version" || fail "man $program lacks --version"
done
echo "man rankscope-cli: $(MANWIDTH=100 man rankscope-cli 2>/dev/null | col -b | sed -n '/^NAME/{n;p;q}' | sed 's/^ *//')"
bash "$root/tests/packaging/check_completion.sh" /usr/share/bash-completion/completions >/dev/null ||
    fail "the installed bash completion (tests/packaging/check_completion.sh)"
desktop=/usr/share/applications/org.rankscope.Rankscope.desktop
sh "$root/tests/packaging/check_desktop.sh" "$desktop" || fail "the installed desktop entry"
appstreamcli validate --no-net /usr/share/metainfo/org.rankscope.Rankscope.metainfo.xml ||
    fail "the installed AppStream metadata"
for size in 16x16 22x22 24x24 32x32 48x48 64x64 128x128 256x256; do
    [ -f "/usr/share/icons/hicolor/$size/apps/org.rankscope.Rankscope.png" ] || fail "icon $size"
done
[ -f /usr/share/icons/hicolor/scalable/apps/org.rankscope.Rankscope.svg ] || fail "scalable icon"
# desktop-file-utils' trigger registers the MIME types: "Open with Rankscope" for folders.
if [ -f /usr/share/applications/mimeinfo.cache ]; then
    grep -q '^inode/directory=.*org.rankscope.Rankscope.desktop' /usr/share/applications/mimeinfo.cache ||
        fail "folders are not registered to open with Rankscope (mimeinfo.cache)"
fi

echo "== the app started from its desktop entry, under Xvfb"
# The Exec line as a launcher runs it for a folder dropped on it or opened with it (%F).
exec_line=$(sed -n 's/^Exec=//p' "$desktop")
command_line=${exec_line//%F/$sample}
shot=$build/packages/rankscope-desktop-entry.png
rm -f "$shot"
cat >launch.sh <<EOF
$command_line &
app=\$!
# Loaded and diagnosed when the title names the bundle and its verdict.
for _ in \$(seq 1 120); do
    if xwininfo -root -tree | grep -q '"hung-allreduce — ' && ! xwininfo -root -tree | grep -q 'diagnosing'; then
        sleep 2
        import -window root "$shot"
        xwininfo -root -tree | grep -o '"hung-allreduce — [^"]*"' | head -n 1
        break
    fi
    sleep 0.5
done
kill \$app
wait \$app 2>/dev/null
exit 0
EOF
xvfb-run -a -s "-screen 0 1600x1000x24" sh launch.sh || fail "starting the app under Xvfb"
[ -s "$shot" ] || fail "no screenshot: the app started from $desktop did not show the diagnosis"
colours=$(convert "$shot" -format '%k' info:)
[ "$colours" -gt 50 ] || fail "the screenshot $shot is nearly blank ($colours colours)"
echo "screenshot of the app started from its desktop entry: $shot ($colours colours)"

echo "== purging"
cd "$root"
installed=0
$SUDO apt-get purge -y -qq rankscope rankscope-cli >"$build/apt-purge.log" 2>&1 ||
    { cat "$build/apt-purge.log"; fail "apt-get purge"; }
for package in rankscope rankscope-cli; do
    if dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q 'installed'; then
        fail "$package is still known to dpkg after purge"
    fi
done
left=0
while read -r path; do
    # Directories the packages share with others (/usr/bin, hicolor/...) stay.
    if [ -e "$path" ] && [ ! -d "$path" ]; then
        echo "left behind: $path"
        left=1
    fi
done <"$installed_files"
for path in /usr/share/rankscope /usr/share/doc/rankscope /usr/share/doc/rankscope-cli; do
    [ -e "$path" ] && { echo "left behind: $path"; left=1; }
done
if [ -f /usr/share/applications/mimeinfo.cache ] && grep -q 'org.rankscope' /usr/share/applications/mimeinfo.cache; then
    echo "left behind: the MIME registration in /usr/share/applications/mimeinfo.cache"
    left=1
fi
[ $left -eq 0 ] || fail "files left after purge"
echo "test-packages: both packages built, passed lintian, installed, ran and purged cleanly ($((SECONDS - started)) s)"
