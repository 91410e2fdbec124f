"""Where the points went: per-question diagnosis and what abstaining would have earned."""
