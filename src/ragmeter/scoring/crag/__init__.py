"""CRAG answer scoring: truncation, rules, screens, equivalences, LLM judges, aggregation."""
