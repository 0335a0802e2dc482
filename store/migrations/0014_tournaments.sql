-- Tournaments (store.Tournaments): arenas, Swiss and round-robin events,
-- their players and their games. Times are BIGINT milliseconds since 1970
-- in UTC, as in 0001; 0 is "never" where a time may be none.

-- A tournament. state is 'created' (registration open), 'running' or
-- 'finished'; round counts the pairings made (a Swiss or round-robin
-- round, an arena's wave of pairings), and pairing moves it from n to
-- n+1 by a conditional update, so that two servers never pair the same
-- round. clock is a seek's clock column (JSON, NULL for none).
CREATE TABLE tournaments (
    id         TEXT    PRIMARY KEY,
    creator    TEXT    NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
    name       TEXT    NOT NULL,
    kind       TEXT    NOT NULL, -- 'arena', 'swiss' or 'roundrobin'
    game       TEXT    NOT NULL,
    options    TEXT    NOT NULL, -- JSON object
    clock      TEXT,
    rated      INTEGER NOT NULL,
    rounds     INTEGER NOT NULL, -- Swiss and round-robin; 0 for an arena
    minutes    INTEGER NOT NULL, -- an arena's duration; 0 for the others
    invite     INTEGER NOT NULL, -- 1: by invitation only
    min_rating INTEGER NOT NULL, -- 0: no bound
    max_rating INTEGER NOT NULL, -- 0: no bound
    starts     BIGINT  NOT NULL, -- scheduled start; 0: started by hand
    state      TEXT    NOT NULL,
    round      INTEGER NOT NULL,
    started    BIGINT  NOT NULL,
    ended      BIGINT  NOT NULL,
    created    BIGINT  NOT NULL
);
CREATE INDEX tournaments_state ON tournaments (state, starts, created);
CREATE INDEX tournaments_creator ON tournaments (creator, state);

-- A tournament's players: invited (by invitation only) or joined; one who
-- withdraws keeps the row (and the games played). rating is the player's
-- at joining, for the pairing; score the points so far, written with
-- each result.
CREATE TABLE tournament_players (
    tournament TEXT    NOT NULL REFERENCES tournaments (id) ON DELETE CASCADE,
    account    TEXT    NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
    name       TEXT    NOT NULL,
    rating     DOUBLE PRECISION NOT NULL,
    invited    INTEGER NOT NULL,
    joined     INTEGER NOT NULL,
    withdrawn  INTEGER NOT NULL,
    paused     INTEGER NOT NULL,
    berserk    INTEGER NOT NULL,
    score      DOUBLE PRECISION NOT NULL,
    at         BIGINT  NOT NULL,
    PRIMARY KEY (tournament, account)
);

-- A tournament's games, by round and board. game_id is chosen before the
-- game is made, so that a game whose making a crash cut short is made
-- again under the same id; '' for a bye. seats and places are JSON
-- arrays (account ids in seat order; each seat's place, 1 the best, once
-- ended); berserk, the seats that went berserk.
CREATE TABLE tournament_games (
    tournament TEXT    NOT NULL REFERENCES tournaments (id) ON DELETE CASCADE,
    round      INTEGER NOT NULL,
    board      INTEGER NOT NULL,
    game_id    TEXT    NOT NULL,
    seats      TEXT    NOT NULL,
    berserk    TEXT    NOT NULL,
    ended      INTEGER NOT NULL,
    places     TEXT    NOT NULL,
    plies      INTEGER NOT NULL,
    created    BIGINT  NOT NULL,
    finished   BIGINT  NOT NULL,
    PRIMARY KEY (tournament, round, board)
);
CREATE INDEX tournament_games_game ON tournament_games (game_id);

-- Who plays in which round: the key that pairs nobody twice in a round,
-- whichever server pairs it.
CREATE TABLE tournament_seats (
    tournament TEXT    NOT NULL REFERENCES tournaments (id) ON DELETE CASCADE,
    round      INTEGER NOT NULL,
    account    TEXT    NOT NULL,
    board      INTEGER NOT NULL,
    PRIMARY KEY (tournament, round, account)
);
