"""all-time totals per (player, set size) and head-to-head per (player, opponent), backfilled from the monthly summaries

The default leaderboard and a player's page read these instead of adding up every month of
history (issue 11: with 1,148 months the unfiltered leaderboard scanned 82,643 monthly rows).
The backfill adds up the monthly buckets of ``c3a8f2e61d70`` with one ``INSERT ... SELECT``
per table (plain SQL on SQLite and PostgreSQL; no application code, so later model changes
cannot break it).

Revision ID: d4b9e7a2c815
Revises: c3a8f2e61d70
Create Date: 2026-12-01 08:10:00

"""

import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision = "d4b9e7a2c815"
down_revision = "c3a8f2e61d70"  # after the monthly player summaries
branch_labels = None
depends_on = None

_COUNTS = ("games", "wins", "shared_wins", "rounds", "points", "zero_rounds")
_PAIR_COUNTS = ("games", "ahead", "behind", "level")


def upgrade():
    op.create_table(
        "player_totals",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("player_id", sa.Integer(), nullable=False),
        sa.Column("set_size", sa.Integer(), nullable=False),
        *(sa.Column(name, sa.Integer(), nullable=False) for name in _COUNTS),
        sa.Column("best_total", sa.Integer(), nullable=False),
        sa.Column("worst_total", sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(
            ["player_id"],
            ["players.id"],
            name=op.f("fk_player_totals_player_id_players"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_player_totals")),
        sa.UniqueConstraint(
            "player_id", "set_size", name=op.f("uq_player_totals_player_id_set_size")
        ),
    )
    op.create_table(
        "pair_totals",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("player_id", sa.Integer(), nullable=False),
        sa.Column("opponent_id", sa.Integer(), nullable=False),
        *(sa.Column(name, sa.Integer(), nullable=False) for name in _PAIR_COUNTS),
        sa.ForeignKeyConstraint(
            ["player_id"],
            ["players.id"],
            name=op.f("fk_pair_totals_player_id_players"),
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["opponent_id"],
            ["players.id"],
            name=op.f("fk_pair_totals_opponent_id_players"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_pair_totals")),
        sa.UniqueConstraint(
            "player_id", "opponent_id", name=op.f("uq_pair_totals_player_id_opponent_id")
        ),
    )

    # Backfill from the monthly buckets (the same sums as companion.services.summaries).
    counts = ", ".join(_COUNTS)
    sums = ", ".join(f"SUM({name})" for name in _COUNTS)
    op.execute(
        f"INSERT INTO player_totals (player_id, set_size, {counts}, best_total, worst_total) "
        f"SELECT player_id, set_size, {sums}, MIN(best_total), MAX(worst_total) "
        "FROM player_summaries GROUP BY player_id, set_size"
    )
    pair_counts = ", ".join(_PAIR_COUNTS)
    pair_sums = ", ".join(f"SUM({name})" for name in _PAIR_COUNTS)
    op.execute(
        f"INSERT INTO pair_totals (player_id, opponent_id, {pair_counts}) "
        f"SELECT player_id, opponent_id, {pair_sums} "
        "FROM pair_summaries GROUP BY player_id, opponent_id"
    )


def downgrade():
    op.drop_table("pair_totals")
    op.drop_table("player_totals")
