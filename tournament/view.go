package tournament

import (
	"context"
	"strconv"
	"strings"
	"time"

	"github.com/arbiter-games/arbiter/store"
)

// View is a tournament as its page and API show it.
type View struct {
	store.Tournament
	// CreatorName is the creator's account name.
	CreatorName string
	// Ends is when an arena stops (zero before it starts, and for the
	// other kinds); TotalRounds a Swiss's or round-robin's rounds (a
	// round-robin's known once it starts).
	Ends        time.Time
	TotalRounds int
	Standings   []Standing
	// Played are the rounds paired so far, with their games.
	Played []RoundView
	// Podium are the first three names once it is finished.
	Podium []string
	// Invited are the names invited who have not joined.
	Invited []string
}

// RoundView is a round's games (an arena's wave of pairings).
type RoundView struct {
	Round int
	Games []GameView
}

// GameView is one board: its game's id ("" for a bye or a forfeit), the
// seats' names and accounts, and its result.
type GameView struct {
	Board    int
	ID       string
	Seats    []string
	Accounts []string
	Places   []int
	Ended    bool
	Berserk  []bool
	// Result is "1-0", "0-1", "1/2-1/2", the places of a three-player
	// game ("1-2-3"), "bye", "0-0" (counting for nothing), "*" going on.
	Result string
}

// Get shows tournament id.
func (s *Service) Get(ctx context.Context, id string) (View, error) {
	t, err := s.tournament(ctx, id)
	if err != nil {
		return View{}, err
	}
	st, err := s.read(ctx, t)
	if err != nil {
		return View{}, err
	}
	v := View{Tournament: t, Standings: standings(st), TotalRounds: t.Rounds}
	if a, err := s.store.Account(ctx, t.Creator); err == nil {
		v.CreatorName = a.Name
	}
	if t.Kind == Arena && !t.Started.IsZero() {
		v.Ends = arenaEnd(t)
	}
	if t.Kind == RoundRobin && t.Round > 0 {
		n := len(roundRobinPlayers(st))
		v.TotalRounds = n - 1 + n%2
	}
	for _, p := range st.players {
		if p.Invited && !p.Joined {
			v.Invited = append(v.Invited, p.Name)
		}
	}
	for _, g := range st.games {
		if len(v.Played) == 0 || v.Played[len(v.Played)-1].Round != g.Round {
			v.Played = append(v.Played, RoundView{Round: g.Round})
		}
		r := &v.Played[len(v.Played)-1]
		gv := GameView{Board: g.Board, ID: g.Game, Accounts: g.Seats, Places: g.Places, Ended: g.Ended, Berserk: g.Berserk, Result: resultText(g)}
		for _, a := range g.Seats {
			gv.Seats = append(gv.Seats, nameOf(st, a))
		}
		r.Games = append(r.Games, gv)
	}
	if t.State == store.TournamentFinished {
		for i := 0; i < len(v.Standings) && i < 3; i++ {
			v.Podium = append(v.Podium, v.Standings[i].Name)
		}
	}
	return v, nil
}

// resultText is a board's result as GameView.Result says it.
func resultText(g store.TournamentGame) string {
	switch {
	case !g.Ended:
		return "*"
	case len(g.Seats) == 1:
		return "bye"
	case len(g.Places) != len(g.Seats):
		return "0-0"
	case len(g.Seats) == 2:
		a, b := swissPoints(g.Places, 0), swissPoints(g.Places, 1)
		if a == 0.5 {
			return "1/2-1/2"
		}
		return strconv.Itoa(int(a)) + "-" + strconv.Itoa(int(b))
	}
	parts := make([]string, len(g.Places))
	for i, p := range g.Places {
		parts[i] = strconv.Itoa(p)
	}
	return strings.Join(parts, "-")
}

// Lists are the tournaments to come, running and finished, each newest
// first (to come: soonest first).
// Their Views hold the tournament only, no standings nor rounds; a
// finished one's its Podium too.
type Lists struct {
	Upcoming, Running, Finished []View
}

// ListPage bounds each of the lists.
const ListPage = 50

// List lists the tournaments.
func (s *Service) List(ctx context.Context) (Lists, error) {
	var l Lists
	for _, x := range []struct {
		state string
		to    *[]View
	}{{store.TournamentCreated, &l.Upcoming}, {store.TournamentRunning, &l.Running}, {store.TournamentFinished, &l.Finished}} {
		list, err := s.store.ListTournaments(ctx, store.TournamentFilter{State: x.state, Limit: ListPage})
		if err != nil {
			return Lists{}, err
		}
		for _, t := range list {
			v := View{Tournament: t}
			if t.State == store.TournamentFinished {
				if v.Podium, err = s.podium(ctx, t); err != nil {
					return Lists{}, err
				}
			}
			*x.to = append(*x.to, v)
		}
	}
	return l, nil
}

// podium is the first three of finished tournament t: two reads of the
// store (its players and games), for each finished one listed.
func (s *Service) podium(ctx context.Context, t store.Tournament) ([]string, error) {
	st, err := s.read(ctx, t)
	if err != nil {
		return nil, err
	}
	var names []string
	for _, sd := range standings(st) {
		if len(names) == 3 {
			break
		}
		names = append(names, sd.Name)
	}
	return names, nil
}
