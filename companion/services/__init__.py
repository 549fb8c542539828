"""Shared operations below the blueprints (any blueprint may use them; they import none)."""
