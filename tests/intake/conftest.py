"""Intake tests: the fixture skills are data, never collected or imported by pytest."""

collect_ignore_glob = ["fixtures/*", "corpus/*"]
