-- SQLite has no NOTIFY: every change also appends a row here, in the same
-- transaction, and each open store polls for rows past the last it saw.
-- SQLite serialises writers, so seq grows in commit order and no row is
-- ever skipped. Old rows are pruned as new ones arrive.
CREATE TABLE events (
    seq     INTEGER PRIMARY KEY,
    game    TEXT    NOT NULL,
    version BIGINT  NOT NULL
);
