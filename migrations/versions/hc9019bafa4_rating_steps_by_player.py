"""rating steps by player: a player's steps of a season, and by their game number

A player's year in review and their page read only the rating steps they show (the season's,
the chart's at most 60 points) through ``(player_id, played_on)`` and ``(player_id, games)``
instead of every step of the player (issue 25: flat from 500 to 50,000 games). No data
changes: ``games`` already numbers each player's steps in order of play.

Revision ID: hc9019bafa4
Revises: r7c2e9a41d56
Create Date: 2026-12-04 16:10:00

"""

from alembic import op

# revision identifiers, used by Alembic.
revision = "hc9019bafa4"
down_revision = "r7c2e9a41d56"
branch_labels = None
depends_on = None


def upgrade():
    # Plain op.* calls, not batch mode: indexes only, no table is copied on SQLite.
    op.create_index("ix_rating_steps_player_played_on", "rating_steps", ["player_id", "played_on"])
    op.create_index("ix_rating_steps_player_games", "rating_steps", ["player_id", "games"])


def downgrade():
    op.drop_index("ix_rating_steps_player_games", table_name="rating_steps")
    op.drop_index("ix_rating_steps_player_played_on", table_name="rating_steps")
