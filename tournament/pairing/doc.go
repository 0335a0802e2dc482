// Package pairing holds the rules of tournaments, and only the rules: who
// meets whom in a round and how results become points and standings. It
// knows no clock, store or transport; every function is a pure function of
// its arguments, so a tournament service can replay any round.
//
// Three systems:
//
//   - Swiss pairs a round of a Swiss tournament by the FIDE Dutch system
//     (Handbook C.04.3): score brackets paired top half against bottom
//     half, floaters, transpositions and exchanges in the Dutch order, the
//     absolute criteria kept always and the quality criteria listed in
//     docs/tournaments.md. Standings ranks by score, Buchholz and
//     Sonneborn-Berger.
//   - RoundRobin gives the rounds of an all-play-all by FIDE's Berger
//     tables (Handbook C.05, Annex 1).
//   - Arena pairs the players who are free now (lichess's arena: close
//     score and rating, never the last opponent again) and ArenaSheet
//     scores an arena player's games: 2 for a win, 1 for a draw, doubled on
//     a streak, one more for a berserk win. Three-player games are grouped
//     in triples and scored by place.
package pairing
