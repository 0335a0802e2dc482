-- Accounts, their sessions and ratings, the players of each game, and the
-- lobby's seeks. Ids are text made by the server; every time is BIGINT
-- milliseconds since 1970 in UTC, as in 0001.

-- A rated game is rated once, when its result is stored.
ALTER TABLE games ADD COLUMN rated INTEGER NOT NULL DEFAULT 0;

-- name_key is the name in lower case: names are unique ignoring case. A
-- deleted account keeps its key, so that no one else takes the name, and
-- shows "deleted" as its name.
CREATE TABLE accounts (
    id       TEXT    PRIMARY KEY,
    name     TEXT    NOT NULL,
    name_key TEXT    NOT NULL UNIQUE,
    password TEXT    NOT NULL, -- Argon2id, PHC string; '' for the AI levels and deleted accounts
    bot      INTEGER NOT NULL, -- 1 for the AI levels' accounts
    deleted  INTEGER NOT NULL,
    created  BIGINT  NOT NULL
);

-- A session is the SHA-256 of its cookie's token: the token itself is
-- never stored.
CREATE TABLE sessions (
    hash    TEXT   PRIMARY KEY, -- hex
    account TEXT   NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
    created BIGINT NOT NULL,
    expires BIGINT NOT NULL
);
CREATE INDEX sessions_account ON sessions (account);

-- One Glicko-2 rating per account and game id.
CREATE TABLE ratings (
    account    TEXT             NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
    game       TEXT             NOT NULL,
    rating     DOUBLE PRECISION NOT NULL,
    rd         DOUBLE PRECISION NOT NULL,
    volatility DOUBLE PRECISION NOT NULL,
    games      INTEGER          NOT NULL,
    updated    BIGINT           NOT NULL,
    PRIMARY KEY (account, game)
);
CREATE INDEX ratings_board ON ratings (game, rating DESC);

-- Every rating change, written with the result that made it.
CREATE TABLE rating_changes (
    account    TEXT             NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
    game_id    TEXT             NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    game       TEXT             NOT NULL,
    seat       INTEGER          NOT NULL,
    at         BIGINT           NOT NULL,
    before     DOUBLE PRECISION NOT NULL,
    rating     DOUBLE PRECISION NOT NULL,
    rd         DOUBLE PRECISION NOT NULL,
    volatility DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (game_id, seat)
);
CREATE INDEX rating_changes_account ON rating_changes (account, game, at);

-- The seats accounts hold, for their lists of games.
CREATE TABLE players (
    game_id TEXT    NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    seat    INTEGER NOT NULL,
    account TEXT    NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
    game    TEXT    NOT NULL,
    created BIGINT  NOT NULL,
    PRIMARY KEY (game_id, seat)
);
CREATE INDEX players_account ON players (account, created DESC, game_id DESC);

-- Open seeks of the lobby. joined lists, in order, the accounts that
-- accepted a seek of more than two seats; the game starts once it is full.
CREATE TABLE seeks (
    id      TEXT    PRIMARY KEY,
    account TEXT    NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
    game    TEXT    NOT NULL,
    options TEXT    NOT NULL, -- JSON object
    rated   INTEGER NOT NULL,
    clock   TEXT,             -- JSON object or NULL
    target  TEXT    NOT NULL, -- the challenged account's id, '' for anyone
    seats   INTEGER NOT NULL,
    joined  TEXT    NOT NULL, -- JSON array of account ids
    created BIGINT  NOT NULL,
    expires BIGINT  NOT NULL
);
CREATE INDEX seeks_account ON seeks (account);
