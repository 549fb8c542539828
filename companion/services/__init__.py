"""Shared operations below the blueprints (the table's posted hands, ...)."""
