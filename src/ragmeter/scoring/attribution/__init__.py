"""Attribution: NLI from any LLM, ALCE metrics and Trust-Score."""
