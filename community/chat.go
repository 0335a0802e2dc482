package community

import (
	"context"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/time/rate"

	"github.com/arbiter-games/arbiter/internal/clip"
	"github.com/arbiter-games/arbiter/store"
)

func quote(s string) string { return clip.Quote(s) }

// Message is a chat message as a reader sees it.
type Message struct {
	ID   string
	Game string
	Room string
	// Account and Name are its author's.
	Account string
	Name    string
	Text    string
	At      int64 // milliseconds since 1970, UTC
	// Links says that the page may make the links in Text clickable:
	// false for the messages of new accounts, whose links are shown as
	// text (a fresh account is the spammer's).
	Links bool
}

// Room is one chat of a game as one reader may use it.
type Room struct {
	Name string // store.RoomPlayers or store.RoomSpectators
	// Write says whether the reader may write in it; when not, Why says
	// why in a line the page shows ("sign in to chat", a mute's reason).
	Write bool
	Why   string
	// Messages are the newest, oldest first, without those of accounts
	// the reader blocks or is blocked by.
	Messages []Message
}

// seated tells the seat accounts hold in a game, and whether it ended.
type seated struct {
	accounts map[string]bool
	ended    bool
}

func (s *Service) seats(ctx context.Context, gameID string) (seated, error) {
	hs, err := s.store.List(ctx, store.Filter{IDs: []string{gameID}, Limit: 1})
	if err != nil {
		return seated{}, err
	}
	if len(hs) == 0 {
		return seated{}, refuse(NotFound, "no game has the id %s", quote(gameID))
	}
	st := seated{accounts: map[string]bool{}, ended: hs[0].Result != nil}
	for _, seat := range hs[0].Seats {
		if seat.Account != "" {
			st.accounts[seat.Account] = true
		}
	}
	return st, nil
}

// Rooms gives the chats of a game that reader (an account id, "" for a
// visitor signed in to none) may read: a player reads the players' room,
// and the spectators' once the game is over (during it the spectators'
// talk could help a player); anyone else reads the spectators' room, and
// writes in it when signed in.
func (s *Service) Rooms(ctx context.Context, gameID, reader string) ([]Room, error) {
	st, err := s.seats(ctx, gameID)
	if err != nil {
		return nil, err
	}
	var a store.Account
	if reader != "" {
		if a, err = s.account(ctx, reader); err != nil {
			reader = "" // a deleted or closed account reads as a visitor
		}
	}
	hidden, err := s.hidden(ctx, reader)
	if err != nil {
		return nil, err
	}
	var rooms []Room
	authors := authorCache{}
	for _, name := range s.readable(st, reader) {
		r := Room{Name: name}
		r.Write, r.Why = s.writable(ctx, st, a, name)
		msgs, err := s.store.Chat(ctx, gameID, name, s.limits.History)
		if err != nil {
			return nil, err
		}
		for _, m := range msgs {
			if !hidden[m.Account] {
				r.Messages = append(r.Messages, s.messageWith(ctx, m, authors))
			}
		}
		rooms = append(rooms, r)
	}
	return rooms, nil
}

// readable are the rooms reader may read.
func (s *Service) readable(st seated, reader string) []string {
	if reader != "" && st.accounts[reader] {
		if st.ended {
			return []string{store.RoomPlayers, store.RoomSpectators}
		}
		return []string{store.RoomPlayers}
	}
	return []string{store.RoomSpectators}
}

// writable says whether account a may write in a game's room, and why
// not.
func (s *Service) writable(ctx context.Context, st seated, a store.Account, room string) (bool, string) {
	switch {
	case a.ID == "":
		return false, "Sign in to chat."
	case a.Standing.Banned:
		return false, "Your account is banned: " + a.Standing.BanReason
	case a.Standing.Muted(s.now()):
		return false, "You are muted until " + a.Standing.MutedUntil.UTC().Format("2 Jan 2006 15:04 UTC") + ": " + a.Standing.MuteReason
	case room == store.RoomPlayers && !st.accounts[a.ID]:
		return false, "Only the players write here."
	case room == store.RoomSpectators && st.accounts[a.ID]:
		return false, "Players do not write in the spectators' chat."
	case room == store.RoomPlayers:
		if other, blocked := s.blockedPlayer(ctx, st, a.ID); blocked {
			return false, other
		}
	}
	return true, ""
}

// blockedPlayer tells whether a block stands between account and another
// player of the game, and the line that says so.
func (s *Service) blockedPlayer(ctx context.Context, st seated, account string) (string, bool) {
	for other := range st.accounts {
		if other == account {
			continue
		}
		if b, err := s.store.Blocks(ctx, account); err == nil {
			for _, x := range b {
				if x.Account == other {
					return "You blocked " + x.Name + "; unblock them to chat.", true
				}
			}
		}
		if blocking, err := s.store.Blocking(ctx, account, other); err == nil && blocking {
			return "This player does not take your messages.", true
		}
	}
	return "", false
}

// hidden are the accounts whose messages reader does not see: those it
// blocks and those that block it.
func (s *Service) hidden(ctx context.Context, reader string) (map[string]bool, error) {
	return store.BlockedSet(ctx, s.store, reader)
}

// messageOf is a stored message as readers see it.
func (s *Service) messageOf(ctx context.Context, m store.ChatMessage) Message {
	return s.messageWith(ctx, m, authorCache{})
}

// authorCache keeps the authors read for one answer: a room of a hundred
// messages by two players reads two accounts, not a hundred.
type authorCache map[string]*store.Account

// messageWith is messageOf reading each author once through authors.
func (s *Service) messageWith(ctx context.Context, m store.ChatMessage, authors authorCache) Message {
	msg := Message{ID: m.ID, Game: m.Game, Room: m.Room, Account: m.Account, Name: m.Name, Text: m.Text, At: m.At.UnixMilli()}
	a, ok := authors[m.Account]
	if !ok {
		if got, err := s.store.Account(ctx, m.Account); err == nil {
			a = &got
		}
		authors[m.Account] = a
	}
	if a != nil {
		msg.Links = m.At.Sub(a.Created) >= s.limits.NewAccount
		msg.Name = a.Name // a deleted account shows its new name
	}
	return msg
}

// Say writes account's message in a game's room, and gives it to the
// room's listeners on this process.
func (s *Service) Say(ctx context.Context, gameID, room, account, text string) (Message, error) {
	text, err := s.cleanText(text)
	if err != nil {
		return Message{}, err
	}
	if room != store.RoomPlayers && room != store.RoomSpectators {
		return Message{}, refuse(Invalid, "room %s: want %s or %s", quote(room), store.RoomPlayers, store.RoomSpectators)
	}
	a, err := s.account(ctx, account)
	if err != nil {
		return Message{}, err
	}
	st, err := s.seats(ctx, gameID)
	if err != nil {
		return Message{}, err
	}
	if err := s.mayWrite(ctx, st, a, room); err != nil {
		return Message{}, err
	}
	if !s.writer(a.ID).AllowN(s.now(), 1) {
		return Message{}, refuse(TooMany, "at most %d messages a minute; wait a little", s.limits.PerMinute)
	}
	now := s.now()
	m := store.ChatMessage{ID: s.ids.next(now), Game: gameID, Room: room, Account: a.ID, Name: a.Name, Text: text, At: now}
	if err := s.store.AddChat(ctx, m); err != nil {
		return Message{}, err
	}
	msg := s.messageOf(ctx, m)
	s.markGiven(m.ID, now)
	s.publish(msg)
	return msg, nil
}

// mayWrite refuses a message the account may not write in the room, in
// the words the page shows.
func (s *Service) mayWrite(ctx context.Context, st seated, a store.Account, room string) error {
	ok, why := s.writable(ctx, st, a, room)
	if ok {
		return nil
	}
	code := Forbidden
	switch {
	case a.Standing.Banned:
		code = Banned
	case a.Standing.Muted(s.now()):
		code = Muted
	case room == store.RoomPlayers && st.accounts[a.ID]:
		code = Blocked
	}
	return refuse(code, "%s", strings.TrimSuffix(why, "."))
}

// cleanText is a message's text as it is kept: valid UTF-8, its control
// characters dropped and its spaces trimmed, not empty and not over the
// limit.
func (s *Service) cleanText(text string) (string, error) {
	if !utf8.ValidString(text) {
		return "", refuse(Invalid, "a message must be UTF-8 text")
	}
	text = strings.TrimSpace(strings.Map(func(r rune) rune {
		if unicode.IsControl(r) || unicode.Is(unicode.Cf, r) {
			return -1
		}
		return r
	}, text))
	if text == "" {
		return "", refuse(Invalid, "an empty message")
	}
	if n := utf8.RuneCountInString(text); n > s.limits.MessageRunes {
		return "", refuse(Invalid, "a message of %d characters: at most %d", n, s.limits.MessageRunes)
	}
	return text, nil
}

// maxWriters bounds the limiters kept: past it, full ones are forgotten
// (an account that has not written for a minute has a full bucket).
const maxWriters = 10000

// writer is the limiter of account's messages.
func (s *Service) writer(account string) *rate.Limiter {
	s.mu.Lock()
	defer s.mu.Unlock()
	if l, ok := s.writers[account]; ok {
		return l
	}
	if len(s.writers) >= maxWriters {
		for id, l := range s.writers {
			if l.Tokens() >= float64(s.limits.PerMinute) {
				delete(s.writers, id)
			}
		}
	}
	per := rate.Limit(float64(s.limits.PerMinute) / 60)
	l := rate.NewLimiter(per, s.limits.PerMinute)
	s.writers[account] = l
	return l
}
