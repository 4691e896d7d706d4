#!/usr/bin/env python3
"""rankscope-cli diagnose --format sarif is valid SARIF 2.1.0 and says what the JSON says.

For each bundle (VERDICT=PATH, or VERDICT=-PATH to pipe the file in as standard input, where
VERDICT is a status with, optionally, a root-cause class: hang_diagnosed/network_pair) it runs
`diagnose --format sarif` and `--format json` and checks:

- the document validates against the OASIS SARIF 2.1.0 schema (tests/data/schemas);
- the verdict is the expected one, there is one result per finding and one location per
  evidence line, each at its line;
- every artifact a location names exists: a file relative to its uriBaseId (resolved through
  originalUriBaseIds), an archive member inside its parent artifact (parentIndex);
- tool.driver carries the CMake version;
- and, so that a passing run means something, that the same document broken on purpose
  (a level SARIF does not know, a missing tool) is rejected by the validator.

Needs python3-jsonschema (Debian). Exit 77 (skipped) when no interpreter has it.
"""
import argparse
import copy
import json
import os
import subprocess
import sys
import tarfile
import urllib.parse
import urllib.request

try:
    import jsonschema
except ImportError:
    # Debian's python3-jsonschema is for Debian's interpreter, which may not be first on PATH.
    if os.path.realpath(sys.executable) != os.path.realpath("/usr/bin/python3") \
            and os.path.exists("/usr/bin/python3"):
        os.execv("/usr/bin/python3", ["/usr/bin/python3"] + sys.argv)
    print("SKIP: no Python with jsonschema (apt-get install python3-jsonschema)")
    sys.exit(77)


def run(cli, args, stdin_path=None):
    stdin = open(stdin_path, "rb") if stdin_path else subprocess.DEVNULL
    try:
        out = subprocess.run([cli] + args, stdin=stdin, capture_output=True, check=False)
    finally:
        if stdin_path:
            stdin.close()
    if out.returncode != 0:
        raise SystemExit(f"rankscope-cli {' '.join(args)} failed: {out.stderr.decode()}")
    return json.loads(out.stdout)


def schema_errors(validator, doc):
    return sorted(validator.iter_errors(doc), key=lambda e: list(e.path))


def artifact_problems(run_obj, location):
    """Why the artifact a location names cannot be found, or None."""
    artifacts = run_obj.get("artifacts", [])
    art_loc = location["physicalLocation"]["artifactLocation"]
    index = art_loc.get("index")
    if index is None:
        return None if art_loc.get("uri") == "stdin" else f"no artifact index: {art_loc}"
    chain = []
    while index is not None:
        artifact = artifacts[index]
        chain.append(artifact)
        index = artifact.get("parentIndex")
    top = chain[-1]["location"]
    if "uriBaseId" not in top:
        return None if top.get("uri") == "stdin" else f"top artifact without uriBaseId: {top}"
    base = run_obj["originalUriBaseIds"][top["uriBaseId"]]["uri"]
    if not base.startswith("file:///") or not base.endswith("/"):
        return f"base {base} is not an absolute file URI ending in /"
    path = urllib.request.url2pathname(urllib.parse.urlparse(base + top["uri"]).path)
    if not os.path.isfile(path):
        return f"{path} does not exist"
    if len(chain) > 1:
        members = [urllib.parse.unquote(a["location"]["uri"]) for a in reversed(chain[:-1])]
        with tarfile.open(path) as tar:
            names = [n.lstrip("./") for n in tar.getnames()]
        if members[0] not in names:
            return f"{members[0]} is not in {path} ({names[:5]}...)"
    return None


def check_bundle(cli, validator, status, path, stdin, version, out_dir):
    problems = []
    args = ["diagnose", "-" if stdin else path]
    sarif = run(cli, args + ["--format", "sarif"], path if stdin else None)
    plain = run(cli, args + ["--format", "json"], path if stdin else None)
    name = os.path.basename(path.rstrip("/"))
    with open(os.path.join(out_dir, name + ".sarif"), "w", encoding="utf-8") as f:
        json.dump(sarif, f, indent=2)

    errors = schema_errors(validator, sarif)
    for e in errors[:10]:
        problems.append(f"schema: {e.message} at {'/'.join(map(str, e.path))}")
    runs = sarif.get("runs", [])
    if len(runs) != 1:
        return problems + [f"{len(runs)} runs, expected 1"]
    r = runs[0]
    driver = r["tool"]["driver"]
    if driver.get("version") != version:
        problems.append(f"tool.driver.version {driver.get('version')!r}, expected {version!r}")
    if not driver.get("informationUri", "").startswith("https://"):
        problems.append("tool.driver.informationUri is not an https address")
    verdict = r["properties"]["verdict"]
    said = verdict["status"] + ("/" + verdict["root_cause_class"] if "/" in status else "")
    if said != status:
        problems.append(f"verdict {said}, expected {status}")
    if verdict != plain["verdict"]:
        problems.append("the SARIF verdict differs from --format json's")
    findings = plain["findings"]
    results = r["results"]
    if len(results) != len(findings):
        problems.append(f"{len(results)} results for {len(findings)} findings")
    rule_ids = [rule["id"] for rule in driver["rules"]]
    for result, finding in zip(results, findings):
        if not result["ruleId"].endswith("/" + finding["rule"]):
            problems.append(f"ruleId {result['ruleId']} for finding {finding['rule']}")
        if rule_ids[result["ruleIndex"]] != result["ruleId"].split("/")[0]:
            problems.append(f"ruleIndex {result['ruleIndex']} does not name {result['ruleId']}")
        text = result["message"]["text"]
        if "Verdict: " + verdict["status"] not in text:
            problems.append(f"the message of {finding['rule']} does not state the verdict")
        for fix in finding["fix"][:1]:
            if fix not in text:
                problems.append(f"the message of {finding['rule']} lacks its fix")
        evidence = [e for e in finding["evidence"] if e["source"] is not None]
        if len(result["locations"]) != len(evidence):
            problems.append(f"{finding['rule']}: {len(result['locations'])} locations for "
                            f"{len(evidence)} evidence lines")
        for loc, e in zip(result["locations"], evidence):
            region = loc["physicalLocation"].get("region")
            if e["line"] and (not region or region["startLine"] != e["line"]):
                problems.append(f"{finding['rule']}: region {region} for line {e['line']}")
            why = artifact_problems(r, loc)
            if why:
                problems.append(f"{finding['rule']}: {why}")
    if status.startswith("hang_diagnosed") and not any(res["level"] == "error" for res in results):
        problems.append("a diagnosed hang has no result at level error")

    # The validator must be able to say no, or a pass proves nothing.
    broken = copy.deepcopy(sarif)
    if broken["runs"][0]["results"]:
        broken["runs"][0]["results"][0]["level"] = "fatal"
    else:
        del broken["runs"][0]["tool"]
    if not schema_errors(validator, broken):
        problems.append("the schema accepted a document broken on purpose")
    print(f"{status:32} {name}: {len(results)} result(s), "
          f"{sum(len(x['locations']) for x in results)} location(s), "
          f"{len(r.get('artifacts', []))} artifact(s), {len(errors)} schema error(s)")
    return problems


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--cli", required=True)
    ap.add_argument("--schema", required=True)
    ap.add_argument("--version", required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--archive", action="append", default=[],
                    help="VERDICT=FOLDER: also check FOLDER packed as a .tar.gz")
    ap.add_argument("bundles", nargs="+", help="VERDICT=PATH, or VERDICT=-PATH for stdin")
    a = ap.parse_args()
    cli = os.path.abspath(a.cli)
    os.makedirs(a.out, exist_ok=True)
    with open(a.schema, encoding="utf-8") as f:
        schema = json.load(f)
    cls = jsonschema.validators.validator_for(schema)
    cls.check_schema(schema)
    validator = cls(schema)
    print(f"validating with jsonschema's {cls.__name__} ({jsonschema.__file__})")

    specs = []
    for spec in a.bundles:
        status, path = spec.split("=", 1)
        stdin = path.startswith("-")
        specs.append((status, path[1:] if stdin else path, stdin))
    for spec in a.archive:
        status, folder = spec.split("=", 1)
        archive = os.path.join(a.out, os.path.basename(folder.rstrip("/")) + ".tar.gz")
        with tarfile.open(archive, "w:gz") as tar:
            tar.add(folder, arcname=os.path.basename(folder.rstrip("/")))
        specs.append((status, archive, False))

    failures = []
    for status, path, stdin in specs:
        for p in check_bundle(cli, validator, status, path, stdin, a.version, a.out):
            failures.append(f"{path}: {p}")
    for f in failures:
        print("FAIL:", f)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
