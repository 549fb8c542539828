"""join secret, seat lock, admitted phones, idempotency request digest

Seats are given, not taken (issue 21): a game's join link carries a secret of its own
(``games.join_token``, random for every existing game), distinct from the public share token,
and the scorekeeper can lock the seats (``games.seats_locked``). A phone whose address is past
the passcode limit shows a code (``devices.admit_code``) that a scorekeeper's or the host's
phone types to let it in (``devices.admitted_at``). An outbox entry's first form is kept as a
digest (``idempotency_keys.request_digest``), so a repeat with another form is told what was
kept.

Revision ID: s3a7c1e9d2b4
Revises: e5c1a7d3b9f2
Create Date: 2026-12-04 07:40:00

"""

import secrets

import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision = "s3a7c1e9d2b4"
down_revision = "e5c1a7d3b9f2"
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table("games", schema=None) as batch_op:
        batch_op.add_column(sa.Column("join_token", sa.String(length=40), nullable=True))
        batch_op.add_column(
            sa.Column("seats_locked", sa.Boolean(), nullable=False, server_default=sa.false())
        )
    games = sa.table("games", sa.column("id", sa.Integer), sa.column("join_token", sa.String))
    conn = op.get_bind()
    for (game_id,) in conn.execute(sa.select(games.c.id)).all():
        conn.execute(
            games.update().where(games.c.id == game_id).values(join_token=secrets.token_urlsafe(16))
        )
    with op.batch_alter_table("games", schema=None) as batch_op:
        batch_op.alter_column("join_token", existing_type=sa.String(length=40), nullable=False)
        batch_op.create_unique_constraint(batch_op.f("uq_games_join_token"), ["join_token"])
    with op.batch_alter_table("devices", schema=None) as batch_op:
        batch_op.add_column(sa.Column("admit_code", sa.String(length=16), nullable=True))
        batch_op.add_column(sa.Column("admitted_at", sa.DateTime(), nullable=True))
        batch_op.create_unique_constraint(batch_op.f("uq_devices_admit_code"), ["admit_code"])
    with op.batch_alter_table("idempotency_keys", schema=None) as batch_op:
        batch_op.add_column(sa.Column("request_digest", sa.String(length=64), nullable=True))


def downgrade():
    with op.batch_alter_table("idempotency_keys", schema=None) as batch_op:
        batch_op.drop_column("request_digest")
    with op.batch_alter_table("devices", schema=None) as batch_op:
        batch_op.drop_constraint(batch_op.f("uq_devices_admit_code"), type_="unique")
        batch_op.drop_column("admitted_at")
        batch_op.drop_column("admit_code")
    with op.batch_alter_table("games", schema=None) as batch_op:
        batch_op.drop_constraint(batch_op.f("uq_games_join_token"), type_="unique")
        batch_op.drop_column("seats_locked")
        batch_op.drop_column("join_token")
