-- Passkeys (WebAuthn credentials) that log an account in, and the
-- challenges of their ceremonies in progress, kept in the store so that
-- a ceremony begun on one server may finish on another.
CREATE TABLE passkeys (
    id         TEXT   PRIMARY KEY, -- the credential's id, base64url
    account    TEXT   NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
    name       TEXT   NOT NULL,
    credential TEXT   NOT NULL, -- JSON: the public key, its flags and sign count
    created    BIGINT NOT NULL,
    used       BIGINT NOT NULL
);
CREATE INDEX passkeys_account ON passkeys (account);

CREATE TABLE ceremonies (
    id      TEXT   PRIMARY KEY, -- random, told to the browser
    account TEXT   NOT NULL,    -- the account adding a passkey; '' for a login
    data    TEXT   NOT NULL,    -- JSON: the challenge and what it allows
    expires BIGINT NOT NULL
);
