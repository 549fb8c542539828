"""the table's phones: devices, game access, hand posts, rate counters; auto-save setting

Revision ID: b7e1c0a9d2f4
Revises: ac6db9264f2c
Create Date: 2026-12-01 04:30:00

"""

import sqlalchemy as sa
from alembic import op

revision = "b7e1c0a9d2f4"
down_revision = "b7d1f0c2a9e4"  # after the final standings
branch_labels = None
depends_on = None


def upgrade():
    op.create_table(
        "devices",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("token", sa.String(length=64), nullable=False),
        sa.Column("created_at", sa.DateTime(), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_devices")),
        sa.UniqueConstraint("token", name=op.f("uq_devices_token")),
    )
    op.create_table(
        "game_access",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.Column("device_id", sa.Integer(), nullable=False),
        sa.Column("role", sa.String(length=12), nullable=False),
        sa.Column("seat_id", sa.Integer(), nullable=True),
        sa.Column("granted_at", sa.DateTime(), nullable=False),
        sa.ForeignKeyConstraint(
            ["device_id"], ["devices.id"], name=op.f("fk_game_access_device_id_devices"),
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["game_id"], ["games.id"], name=op.f("fk_game_access_game_id_games"),
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["seat_id"], ["seats.id"], name=op.f("fk_game_access_seat_id_seats"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_game_access")),
        sa.UniqueConstraint(
            "game_id", "device_id", "role", name=op.f("uq_game_access_game_id_device_id_role")
        ),
        sa.UniqueConstraint("seat_id", name=op.f("uq_game_access_seat_id")),
    )
    with op.batch_alter_table("game_access", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_game_access_game_id"), ["game_id"], unique=False)
        batch_op.create_index(batch_op.f("ix_game_access_device_id"), ["device_id"], unique=False)
    op.create_table(
        "hand_posts",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.Column("double", sa.Integer(), nullable=False),
        sa.Column("seat_id", sa.Integer(), nullable=False),
        sa.Column("total", sa.Integer(), nullable=True),
        sa.Column("tiles", sa.JSON(), nullable=True),
        sa.Column("went_out", sa.Boolean(), nullable=False),
        sa.Column("device_id", sa.Integer(), nullable=True),
        sa.Column("revision", sa.Integer(), nullable=False),
        sa.Column("status", sa.String(length=12), nullable=False),
        sa.Column("round_id", sa.Integer(), nullable=True),
        sa.Column("updated_at", sa.DateTime(), nullable=False),
        sa.Column("taken_at", sa.DateTime(), nullable=True),
        sa.ForeignKeyConstraint(
            ["device_id"], ["devices.id"], name=op.f("fk_hand_posts_device_id_devices"),
            ondelete="SET NULL",
        ),
        sa.ForeignKeyConstraint(
            ["game_id"], ["games.id"], name=op.f("fk_hand_posts_game_id_games"),
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["round_id"], ["rounds.id"], name=op.f("fk_hand_posts_round_id_rounds"),
            ondelete="SET NULL",
        ),
        sa.ForeignKeyConstraint(
            ["seat_id"], ["seats.id"], name=op.f("fk_hand_posts_seat_id_seats"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_hand_posts")),
        sa.UniqueConstraint(
            "game_id", "double", "seat_id", name=op.f("uq_hand_posts_game_id_double_seat_id")
        ),
    )
    with op.batch_alter_table("hand_posts", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_hand_posts_game_id"), ["game_id"], unique=False)
    op.create_table(
        "rate_counters",
        sa.Column("key", sa.String(length=100), nullable=False),
        sa.Column("window_start", sa.DateTime(), nullable=False),
        sa.Column("hits", sa.Integer(), nullable=False),
        sa.PrimaryKeyConstraint("key", name=op.f("pk_rate_counters")),
    )
    with op.batch_alter_table("games", schema=None) as batch_op:
        batch_op.add_column(
            sa.Column("auto_save", sa.Boolean(), nullable=False, server_default=sa.false())
        )
    with op.batch_alter_table("hand_scores", schema=None) as batch_op:
        batch_op.add_column(
            sa.Column("entered_by", sa.String(length=12), nullable=False, server_default="")
        )


def downgrade():
    with op.batch_alter_table("hand_scores", schema=None) as batch_op:
        batch_op.drop_column("entered_by")
    with op.batch_alter_table("games", schema=None) as batch_op:
        batch_op.drop_column("auto_save")
    op.drop_table("rate_counters")
    with op.batch_alter_table("hand_posts", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_hand_posts_game_id"))
    op.drop_table("hand_posts")
    with op.batch_alter_table("game_access", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_game_access_device_id"))
        batch_op.drop_index(batch_op.f("ix_game_access_game_id"))
    op.drop_table("game_access")
    op.drop_table("devices")
