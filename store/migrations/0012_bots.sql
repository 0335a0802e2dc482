-- Bot accounts (store.Bots): engines their authors bring, played through
-- the bot API with personal API tokens. Times are BIGINT milliseconds
-- since 1970 in UTC, as in 0001.

-- What plays an account (store.AccountKind): 'person', 'level' (one of
-- the site's AI levels, which 0003's column bot marked) or 'bot' (an
-- engine played through the bot API). The word bot names that last kind
-- only from here on, so 0003's column goes: a query that still names it
-- fails rather than reading a level as a bot.
ALTER TABLE accounts ADD COLUMN kind TEXT NOT NULL DEFAULT 'person';
UPDATE accounts SET kind = 'level' WHERE bot = 1;
ALTER TABLE accounts DROP COLUMN bot;

-- A personal API token is the SHA-256 of its secret, as a session is:
-- the secret is shown once and never stored. id names it in the
-- account's list and in a revocation; description is its owner's note.
CREATE TABLE api_tokens (
    hash        TEXT   PRIMARY KEY, -- hex
    id          TEXT   NOT NULL UNIQUE,
    account     TEXT   NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
    description TEXT   NOT NULL,
    created     BIGINT NOT NULL
);
CREATE INDEX api_tokens_account ON api_tokens (account, created);

-- A bot's event stream lists the challenges to it.
CREATE INDEX seeks_target ON seeks (target);
