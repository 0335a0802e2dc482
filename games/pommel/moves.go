package pommel

import "github.com/arbiter-games/arbiter/game"

// Moves appends the legal moves of the player to move: every capture if
// there is one (capture is compulsory, any capture may be chosen), else
// every non-capturing move. A side without pieces has lost, so then there
// are none (only a FEN can leave the opponent of the mover without pieces).
// The pie rule's Swap, when it is a move, comes first; then the captures
// piece by piece in cell order, or the soldiers' steps direction by
// direction (forward left, straight, forward right) and the captains'
// slides. The 45-cell board's moves come from the generator on one-word
// sets, the 76-cell board's from the one on two words: the same source.
func (s *State) Moves(buf []game.Move) []game.Move {
	if s.ply == 1 && s.swappable {
		buf = append(buf, game.Swap())
	}
	if s.pos.count[0] == 0 || s.pos.count[1] == 0 {
		return buf
	}
	if t := s.t; t.narrow {
		g := narrowGen{t: t, sets: t.narrowSets()}
		g.load(&s.pos, s.g.hopAny)
		return g.moves(buf)
	}
	g := gen{t: s.t, sets: s.t.wideSets()}
	g.load(&s.pos, s.g.hopAny)
	return g.moves(buf)
}

// gen returns the generator on two words of the position, which serves
// both boards, for the callers off the hot path (the mask tests, an
// evaluation that asks about the other side's captures).
func (s *State) gen() gen {
	g := gen{t: s.t, sets: s.t.wideSets()}
	g.load(&s.pos, s.g.hopAny)
	return g
}

// hasMove reports whether the player to move has a legal move, as a
// non-empty Moves would, without listing them: a soldier's step, read
// from the position's sets, answers nearly every position.
func (s *State) hasMove() bool {
	if s.pos.count[0] == 0 || s.pos.count[1] == 0 {
		return false
	}
	if t := s.t; t.narrow {
		if quickStepNarrow(t, &s.pos, s.g.hopAny) {
			return true
		}
		g := narrowGen{t: t, sets: t.narrowSets()}
		g.load(&s.pos, s.g.hopAny)
		return g.anyCapture() || g.anySlide()
	}
	if quickStep(s.t, &s.pos, s.g.hopAny) {
		return true
	}
	g := gen{t: s.t, sets: s.t.wideSets()}
	g.load(&s.pos, s.g.hopAny)
	return g.anyCapture() || g.anySlide()
}

// HasMove reports whether the player to move has a legal move, as a
// non-empty Moves would. Engines ask it at the horizon instead of listing
// the moves.
func (s *State) HasMove() bool { return s.hasMove() }

// HasCapture reports whether the player to move must capture: then every
// move Moves returns is a capture, else none is.
func (s *State) HasCapture() bool {
	if s.pos.count[0] == 0 || s.pos.count[1] == 0 {
		return false
	}
	if t := s.t; t.narrow {
		g := narrowGen{t: t, sets: t.narrowSets()}
		g.load(&s.pos, s.g.hopAny)
		return g.anyCapture()
	}
	g := gen{t: s.t, sets: s.t.wideSets()}
	g.load(&s.pos, s.g.hopAny)
	return g.anyCapture()
}
