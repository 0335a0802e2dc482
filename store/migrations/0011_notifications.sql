-- Notifications (store.Notifications): the site's shared secrets, each
-- account's choices of what reaches it how, its e-mail address, its
-- one-use tokens (an address's verification, a password's reset), its
-- browsers' push subscriptions, and the outbox every server sends from.
-- Times are BIGINT milliseconds since 1970 in UTC, as in 0001; 0 is
-- "never" where a time may be none.

-- The secrets every server of a database shares, made by whichever
-- server starts first (an insert that keeps the row already there): the
-- Web Push (VAPID) key pair, the key that signs the unsubscribe links.
CREATE TABLE site_secrets (
    name    TEXT   PRIMARY KEY,
    value   TEXT   NOT NULL,
    created BIGINT NOT NULL
);

-- An account's choice for one kind of notification on one channel, where
-- it differs from the default (package notify keeps the defaults): a row
-- says on (1) or off (0).
CREATE TABLE notify_prefs (
    account TEXT    NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
    kind    TEXT    NOT NULL,
    channel TEXT    NOT NULL,
    enabled INTEGER NOT NULL,
    PRIMARY KEY (account, kind, channel)
);

-- An account's e-mail address, at most one. Nothing but its verification
-- is mailed to it until it is verified; a verified address belongs to
-- one account only (address_key is its lowercase form), so that a
-- password's reset by address finds one account.
CREATE TABLE emails (
    account     TEXT    PRIMARY KEY REFERENCES accounts (id) ON DELETE CASCADE,
    address     TEXT    NOT NULL,
    address_key TEXT    NOT NULL,
    verified    INTEGER NOT NULL,
    changed     BIGINT  NOT NULL
);
CREATE UNIQUE INDEX emails_verified ON emails (address_key) WHERE verified = 1;

-- One-use tokens, by the SHA-256 of the token (hex): the token itself is
-- only in the link mailed. purpose is 'verify' (of address, the address
-- it verifies) or 'reset' (a password's); used is when it was used (0:
-- not yet). An account's tokens of a purpose made lately are counted
-- before each new one.
CREATE TABLE tokens (
    hash    TEXT   PRIMARY KEY,
    account TEXT   NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
    purpose TEXT   NOT NULL,
    address TEXT   NOT NULL,
    created BIGINT NOT NULL,
    expires BIGINT NOT NULL,
    used    BIGINT NOT NULL
);
CREATE INDEX tokens_account ON tokens (account, purpose, created);

-- A browser's Web Push subscription: where to push (endpoint, one
-- account's at a time) and the keys its messages are encrypted to.
CREATE TABLE push_subscriptions (
    id       TEXT   PRIMARY KEY,
    account  TEXT   NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
    endpoint TEXT   NOT NULL UNIQUE,
    p256dh   TEXT   NOT NULL,
    auth     TEXT   NOT NULL,
    created  BIGINT NOT NULL
);
CREATE INDEX push_subscriptions_account ON push_subscriptions (account, created);

-- The outbox: a notification to send, one row per account, kind,
-- subject (a game and its ply, a seek, a token) and channel ('push',
-- 'email'), inserted if absent, so that servers that all see one event
-- store one row. A server claims a due row by a conditional update
-- (lease_until: until when it holds it; claim: its claim's random id),
-- sends it, and marks it: state 'pending' (to send, at due), 'sent',
-- 'skipped' (no longer wanted when due: the turn passed, the channel
-- turned off) or 'failed' (after its last attempt). done lists the push
-- subscriptions already sent to, so that a retry sends only to the rest.
-- to_address is where a verification is mailed (the address it
-- verifies); '' for the account's verified address.
CREATE TABLE outbox (
    id          TEXT    PRIMARY KEY,
    account     TEXT    NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
    kind        TEXT    NOT NULL,
    subject     TEXT    NOT NULL,
    channel     TEXT    NOT NULL,
    game_id     TEXT    NOT NULL,
    ply         INTEGER NOT NULL,
    title       TEXT    NOT NULL,
    body        TEXT    NOT NULL,
    url         TEXT    NOT NULL,
    to_address  TEXT    NOT NULL,
    state       TEXT    NOT NULL,
    due         BIGINT  NOT NULL,
    lease_until BIGINT  NOT NULL,
    claim       TEXT    NOT NULL,
    attempts    INTEGER NOT NULL,
    done        TEXT    NOT NULL,
    error       TEXT    NOT NULL,
    created     BIGINT  NOT NULL,
    finished    BIGINT  NOT NULL,
    UNIQUE (account, kind, subject, channel)
);
CREATE INDEX outbox_due ON outbox (state, due);
CREATE INDEX outbox_finished ON outbox (state, finished);
