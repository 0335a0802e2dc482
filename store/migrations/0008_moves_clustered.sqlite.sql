-- The moves, kept in the order of their key (WITHOUT ROWID): a game's
-- moves sit together, and storing one writes one B-tree, not a table and
-- its key's index, so a move adds one page less to the WAL. The rows and
-- the foreign key are the same; only SQLite's layout changes (PostgreSQL
-- has no such choice and keeps its table).
CREATE TABLE moves_by_key (
    game TEXT    NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    ply  INTEGER NOT NULL,
    text TEXT    NOT NULL,
    at   BIGINT  NOT NULL,
    PRIMARY KEY (game, ply)
) WITHOUT ROWID;
INSERT INTO moves_by_key (game, ply, text, at) SELECT game, ply, text, at FROM moves;
DROP TABLE moves;
ALTER TABLE moves_by_key RENAME TO moves;
