"""A fake LLM command for tests: reads a prompt on stdin, answers deterministic JSON.

It appends every prompt it receives to $FAKE_LLM_LOG (JSON lines) so tests can see
what reached the model.  $FAKE_LLM_MODE injects failures:
  exit          exit 1 on every call
  bad-key       exit 1 on every call, the last line of stderr a 401 (as an expired key does)
  fail-after=N  exit 1 on every call after call N
  hang          sleep forever (the caller's --timeout must kill it)
  garbage       print text that is not JSON
  cutoff        print a JSON object cut off half-way
  fail-window=N garbage for every call about window N, fine otherwise
  repair-once   garbage on the first call, then valid answers
  kill-at=N     on call N (1-based), kill the parent process (a crash mid-run)
  interrupt-at=N on call N, send SIGINT to the parent (Ctrl-C mid-run)
"""

from __future__ import annotations

import json
import os
import re
import signal
import sys
import time
from pathlib import Path


def _log(prompt: str) -> int:
    path = Path(os.environ["FAKE_LLM_LOG"])
    with path.open("a", encoding="utf-8") as out:
        out.write(json.dumps({"prompt": prompt}) + "\n")
    return sum(1 for _ in path.open(encoding="utf-8"))


def _answer(prompt: str) -> dict[str, object]:
    if "<memories>" in prompt:
        windows = re.findall(r'"window": (\d+)', prompt)
        return {
            "executive_summary": f"summary over windows {','.join(windows)}",
            "insights": ["final insight"],
            "compliance_flags": ["final flag"],
            "cross_references": [],
        }
    number = re.search(r"window (\d+)", prompt)
    index = int(number.group(1)) if number else 0
    if "<findings" in prompt:
        return {
            "key_entities": [{"name": f"Entity{index}", "type": "thing"}],
            "key_relationships": [],
            "running_insights": [f"memory after window {index}"],
            "compliance_flags": [],
            "cross_references": [],
        }
    words = re.findall(r"\b[A-Z][a-z]+\b", prompt.split("<new_text>")[-1].split("</new_text>")[0])
    return {
        "insights": [f"insight of window {index}"],
        "entities": [{"name": f"Entity{index}", "type": "thing"}]
        + [{"name": w, "type": "word"} for w in sorted(set(words))[:3]],
        "relationships": [
            {"source": f"Entity{index}", "relation": "follows", "target": f"Entity{index - 1}"}
        ],
        "compliance_flags": [f"flag {index}"],
        "cross_references": [],
    }


def main() -> None:
    prompt = sys.stdin.read()
    call = _log(prompt)
    mode = os.environ.get("FAKE_LLM_MODE", "")
    about = re.search(r"window (\d+)", prompt)
    if mode == "exit":
        sys.stderr.write("model unavailable\n")
        sys.exit(1)
    if mode == "bad-key" or (mode.startswith("fail-after=") and call > int(mode.split("=")[1])):
        sys.stderr.write("calling the model's API\nError: 401 invalid api key\n")
        sys.exit(1)
    if mode == "hang":
        time.sleep(3600)
    if mode == "garbage" or (mode == "repair-once" and call == 1):
        print("I am sorry, I cannot produce JSON today.")
        return
    wanted = mode.split("=")[1] if mode.startswith("fail-window=") else None
    if wanted and about and about.group(1) == wanted and "<memories>" not in prompt:
        print("not json at all")
        return
    if mode.startswith("kill-at=") and call == int(mode.split("=")[1]):
        os.kill(os.getppid(), signal.SIGKILL)
        time.sleep(5)
        return
    if mode.startswith("interrupt-at=") and call == int(mode.split("=")[1]):
        os.kill(os.getppid(), signal.SIGINT)
        time.sleep(5)
        return
    text = json.dumps(_answer(prompt))
    if mode == "cutoff":
        text = text[: len(text) // 2]
    print(text)


if __name__ == "__main__":
    main()
