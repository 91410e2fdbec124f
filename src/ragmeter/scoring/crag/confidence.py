"""A confidence a system states beside its answer, read as its own word on how sure it is.

Calibrated services attach a number or a word to an answer ("Answer: X. Confidence: 0.86.",
"X (confidence: high)", "[conf 0.71] X", "Yes (0.93).", "X - confidence 92%", "We assess
with moderate confidence that X"). The rubric
reads it as it reads a belief: 0.8 (80%) or more, "high" or "confident" leaves the answer as
it is; anything lower, "medium", "moderate" or "low" is explicit uncertainty, so the answer is
incorrect even when it is the gold. A first answer with runner-ups ("Top answer: X (61%).
Runner-up: Y (24%).") offers alternatives: a hedge. The annotations say nothing about the
world, so the rules and judges read the answer without them.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

__all__ = ["SURE", "ConfidenceReading", "read_confidence"]

SURE = 0.8
"""The lowest stated confidence that leaves an answer standing."""

_WORDS = {
    "very high": 0.95,
    "high": 0.9,
    "very confident": 0.95,
    "confident": 0.9,
    "medium": 0.6,
    "moderate": 0.6,
    "fairly confident": 0.6,
    "reasonably confident": 0.6,
    "low": 0.3,
    "very low": 0.1,
}
_NUMBER = r"(?:0?\.\d+|1(?:\.0+)?|\d{1,3}(?:\.\d+)?\s*%)"
_WORD = "|".join(sorted((re.escape(w).replace(r"\ ", r"\s+") for w in _WORDS), key=len)[::-1])
# "Confidence: 0.86.", "(confidence: high)", "- confidence 92%", "[conf 0.71]", "confidence
# level: medium": a label, then the value, ending where the annotation ends (a bracket,
# sentence punctuation or the end), so "confidence 0.19 is under the cutoff" is a sentence,
# not an annotation.
_LABELED = re.compile(
    r"(?P<open>[\[(]\s*|\s[-\u2013\u2014]\s*|(?<![\w\s])\s*|^\s*)"
    r"(?:confidence|conf\.?|certainty)(?:\s+(?:score|level))?\s*(?:[:=]\s*|\s+of\s+|\s+)"
    rf"(?P<value>{_NUMBER}|{_WORD})"
    r"\s*(?P<close>[\])]|(?=[.;,!]|\s*$))",
    # A template puts the annotation on a line of its own: "Answer: X\nConfidence: medium".
    re.IGNORECASE | re.MULTILINE,
)
# "No answer: confidence 0.19 is under the 0.40 cutoff.": the confidence and the bar it missed,
# said in a sentence; neither figure is an answer.
_BELOW_BAR = re.compile(
    rf"(?:confidence|conf\.?)\s+(?:of\s+)?(?P<value>{_NUMBER})\s+(?:is\s+|was\s+)?"
    rf"(?:under|below)\s+(?:the\s+|its\s+|our\s+)?(?:{_NUMBER}\s+)?(?:cutoff|threshold|bar)\b",
    re.IGNORECASE,
)
# "We assess with moderate confidence that ...": the confidence said in the sentence, as an
# analyst's estimative language words it.
_PHRASED = re.compile(
    rf"\bwith\s+(?:an?\s+)?(?P<value>{_WORD})\s+(?:(?:level|degree)\s+of\s+)?confidence\b",
    re.IGNORECASE,
)
# "Yes (0.93).", "Top answer: Boeing (52%).": a bare probability in parentheses. Percentages
# are read this way only beside a top answer or a runner-up: "Toy Story (100%)" is a rating.
_BARE_DECIMAL = re.compile(r"\s*\(\s*(?P<value>0?\.\d+)\s*\)")
_BARE_PERCENT = re.compile(r"\s*\(\s*(?P<value>\d{1,2}(?:\.\d+)?\s*%)\s*\)")
_OTHER_CANDIDATE = r"runner-?up\s*:|alternatively\b|second\s+choice\b|next\s+most\s+likely\b"
_RUNNER_UP = re.compile(rf"\b(?:{_OTHER_CANDIDATE})", re.IGNORECASE)
_CANDIDATES = re.compile(
    rf"\b(?:{_OTHER_CANDIDATE}|top\s+answer\s*:|most\s+likely\b)", re.IGNORECASE
)


def _value(raw: str) -> float:
    raw = re.sub(r"\s+", " ", raw.strip().lower())
    if raw in _WORDS:
        return _WORDS[raw]
    if raw.endswith("%"):
        return float(raw[:-1]) / 100
    return float(raw)


@dataclass(frozen=True)
class ConfidenceReading:
    """What a prediction states about its own confidence."""

    values: tuple[float, ...]
    """Each stated confidence, from 0 to 1, in the order written."""
    lowest: str
    """The annotation of the lowest one, as written."""
    runner_up: str | None
    """The words that offer another candidate beside a stated confidence, if any."""
    text: str
    """The prediction with the annotations removed."""

    @property
    def unsure(self) -> bool:
        """True when the system says it is not sure: a value below `SURE`, or runner-ups."""
        return self.runner_up is not None or min(self.values) < SURE


def read_confidence(text: str) -> ConfidenceReading | None:
    """The confidence ``text`` states beside its answer, or None when it states none."""
    found: list[tuple[int, int, float, str]] = []
    for m in _LABELED.finditer(text):
        start = m.start("open") if m.group("open").strip() else m.start()
        end = m.end("close") if m.group("close") else m.end("value")
        if text[:start].rstrip().endswith(".") and text[end : end + 1] == ".":
            end += 1  # "Answer: X. Confidence: 0.86. Basis: ...": the whole sentence goes
        found.append((start, end, _value(m.group("value")), m.group(0).strip()))
    patterns = [_BELOW_BAR, _PHRASED, _BARE_DECIMAL] + (
        [_BARE_PERCENT] if _CANDIDATES.search(text) else []
    )
    for pattern in patterns:
        for m in pattern.finditer(text):
            if not any(s <= m.start() < e for s, e, _, _ in found):
                found.append((m.start(), m.end(), _value(m.group("value")), m.group(0).strip()))
    if not found:
        return None
    found.sort()
    runner_up = _RUNNER_UP.search(text)
    plain = text
    for start, end, _, _ in reversed(found):
        plain = plain[:start] + plain[end:]
    plain = re.sub(r"\s+([.;,!])", r"\1", re.sub(r"[ \t]{2,}", " ", plain))
    plain = re.sub(r"[:;,]+(?=[.!?]|$)", "", plain.strip())
    lowest = min(found, key=lambda f: f[2])
    return ConfidenceReading(
        values=tuple(f[2] for f in found),
        lowest=lowest[3],
        runner_up=runner_up.group(0) if runner_up and len(found) > 1 else None,
        text=plain,
    )
