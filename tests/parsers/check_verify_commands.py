#!/usr/bin/env python3
"""Every verification command in the knowledge base pastes into bash as it is.

The app's Copy buttons and the reports' command blocks hold a step's "command" only, so a
command must be a complete bash command line once its {placeholders} are filled: no prose,
no "<pid>"-style blanks (bash reads "<" as a redirection), no note in parentheses. Notes
belong in the step's "note". Exits non-zero and names every offending step.
"""
import json
import re
import subprocess
import sys

PLACEHOLDER = re.compile(r"\{([a-z_]+)\}")
ANGLE_BLANK = re.compile(r"<[A-Za-z][A-Za-z /_-]*>")
TRAILING_NOTE = re.compile(r"\s\((?![^()]*\)\s*[;|&])[^()]*\)\s*$")


def problems(command: str):
    filled = PLACEHOLDER.sub(lambda m: "x" + m.group(1), command)
    if ANGLE_BLANK.search(command):
        yield "has a <blank> to fill in; use a shell variable and say so in the note"
    if TRAILING_NOTE.search(command) and not command.rstrip().endswith("'"):
        yield "ends in a parenthesised note; move it to the step's note"
    result = subprocess.run(["bash", "-n", "-c", filled], capture_output=True, text=True)
    if result.returncode != 0:
        yield "is not valid bash: " + result.stderr.strip()


def main(path: str) -> int:
    knowledge = json.load(open(path, encoding="utf-8"))
    failures, commands = [], 0
    for section in ("classes", "rules"):
        for name, entry in knowledge.get(section, {}).items():
            for step in entry.get("verify", []):
                if not isinstance(step, dict) or not (step.get("command") or step.get("note")):
                    failures.append(f"{section}.{name}: a verify step is not {{command, note}}: {step!r}")
                    continue
                command = step.get("command", "")
                if not command:
                    continue
                commands += 1
                for p in problems(command):
                    failures.append(f"{section}.{name}: {command!r} {p}")
    for f in failures:
        print(f, file=sys.stderr)
    print(f"{commands} commands checked, {len(failures)} problems")
    return 1 if failures or commands == 0 else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
