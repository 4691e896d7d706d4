#!/usr/bin/env python3
"""The VS Code problem matchers of docs/editor/tasks.json read rankscope-cli's --format gnu.

Loads the tasks file as VS Code would (JSON), takes every task's problem matcher, runs
`rankscope-cli diagnose BUNDLE --format gnu` from the folder the task runs in, and parses the
output with each matcher's regexp (JavaScript and Python agree on the syntax it uses):

- every line that names a file must match, with a file that exists, a line within it and a
  severity VS Code knows (error, warning, note);
- the initiating evidence must come out as an error at the initiating rank's log, and the
  verdict line ("rankscope-cli: ...", no file) must not match;
- a sample of lines that are not locations must not match either.

Usage: check_problem_matcher.py --cli CLI --tasks tasks.json --workspace DIR --bundle PATH
       --initiating FILE_NAME
"""
import argparse
import json
import os
import re
import subprocess
import sys


def matchers(tasks_path):
    with open(tasks_path, encoding="utf-8") as f:
        tasks = json.load(f)
    found = []
    for task in tasks["tasks"]:
        m = task.get("problemMatcher")
        if not isinstance(m, dict):
            raise SystemExit(f"task {task['label']!r}: the problem matcher must be written out "
                             "(a named one needs an extension)")
        found.append((task["label"], m))
    if not found:
        raise SystemExit("no task with a problem matcher in " + tasks_path)
    return found


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--cli", required=True)
    ap.add_argument("--tasks", required=True)
    ap.add_argument("--workspace", required=True)
    ap.add_argument("--bundle", required=True)
    ap.add_argument("--initiating", required=True)
    a = ap.parse_args()

    cli = os.path.abspath(a.cli)
    bundle = os.path.relpath(a.bundle, a.workspace)
    run = subprocess.run([cli, "diagnose", bundle, "--format", "gnu"], cwd=a.workspace,
                         capture_output=True, text=True)
    if run.returncode != 0:
        print(run.stderr)
        return 1
    lines = run.stdout.splitlines()
    print(f"{len(lines)} line(s) of --format gnu output")
    failures = []
    for label, matcher in matchers(a.tasks):
        p = matcher["pattern"]
        regexp = re.compile(p["regexp"])
        located = [l for l in lines if not l.startswith("rankscope-cli: ")]
        if not located:
            failures.append(f"{label}: the output has no located line at all")
        errors_at = set()
        for line in located:
            m = regexp.search(line)
            if not m:
                failures.append(f"{label}: does not match: {line}")
                continue
            path = m.group(p["file"])
            number = int(m.group(p["line"]))
            severity = m.group(p["severity"])
            message = m.group(p["message"])
            full = os.path.join(a.workspace, path)
            if not os.path.isfile(full):
                failures.append(f"{label}: file {path!r} does not exist from {a.workspace}")
                continue
            with open(full, encoding="utf-8", errors="replace") as f:
                count = sum(1 for _ in f)
            if not 1 <= number <= count:
                failures.append(f"{label}: line {number} is outside {path} ({count} lines)")
            if severity not in ("error", "warning", "note"):
                failures.append(f"{label}: severity {severity!r} in: {line}")
            if not message:
                failures.append(f"{label}: empty message in: {line}")
            if severity == "error":
                errors_at.add(os.path.basename(path))
        if a.initiating not in errors_at:
            failures.append(f"{label}: no error at {a.initiating} (errors at {sorted(errors_at)})")
        for line in [l for l in lines if l.startswith("rankscope-cli: ")] + [
                "rankscope-cli: error: Verdict: hang_diagnosed", "Initiating: rank 7",
                "train-0007.out: note: no line number"]:
            if regexp.search(line):
                failures.append(f"{label}: matches a line that names no file line: {line}")
        print(f"{label}: {len(located)} located line(s) parsed, errors at {sorted(errors_at)}")
    for f in failures:
        print("FAIL:", f)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
