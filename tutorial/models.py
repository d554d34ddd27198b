"""Models of the tutorial app (none yet)."""
