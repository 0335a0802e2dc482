-- The lobby lists real-time and correspondence seeks apart, newest
-- first, so that neither kind pushes the other out; and bounds the open
-- seeks of one client address as well as of one account. address is the
-- poster's address key as the server groups clients ('' for the seeks
-- made before this step); correspondence is 1 for a seek whose clock
-- gives days a move.
ALTER TABLE seeks ADD COLUMN address TEXT NOT NULL DEFAULT '';
ALTER TABLE seeks ADD COLUMN correspondence INTEGER NOT NULL DEFAULT 0;
UPDATE seeks SET correspondence = 1 WHERE clock LIKE '%"days"%';
CREATE INDEX seeks_address ON seeks (address);
CREATE INDEX seeks_listed ON seeks (correspondence, created DESC, id DESC);
