-- The community (store.Community): games' chat, the accounts' blocks of
-- each other, their reports of each other, and what moderators decide,
-- with the audit log of every decision. Times are BIGINT milliseconds
-- since 1970 in UTC, as in 0001; 0 is "never" where a time may be none.

-- An account's standing (store.Standing), its zero an ordinary account
-- in good standing. admin is the moderator role, given from the command
-- line; muted_until keeps the account out of every chat while after now
-- (0: not muted); banned accounts cannot play, seek or chat; closed
-- accounts cannot log in; engine marks an account found to play with an
-- engine's help, left out of the leaderboards. The reasons are what the
-- account is told. One ALTER TABLE per column: SQLite adds one at a time.
ALTER TABLE accounts ADD COLUMN admin INTEGER NOT NULL DEFAULT 0;
ALTER TABLE accounts ADD COLUMN muted_until BIGINT NOT NULL DEFAULT 0;
ALTER TABLE accounts ADD COLUMN mute_reason TEXT NOT NULL DEFAULT '';
ALTER TABLE accounts ADD COLUMN banned INTEGER NOT NULL DEFAULT 0;
ALTER TABLE accounts ADD COLUMN ban_reason TEXT NOT NULL DEFAULT '';
ALTER TABLE accounts ADD COLUMN closed INTEGER NOT NULL DEFAULT 0;
ALTER TABLE accounts ADD COLUMN close_reason TEXT NOT NULL DEFAULT '';
ALTER TABLE accounts ADD COLUMN engine INTEGER NOT NULL DEFAULT 0;

-- A game's chat, in two rooms (its players' and its spectators'). Ids are
-- made by the server and sort as the messages were written, so that a
-- room reads in id order. A message a moderator removed stays (removed =
-- 1) for the reports that name it, and is no longer shown. name is the
-- account's name when it wrote.
CREATE TABLE chat_messages (
    id      TEXT    PRIMARY KEY,
    game_id TEXT    NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    room    TEXT    NOT NULL, -- 'players' or 'spectators'
    account TEXT    NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
    name    TEXT    NOT NULL,
    text    TEXT    NOT NULL,
    at      BIGINT  NOT NULL,
    removed INTEGER NOT NULL
);
CREATE INDEX chat_messages_room ON chat_messages (game_id, room, id);

-- account blocks blocked. A block keeps the two apart whichever of them
-- made it, so it is looked up both ways: hence the second index.
CREATE TABLE blocks (
    account TEXT   NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
    blocked TEXT   NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
    at      BIGINT NOT NULL,
    PRIMARY KEY (account, blocked)
);
CREATE INDEX blocks_blocked ON blocks (blocked);

-- What a reporter says of an account: of the account itself, of one of
-- its games (game_id) or of one of its chat messages (message); '' for
-- neither. game_id has no foreign key, '' meaning none, and a report
-- outlives the game it names. A report is open until a moderator closes
-- it (closed 0, closed_by ''; closed_by is '' too when it was closed from
-- the command line). Moderators list the open ones newest first; a
-- reporter's open reports are counted before each new one.
CREATE TABLE reports (
    id        TEXT   PRIMARY KEY,
    reporter  TEXT   NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
    account   TEXT   NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
    game_id   TEXT   NOT NULL DEFAULT '',
    message   TEXT   NOT NULL DEFAULT '',
    reason    TEXT   NOT NULL,
    created   BIGINT NOT NULL,
    closed    BIGINT NOT NULL DEFAULT 0,
    closed_by TEXT   NOT NULL DEFAULT ''
);
CREATE INDEX reports_open ON reports (closed, created DESC, id DESC);
CREATE INDEX reports_reporter ON reports (reporter, closed);
CREATE INDEX reports_account ON reports (account, created DESC, id DESC);

-- The audit log: every moderator's action, as it was taken. moderator is
-- the moderator's account id, '' from the command line, and has no
-- foreign key so that the log outlives it; until is the end of a mute (0
-- for other actions); report and message, when not '', are the report
-- the action closed and the chat message it removed.
CREATE TABLE mod_actions (
    id        TEXT   PRIMARY KEY,
    moderator TEXT   NOT NULL,
    account   TEXT   NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
    action    TEXT   NOT NULL,
    reason    TEXT   NOT NULL,
    until     BIGINT NOT NULL,
    report    TEXT   NOT NULL,
    message   TEXT   NOT NULL,
    at        BIGINT NOT NULL
);
CREATE INDEX mod_actions_account ON mod_actions (account, at);
CREATE INDEX mod_actions_at ON mod_actions (at);
