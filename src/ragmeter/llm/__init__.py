"""LLM backends behind one protocol (see `ragmeter.llm.protocol`)."""
