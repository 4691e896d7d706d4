#!/usr/bin/env python3
"""Writes the fuzz targets' seed corpora from tests/data into OUT_DIR/<target>/.

    python3 tools/fuzz/seed-corpora.py build-fuzz/seeds

Standard library only; deterministic. Seeds are small (at most 64 KiB each): libFuzzer
mutates small inputs faster, and every format is represented by its first lines.
  pickle        every Flight Recorder pickle under tests/data/fr (all protocols, hostile
                and truncated ones included) and the scenarios' dumps
  frjson        the JSON dumps and the other JSON documents (error.json, RAS reports)
  archive       tar, tar.gz, tar.xz, zip, a .gz log and a tar inside a tar.gz, made here
                from a few scenario logs (tests/data holds no archives)
  logscan       the head of every text file of the scenarios and real cases (chunk byte
                first, see fuzz/fuzz_logscan.cpp), and a few as JSON record exports
  rankresolver  a few files of one scenario, joined the way fuzz/fuzzinput.h splits them
  secretmasker  the secrets fixtures' lines, three selector bytes first
"""

import gzip
import io
import json
import os
import sys
import tarfile
import zipfile

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
DATA = os.path.join(ROOT, "tests", "data")
MAX_SEED = 64 * 1024


def files_under(*parts):
    top = os.path.join(DATA, *parts)
    for dirpath, _, names in sorted(os.walk(top)):
        for name in sorted(names):
            yield os.path.join(dirpath, name)


def read(path, limit=MAX_SEED):
    with open(path, "rb") as f:
        return f.read(limit)


def is_pickle(data):
    return data[:1] == b"\x80" or data[:3] in (b"(dp", b"(lp") or data[:2] in (b"}q", b"]q")


def is_text(data):
    return b"\0" not in data[:4096]


class Writer:
    def __init__(self, out):
        self.out = out
        self.count = {}

    def add(self, target, data):
        n = self.count.get(target, 0)
        self.count[target] = n + 1
        d = os.path.join(self.out, target)
        os.makedirs(d, exist_ok=True)
        with open(os.path.join(d, "seed-%04d" % n), "wb") as f:
            f.write(data[:MAX_SEED])


def tar_of(members, mode):
    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode=mode) as t:
        for name, data in members:
            info = tarfile.TarInfo(name)
            info.size = len(data)
            info.mtime = 0
            t.addfile(info, io.BytesIO(data))
    return buf.getvalue()


def main(out):
    w = Writer(out)
    for path in files_under("fr"):
        data = read(path)
        if is_pickle(data):
            w.add("pickle", data)
        elif path.endswith(".json"):
            w.add("frjson", data)
    logs = []
    for path in files_under("scenarios"):
        data = read(path, 16 * 1024)
        if path.endswith(".json"):
            w.add("frjson", data)
        elif is_pickle(data):
            w.add("pickle", data)
        elif is_text(data):
            logs.append((os.path.relpath(path, DATA), data))
    for path in files_under("real"):
        data = read(path, 16 * 1024)
        if is_text(data):
            logs.append((os.path.relpath(path, DATA), data))
    for _, data in logs:
        w.add("logscan", b"\x10" + data)
    # A few of them as Docker json-file exports, one record per line (parsers/jsonloglines).
    for _, data in logs[:8]:
        records = b"".join(
            json.dumps({"log": line.decode("utf-8", "replace") + "\n", "stream": "stderr",
                        "time": "2024-05-01T10:00:00.000000001Z"}).encode() + b"\n"
            for line in data.splitlines()[:64])
        w.add("logscan", b"\x10" + records)
    # A few files per scenario, named as in the bundle: the names carry rank claims.
    by_case = {}
    for name, data in logs:
        by_case.setdefault(os.path.dirname(name), []).append((name, data))
    for case, files in sorted(by_case.items()):
        joined = b"\n====\n".join(
            os.path.basename(n).encode() + b"\n" + d[:4096] for n, d in files[:4])
        w.add("rankresolver", joined)
    for path in files_under("secrets"):
        data = read(path, 8 * 1024)
        if is_text(data):
            for i, line in enumerate(data.splitlines()[:64]):
                w.add("secretmasker", bytes([i % 8, 5, 0]) + line)
    sample = logs[:3]
    members = [(os.path.basename(n), d[:2048]) for n, d in sample]
    w.add("archive", tar_of(members, "w"))
    w.add("archive", tar_of(members, "w:gz"))
    w.add("archive", tar_of(members, "w:xz"))
    zbuf = io.BytesIO()
    with zipfile.ZipFile(zbuf, "w", zipfile.ZIP_DEFLATED) as z:
        for name, data in members:
            z.writestr(name, data)
    w.add("archive", zbuf.getvalue())
    w.add("archive", gzip.compress(members[0][1], mtime=0))
    w.add("archive", tar_of([("node1.tar.gz", tar_of(members, "w:gz"))] + members[:1], "w:gz"))
    for target, n in sorted(w.count.items()):
        print("%-13s %d seeds" % (target, n))


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit("usage: seed-corpora.py OUT_DIR")
    main(sys.argv[1])
