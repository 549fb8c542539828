"""Shared operations below the blueprints (stored results, ...): blueprints import these,
never each other."""
