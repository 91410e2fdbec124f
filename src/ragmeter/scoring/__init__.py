"""Scoring: CRAG rules, refusal detection, LLM judges, aggregation with slices and intervals."""
