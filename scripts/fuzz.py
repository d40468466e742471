"""Run the fuzz tests (tests/fuzz) with many more examples than CI, and count them.

Usage: python scripts/fuzz.py [--scale N] [pytest args ...]
--scale multiplies every test's example count (FUZZ_SCALE; 1 is CI's fixed, derandomized
run) and draws new random examples each time.  Prints each test's passing examples, the
total and the time taken; exits with pytest's status (a failure prints the falsifying
example and a @reproduce_failure line).
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PASSING = re.compile(r"- (\d+) passing examples")
TEST = re.compile(r"^(tests/fuzz/\S+::\S+):$")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scale", type=int, default=20, help="examples per CI example (20)")
    args, rest = parser.parse_known_args()
    env = {**os.environ, "FUZZ_SCALE": str(args.scale)}
    command = [
        sys.executable, "-m", "pytest", "tests/fuzz", "-q", "-p", "no:cacheprovider",
        "--hypothesis-show-statistics", *rest,
    ]  # fmt: skip
    started = time.monotonic()
    done = subprocess.run(command, cwd=ROOT, env=env, capture_output=True, text=True)
    seconds = time.monotonic() - started
    total, test = 0, ""
    for line in done.stdout.splitlines():
        if found := TEST.match(line.strip()):
            test = found.group(1)
        elif (count := PASSING.search(line)) and test:
            print(f"{int(count.group(1)):>7,}  {test}")
            total += int(count.group(1))
            test = ""  # the generate phase only; shrinking's examples are not new ones
    print(f"{total:>7,}  examples passed in {seconds:.0f} s (FUZZ_SCALE={args.scale})")
    if done.returncode != 0:
        print(done.stdout[-20_000:], done.stderr[-5_000:], sep="\n", file=sys.stderr)
    return done.returncode


if __name__ == "__main__":
    raise SystemExit(main())
