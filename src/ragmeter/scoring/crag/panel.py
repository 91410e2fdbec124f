"""The judges' own uncertainty, as it belongs in a result.

With several judges: how often they agree (pairwise rate, Fleiss' kappa) and
on what share of questions they split. With one judge: its agreement with
careful graders measured on the shipped real-answer set, when the judge that
scored is the judge that was measured (same model weights and prompts).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from functools import lru_cache

import orjson

from ragmeter.scoring.crag.records import MeasuredAgreement, PanelAgreement, ScoredSample
from ragmeter.scoring.phrases import data_file

__all__ = ["fleiss_kappa", "measured_agreement", "panel_agreement"]

MEASURED_FILE = "judge_agreement.json"
"""Per judge identity (model + prompt fingerprint), its measured agreement (see README)."""


def fleiss_kappa(rows: Sequence[Counter[str]]) -> float | None:
    """Fleiss' kappa of rows of category counts (each row rated by the same number of raters)."""
    rows = [r for r in rows if sum(r.values()) >= 2]
    if not rows:
        return None
    m = sum(rows[0].values())
    if any(sum(r.values()) != m for r in rows):
        raise ValueError("every row needs the same number of ratings")
    n = len(rows)
    per_row = [(sum(c * c for c in r.values()) - m) / (m * (m - 1)) for r in rows]
    p_bar = sum(per_row) / n
    totals: Counter[str] = Counter()
    for r in rows:
        totals.update(r)
    p_e = sum((v / (n * m)) ** 2 for v in totals.values())
    if p_e >= 1.0:
        return None
    return (p_bar - p_e) / (1.0 - p_e)


def panel_agreement(samples: Sequence[ScoredSample]) -> PanelAgreement | None:
    """Agreement of a panel of two or more judges; None for a single judge or none."""
    rows: list[Counter[str]] = []
    for s in samples:
        verdicts = [v.verdict for v in s.votes if v.verdict is not None]
        if len(verdicts) >= 2:
            rows.append(Counter(verdicts))
    if not rows:
        return None
    pair_rates = []
    for r in rows:
        k = sum(r.values())
        pair_rates.append(sum(c * (c - 1) for c in r.values()) / (k * (k - 1)))
    same_size = len({sum(r.values()) for r in rows}) == 1
    return PanelAgreement(
        n=len(rows),
        rate=sum(pair_rates) / len(rows),
        kappa=fleiss_kappa(rows) if same_size else None,
        split_share=sum(1 for r in rows if len(r) > 1) / len(rows),
    )


@lru_cache(maxsize=1)
def _measured() -> dict[str, MeasuredAgreement]:
    path = data_file(MEASURED_FILE, "ragmeter.scoring.crag")
    try:
        raw = orjson.loads(path.read_bytes())
    except (OSError, orjson.JSONDecodeError):
        return {}
    return {str(k): MeasuredAgreement.model_validate(v) for k, v in raw.items()}


def measured_agreement(identities: Sequence[str]) -> MeasuredAgreement | None:
    """The measured agreement of a single judge, when its identity was measured."""
    if len(identities) != 1:
        return None
    return _measured().get(identities[0])
