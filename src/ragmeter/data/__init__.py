"""Streaming readers and writers for every benchmark format ragmeter knows."""
