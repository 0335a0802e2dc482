package lobby

import (
	"context"
	"errors"
	"time"

	"github.com/arbiter-games/arbiter/internal/clip"
	"github.com/arbiter-games/arbiter/store"
)

// A bot (store.AccountKind Bot) meets people through challenges only:
// it posts no seek and joins none but the challenges to it, which it
// accepts or declines through the bot API; the games it plays at once
// and the challenges it accepts in an hour are bounded, so that one
// engine cannot fill the site with games nobody watches.
const (
	DefaultBotGames             = 8
	DefaultBotChallengesPerHour = 30
	// maxChallenges bounds the challenges to one account a list gives:
	// more than its challengers' open seeks could ever be at once.
	maxChallenges = 200
)

// botMayAccept finds the open challenge id to the bot a, and refuses it
// when a plays as many games as allowed already, or accepted as many
// challenges in the last hour.
func (l *Lobby) botMayAccept(ctx context.Context, a store.Account, id string) (store.Seek, error) {
	seeks, err := l.store.Seeks(ctx, l.now(), store.SeekFilter{Target: a.ID, Limit: maxChallenges})
	if err != nil {
		return store.Seek{}, err
	}
	var sk store.Seek
	for _, x := range seeks {
		if x.ID == id {
			sk = x
		}
	}
	if sk.ID == "" {
		return sk, refuse(NotFound, "no open challenge %s to you: a bot accepts the challenges sent to it, and no other seek", clip.Quote(id))
	}
	playing, err := l.store.PlayerGames(ctx, a.ID, store.GameFilter{Ongoing: true, Limit: l.botGames})
	if err != nil {
		return sk, err
	}
	if len(playing) >= l.botGames {
		return sk, refuse(TooMany, "a bot plays at most %d games at once; finish one first", l.botGames)
	}
	recent, err := l.store.PlayerGames(ctx, a.ID, store.GameFilter{Limit: l.botPerHour})
	if err != nil {
		return sk, err
	}
	hourAgo := l.now().Add(-time.Hour)
	n := 0
	for _, g := range recent {
		if g.Created.After(hourAgo) {
			n++
		}
	}
	if n >= l.botPerHour {
		return sk, refuse(TooMany, "a bot accepts at most %d challenges an hour; try again later", l.botPerHour)
	}
	return sk, nil
}

// Challenges lists the open challenges to account, newest first, as the
// lobby lists seeks.
func (l *Lobby) Challenges(ctx context.Context, account string) ([]SeekView, error) {
	seeks, err := l.store.Seeks(ctx, l.now(), store.SeekFilter{Target: account, Limit: maxChallenges})
	if err != nil {
		return nil, err
	}
	return l.views(ctx, seeks)
}

// Decline withdraws the open challenge id to account, for its sender as
// for everyone: the lobby's subscribers are sent the seeks without it.
func (l *Lobby) Decline(ctx context.Context, id, account string) error {
	err := l.store.DeclineSeek(ctx, id, account, l.now())
	if errors.Is(err, store.ErrNoSeek) {
		return refuse(NotFound, "no open challenge %s to you", clip.Quote(id))
	}
	if err != nil {
		return err
	}
	l.Nudge()
	return nil
}
