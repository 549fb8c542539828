"""The checker's contract (QUESTIONS.md), one module per job: :mod:`.reading` reads a question
(typed accessors that refuse bad values), :mod:`.play`, :mod:`.scores`, :mod:`.game` and
:mod:`.edge` answer the categories, :mod:`.answering` dispatches and shapes the error answers.
"""

from .answering import CATEGORIES, HANDLERS, answer, answer_document
from .reading import Answer, Question

__all__ = ["CATEGORIES", "HANDLERS", "Answer", "Question", "answer", "answer_document"]
