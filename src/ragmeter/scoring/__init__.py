"""Scoring, in three sub-packages: ``crag`` (answer scoring), ``attribution`` (NLI, ALCE,
Trust-Score) and ``meta`` (checking our own judges). The modules at this level are shared by
them: answer normalisation, phrase sets and refusal detection, bootstrap intervals."""
