"""One live rematch per game and one live player per name key (issue 8: race duplicates)

Adds ``games.rematch_of_id`` (the game a rematch was started from), filled from the
"create_game" audit entries that recorded ``rematch_of``, and two partial unique indexes:
``games(rematch_of_id) WHERE deleted_at IS NULL`` and
``players(name_key) WHERE merged_into_id IS NULL``.

Existing data may already hold the duplicates these forbid (the races they close):

* extra rematches of one game stay as ordinary games (only the first gets ``rematch_of_id``);
* players sharing a name key get a numbered name, "Ann (2)", "Ann (3)"... (oldest keeps the
  name), so nothing is lost and the history pages can merge them if they are one person.

Revision ID: b7d3e2a91c40
Revises: ac6db9264f2c
Create Date: 2026-12-01 04:30:00
"""

import json
import unicodedata

import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision = "b7d3e2a91c40"
down_revision = "ac6db9264f2c"
branch_labels = None
depends_on = None

NAME_MAX = 60  # characters, as players.name and players.name_key

games = sa.table(
    "games",
    sa.column("id", sa.Integer),
    sa.column("deleted_at", sa.DateTime),
    sa.column("rematch_of_id", sa.Integer),
)
audit = sa.table(
    "audit_entries",
    sa.column("id", sa.Integer),
    sa.column("game_id", sa.Integer),
    sa.column("action", sa.String),
    sa.column("after", sa.JSON),
)
players = sa.table(
    "players",
    sa.column("id", sa.Integer),
    sa.column("name", sa.String),
    sa.column("name_key", sa.String),
    sa.column("merged_into_id", sa.Integer),
)


def _name_key(name):
    # As companion.games.setup.name_key at this revision (frozen here on purpose).
    return unicodedata.normalize("NFKC", name).casefold()[:NAME_MAX]


def _rematch_links(conn):
    """(rematch game id, original game id) from the audit trail, first rematch per original."""
    rows = conn.execute(
        sa.select(audit.c.game_id, audit.c.after)
        .select_from(audit.join(games, games.c.id == audit.c.game_id))
        .where(audit.c.action == "create_game", games.c.deleted_at.is_(None))
        .order_by(audit.c.game_id)
    )
    taken, links = set(), []
    for game_id, after in rows:
        if isinstance(after, str):
            after = json.loads(after)
        original = after.get("rematch_of") if isinstance(after, dict) else None
        if isinstance(original, int) and original not in taken:
            taken.add(original)
            links.append((game_id, original))
    return links


def _number_duplicate_names(conn):
    rows = conn.execute(
        sa.select(players.c.id, players.c.name, players.c.name_key)
        .where(players.c.merged_into_id.is_(None))
        .order_by(players.c.id)
    ).all()
    used = {key for _id, _name, key in rows}
    seen = set()
    for player_id, name, key in rows:
        if key not in seen:
            seen.add(key)
            continue
        number = 2
        while True:
            suffix = f" ({number})"
            new_name = name[: NAME_MAX - len(suffix)].rstrip() + suffix
            new_key = _name_key(new_name)
            if new_key not in used:
                break
            number += 1
        used.add(new_key)
        seen.add(new_key)
        conn.execute(
            players.update()
            .where(players.c.id == player_id)
            .values(name=new_name, name_key=new_key)
        )


def upgrade():
    with op.batch_alter_table("games", schema=None) as batch_op:
        batch_op.add_column(sa.Column("rematch_of_id", sa.Integer(), nullable=True))
        batch_op.create_foreign_key(
            batch_op.f("fk_games_rematch_of_id_games"),
            "games",
            ["rematch_of_id"],
            ["id"],
            ondelete="SET NULL",
        )
    conn = op.get_bind()
    for game_id, original in _rematch_links(conn):
        conn.execute(
            games.update().where(games.c.id == game_id).values(rematch_of_id=original)
        )
    _number_duplicate_names(conn)
    live_game = sa.text("deleted_at IS NULL")
    live_player = sa.text("merged_into_id IS NULL")
    with op.batch_alter_table("games", schema=None) as batch_op:
        batch_op.create_index(
            "uq_games_rematch_of_id_live",
            ["rematch_of_id"],
            unique=True,
            sqlite_where=live_game,
            postgresql_where=live_game,
        )
    with op.batch_alter_table("players", schema=None) as batch_op:
        batch_op.create_index(
            "uq_players_name_key_live",
            ["name_key"],
            unique=True,
            sqlite_where=live_player,
            postgresql_where=live_player,
        )


def downgrade():
    with op.batch_alter_table("players", schema=None) as batch_op:
        batch_op.drop_index("uq_players_name_key_live")
    with op.batch_alter_table("games", schema=None) as batch_op:
        batch_op.drop_index("uq_games_rematch_of_id_live")
        batch_op.drop_constraint(batch_op.f("fk_games_rematch_of_id_games"), type_="foreignkey")
        batch_op.drop_column("rematch_of_id")
