"""The scorekeeper's screen set up for browser tests and for scripts/screenshots.py: a game of
``n`` players on a set stored straight into the live server's database, hands posted as if
from the players' phones, and the measures of issue 22 (the round form's height from its first
hand to its Save button, the smallest figure, the touch targets, the widest element)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from typing import Any

from flask import Flask
from playwright.sync_api import Page

from companion.extensions import db
from companion.models import Device, Game, GameAccess
from companion.services import game_setup as setup
from companion.services import hand_posts as posts
from companion.services.round_plan import load_game, plan_round

#: a small phone: the narrowest width the app is designed for (360 x 740 CSS px)
SMALL_PHONE: dict[str, Any] = {
    "viewport": {"width": 360, "height": 740},
    "device_scale_factor": 2,
    "is_mobile": True,
    "has_touch": True,
}

FOUR = ["Ann", "Bob", "Cho", "Dee"]
TWELVE = ["Ann", "Bob", "Cho", "Dee", "Eve", "Finn", "Gus", "Hal", "Ivy", "Jo", "Kai", "Lou"]

#: twelve 60-character names (NAME_MAX), each a few long words, as a tester typed them: a
#: name must stay on one line (cut with an ellipsis), not wrap to eight lines mid-word
LONG_TWELVE = [
    f"P{i:02d} Abcdefghijklmnopqrstuvwxyz Wolfeschlegelsteinhausenberge" for i in range(1, 13)
]
assert all(len(name) == 60 for name in LONG_TWELVE)

#: budgets at 360 x 740 (CSS px): the round form from its first hand to its Save button
FORM_BUDGET = {4: 740, 12: 1110}

#: the round form's height from the top of its first hand to the bottom of its Save button,
#: in document coordinates, measured with the page scrolled to its end (Save is sticky: only
#: there does it stand at its own place in the form)
FORM_HEIGHT = """() => {
  window.scrollTo(0, document.body.scrollHeight);
  const form = document.querySelector('#round-area form.round-form');
  const first = form.querySelector('fieldset.hand').getBoundingClientRect();
  const save = form.querySelector('.actions button.big').getBoundingClientRect();
  return save.bottom - first.top;
}"""

#: controls of the round form smaller than 44 x 44 CSS px (a tick box counts by its label)
SMALL_TARGETS = """() => {
  const form = document.querySelector('#round-area form.round-form');
  const found = [];
  for (const el of form.querySelectorAll('button, input, select, label.went-out, label.check')) {
    if (el.matches('input[type=hidden], input[type=checkbox], .visually-hidden')) continue;
    if (el.closest('details.picker-box')) continue;
    const box = el.getBoundingClientRect();
    if (box.width === 0 && box.height === 0) continue;
    const what = el.tagName + '.' + el.className;
    if (box.width < 43.5 || box.height < 43.5) found.push([what, box.width, box.height]);
  }
  return found;
}"""


@dataclass(frozen=True)
class Table:
    """A seeded game: its id, its edit and share tokens, its night's id, its join secret."""

    id: int
    edit: str
    share: str
    night: int
    join: str


def seed_table(app: Flask, names: list[str], set_size: int) -> Table:
    """A new game of ``names`` on ``set_size`` in a new night."""
    with app.test_request_context():
        night = setup.create_night(db.session, date.today(), "Kaunas")
        choices = [setup.PlayerChoice(name=n, seat=i + 1) for i, n in enumerate(names)]
        game = setup.create_game(db.session, night, choices, set_size, "standard", {})
        found = Table(game.id, game.edit_token, game.share_token, night.id, game.join_token)
        db.session.remove()
        return found


def phone_posts(app: Flask, game_id: int, hands: dict[int, int | list[str] | None]) -> None:
    """Post hands as if from each player's own phone (one device per seat, joined to it):
    ``hands`` maps a seat's index to its pip total, its tapped tiles ("9-8"), or None for
    "I went out"."""
    with app.test_request_context():
        game = load_game(db.session.get(Game, game_id))
        plan = plan_round(game)
        assert plan is not None
        for index, total in hands.items():
            seat = game.seats[index]
            device = Device()
            db.session.add(device)
            db.session.flush()
            db.session.add(
                GameAccess(game_id=game.id, device_id=device.id, role="player", seat_id=seat.id)
            )
            db.session.commit()
            posts.post_hand(
                game,
                seat,
                device,
                plan.double,
                total="" if total is None or isinstance(total, list) else str(total),
                tiles=total if isinstance(total, list) else None,
                went_out=total is None,
            )
        db.session.remove()


def form_height(page: Page) -> float:
    """The round form's height (CSS px) from its first hand to its Save button."""
    return float(page.evaluate(FORM_HEIGHT))


def small_targets(page: Page) -> list[Any]:
    """The round form's controls below 44 x 44 CSS px."""
    return list(page.evaluate(SMALL_TARGETS))
