#!/bin/sh
# The desktop entry passes desktop-file-validate (warnings count as failures) and opens
# folders and the archive types Rankscope reads, with the paths passed as files (%F).
# usage: check_desktop.sh DESKTOP_FILE
set -u
file=$1
if ! command -v desktop-file-validate >/dev/null 2>&1; then
    echo "SKIPPED: desktop-file-validate is not installed (apt-get install desktop-file-utils)"
    exit 77
fi
out=$(desktop-file-validate "$file" 2>&1)
rc=$?
if [ $rc -ne 0 ] || [ -n "$out" ]; then
    echo "FAILED: desktop-file-validate $file: $out"
    exit 1
fi
status=0
grep -qx 'Exec=rankscope %F' "$file" || { echo "FAILED: Exec is not 'rankscope %F'"; status=1; }
for type in inode/directory application/x-tar application/x-compressed-tar \
    application/x-zstd-compressed-tar application/zip application/gzip application/zstd; do
    grep -q "^MimeType=.*$type;" "$file" || { echo "FAILED: MimeType lacks $type"; status=1; }
done
[ $status -eq 0 ] && echo "$file: valid; opens folders and archives"
exit $status
