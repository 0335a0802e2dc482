-- Take-backs and premoves. waiting is what waits on the table beside a
-- draw offer, as JSON (NULL when nothing does): a seat's request to take
-- its last move back, and a premove, a seat's move for its next turn.
-- no_takebacks is 1 for a game created with take-backs turned off.
ALTER TABLE games ADD COLUMN waiting TEXT;
ALTER TABLE games ADD COLUMN no_takebacks INTEGER NOT NULL DEFAULT 0;
