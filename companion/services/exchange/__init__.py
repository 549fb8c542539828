"""Export and import of the history in the ``chickenfoot-companion/v1`` format (docs/EXPORT.md),
below the blueprints so that the CLI (``flask export``/``flask import``) and the history pages
both import it downward.

* :mod:`.export`: the JSON document and the CSV rows of the history;
* :mod:`.importing`: an import, its three steps in order (:func:`.importing.import_document`)
  and its report:

  * :mod:`.decode`: the file's bytes -> plain data, or why the file cannot be read;
  * :mod:`.validate`: plain data -> every problem with its JSON path (schema, references,
    the rules engine), no database;
  * :mod:`.write`: valid plain data -> the database, one transaction, nothing half-saved;
* :mod:`.shape`: the declared shape (``schema/v1.json``, JSON Schema), the format's tag and
  seat marker, and its worded problems.
"""
