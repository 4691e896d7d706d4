#!/usr/bin/env python3
"""bench/paste-shapes.py — does a verdict survive the way people paste logs?

    python3 bench/paste-shapes.py --cli build/app/cli/rankscope-cli CASES_DIR... [--shape NAME]...

Every case folder (a real case: log files beside truth.json / expected.json / SOURCE.md) is
copied with only its log files, once as it is and once per shape below, each rewriting every
log's bytes the way a paste or a log collector does. `diagnose --format json` runs on each
copy; a shape "changes" a case when its (status, class, first initiating rank) differs from
the plain copy's. A robust reader changes none: the wrapper says nothing about the hang.

  crlf        Windows line ends
  rfc3339     "2024-05-01T10:00:00.123456789Z " before every line (docker logs -t, kubectl
              logs --timestamps, cloud log exports)
  cri         the same plus "stderr F " (container runtime log files)
  stamp       "[2024-05-01 10:00:00] " before every line (`ts`, log shippers)
  ansi        every line in a colour ("\\x1b[31m … \\x1b[0m")
  bom         a UTF-8 byte-order mark before the first line
  quote       "> " before every line (a Markdown or e-mail reply)
  indent      four blanks before every line (a Markdown code block)
  grep        "logs/train.out:" before every line (grep -H over one file)
  numbered    "     1\t" before every line (cat -n)
  lstrip      every line's leading blanks removed (a paste that lost its indentation)
  kubectl     "[pod/trainer-worker-0/pytorch] " (kubectl logs --prefix)
  pdsh        "gpu-node-7: " (pdsh, clush)
  compose     "trainer-1  | " (docker compose logs)
  journal     "Dec 04 12:00:07 gpu-node-3 python[4242]: " (journalctl, syslog)
  skypilot    "(head, rank=0, pid=2345) " (SkyPilot's node tag)
  clock       "12:00:07 " (a CI runner's timestamper, ts '%H:%M:%S')
  bclock      "[12:00:07] "
  localtime   "2024-05-01 10:00:07 " (ts with a date, a portal's log view)
  pylogging   "2024-05-01 10:00:07,123 - INFO - " (a forwarder logging each line)
  pyroot      "INFO:root:" (Python logging's default format)
  level       "[INFO] "
  dash        "- " (a Markdown list item per line)
  fenced      the whole log inside a ``` code fence
  spaced      a blank line after every line (a web page's copy)
  utf16le     UTF-16 little-endian without a byte-order mark (some Windows tools)
  wrap120     every line cut into pieces of 120 characters (a terminal's hard wrap)
  doubled     every line twice in a row; flatten: the whole log glued into one line

Prints one line per shape and the cases it changed; exits 0, or 1 with --fail-on-change when
a shape changed a case (CTest runs it that way over tests/data/real).
"""
import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile

NOT_LOGS = {"truth.json", "expected.json", "SOURCE.md"}


def lines_map(fn):
    def apply(data):
        return b"\n".join(fn(line) if line else line for line in data.split(b"\n"))
    return apply


SHAPES = {
    "crlf": lambda b: b.replace(b"\r\n", b"\n").replace(b"\n", b"\r\n"),
    "rfc3339": lines_map(lambda l: b"2024-05-01T10:00:00.123456789Z " + l),
    "cri": lines_map(lambda l: b"2024-05-01T10:00:00.123456789Z stderr F " + l),
    "stamp": lines_map(lambda l: b"[2024-05-01 10:00:00] " + l),
    "ansi": lines_map(lambda l: b"\x1b[31m" + l + b"\x1b[0m"),
    "bom": lambda b: b"\xef\xbb\xbf" + b,
    "quote": lambda b: b"\n".join(b"> " + l for l in b.split(b"\n")),
    "indent": lines_map(lambda l: b"    " + l),
    "grep": lines_map(lambda l: b"logs/train.out:" + l),
    "numbered": lambda b: b"\n".join(b"%6d\t" % (i + 1) + l for i, l in enumerate(b.split(b"\n"))),
    "kubectl": lines_map(lambda l: b"[pod/trainer-worker-0/pytorch] " + l),
    "pdsh": lines_map(lambda l: b"gpu-node-7: " + l),
    "doubled": lambda b: b"\n".join(l + b"\n" + l for l in b.split(b"\n")),
    "flatten": lambda b: b" ".join(l for l in b.split(b"\n") if l.strip()) + b"\n",
    "lstrip": lambda b: b"\n".join(l.lstrip() for l in b.split(b"\n")),
    "compose": lines_map(lambda l: b"trainer-1  | " + l),
    "journal": lines_map(lambda l: b"Dec 04 12:00:07 gpu-node-3 python[4242]: " + l),
    "skypilot": lines_map(lambda l: b"(head, rank=0, pid=2345) " + l),
    "clock": lines_map(lambda l: b"12:00:07 " + l),
    "bclock": lines_map(lambda l: b"[12:00:07] " + l),
    "localtime": lines_map(lambda l: b"2024-05-01 10:00:07 " + l),
    "pylogging": lines_map(lambda l: b"2024-05-01 10:00:07,123 - INFO - " + l),
    "pyroot": lines_map(lambda l: b"INFO:root:" + l),
    "level": lines_map(lambda l: b"[INFO] " + l),
    "dash": lines_map(lambda l: b"- " + l),
    "fenced": lambda b: b"```\n" + b + (b"" if b.endswith(b"\n") else b"\n") + b"```\n",
    "spaced": lambda b: b"\n\n".join(b.split(b"\n")),
    "utf16le": lambda b: b.decode("utf-8", "replace").encode("utf-16-le"),
    "wrap120": lambda b: "\n".join(piece for l in b.decode("utf-8", "replace").split("\n")
                                    for piece in ([l[i:i + 120] for i in range(0, len(l), 120)] or [""])).encode("utf-8"),
}


def verdict(cli, folder):
    p = subprocess.run([cli, "diagnose", folder, "--format", "json"], capture_output=True, timeout=120)
    try:
        v = json.loads(p.stdout)["verdict"]
    except (ValueError, KeyError):
        return ("no verdict", p.returncode, None)
    return (v["status"], v.get("root_cause_class"), (v.get("initiating_ranks") or [None])[0])


def rewritten(case, shape, work):
    out = os.path.join(work, os.path.basename(case.rstrip("/")))
    shutil.rmtree(out, ignore_errors=True)
    os.makedirs(out)
    for name in sorted(os.listdir(case)):
        path = os.path.join(case, name)
        if name in NOT_LOGS or not os.path.isfile(path):
            continue
        with open(path, "rb") as f:
            data = f.read()
        with open(os.path.join(out, name), "wb") as f:
            f.write(SHAPES[shape](data) if shape else data)
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--cli", required=True)
    ap.add_argument("--shape", action="append", choices=sorted(SHAPES))
    ap.add_argument("--fail-on-change", action="store_true")
    ap.add_argument("dirs", nargs="+", help="folders of case folders")
    args = ap.parse_args()
    cases = sorted(os.path.join(d, c) for d in args.dirs for c in os.listdir(d) if os.path.isdir(os.path.join(d, c)))
    any_changed = False
    with tempfile.TemporaryDirectory(prefix="rankscope-paste-") as work:
        plain = {c: verdict(args.cli, rewritten(c, None, work)) for c in cases}
        for shape in args.shape or list(SHAPES):
            changed = []
            for c in cases:
                got = verdict(args.cli, rewritten(c, shape, work))
                if got != plain[c]:
                    changed.append((os.path.basename(c), plain[c], got))
            any_changed = any_changed or bool(changed)
            print(f"{shape:8} changed {len(changed)} of {len(cases)}")
            for name, was, now in changed:
                print(f"    {name}: {was} -> {now}")
            sys.stdout.flush()
    return 1 if args.fail_on_change and any_changed else 0


if __name__ == "__main__":
    sys.exit(main())
