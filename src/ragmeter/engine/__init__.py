"""A run: config, samples, pipeline, scorers, journal, results; local and Ray executors."""
