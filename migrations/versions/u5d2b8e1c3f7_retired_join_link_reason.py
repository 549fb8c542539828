"""retired_join_links.reason: why the scorekeeper's join link was replaced

An old join link said "This join link was replaced by a new one: the scorekeeper changed it on
purpose" whatever happened, also when the scorekeeper only removed a phone from a seat (which
makes a new link as a side effect). The reason is kept with the old link's digest
(``seat_freed`` or ``seats_unlocked``), so the old link says what happened. No data changes:
links replaced before this migration have none and keep words true to both.

Revision ID: u5d2b8e1c3f7
Revises: p69533a2687
Create Date: 2026-12-07 23:10:00

"""

import sqlalchemy as sa
from alembic import op

revision = "u5d2b8e1c3f7"
down_revision = "p69533a2687"
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table("retired_join_links", schema=None) as batch_op:
        batch_op.add_column(sa.Column("reason", sa.String(length=20), nullable=True))


def downgrade():
    with op.batch_alter_table("retired_join_links", schema=None) as batch_op:
        batch_op.drop_column("reason")
