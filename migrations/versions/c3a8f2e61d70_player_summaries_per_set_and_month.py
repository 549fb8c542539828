"""player summaries per (player, set size, month) and head-to-head per month, backfilled from the stored standings

The leaderboard and a player's page add up these buckets instead of every finished game's
lines, so they cost the same at 500 or 50,000 games (issue 11). The backfill aggregates the
stored standings month by month.

Revision ID: c3a8f2e61d70
Revises: b7e1c0a9d2f4
Create Date: 2026-12-01 06:00:00

"""

import sqlalchemy as sa
from alembic import op
from sqlalchemy.orm import Session

# revision identifiers, used by Alembic.
revision = "c3a8f2e61d70"
down_revision = "b7e1c0a9d2f4"  # after the table phones
branch_labels = None
depends_on = None


def upgrade():
    op.create_table(
        "player_summaries",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("player_id", sa.Integer(), nullable=False),
        sa.Column("set_size", sa.Integer(), nullable=False),
        sa.Column("month", sa.Date(), nullable=False),
        sa.Column("games", sa.Integer(), nullable=False),
        sa.Column("wins", sa.Integer(), nullable=False),
        sa.Column("shared_wins", sa.Integer(), nullable=False),
        sa.Column("rounds", sa.Integer(), nullable=False),
        sa.Column("points", sa.Integer(), nullable=False),
        sa.Column("zero_rounds", sa.Integer(), nullable=False),
        sa.Column("best_total", sa.Integer(), nullable=False),
        sa.Column("worst_total", sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(
            ["player_id"],
            ["players.id"],
            name=op.f("fk_player_summaries_player_id_players"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_player_summaries")),
        sa.UniqueConstraint(
            "player_id",
            "set_size",
            "month",
            name=op.f("uq_player_summaries_player_id_set_size_month"),
        ),
    )
    with op.batch_alter_table("player_summaries", schema=None) as batch_op:
        batch_op.create_index("ix_player_summaries_month", ["month"], unique=False)
    op.create_table(
        "pair_summaries",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("player_id", sa.Integer(), nullable=False),
        sa.Column("opponent_id", sa.Integer(), nullable=False),
        sa.Column("month", sa.Date(), nullable=False),
        sa.Column("games", sa.Integer(), nullable=False),
        sa.Column("ahead", sa.Integer(), nullable=False),
        sa.Column("behind", sa.Integer(), nullable=False),
        sa.Column("level", sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(
            ["player_id"],
            ["players.id"],
            name=op.f("fk_pair_summaries_player_id_players"),
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["opponent_id"],
            ["players.id"],
            name=op.f("fk_pair_summaries_opponent_id_players"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_pair_summaries")),
        sa.UniqueConstraint(
            "player_id",
            "opponent_id",
            "month",
            name=op.f("uq_pair_summaries_player_id_opponent_id_month"),
        ),
    )
    with op.batch_alter_table("pair_summaries", schema=None) as batch_op:
        batch_op.create_index("ix_pair_summaries_month", ["month"], unique=False)

    # Backfill: one GROUP BY over the stored standings per month with games.
    # (months only: the all-time totals come in d4b9e7a2c815, which backfills them)
    from companion.services.summaries import rebuild_months

    session = Session(bind=op.get_bind())
    rebuild_months(session)
    session.flush()


def downgrade():
    with op.batch_alter_table("pair_summaries", schema=None) as batch_op:
        batch_op.drop_index("ix_pair_summaries_month")

    op.drop_table("pair_summaries")
    with op.batch_alter_table("player_summaries", schema=None) as batch_op:
        batch_op.drop_index("ix_player_summaries_month")

    op.drop_table("player_summaries")
