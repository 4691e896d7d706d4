#!/bin/sh
# Renders the PNG sizes of the icon into hicolor/NxN/apps/ from the SVG beside this script.
# The PNGs are checked in, so building needs no SVG renderer; run this after changing the
# SVG (needs rsvg-convert: apt-get install librsvg2-bin). tests/packaging checks every PNG
# against its folder's size.
set -eu
cd "$(dirname "$0")"
for size in 16 22 24 32 48 64 128 256; do
    mkdir -p "hicolor/${size}x${size}/apps"
    rsvg-convert -w "$size" -h "$size" org.rankscope.Rankscope.svg \
        -o "hicolor/${size}x${size}/apps/org.rankscope.Rankscope.png"
done
