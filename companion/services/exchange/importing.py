"""Import of the JSON export document: the three steps, in order, and the report of what they did.

* :mod:`.decode`: the file's bytes -> plain data (or why the file cannot be read at all);
* :mod:`.validate`: plain data -> every problem with its JSON path (no database);
* :mod:`.write`: a document without problems -> the database, in one transaction.

:func:`import_document` runs them for the command line (``flask import``) and the history's
import page alike: a refused file imports nothing, a database error rolls everything back.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from sqlalchemy.orm import Session

from .decode import decode, parse_document
from .shape import FORMAT, Problem, to_datetime
from .validate import validate
from .write import MayRestore, Written, _Writer, restore_all, write_document

__all__ = [
    "FORMAT",
    "ImportReport",
    "MayRestore",
    "Problem",
    "_Writer",  # tests break its writing to prove a database error rolls everything back
    "import_document",
    "parse_document",
    "to_datetime",
    "validate",
]


@dataclass
class ImportReport(Written):
    """What an import did: what was written (:class:`~.write.Written`: added, kept, restored,
    not_restored, new_games) or why nothing was.

    Attributes:
        problems: everything wrong with the file; when not empty nothing was imported.
        cleaned: how many texts lost invisible control characters (:mod:`.decode`).
    """

    problems: list[Problem] = field(default_factory=list)
    cleaned: int = 0

    @property
    def ok(self) -> bool:
        """True when the file was accepted (possibly adding nothing new)."""
        return not self.problems

    def lines(self) -> list[str]:
        """The report as plain lines of text, for the command line."""
        if self.problems:
            head = f"Refused: {len(self.problems)} problem(s) found; nothing was imported."
            return [head, *(f"  {p}" for p in self.problems)]
        kinds = ("players", "nights", "games", "rounds", "rulings")
        added = ", ".join(f"{self.added[k]} {k}" for k in kinds)
        kept = ", ".join(f"{self.kept[k]} {k}" for k in kinds if k != "rounds")
        lines = [f"Imported: added {added}.", f"Already there (kept as they were): {kept}."]
        if self.cleaned:
            lines.append(f"Invisible control characters were removed from {self.cleaned} text(s).")
        if self.restored:
            back = ", ".join(f"{self.restored[k]} {k}" for k in ("nights", "games"))
            lines.append(f"Restored (they had been deleted): {back}.")
        if self.not_restored:
            left = ", ".join(f"{self.not_restored[k]} {k}" for k in ("nights", "games"))
            lines.append(f"Left deleted (deleted here; not restored by this import): {left}.")
        return lines


def import_document(
    session: Session,
    source: str | bytes | dict[str, Any],
    may_restore: MayRestore = restore_all,
) -> ImportReport:
    """Decode and validate ``source`` (JSON text or a decoded document) and add what is new, in
    one transaction committed at the end. A night or game of the file that was deleted here
    comes back only when ``may_restore`` says so (the web import: the host, or the game's own
    scorekeeper; an export anyone downloaded must not undo a scorekeeper's deletion).

    Returns an :class:`ImportReport`; when it has problems nothing was written (the session was
    rolled back). Never raises for bad input.
    """
    decoded = decode(source)
    report = ImportReport(
        problems=decoded.problems or validate(decoded.doc), cleaned=decoded.cleaned
    )
    if not report.problems:
        refused = write_document(session, decoded.doc, report, may_restore)
        report.problems += [refused] if refused else []
    return report
