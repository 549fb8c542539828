"""history indexes: live nights by date, deleted rows only, a player's months and extremes

The nights list and a player's ten latest games read the live nights newest first and stop
after a page (issue 11: history pages constant in the history's size). The plain indexes on
``deleted_at`` held every live row under one key (NULL); SQLite's planner took
``deleted_at IS NULL`` for a selective search and read every live game, then sorted them. They
become partial indexes of the deleted rows (what the restore window reads), and a partial
index of the live nights by ``(played_on, id)`` gives the order. A player's newest monthly
buckets (``player_id, month``) tell which months hold their latest games, and
``(player_id, best_total, month)`` / ``(player_id, worst_total, month)`` the newest month
holding their best and worst game. No data changes.

Revision ID: e5c1a7d3b9f2
Revises: e5a1c7d3b920
Create Date: 2026-12-03 07:50:00

"""

import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision = "e5c1a7d3b9f2"
down_revision = "e5a1c7d3b920"  # after the audit lines as codes (which follows the idempotency keys)
branch_labels = None
depends_on = None

LIVE = sa.text("deleted_at IS NULL")
DELETED = sa.text("deleted_at IS NOT NULL")


def upgrade():
    # Plain op.* calls, not batch mode: indexes only, no table is copied on SQLite.
    op.drop_index("ix_game_nights_deleted_at", table_name="game_nights")
    op.create_index(
        "ix_game_nights_deleted",
        "game_nights",
        ["deleted_at"],
        sqlite_where=DELETED,
        postgresql_where=DELETED,
    )
    op.create_index(
        "ix_game_nights_live_by_date",
        "game_nights",
        ["played_on", "id"],
        sqlite_where=LIVE,
        postgresql_where=LIVE,
    )
    op.drop_index("ix_games_deleted_at", table_name="games")
    op.create_index(
        "ix_games_deleted", "games", ["deleted_at"], sqlite_where=DELETED, postgresql_where=DELETED
    )
    op.create_index("ix_player_summaries_player_month", "player_summaries", ["player_id", "month"])
    op.create_index(
        "ix_player_summaries_player_best", "player_summaries", ["player_id", "best_total", "month"]
    )
    op.create_index(
        "ix_player_summaries_player_worst",
        "player_summaries",
        ["player_id", "worst_total", "month"],
    )


def downgrade():
    op.drop_index("ix_player_summaries_player_worst", table_name="player_summaries")
    op.drop_index("ix_player_summaries_player_best", table_name="player_summaries")
    op.drop_index("ix_player_summaries_player_month", table_name="player_summaries")
    op.drop_index("ix_games_deleted", table_name="games")
    op.create_index("ix_games_deleted_at", "games", ["deleted_at"])
    op.drop_index("ix_game_nights_live_by_date", table_name="game_nights")
    op.drop_index("ix_game_nights_deleted", table_name="game_nights")
    op.create_index("ix_game_nights_deleted_at", "game_nights", ["deleted_at"])
