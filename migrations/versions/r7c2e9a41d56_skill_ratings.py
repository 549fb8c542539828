"""skill ratings (openskill Plackett-Luce): one step per seat of each rated game and each
player's current rating, backfilled by rating every finished game in order of play

Revision ID: r7c2e9a41d56
Revises: t3c9a1f07b2e
Create Date: 2026-12-04 07:40:00

"""

import sqlalchemy as sa
from alembic import op
from sqlalchemy.orm import Session

# revision identifiers, used by Alembic.
revision = "r7c2e9a41d56"
down_revision = "t3c9a1f07b2e"  # after the join panel flag (which follows the join secret)
branch_labels = None
depends_on = None


def upgrade():
    op.create_table(
        "rating_steps",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.Column("player_id", sa.Integer(), nullable=False),
        sa.Column("played_on", sa.Date(), nullable=False),
        sa.Column("game_order", sa.DateTime(), nullable=False),
        sa.Column("mu", sa.Float(), nullable=False),
        sa.Column("sigma", sa.Float(), nullable=False),
        sa.Column("ordinal", sa.Float(), nullable=False),
        sa.Column("games", sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(
            ["game_id"],
            ["games.id"],
            name=op.f("fk_rating_steps_game_id_games"),
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["player_id"],
            ["players.id"],
            name=op.f("fk_rating_steps_player_id_players"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_rating_steps")),
    )
    op.create_index(op.f("ix_rating_steps_game_id"), "rating_steps", ["game_id"])
    op.create_index("ix_rating_steps_player_id_id", "rating_steps", ["player_id", "id"])
    op.create_index("ix_rating_steps_order", "rating_steps", ["played_on", "game_order", "game_id"])
    op.create_table(
        "player_ratings",
        sa.Column("player_id", sa.Integer(), nullable=False),
        sa.Column("mu", sa.Float(), nullable=False),
        sa.Column("sigma", sa.Float(), nullable=False),
        sa.Column("ordinal", sa.Float(), nullable=False),
        sa.Column("games", sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(
            ["player_id"],
            ["players.id"],
            name=op.f("fk_player_ratings_player_id_players"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("player_id", name=op.f("pk_player_ratings")),
    )
    op.create_index(op.f("ix_player_ratings_ordinal"), "player_ratings", ["ordinal"])

    # Backfill: rate every finished game already stored, in order of play.
    from companion.services.ratings import rebuild_all

    session = Session(bind=op.get_bind())
    rebuild_all(session)
    session.flush()


def downgrade():
    op.drop_index(op.f("ix_player_ratings_ordinal"), table_name="player_ratings")
    op.drop_table("player_ratings")
    op.drop_index("ix_rating_steps_order", table_name="rating_steps")
    op.drop_index("ix_rating_steps_player_id_id", table_name="rating_steps")
    op.drop_index(op.f("ix_rating_steps_game_id"), table_name="rating_steps")
    op.drop_table("rating_steps")
