"""Intent of a task (bug_fix, feature_add, explain, refactor, test, debug) and its complexity."""

from __future__ import annotations

import re

from ctxopt.types import Entities, Intent, IntentType

PATTERNS: dict[IntentType, tuple[str, ...]] = {
    IntentType.BUG_FIX: (
        r"\bfix(e[sd]|ing)?\b",
        r"\bbugs?\b",
        r"\berrors?\b",
        r"\w(Error|Exception)\b",  # a raised error named in a report: OverflowError
        r"\bnot working\b",
        r"\bbroken\b",
        r"\bcrash(es|ed|ing)?\b",
        r"\bpanic(s|ked|king)?\b",
        r"\bfail(s|ed|ing|ure)?\b",
        r"\bexceptions?\b",
        r"\bwrong(ly)?\b",
        r"\bincorrect(ly)?\b",
        r"\bcorrect(s|ed)? the\b",
        r"\bregression\b",
        # a report of what the code does not do: "is not refreshed", "does not respect"
        r"\b(is|are|was|were|does|do|did|has|have|can|could|should|will|would)(n'?t| not)\b",
        r"\b(isn|aren|wasn|weren|doesn|don|didn|hasn|haven|can|couldn|shouldn|won|wouldn)'?t\b",
        r"\bno longer\b",
        r"\bignor(es|ed|ing)\b",
        r"\b(is|are) missing\b",
        r"\bmissing from\b",
        r"\binstead of\b",
        r"\bsilently\b",
        r"\bdouble[- ]\w+ed\b",
        r"\b(twice|unexpected(ly)?)\b",
        r"\bdrops?\b",
        r"\bloses?\b",
        r"\bprevent\b",
        r"\bit should\b",
        r"\brace\b",
        r"\bhandle\b",
    ),
    IntentType.FEATURE_ADD: (
        r"\badd(s|ed|ing)?\b",
        r"\bimplement(s|ed|ing)?\b",
        r"\bcreate\b",
        r"\bsupport\b",
        r"\bnew\b",
        r"\bintroduce\b",
        r"\ballow\b",
        r"\benable\b",
        r"\boption\b",
    ),
    IntentType.EXPLAIN: (
        r"\bhow does\b",
        r"\bhow do\b",
        r"\bwhat is\b",
        r"\bwhat does\b",
        r"\bexplain\b",
        r"\bdescribe\b",
        r"\boverview\b",
        r"\bunderstand\b",
        r"\bwhere is\b",
        r"\bwalk me through\b",
        # questions: "how are route patterns matched", "where are sessions stored"
        r"^\W*how (is|are|was|were|can|should|would|will|to)\b",
        r"^\W*where (are|do|does|did|can|should)\b",
        r"^\W*(what|which) (are|do|is|does)\b",
        r"^\W*(how|where|what|which|when)\b[^\n]*\?\s*$",
    ),
    IntentType.REFACTOR: (
        r"\brefactor(s|ed|ing)?\b",
        r"\bclean ?up\b",
        r"\brename\b",
        r"\bextract\b",
        r"\bsimplify\b",
        r"\boptimi[sz]e\b",
        r"\brestructure\b",
        r"\bmove\b",
        r"\bdeduplicate\b",
        r"\bsplit\b.*\binto\b",
    ),
    IntentType.TEST: (
        r"\btests?\b",
        r"\bspecs?\b",
        r"\bcoverage\b",
        r"\bunit ?tests?\b",
        r"\bpytest\b",
        r"\bassert(ion)?s?\b",
        r"\bfixtures?\b",
        r"\badd(s|ed|ing)? (a |an |the |more |missing )?(unit )?(tests?|specs?)\b",
    ),
    IntentType.DEBUG: (
        r"\bdebug(ging)?\b",
        r"\bwhy\b",
        r"\btrace(back)?\b",
        r"\bstack ?trace\b",
        r"\blogs?\b",
        r"\bhangs?\b",
        r"\bslow\b",
        r"\bleak(s|ing)?\b",
        r"\binvestigate\b",
        r"\bfind out\b",
    ),
    # A request to review, not a change's own account of itself: "This patch adds ...",
    # "address review feedback" and "check the return value" describe or make a change.
    IntentType.REVIEW: (
        r"^\W*(please\s+)?(review|look\s+over)\b",  # no space: it is a lead, counted twice
        r"\b(please|could you|can you|would you)\s+(review|look over|check)\b",
        r"\b(review|look over|go over|look at|check)\s+(this|the|my|these|our)\s+"
        r"(changes?|diffs?|patch(es)?|prs?|pull requests?|commits?|branch|code)\b",
        r"\bcode review of\b",
        r"\bcheck (this|my)\b",
    ),
}
_COMPILED = {intent: [re.compile(p, re.I) for p in pats] for intent, pats in PATTERNS.items()}
# one-word patterns only: those that can match a first word on its own
_LEADS = {i: [rx for rx in rxs if " " not in rx.pattern] for i, rxs in _COMPILED.items()}
_PRIORITY = [
    IntentType.REVIEW,
    IntentType.TEST,
    IntentType.REFACTOR,
    IntentType.EXPLAIN,
    IntentType.DEBUG,
    IntentType.BUG_FIX,
    IntentType.FEATURE_ADD,
]


LEAD_BONUS = 1  # the task's first word counts again: "Add `data` to HTTPError" adds
_FIRST_WORD = re.compile(r"\W*(\w+)")
# A conventional-commit type says what the change is: "feat(router): ...", "fix!: ..."
_COMMIT_TYPE = re.compile(r"\s*(\w+)(?:\([^)]*\))?!?:\s")
COMMIT_TYPES = {
    "feat": IntentType.FEATURE_ADD,
    "fix": IntentType.BUG_FIX,
    "refactor": IntentType.REFACTOR,
    "perf": IntentType.REFACTOR,
    "test": IntentType.TEST,
    "tests": IntentType.TEST,
}
COMMIT_TYPE_BONUS = 2  # the author named the kind of change: it decides, and counts this much


def detect_intent(task: str, entities: Entities) -> Intent:
    """Count pattern hits per intent, the first word's twice; ties go to the more specific
    intent.  A conventional-commit type ("feat:", "fix(router):") decides."""
    found = _FIRST_WORD.match(task)
    first = found.group(1) if found else ""
    scores = {
        i.value: sum(1 for rx in _COMPILED[i] if rx.search(task))
        + LEAD_BONUS * any(rx.search(first) for rx in _LEADS[i])
        for i in IntentType
    }
    typed = _COMMIT_TYPE.match(task)
    declared = COMMIT_TYPES.get(typed.group(1).lower()) if typed else None
    if declared is not None:
        scores[declared.value] += COMMIT_TYPE_BONUS
    best = declared or max(_PRIORITY, key=lambda i: (scores[i.value], -_PRIORITY.index(i)))
    total = sum(scores.values())
    if scores[best.value] == 0:
        best, certainty = IntentType.FEATURE_ADD, 0.3
    else:
        certainty = round(min(1.0, 0.5 + 0.5 * scores[best.value] / total), 2)
    return Intent(best, certainty, task_complexity(task, entities), scores)


_REASONING = re.compile(
    r"\b(architecture|design|concurren\w*|race|thread\w*|security|migrat\w*|across|"
    r"performance|distributed|async\w*|protocol|algorithm|refactor\w*|all)\b",
    re.I,
)


def task_complexity(task: str, entities: Entities) -> float:
    """A 0..1 guess from length, number of named entities and reasoning-heavy words."""
    words = len(task.split())
    score = min(words / 120, 0.4)
    score += min(len(entities.paths) + len(entities.identifiers), 6) * 0.05
    score += min(len(_REASONING.findall(task)), 4) * 0.08
    return round(min(score, 1.0), 2)
