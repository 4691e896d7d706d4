#!/bin/sh
# The configured AppStream metainfo passes appstreamcli validate without the network, and
# names the release CMake declares.
# usage: check_metainfo.sh METAINFO VERSION DATE
set -u
file=$1
if ! command -v appstreamcli >/dev/null 2>&1; then
    echo "SKIPPED: appstreamcli is not installed (apt-get install appstream)"
    exit 77
fi
appstreamcli validate --no-net "$file" || { echo "FAILED: appstreamcli validate $file"; exit 1; }
grep -q "<release version=\"$2\" date=\"$3\">" "$file" || {
    echo "FAILED: $file does not name release $2 of $3"
    exit 1
}
echo "$file: valid, release $2 of $3"
