"""Meta-evaluation: our judges measured against labeled cases and qa-feedback's humans."""
