#!/usr/bin/env python3
"""A maintained secret scanner judges Rankscope's masking (issue 21, item 8).

The scanner reads the crafted bundle (every file, and the list of its file and folder
names) and reports the secrets it finds; then rankscope-cli writes every output (diagnose
text, JSON and Markdown, report HTML, Markdown and JSON, each with and without
--anonymize) and none of those secrets may be in any of them.

Scanners: detect-secrets (Yelp; `pip install detect-secrets`) and secretlint (`npm install
-g secretlint @secretlint/secretlint-rule-preset-recommend`); each one present judges.
With neither, the test is skipped (exit 77) and says how to get one; the Catch2 tests with
the planted secrets (tests/app/test_secret_outputs.cpp) run regardless.
"""
import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile

SKIP = 77


def bundle_files(bundle):
    for root, _dirs, files in os.walk(bundle):
        for name in sorted(files):
            yield os.path.join(root, name)


def names_file(bundle, scratch):
    """The bundle's relative file and folder names, one per line, for the scanners."""
    path = os.path.join(scratch, "bundle-names.txt")
    top = os.path.dirname(os.path.abspath(bundle))
    with open(path, "w") as f:
        for file in bundle_files(bundle):
            f.write(os.path.relpath(file, top) + "\n")
    return path


def detect_secrets_findings(files):
    try:
        from detect_secrets import SecretsCollection
        from detect_secrets.settings import default_settings
    except ImportError:
        return None
    found = set()
    collection = SecretsCollection()
    with default_settings():
        for file in files:
            collection.scan_file(file)
    for _filename, secret in collection:
        if secret.secret_value:
            found.add(secret.secret_value)
    return found


def secretlint_findings(files, scratch):
    exe = shutil.which("secretlint")
    if exe is None:
        return None
    config = os.path.join(scratch, "secretlintrc.json")
    with open(config, "w") as f:
        json.dump({"rules": [{"id": "@secretlint/secretlint-rule-preset-recommend"}]}, f)
    run = subprocess.run([exe, "--format", "json", "--secretlintrc", config, *files],
                         capture_output=True, text=True, cwd=scratch)
    try:
        results = json.loads(run.stdout)
    except json.JSONDecodeError:
        print("secretlint did not answer in JSON (is its recommended preset installed?):\n"
              + run.stdout[:400] + run.stderr[:400])
        return None
    found = set()
    for result in results:
        with open(result["filePath"], encoding="utf-8", errors="replace") as f:
            content = f.read()
        for message in result.get("messages", []):
            begin, end = message["range"]
            found.add(content[begin:end])
    return found


def outputs(cli, bundle, out):
    os.makedirs(out, exist_ok=True)
    written = []
    for anonymize in ([], ["--anonymize"]):
        tag = "-anon" if anonymize else ""
        for fmt in ("text", "json", "md", "sarif", "gnu"):
            path = os.path.join(out, "diagnose%s.%s" % (tag, fmt))
            subprocess.run([cli, "diagnose", bundle, "--format", fmt, "-o", path, *anonymize],
                           check=True)
            written.append(path)
        for ext in ("html", "md", "json"):
            path = os.path.join(out, "report%s.%s" % (tag, ext))
            subprocess.run([cli, "report", bundle, "-o", path, *anonymize], check=True)
            written.append(path)
    return written


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--cli", required=True)
    parser.add_argument("--bundle", required=True)
    parser.add_argument("--out", required=True)
    args = parser.parse_args()

    scratch = tempfile.mkdtemp(prefix="rankscope-judge-")
    try:
        files = list(bundle_files(args.bundle)) + [names_file(args.bundle, scratch)]
        judges = {
            "detect-secrets": detect_secrets_findings(files),
            "secretlint": secretlint_findings(files, scratch),
        }
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    judges = {name: found for name, found in judges.items() if found is not None}
    if not judges:
        print("SKIP: no maintained secret scanner to judge with; install detect-secrets "
              "(pip install detect-secrets) or secretlint (npm install -g secretlint "
              "@secretlint/secretlint-rule-preset-recommend)")
        return SKIP

    written = outputs(args.cli, args.bundle, args.out)
    texts = {path: open(path, encoding="utf-8", errors="replace").read() for path in written}
    failed = False
    for name, found in judges.items():
        if not found:
            print("FAIL: %s found no secret in the crafted bundle: it judged nothing" % name)
            failed = True
            continue
        leaks = [(secret, path) for secret in sorted(found) for path, text in texts.items()
                 if secret in text]
        for secret, path in leaks:
            print("FAIL: %s's finding %r survives in %s" % (name, secret, path))
        failed |= bool(leaks)
        print("%s: %d secret(s) found in the bundle, %d survive in %d outputs"
              % (name, len(found), len(leaks), len(written)))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
