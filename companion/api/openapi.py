"""The OpenAPI 3.1 document of /api/v1, built from the engine's own vocabulary.

Categories, presets and house-rule switches come from :mod:`companion.engine`, so the document
cannot drift from what the engine accepts. Answer fields are those of docs/QUESTIONS.md; the
answer schema is closed (``additionalProperties: false``), so a new engine answer field fails
tests/web/test_api.py until it is described here.
"""

from __future__ import annotations

from typing import Any

from ..engine import CATEGORIES, PRESETS, SWITCHES
from ..pips import Unread

#: The most questions one batch request may carry (a larger batch gets 413 TOO_MANY_CASES).
MAX_CASES = 500

Schema = dict[str, Any]

TILE_PATTERN = r"^\s*\[?\s*\d{1,2}\s*[-|:/]\s*\d{1,2}\s*\]?\s*$"
REASONS = (
    "OK",
    "SPOKES_INCOMPLETE",
    "FOOT_INCOMPLETE",
    "CENTER_FULL",
    "FOOT_FULL",
    "END_COVERED",
    "NO_MATCH",
    "ONE_TILE_PER_TURN",
    "OUT",
    "BLOCKED",
    "NO_DRAW",
    "YARD_NOT_EXHAUSTED",
    "SOMEONE_CAN_PLAY",
)
DECIDED_AT = (
    "lowest_total",
    "most_zero_rounds",
    "lowest_single_nonzero_round",
    "unresolved_shared",
    "extension_next_lowest_nonzero",
)


def _ref(name: str) -> Schema:
    return {"$ref": f"#/components/schemas/{name}"}


def _map(values: Schema, description: str = "") -> Schema:
    schema: Schema = {"type": "object", "additionalProperties": values}
    if description:
        schema["description"] = description
    return schema


INT: Schema = {"type": "integer"}
BOOL: Schema = {"type": "boolean"}
STR: Schema = {"type": "string"}
NAMES: Schema = {"type": "array", "items": STR}
INTS: Schema = {"type": "array", "items": INT}
PER_PLAYER_INT: Schema = _map(INT, "player -> a whole number")
# Answers for several player counts at once (setup with players_list) map the count to a value.
INT_OR_PER_COUNT: Schema = {"oneOf": [INT, _map(INT, "player count -> value")]}
BOOL_OR_PER_COUNT: Schema = {"oneOf": [BOOL, _map(BOOL, "player count -> value")]}


def _switch_schema(switch: Any) -> Schema:
    """The JSON Schema of one house-rule switch's values."""
    if switch.minimum is None:
        return {"enum": [c.value for c in switch.choices], "description": switch.summary}
    number = {"type": "integer", "minimum": switch.minimum, "maximum": switch.maximum}
    if not switch.extra:
        return {**number, "description": switch.summary}
    return {"anyOf": [number, {"enum": list(switch.extra)}], "description": switch.summary}


def _overrides() -> Schema:
    props = {s.name: _switch_schema(s) for s in SWITCHES}
    props["tiebreak"] = {
        "type": "array",
        "items": {"enum": list(DECIDED_AT[:3])},
        "description": "Tie-break steps in order; the lowest total always comes first (§8).",
    }
    return {
        "type": "object",
        "description": "House-rule switches (RULES.md §9) applied on top of the preset.",
        "properties": props,
        "additionalProperties": False,
    }


def _layout() -> Schema:
    return {
        "type": "object",
        "description": "The position (RULES.md §0): the centre double and every tile laid, "
        "each written touching end first, in an order it could have been played.",
        "required": ["center"],
        "properties": {
            "center": _ref("Tile"),
            "tiles": {
                "type": "array",
                "items": {
                    "type": "object",
                    "required": ["id", "on", "tile"],
                    "properties": {
                        "id": {"type": "string", "description": "S1.. spokes, D1.. doubles"},
                        "on": {"type": "string", "description": '"C" or an earlier id'},
                        "tile": _ref("Tile"),
                    },
                },
            },
        },
    }


def _input() -> Schema:
    tiles = {"type": "array", "items": _ref("Tile")}
    play = {
        "type": "object",
        "required": ["tile", "on"],
        "properties": {"player": STR, "tile": _ref("Tile"), "on": STR},
    }
    doubles = {"oneOf": [INT, _ref("Tile")]}
    props: Schema = {
        "set": {"enum": [6, 9, 12, 15, 18], "description": "N of a double-N set"},
        "players": {"type": "integer", "minimum": 2, "maximum": 12},
        "layout": _ref("Layout"),
        "center_spokes_required": {"type": "integer", "minimum": 2},
        "move": play,
        "turn": {"type": "array", "items": play},
        "hand": tiles,
        "yard_count": {"type": "integer", "minimum": 0},
        "tile_drawn": _ref("Tile"),
        "hands": _map(tiles, "player -> tiles in hand"),
        "to_move": STR,
        "event": {
            "type": "object",
            "properties": {
                "player": STR,
                "tile": _ref("Tile"),
                "on": STR,
                "hand_after": tiles,
            },
        },
        "went_out": BOOL,
        "last_tile_was_double": BOOL,
        "round_start_double": _ref("Tile"),
        "round_end": {"enum": ["OUT", "BLOCKED"]},
        "round_scores": _map(INTS, "player -> points per round, in round order"),
        "rounds_played": {"type": "array", "items": doubles},
        "holders": _map({"type": ["string", "null"]}, "double -> player holding it, or null"),
        "players_list": {"type": "array", "items": {"type": "integer"}},
        "hand_size_chosen": INT,
        "requested_center_spokes": {"type": "integer", "minimum": 1},
        "round": {"type": "integer", "minimum": 1},
        "seats_clockwise": NAMES,
        "draws": _map(_ref("Tile"), "player -> tile drawn to decide who starts"),
        "search_order": {"type": "array"},
        "found_by": STR,
        "round1_starter": STR,
        "player": STR,
        "tiles_left": {"type": "integer", "minimum": 0},
        "announced": BOOL,
        "next_player_has_played": BOOL,
    }
    return {
        "type": "object",
        "description": "What the table knows (QUESTIONS.md); which fields apply depends on the "
        "category. Other fields are ignored.",
        "properties": props,
    }


def _answer() -> Schema:
    leader = {"oneOf": [STR, NAMES]}
    props: Schema = {
        "message": {"type": "string", "description": "One sentence a player can read out."},
        "rule": {"type": "string", "description": 'The RULES.md section, e.g. "5.4".'},
        # placement
        "legal": BOOL,
        "reason": {"enum": list(REASONS)},
        "new_open_end": INT,
        "creates_foot_needing_toes": INT,
        "foot_complete_after": BOOL,
        "plays_checked": INT,
        # draw
        "has_legal_play": BOOL,
        "legal_plays": {
            "type": "array",
            "items": {"type": "array", "prefixItems": [_ref("Tile"), STR], "items": False},
            "description": "[tile, on] pairs",
        },
        "must_draw": BOOL,
        "may_draw": BOOL,
        "draw_count": INT,
        "drawable_tiles": INT,
        "drawn_tile_playable": BOOL,
        "must_play_drawn": BOOL,
        "may_play_drawn": BOOL,
        "turn_result": {"enum": ["PLAY", "PASS", "DRAW_AGAIN"]},
        # round end
        "round_over": BOOL,
        "scores": PER_PLAYER_INT,
        "counts_as_zero_round": BOOL,
        # scoring
        "score": INT,
        "is_zero_round": BOOL,
        "totals_after_each_round": _map(INTS, "player -> running totals"),
        "leader_after_each_round": {"type": "array", "items": leader},
        "double_blank_penalty_possible": BOOL,
        # tie-break
        "winners": NAMES,
        "decided_at": {"enum": list(DECIDED_AT)},
        "totals": PER_PLAYER_INT,
        "zero_rounds": PER_PLAYER_INT,
        "best_nonzero_round": _map({"type": ["integer", "null"]}),
        # round sequence
        "tiles": INT,
        "total_pips": INT,
        "rounds": INT,
        "round_start_doubles": INTS,
        "spoke_candidates_for_centre": INT,
        "start_double": {"type": ["integer", "null"]},
        "next_start_double": {"type": ["integer", "null"]},
        "next_start_double_after": {"type": ["integer", "null"]},
        "rounds_left": INT,
        "game_over": BOOL,
        "burned": INTS,
        "passed_over": INTS,
        "procedure": STR,
        # setup
        "hand_size": INT_OR_PER_COUNT,
        "yard_after_deal": INT_OR_PER_COUNT,
        "drawable_before_reserve": INT,
        "feasible": BOOL_OR_PER_COUNT,
        "needed": INT,
        "available": INT,
        "max_possible": INT,
        "spokes_required": INT,
        "spoke_tiles_in_set": INT,
        "spokes_feasible": BOOL,
        # start player
        "starter": {"type": ["string", "null"]},
        "first_spoke_by": {"type": ["string", "null"]},
        "draw_tiles_returned_to_yard": BOOL,
        "start_double_set_aside_before_deal": BOOL,
        "starter_action": STR,
        "tied": NAMES,
        # edge: the last-tile announcement
        "penalty": {"type": ["string", "null"]},
        "penalty_applies": BOOL,
    }
    return {
        "type": "object",
        "description": "The engine's answer (QUESTIONS.md): keys that do not apply are left out.",
        "required": ["message", "rule"],
        "properties": props,
        "patternProperties": {
            "^score_.+$": {"type": "integer", "description": "one player's round score"},
            "^leader_after_round_[0-9]+$": leader,
        },
        "additionalProperties": False,
    }


def _error() -> Schema:
    return {
        "type": "object",
        "required": ["error"],
        "additionalProperties": False,
        "properties": {
            "error": {
                "type": "object",
                "required": ["code", "message", "where"],
                "additionalProperties": False,
                "properties": {
                    "code": {"type": "string", "description": 'e.g. "TILE_OUTSIDE_SET"'},
                    "message": {"type": "string", "description": "What is wrong, in words."},
                    "where": {
                        "type": "string",
                        "description": 'The offending field, e.g. "input.layout.tiles[2] (S3)"; '
                        '"" for the whole request.',
                    },
                },
            }
        },
    }


def _components() -> Schema:
    return {
        "Tile": {
            "type": "string",
            "pattern": TILE_PATTERN,
            "description": 'A tile "a-b" (in a layout: touching end first).',
            "examples": ["9-5"],
        },
        "Layout": _layout(),
        "Ruleset": {
            "type": "object",
            "description": "The standard rules (§9), then the preset, then the overrides.",
            "properties": {"preset": {"enum": list(PRESETS)}, "overrides": _overrides()},
        },
        "Question": {
            "type": "object",
            "required": ["category", "input"],
            "properties": {
                "id": {"type": "string"},
                "category": {"enum": list(CATEGORIES)},
                "ruleset": _ref("Ruleset"),
                "input": _input(),
            },
        },
        "Answer": _answer(),
        "PipsReading": _pips_reading(),
        "Error": _error(),
        "Batch": {
            "type": "object",
            "required": ["cases"],
            "description": "A cases.json-shaped document; other top-level fields are ignored.",
            "properties": {
                "cases": {"type": "array", "maxItems": MAX_CASES, "items": _ref("Question")}
            },
        },
        "BatchAnswers": {
            "type": "object",
            "required": ["answers"],
            "additionalProperties": False,
            "properties": {
                "answers": _map(
                    {"oneOf": [_ref("Answer"), _ref("Error")]},
                    'case id (or "#<index>" for a case without one) -> answer',
                )
            },
        },
    }


def _error_response(description: str) -> Schema:
    return {"description": description, "content": {"application/json": {"schema": _ref("Error")}}}


def _errors(*codes: str) -> Schema:
    texts = {
        "400": "The body is not JSON, not an object, or not sent as application/json.",
        "413": f"The body is over 1 MiB, or a batch has more than {MAX_CASES} cases.",
        "422": "The engine refused the question (unknown tile, tile outside the set, tile "
        "used twice, unknown id, impossible layout, unknown preset or switch...).",
    }
    return {code: _error_response(texts[code]) for code in codes}


def _post(summary: str, request: str, response: str, description: str, errors: Schema) -> Schema:
    return {
        "post": {
            "summary": summary,
            "description": description,
            "requestBody": {
                "required": True,
                "content": {"application/json": {"schema": _ref(request)}},
            },
            "responses": {
                "200": {
                    "description": "The engine's answer.",
                    "content": {"application/json": {"schema": _ref(response)}},
                },
                **errors,
            },
        }
    }


def _pips_reading() -> Schema:
    """The answer of POST /api/v1/pips (companion.pips.Reading.as_json)."""
    point = {"type": "array", "items": {"type": "number"}, "minItems": 2, "maxItems": 2}
    found = {
        "type": "object",
        "additionalProperties": False,
        "required": ["reading", "read", "halves", "pips", "confidence", "outline", "pip_marks"],
        "properties": {
            "reading": {"type": "string", "description": 'The tile, "6-5", or "?" if unread.'},
            "read": BOOL,
            "halves": {"type": ["array", "null"], "items": INT, "minItems": 2, "maxItems": 2},
            "pips": {"type": ["integer", "null"]},
            "confidence": {"type": "number", "minimum": 0, "maximum": 1},
            "why_unread": {
                "enum": [*(u.value for u in Unread), None],
                "description": "too_many_pips: a half shows more than the set allows; "
                "mixed_pip_sizes: marks of very different sizes.",
            },
            "outline": {"type": "array", "items": point, "minItems": 4, "maxItems": 4},
            "pip_marks": {
                "type": "array",
                "description": "Each counted pip: x, y, radius (working-image pixels).",
                "items": {"type": "array", "items": {"type": "number"}, "minItems": 3},
            },
        },
    }
    return {
        "type": "object",
        "additionalProperties": False,
        "required": ["pips", "tiles", "unread", "confidence", "image", "found"],
        "properties": {
            "pips": {"type": "integer", "description": "Pips on the tiles read."},
            "tiles": {"type": "array", "items": STR, "description": 'Tiles read, "6-5".'},
            "unread": {"type": "integer", "description": "Tiles found but not read."},
            "confidence": {"type": "number", "minimum": 0, "maximum": 1},
            "image": {
                "type": "object",
                "description": "The working image positions refer to; scale = original "
                "pixels per working pixel.",
                "properties": {"width": INT, "height": INT, "scale": {"type": "number"}},
            },
            "found": {"type": "array", "items": found},
        },
    }


def _pips_path() -> Schema:
    texts = {
        "400": "No photo in the field 'photo', or a bad max_pips.",
        "413": "The photo is over the byte limit (20 MB).",
        "422": "Not a photo the app can read: not an image, too many pixels (an image bomb "
        "is refused from its header), too small, or damaged.",
    }
    return {
        "post": {
            "summary": "Count the pips in a photo of tiles",
            "description": "Classical computer vision on the server, no network. The same "
            "answer as the page and `flask count-pips`. Nothing is stored.",
            "requestBody": {
                "required": True,
                "content": {
                    "multipart/form-data": {
                        "schema": {
                            "type": "object",
                            "required": ["photo"],
                            "properties": {
                                "photo": {"type": "string", "format": "binary"},
                                "max_pips": {"type": "integer", "minimum": 1, "maximum": 18},
                            },
                        }
                    }
                },
            },
            "responses": {
                "200": {
                    "description": "What was read.",
                    "content": {"application/json": {"schema": _ref("PipsReading")}},
                },
                **{code: _error_response(text) for code, text in texts.items()},
            },
        }
    }


def openapi_document() -> Schema:
    """The OpenAPI 3.1 document of the rules API (a JSON-ready dict)."""
    return {
        "openapi": "3.1.0",
        "jsonSchemaDialect": "https://json-schema.org/draft/2020-12/schema",
        "info": {
            "title": "Chicken Foot Companion rules API",
            "version": "1.0.0",
            "description": "The rules engine's answers to the questions of docs/QUESTIONS.md, "
            "identical to `python -m companion.engine answer FILE`. Read-only: nothing is "
            "stored. 400 means the request could not be read as a question; 422 means the "
            "engine refused the question, with the same error object the engine gives.",
        },
        "paths": {
            "/api/v1/rules/answer": _post(
                "Answer one rules question",
                "Question",
                "Answer",
                "A question the engine refuses gets HTTP 422 with the engine's error object.",
                _errors("400", "413", "422"),
            ),
            "/api/v1/rules/answer-batch": _post(
                "Answer a batch of rules questions",
                "Batch",
                "BatchAnswers",
                "Every case is answered; a refused case gets an error answer in the map and "
                "the request still succeeds, as on the command line.",
                _errors("400", "413"),
            ),
            "/api/v1/pips": _pips_path(),
        },
        "components": {"schemas": _components()},
    }
