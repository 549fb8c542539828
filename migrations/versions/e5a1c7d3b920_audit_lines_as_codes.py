"""audit lines as codes: each entry keeps what it says as a code plus parameters (JSON), worded
in the reader's language when a page shows it (issue 13); old entries keep their sentence

Revision ID: e5a1c7d3b920
Revises: d4e9b7a1c2f3
Create Date: 2026-12-03 07:40:00

"""

import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision = "e5a1c7d3b920"
down_revision = "d4e9b7a1c2f3"  # after the outbox's idempotency keys
branch_labels = None
depends_on = None


def upgrade():
    # Both nullable: the rows written before keep only their stored sentence (``summary``).
    with op.batch_alter_table("audit_entries", schema=None) as batch_op:
        batch_op.add_column(sa.Column("code", sa.String(length=40), nullable=True))
        batch_op.add_column(sa.Column("params", sa.JSON(), nullable=True))


def downgrade():
    # The sentence each entry was written with stays in ``summary``: nothing a page shows is lost.
    with op.batch_alter_table("audit_entries", schema=None) as batch_op:
        batch_op.drop_column("params")
        batch_op.drop_column("code")
