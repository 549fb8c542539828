"""games.join_closed: the scorekeeper closed the join panel

The scorekeeper's page shows the join panel (QR code, short link, who joined) at its top until
every seat has joined or the scorekeeper closes it; closing it is kept with the game, so every
scorekeeper's phone and every reload agree (issue 22). No data changes: every existing game
starts with the panel open (it is shown only while a seat is still empty).

Revision ID: t3c9a1f07b2e
Revises: s3a7c1e9d2b4
Create Date: 2026-12-04 07:40:00

"""

import sqlalchemy as sa
from alembic import op

revision = "t3c9a1f07b2e"
down_revision = "s3a7c1e9d2b4"  # after the join secret and the seat lock
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table("games", schema=None) as batch_op:
        batch_op.add_column(
            sa.Column("join_closed", sa.Boolean(), nullable=False, server_default=sa.false())
        )


def downgrade():
    with op.batch_alter_table("games", schema=None) as batch_op:
        batch_op.drop_column("join_closed")
