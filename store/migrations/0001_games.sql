-- The games and their moves. One schema for SQLite and PostgreSQL: only
-- types both know (TEXT, INTEGER, BIGINT), JSON kept as TEXT, every time
-- as BIGINT milliseconds since 1970 in UTC, so that both store exactly the
-- same values.
CREATE TABLE games (
    id         TEXT    PRIMARY KEY,
    game       TEXT    NOT NULL,
    options    TEXT    NOT NULL, -- JSON object
    start_fen  TEXT    NOT NULL, -- '' for the game's start
    seats      TEXT    NOT NULL, -- JSON array, token hashes included
    clock      TEXT,             -- JSON object or NULL
    ply        INTEGER NOT NULL,
    version    BIGINT  NOT NULL,
    result     TEXT,             -- JSON object, NULL while the game goes on
    draw_offer INTEGER NOT NULL, -- the seat offering a draw, or -1
    open_seats INTEGER NOT NULL, -- seats waiting for a player, for the lobby
    created    BIGINT  NOT NULL,
    updated    BIGINT  NOT NULL
);

-- The unique (game, ply) key is the last guard of one move per ply: of two
-- transactions that both passed the conditional update, the second insert
-- fails.
CREATE TABLE moves (
    game TEXT    NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    ply  INTEGER NOT NULL,
    text TEXT    NOT NULL,
    at   BIGINT  NOT NULL,
    PRIMARY KEY (game, ply)
);

-- List answers newest first; the partial indexes serve the lobby (open
-- seats) and the live games (no result) without scanning finished games.
CREATE INDEX games_created ON games (created DESC, id DESC);
CREATE INDEX games_ongoing ON games (created DESC, id DESC) WHERE result IS NULL;
CREATE INDEX games_open ON games (created DESC, id DESC) WHERE open_seats > 0;

-- One row the health check rewrites.
CREATE TABLE health (
    id      INTEGER PRIMARY KEY,
    checked BIGINT  NOT NULL
);
