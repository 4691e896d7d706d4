"""Every PNG under ICONS/hicolor/NxN/apps has the size its folder names, every size a
desktop asks for is there, and the scalable SVG beside them is an SVG.
usage: check_icons.py ICONS_DIR"""
import pathlib
import struct
import sys

APP_ID = "org.rankscope.Rankscope"
SIZES = (16, 22, 24, 32, 48, 64, 128, 256)


def png_size(path):
    data = path.read_bytes()[:24]
    if data[:8] != b"\x89PNG\r\n\x1a\n" or data[12:16] != b"IHDR":
        return None
    return struct.unpack(">II", data[16:24])


def main(icons):
    failures = []
    for size in SIZES:
        png = icons / "hicolor" / f"{size}x{size}" / "apps" / f"{APP_ID}.png"
        if not png.is_file():
            failures.append(f"{png} is missing")
        elif png_size(png) != (size, size):
            failures.append(f"{png} is {png_size(png)}, not {size}x{size}")
    for png in (icons / "hicolor").glob("*/apps/*.png"):
        if png.parent.parent.name not in {f"{s}x{s}" for s in SIZES}:
            failures.append(f"{png} is in a size folder no test knows")
    svg = icons / f"{APP_ID}.svg"
    if not svg.is_file() or b"<svg" not in svg.read_bytes():
        failures.append(f"{svg} is missing or not an SVG")
    for failure in failures:
        print("FAILED:", failure)
    if not failures:
        print(f"{icons}: SVG and {len(SIZES)} PNG sizes present and right")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(pathlib.Path(sys.argv[1])))
