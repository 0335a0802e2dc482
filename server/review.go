package server

import (
	"context"
	"errors"
	"net/http"

	"github.com/arbiter-games/arbiter/hall"
	"github.com/arbiter-games/arbiter/record"
	"github.com/arbiter-games/arbiter/reviews"
)

// The computer reviews of finished games (package reviews does them, on
// its queue): POST /api/games/{id}/review asks for one, GET answers it as
// it stands.

// reviewCodes are the API's codes of the reviews' refusals (whose
// statuses are statusOf's).
var reviewCodes = map[reviews.Code]string{
	reviews.NotFound:    codeNotFound,
	reviews.Unfinished:  codeGameNotOver,
	reviews.Forbidden:   codeForbidden,
	reviews.RateLimited: codeRateLimited,
	reviews.Full:        codeQueueFull,
	reviews.Invalid:     codeInvalid,
	reviews.Closed:      codeShutdown,
}

// handleRequestReview asks for the review of a finished game: 202 while
// it waits or runs, 200 once done (or failed, which it stays: a game is
// reviewed once).
func (s *Server) handleRequestReview(w http.ResponseWriter, r *http.Request) {
	if s.reviews == nil {
		writeError(w, fail(codeUnavailable, "this server does not review games"))
		return
	}
	if err := s.admit(r, s.clients.allowMove); err != nil {
		writeError(w, err)
		return
	}
	v, err := s.hall.Get(r.Context(), r.PathValue("id"))
	if err != nil {
		s.writeFailure(w, err)
		return
	}
	me := s.sessionAccountID(r)
	who := reviews.Requester{Account: me, Addr: clientKey(r), Player: reviews.IsPlayer(v, me)}
	if token := bearer(r); token != "" && !who.Player {
		_, serr := s.hall.Seat(r.Context(), v.ID, hall.Who{Token: token})
		who.Player = serr == nil
	}
	rv, _, err := s.reviews.Request(r.Context(), reviews.GameOf(v), who)
	if err != nil {
		s.reviewFailure(w, err)
		return
	}
	code := http.StatusAccepted
	if rv.State == reviews.Done || rv.State == reviews.Failed {
		code = http.StatusOK
	}
	writeJSON(w, code, reviewViewOf(rv))
}

// handleReview answers a review as it stands; 404 when nobody asked.
func (s *Server) handleReview(w http.ResponseWriter, r *http.Request) {
	if s.reviews == nil {
		writeError(w, fail(codeNotFound, "nobody asked for the review of game %s: this server does not review games", quote(r.PathValue("id"))))
		return
	}
	rv, err := s.reviews.Get(r.Context(), r.PathValue("id"))
	if err != nil {
		s.reviewFailure(w, err)
		return
	}
	writeJSON(w, http.StatusOK, reviewViewOf(rv))
}

// reviewFailure answers a refusal of the reviews, with Retry-After when
// it says how long to wait; any other error is the queue's fault, logged.
func (s *Server) reviewFailure(w http.ResponseWriter, err error) {
	code := reviews.ErrorCode(err)
	api, ok := reviewCodes[code]
	if !ok {
		s.log.Error("review request failed", "err", err)
		writeError(w, fail(codeUnavailable, "the review queue cannot be reached; try again in a moment"))
		return
	}
	var re *reviews.Error
	errors.As(err, &re)
	if re.RetryAfter > 0 {
		w.Header().Set("Retry-After", retryAfter(re.RetryAfter))
	}
	writeError(w, fail(api, "%s", re.Message))
}

// annotate adds a done review's scores and marks to the game's record,
// as comments; a record without a review, or whose review cannot be
// read now, is exported as it is.
func (s *Server) annotate(ctx context.Context, id string, rec *record.Record) {
	if s.reviews == nil {
		return
	}
	rv, err := s.reviews.Get(ctx, id)
	if err != nil {
		if reviews.ErrorCode(err) == "" {
			s.log.Warn("the record's review", "game", id, "err", err)
		}
		return
	}
	if rv.Result != nil {
		rv.Result.Annotate(rec)
	}
}
