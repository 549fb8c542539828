"""The layout's open-end index and persistent attach (RULES.md §5.2-5.4).

The index is updated by each attach instead of being rebuilt from the whole table; these tests
check it against a walk of every tile on layouts met in simulated games, and check that
versions stay unchanged when later versions (or siblings) are built from them.
"""

from __future__ import annotations

import copy
import pickle
import random
from dataclasses import replace

import pytest

from companion.engine import CENTER, DominoSet, Layout, OpenEnd, legal_moves, preset
from companion.engine.simulate import Event, simulate_round
from tests.engine.util import CROSS, lay, t


def walked_open_ends(layout: Layout) -> list[OpenEnd]:
    """Every place with a free slot, found by walking every tile (the old way)."""
    ends = []
    for tile_id in [CENTER, *(p.id for p in layout.placements)]:
        free = layout.free_slots(tile_id)
        if free:
            ends.append(OpenEnd(tile_id, layout.number_at(tile_id), free, layout.kind(tile_id)))
    return ends


def walked_legal_moves(layout: Layout, hand: list) -> list:
    """Legal moves from the walked open ends and the phase rules (§5.2, §5.4)."""
    if not layout.hub_complete:
        targets = [e for e in walked_open_ends(layout) if e.on == CENTER]
    elif layout.open_foot is not None:
        targets = [e for e in walked_open_ends(layout) if e.on == layout.open_foot]
    else:
        targets = walked_open_ends(layout)
    return [(x, e.on) for x in hand if x not in layout.used for e in targets if x.has(e.number)]


@pytest.mark.parametrize(("n", "players", "seed"), [(9, 4, 1), (12, 6, 2), (18, 8, 3)])
def test_the_index_matches_a_walk_of_the_table(n: int, players: int, seed: int) -> None:
    rules = replace(preset("standard"), set_size=n)
    everything = list(DominoSet(n))
    rng = random.Random(seed)
    seen = 0

    def check(event: Event) -> None:
        nonlocal seen
        layout = event.layout
        assert layout.open_ends() == walked_open_ends(layout)
        hand = rng.sample([x for x in everything if x not in layout.used], 7)
        assert legal_moves(layout, hand) == walked_legal_moves(layout, hand)
        numbers = {e.number for e in walked_open_ends(layout)}
        assert set(layout.ends_by_number) == numbers
        seen += 1

    simulate_round(rules, players, rng, on_event=check)
    assert seen > 20


def test_versions_are_unchanged_by_later_and_sibling_attaches() -> None:
    base = lay("9-9", *CROSS)
    before = (base.placements, base.open_ends(), set(base.used), len(base))
    left = base.attach(t("5-1"), "S1")
    right = base.attach(t("5-2"), "S1")  # a sibling from the same version
    assert (base.placements, base.open_ends(), set(base.used), len(base)) == before
    assert left.get("T1").outer == 1 and right.get("T1").outer == 2
    assert t("5-1") not in right.used and t("5-2") not in left.used
    assert left.last is not None and left.last.text() == "5-1"
    assert left != right and left == base.attach(t("5-1"), "S1")
    assert hash(left) == hash(base.attach(t("5-1"), "S1"))


def test_a_layout_cannot_be_changed_from_outside() -> None:
    layout = lay("9-9", *CROSS)
    with pytest.raises(AttributeError):
        layout.center = t("8-8")  # type: ignore[misc]
    with pytest.raises(TypeError):
        Layout(t("9-9"))
    assert copy.deepcopy(layout) is layout
    again = pickle.loads(pickle.dumps(layout))
    assert again == layout and again.open_ends() == layout.open_ends()


def test_fresh_ids_skip_ids_given_explicitly() -> None:
    layout = lay("9-9", *CROSS, ("T1", "S1", "5-1"), ("T3", "T1", "1-2"))
    assert layout.next_id(t("3-4")) == "T2"
    after = layout.attach(t("3-4"), "S2")
    assert after.last is not None and after.last.id == "T2"
    assert after.next_id(t("2-6")) == "T4"  # T3 was taken explicitly
