"""The OpenAPI 3.1 document of /api/v1, built from the engine's own vocabulary.

Categories, presets and house-rule switches come from :mod:`companion.engine`, so the document
cannot drift from what the engine accepts. Answer fields are those of docs/QUESTIONS.md; the
answer schema is closed (``additionalProperties: false``), so a new engine answer field fails
tests/web/api/test_api.py until it is described here.
"""

from __future__ import annotations

from typing import Any

from ..engine import CATEGORIES, PRESETS, SWITCHES
from ..engine.limits import (
    MAX_DEPTH,
    MAX_NUMBER,
    MAX_PLAYER_COUNTS,
    MAX_PLAYERS,
    MAX_ROUNDS,
    MAX_TEXT,
    MAX_TILES,
    MAX_VALUES,
)
from ..engine.reasons import DecidedAt, Reason, TurnResult
from ..engine.rules import PLAYERS_MAX, PLAYERS_MIN, TIEBREAK_STEPS
from ..engine.tiles import MAX_TILE_TEXT, SUPPORTED_SETS, TILE_PATTERN
from ..pips import Unread
from ..services.ratings import MODEL_NAME

# Bounds on one request, so that each costs at most a few tens of ms of CPU and a sync worker
# is soon free for the scoreboard polls (benchmarks/api_bench.py measures the worst accepted
# request). Bounds on each question are the engine's (companion/engine/limits.py).
#: The most questions one batch request may carry (a larger batch gets 413 TOO_MANY_CASES); both
#: case files of tests/data (91 cases) fit in one batch.
MAX_CASES = 100
#: The most values (numbers, texts, lists, objects; see engine.limits.count_values) all the
#: questions of one batch may hold together (more gets 413 BATCH_TOO_LARGE). The costliest
#: questions take about 11 µs of CPU per value; both case files hold 2,032 values together.
MAX_BATCH_VALUES = 2_500
#: The largest body of a single question, in bytes (413 before it is read): room for
#: MAX_VALUES texts of MAX_TEXT characters; the batch endpoint keeps the app-wide 1 MiB.
MAX_QUESTION_BYTES = 256 * 1024

Schema = dict[str, Any]

#: the enums of answers, derived from the engine's one home for them (engine/reasons.py)
REASONS = tuple(str(r) for r in Reason)
DECIDED_AT = tuple(str(d) for d in DecidedAt)
TURN_RESULTS = tuple(str(t) for t in TurnResult)


def _ref(name: str) -> Schema:
    return {"$ref": f"#/components/schemas/{name}"}


def _map(values: Schema, description: str = "", most: int | None = None) -> Schema:
    """An object of text keys to ``values``; with ``most``, at most that many keys."""
    schema: Schema = {"type": "object", "additionalProperties": values}
    if most is not None:
        schema.update(maxProperties=most, propertyNames={"maxLength": MAX_TEXT})
    if description:
        schema["description"] = description
    return schema


def _list(items: Schema, most: int, description: str = "") -> Schema:
    schema: Schema = {"type": "array", "items": items, "maxItems": most}
    if description:
        schema["description"] = description
    return schema


def _count(most: int, least: int = 0) -> Schema:
    return {"type": "integer", "minimum": least, "maximum": most}


INT: Schema = {"type": "integer"}
BOOL: Schema = {"type": "boolean"}
STR: Schema = {"type": "string"}
NAMES: Schema = {"type": "array", "items": STR}
INTS: Schema = {"type": "array", "items": INT}
PER_PLAYER_INT: Schema = _map(INT, "player -> a whole number")
# Input fields: bounded as companion/engine/limits.py bounds them (over a bound: 413 TOO_LARGE).
TEXT_IN: Schema = {"type": "string", "maxLength": MAX_TEXT}
NAME_IN: Schema = {"type": "string", "maxLength": MAX_TEXT, "description": "a player's name"}
NAMES_IN: Schema = _list(NAME_IN, MAX_PLAYERS, f"at most {MAX_PLAYERS} players (§3.1)")
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
        "items": {"enum": [str(s) for s in TIEBREAK_STEPS]},
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
            "tiles": _list(
                {
                    "type": "object",
                    "required": ["id", "on", "tile"],
                    "properties": {
                        "id": {**TEXT_IN, "description": "S1.. spokes, D1.. doubles"},
                        "on": {**TEXT_IN, "description": '"C" or an earlier id'},
                        "tile": _ref("Tile"),
                    },
                },
                MAX_TILES - 1,
                "Every tile besides the centre, at most once each: fewer than the set holds "
                f"({MAX_TILES} in a double-18 set; the question's own set may hold fewer).",
            ),
        },
    }


def _input() -> Schema:
    tiles = _list(_ref("Tile"), MAX_TILES, "tiles, each at most once: no more than the set")
    play = {
        "type": "object",
        "required": ["tile", "on"],
        "properties": {"player": NAME_IN, "tile": _ref("Tile"), "on": TEXT_IN},
    }
    doubles = {"oneOf": [_count(max(SUPPORTED_SETS)), _ref("Tile")]}
    number = {"type": "integer", "minimum": -MAX_NUMBER, "maximum": MAX_NUMBER}
    points = _count(MAX_NUMBER, 0)
    points["description"] = "points; at most what the whole set left in hand would score"
    props: Schema = {
        "set": {"enum": list(SUPPORTED_SETS), "description": "N of a double-N set"},
        "players": _count(PLAYERS_MAX, PLAYERS_MIN),
        "layout": _ref("Layout"),
        "center_spokes_required": _count(MAX_NUMBER, 2),
        "move": play,
        "turn": _list(play, MAX_TILES, "plays, one tile each: no more than the set"),
        "hand": tiles,
        "yard_count": _count(MAX_TILES),
        "tile_drawn": _ref("Tile"),
        "hands": _map(tiles, "player -> tiles in hand", MAX_PLAYERS),
        "to_move": NAME_IN,
        "event": {
            "type": "object",
            "properties": {
                "player": NAME_IN,
                "tile": _ref("Tile"),
                "on": TEXT_IN,
                "hand_after": tiles,
            },
        },
        "went_out": BOOL,
        "last_tile_was_double": BOOL,
        "round_start_double": _ref("Tile"),
        "round_end": {"enum": [str(Reason.OUT), str(Reason.BLOCKED)]},
        "round_scores": _map(
            _list(points, MAX_ROUNDS, "at most the set's N+1 rounds"),
            "player -> points per round, in round order",
            MAX_PLAYERS,
        ),
        "rounds_played": _list(doubles, MAX_ROUNDS, "at most the set's N+1 rounds"),
        "holders": _map(
            {"type": ["string", "null"], "maxLength": MAX_TEXT},
            "double -> player holding it, or null",
            MAX_ROUNDS,
        ),
        "players_list": _list(_count(PLAYERS_MAX, PLAYERS_MIN), MAX_PLAYER_COUNTS),
        "hand_size_chosen": number,
        "requested_center_spokes": _count(MAX_NUMBER, 1),
        "round": _count(MAX_ROUNDS, 1),
        "seats_clockwise": NAMES_IN,
        "draws": _map(_ref("Tile"), "player -> tile drawn to decide who starts", MAX_PLAYERS),
        "search_order": {"type": "array", "maxItems": MAX_TILES},
        "found_by": NAME_IN,
        "round1_starter": NAME_IN,
        "player": NAME_IN,
        "tiles_left": _count(MAX_TILES),
        "announced": BOOL,
        "next_player_has_played": BOOL,
    }
    return {
        "type": "object",
        "description": "What the table knows (QUESTIONS.md); which fields apply depends on the "
        "category. Other fields are ignored but count towards the bounds: a question is at most "
        f"{MAX_DEPTH} levels deep, holds at most {MAX_VALUES:,} values, no list or object over "
        f"{MAX_TILES} entries, no text over {MAX_TEXT} characters, no number beyond "
        f"{MAX_NUMBER:,}. Counts are bounded by the question's own set: at most its N+1 "
        "rounds, its tiles, and 12 players. Over a bound: 413 TOO_LARGE.",
        "properties": props,
        "maxProperties": MAX_TILES,
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
        "turn_result": {"enum": list(TURN_RESULTS)},
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
            "maxLength": MAX_TILE_TEXT,
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
                "id": TEXT_IN,
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
            "description": "A cases.json-shaped document; other top-level fields are ignored. "
            f"All its questions together hold at most {MAX_BATCH_VALUES:,} values "
            "(413 BATCH_TOO_LARGE).",
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
        "413": f"The body is over {MAX_QUESTION_BYTES // 1024} KiB (one question) or 1 MiB (a "
        "batch); a batch has more than "
        f"{MAX_CASES} cases or {MAX_BATCH_VALUES:,} values; or (one question) it is over a size "
        "bound of the game: TOO_LARGE, naming where.",
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
                "mixed_pip_sizes: marks of very different sizes; double_blank_twice: more "
                "than one 0-0 was seen, and a set has one.",
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
        "422": "Not a photo the app can read: NOT_AN_IMAGE, TOO_MANY_PIXELS (over 60 MP for "
        "a JPEG, over 12 MP for PNG and other formats, refused from the header), TOO_SMALL, "
        "BROKEN_IMAGE; or PHOTO_UNREADABLE: a picture on which no tile could be read "
        "(blurred, too dark, no face-up tile): never an answer of 0 pips.",
        "429": "Too many readings: TOO_MANY_PHOTOS (this phone's photos per minute) or BUSY "
        "(every reading slot of the server taken); the Retry-After header says how many "
        "seconds to wait.",
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


def _ratings_path() -> Schema:
    number = {"type": "number"}
    player = {
        "type": "object",
        "additionalProperties": False,
        "required": ["name", "mu", "sigma", "ordinal", "games"],
        "properties": {
            "name": STR,
            "mu": {**number, "description": "Skill estimate (rating points; a new player 25)."},
            "sigma": {**number, "description": "Its uncertainty (a new player 25/3)."},
            "ordinal": {**number, "description": "mu - 3 sigma: what ranks the players."},
            "games": {"type": "integer", "minimum": 1, "description": "Rated games."},
        },
    }
    return _get_json(
        "Skill ratings of every player",
        "The model and the rated players, best first.",
        {
            "type": "object",
            "additionalProperties": False,
            "required": ["model", "players"],
            "properties": {
                "model": {"const": MODEL_NAME},
                "players": {"type": "array", "items": player},
            },
        },
        about="openskill's Weng-Lin Plackett-Luce model with its defaults, over every "
        "finished game in order of play (ties share a place). Best first by ordinal. Read "
        "from the stored ratings; nothing is computed per request.",
    )


def _get_json(summary: str, answer: str, schema: Schema, about: str = "") -> Schema:
    """A GET path that always answers 200 with JSON of ``schema`` (``answer`` describes it;
    ``about``, when given, the path)."""
    content = {"application/json": {"schema": schema}}
    get: Schema = {"summary": summary}
    if about:
        get["description"] = about
    get["responses"] = {"200": {"description": answer, "content": content}}
    return {"get": get}


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
            "/api/v1/ratings": _ratings_path(),
            "/api/v1/health": _get_json(
                "Liveness probe",
                "The app answers.",
                {
                    "type": "object",
                    "required": ["status"],
                    "properties": {"status": {"const": "ok"}},
                },
            ),
            "/api/v1/openapi.json": _get_json(
                "This document",
                "The OpenAPI 3.1 document of the API.",
                {"type": "object", "required": ["openapi", "info", "paths"]},
            ),
        },
        "components": {"schemas": _components()},
    }
