"""Export and import of the history in the ``chickenfoot-companion/v1`` format (docs/EXPORT.md),
below the blueprints so that the CLI (``flask export``/``flask import``) and the history pages
both import it downward.

* :mod:`.export`: the JSON document and the CSV rows of the history;
* :mod:`.importing`: decode, validate, clean and write an export document;
* :mod:`.shape`: the declared shape (``schema/v1.json``, JSON Schema) and its worded problems.
"""
