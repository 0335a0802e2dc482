-- Puzzle ratings (docs/puzzles.md): each account's Glicko-2 puzzle
-- rating per game id, each puzzle's own, and each account's first
-- attempt at each puzzle, whose key makes an attempt rated exactly once.
-- Puzzles themselves are embedded in the binary, not stored: a puzzle
-- has a row here once an account attempted it.

CREATE TABLE puzzle_ratings (
    account    TEXT             NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
    game       TEXT             NOT NULL,
    rating     DOUBLE PRECISION NOT NULL,
    rd         DOUBLE PRECISION NOT NULL,
    volatility DOUBLE PRECISION NOT NULL,
    attempts   INTEGER          NOT NULL,
    updated    BIGINT           NOT NULL,
    PRIMARY KEY (account, game)
);

CREATE TABLE puzzles (
    id         TEXT             PRIMARY KEY,
    game       TEXT             NOT NULL,
    rating     DOUBLE PRECISION NOT NULL,
    rd         DOUBLE PRECISION NOT NULL,
    volatility DOUBLE PRECISION NOT NULL,
    plays      INTEGER          NOT NULL,
    solved     INTEGER          NOT NULL
);
CREATE INDEX puzzles_game ON puzzles (game);

CREATE TABLE puzzle_attempts (
    account TEXT    NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
    puzzle  TEXT    NOT NULL,
    game    TEXT    NOT NULL,
    solved  INTEGER NOT NULL,
    at      BIGINT  NOT NULL,
    PRIMARY KEY (account, puzzle)
);
CREATE INDEX puzzle_attempts_game ON puzzle_attempts (account, game);
