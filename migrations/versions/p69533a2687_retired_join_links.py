"""retired_join_links: the digests of join secrets the scorekeeper replaced

When the scorekeeper removes a phone from its seat or unlocks the seats, the join secret
changes on purpose. The old link (or its QR code) said "There is no game at this link"; with the
old secret's SHA-256 digest kept (never the secret), it says the link was replaced and to ask the
scorekeeper for the new QR code, and still opens nothing. No data changes: secrets replaced
before this migration are not known, and their links still say "no game".

Revision ID: p69533a2687
Revises: hc9019bafa4
Create Date: 2026-12-04 19:30:00

"""

import sqlalchemy as sa
from alembic import op

revision = "p69533a2687"
down_revision = "hc9019bafa4"
branch_labels = None
depends_on = None


def upgrade():
    op.create_table(
        "retired_join_links",
        sa.Column("digest", sa.String(length=64), nullable=False),
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.Column("retired_at", sa.DateTime(), nullable=False),
        sa.ForeignKeyConstraint(
            ["game_id"],
            ["games.id"],
            name=op.f("fk_retired_join_links_game_id_games"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("digest", name=op.f("pk_retired_join_links")),
    )
    op.create_index(op.f("ix_retired_join_links_game_id"), "retired_join_links", ["game_id"])


def downgrade():
    op.drop_index(op.f("ix_retired_join_links_game_id"), table_name="retired_join_links")
    op.drop_table("retired_join_links")
