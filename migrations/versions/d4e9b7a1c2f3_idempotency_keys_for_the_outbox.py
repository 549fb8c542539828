"""idempotency keys: each entry a phone's outbox sends is applied once, however often it arrives

A phone that lost the Wi-Fi keeps a round, a correction or a posted hand and sends it again
when the connection returns, with a key of its own (issue 14). The key is the primary key, so
only one request (on any app server) can claim it; every repeat gets the first answer, kept
in the row.

Revision ID: d4e9b7a1c2f3
Revises: d4b9e7a2c815
Create Date: 2026-12-01 07:30:00

"""

import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision = "d4e9b7a1c2f3"
down_revision = "d4b9e7a2c815"  # after the all-time totals
branch_labels = None
depends_on = None


def upgrade():
    op.create_table(
        "idempotency_keys",
        sa.Column("key", sa.String(length=64), nullable=False),
        sa.Column("path", sa.String(length=300), nullable=False),
        sa.Column("state", sa.String(length=10), nullable=False),
        sa.Column("status_code", sa.Integer(), nullable=True),
        sa.Column("headers", sa.JSON(), nullable=True),
        sa.Column("body", sa.Text(), nullable=True),
        sa.Column("created_at", sa.DateTime(), nullable=False),
        sa.PrimaryKeyConstraint("key", name=op.f("pk_idempotency_keys")),
    )
    with op.batch_alter_table("idempotency_keys", schema=None) as batch_op:
        batch_op.create_index(
            batch_op.f("ix_idempotency_keys_created_at"), ["created_at"], unique=False
        )


def downgrade():
    with op.batch_alter_table("idempotency_keys", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_idempotency_keys_created_at"))
    op.drop_table("idempotency_keys")
