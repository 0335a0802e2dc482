-- A seek may turn take-backs off for the game it starts, as a game's
-- creation may (games.no_takebacks, 0006): no_takebacks is 1 for such a
-- seek, 0 for every seek made before this step.
ALTER TABLE seeks ADD COLUMN no_takebacks INTEGER NOT NULL DEFAULT 0;
