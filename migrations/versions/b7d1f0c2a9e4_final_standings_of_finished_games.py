"""final standings of finished games (stored results), backfilled for existing games

Each finished game's standings are decided once and stored per seat, so the history pages
read rows instead of asking the engine about every game (issue 11). The backfill decides
every finished game already in the database with the engine.

Revision ID: b7d1f0c2a9e4
Revises: ac6db9264f2c
Create Date: 2026-12-01 04:30:00

"""
from alembic import op
import sqlalchemy as sa
from sqlalchemy.orm import Session


# revision identifiers, used by Alembic.
revision = 'b7d1f0c2a9e4'
down_revision = 'b7d3e2a91c40'  # after the rematch and unique-name constraints
branch_labels = None
depends_on = None


def upgrade():
    op.create_table('final_standings',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('game_id', sa.Integer(), nullable=False),
    sa.Column('seat_id', sa.Integer(), nullable=False),
    sa.Column('line', sa.Integer(), nullable=False),
    sa.Column('rank', sa.Integer(), nullable=False),
    sa.Column('shared', sa.Boolean(), nullable=False),
    sa.Column('total', sa.Integer(), nullable=False),
    sa.Column('rounds', sa.Integer(), nullable=False),
    sa.Column('zero_rounds', sa.Integer(), nullable=False),
    sa.Column('best_round', sa.Integer(), nullable=True),
    sa.Column('decided_by', sa.String(length=40), nullable=False),
    sa.ForeignKeyConstraint(['game_id'], ['games.id'], name=op.f('fk_final_standings_game_id_games'), ondelete='CASCADE'),
    sa.ForeignKeyConstraint(['seat_id'], ['seats.id'], name=op.f('fk_final_standings_seat_id_seats'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_final_standings')),
    sa.UniqueConstraint('seat_id', name=op.f('uq_final_standings_seat_id'))
    )
    with op.batch_alter_table('final_standings', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_final_standings_game_id'), ['game_id'], unique=False)

    # Backfill: decide every finished game already stored (the engine, in batches of 500).
    from companion.services.results import record_all

    session = Session(bind=op.get_bind())
    record_all(session)
    session.flush()


def downgrade():
    with op.batch_alter_table('final_standings', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_final_standings_game_id'))

    op.drop_table('final_standings')
