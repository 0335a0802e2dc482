package rating

import (
	"errors"
	"fmt"
	"math"
)

// Pair is one game's result between players A and B (indices from 0) as
// A's score: 1 A won, 0.5 a draw (or a shared place), 0 B won.
type Pair struct {
	A, B  int
	Score float64
}

// eloSlope turns an Elo difference into the logit of the expected score.
const eloSlope = math.Ln10 / 400

// The fit's Newton iterations stop once no rating moves by more than
// fitTolerance Elo, or after fitIterations.
const (
	fitTolerance  = 1e-9
	fitIterations = 200
)

// BradleyTerry fits ratings on the Elo scale to the results of n players
// by maximum likelihood (a draw counts as half a win), with one virtual
// draw added between every two players who met, so that a player who won
// or lost every game still gets a finite rating. The ratings' mean is
// mean; se holds each rating's standard error (from the inverse of the
// Fisher information, the mean held fixed). Every player must have played
// and the players must be connected by their games.
func BradleyTerry(n int, results []Pair, mean float64) (ratings, se []float64, err error) {
	games, err := pairTable(n, results)
	if err != nil {
		return nil, nil, err
	}
	r := make([]float64, n)
	for range fitIterations {
		grad, info := likelihoodSlopes(r, games)
		step, err := solveCentred(info, grad)
		if err != nil {
			return nil, nil, err
		}
		largest := 0.0
		for i := range r {
			r[i] += step[i]
			largest = max(largest, math.Abs(step[i]))
		}
		if largest < fitTolerance {
			break
		}
	}
	_, info := likelihoodSlopes(r, games)
	cov, err := centredInverse(info)
	if err != nil {
		return nil, nil, err
	}
	se = make([]float64, n)
	for i := range r {
		r[i] += mean
		se[i] = math.Sqrt(max(cov[i][i], 0))
	}
	return r, se, nil
}

// pairGames sums the games between two players: how many, and the first
// player's points.
type pairGames struct{ games, points float64 }

// pairTable sums the results per pair, the virtual draws included, and
// refuses results it cannot fit.
func pairTable(n int, results []Pair) ([][]pairGames, error) {
	if n < 2 {
		return nil, fmt.Errorf("a fit of %d players: want 2 or more", n)
	}
	t := make([][]pairGames, n)
	for i := range t {
		t[i] = make([]pairGames, n)
	}
	for _, p := range results {
		switch {
		case p.A < 0 || p.A >= n || p.B < 0 || p.B >= n || p.A == p.B:
			return nil, fmt.Errorf("a game between players %d and %d: want two different players from 0 to %d", p.A, p.B, n-1)
		case !(p.Score >= 0 && p.Score <= 1):
			return nil, fmt.Errorf("a score of %v: want 0 to 1", p.Score)
		}
		t[p.A][p.B].games++
		t[p.A][p.B].points += p.Score
		t[p.B][p.A].games++
		t[p.B][p.A].points += 1 - p.Score
	}
	for i := range t {
		for j := range t[i] {
			if t[i][j].games > 0 {
				t[i][j].games++
				t[i][j].points += 0.5
			}
		}
	}
	if !connected(t) {
		return nil, errors.New("the players are not all connected by games: their ratings have no common scale")
	}
	return t, nil
}

// connected reports whether every player is reached from the first
// through games played.
func connected(t [][]pairGames) bool {
	seen := make([]bool, len(t))
	seen[0] = true
	stack := []int{0}
	for len(stack) > 0 {
		i := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		for j := range t[i] {
			if t[i][j].games > 0 && !seen[j] {
				seen[j] = true
				stack = append(stack, j)
			}
		}
	}
	for _, s := range seen {
		if !s {
			return false
		}
	}
	return true
}

// likelihoodSlopes returns the log-likelihood's gradient at ratings r and
// its Fisher information (minus its Hessian), both per Elo point.
func likelihoodSlopes(r []float64, t [][]pairGames) (grad []float64, info [][]float64) {
	n := len(r)
	grad = make([]float64, n)
	info = make([][]float64, n)
	for i := range info {
		info[i] = make([]float64, n)
	}
	for i := range t {
		for j := range t[i] {
			pg := t[i][j]
			if i == j || pg.games == 0 {
				continue
			}
			p := 1 / (1 + math.Pow(10, (r[j]-r[i])/400))
			grad[i] += eloSlope * (pg.points - pg.games*p)
			w := eloSlope * eloSlope * pg.games * p * (1 - p)
			info[i][i] += w
			info[i][j] -= w
		}
	}
	return grad, info
}

// solveCentred solves info·x = b for the x whose entries sum to zero:
// info has the null space of equal shifts of every rating, which adding
// 1/n to every entry removes without changing the answer.
func solveCentred(info [][]float64, b []float64) ([]float64, error) {
	inv, err := centredInverse(info)
	if err != nil {
		return nil, err
	}
	x := make([]float64, len(b))
	for i := range inv {
		for j := range inv[i] {
			x[i] += inv[i][j] * b[j]
		}
	}
	return x, nil
}

// centredInverse is the pseudo-inverse of info, whose null space is the
// vector of ones: (info + J/n)⁻¹ − J/n, J all ones.
func centredInverse(info [][]float64) ([][]float64, error) {
	n := len(info)
	a := make([][]float64, n)
	for i := range a {
		a[i] = make([]float64, n)
		for j := range a[i] {
			a[i][j] = info[i][j] + 1/float64(n)
		}
	}
	inv, err := invert(a)
	if err != nil {
		return nil, err
	}
	for i := range inv {
		for j := range inv[i] {
			inv[i][j] -= 1 / float64(n)
		}
	}
	return inv, nil
}

// invert inverts a square matrix by Gauss-Jordan elimination with partial
// pivoting, leaving a as it was.
func invert(a [][]float64) ([][]float64, error) {
	n := len(a)
	m := make([][]float64, n)
	for i := range m {
		m[i] = make([]float64, 2*n)
		copy(m[i], a[i])
		m[i][n+i] = 1
	}
	for col := range n {
		pivot := col
		for row := col + 1; row < n; row++ {
			if math.Abs(m[row][col]) > math.Abs(m[pivot][col]) {
				pivot = row
			}
		}
		if math.Abs(m[pivot][col]) < 1e-300 {
			return nil, errors.New("the fit's information matrix is singular")
		}
		m[col], m[pivot] = m[pivot], m[col]
		scale := m[col][col]
		for k := range m[col] {
			m[col][k] /= scale
		}
		for row := range n {
			if row != col && m[row][col] != 0 {
				f := m[row][col]
				for k := range m[row] {
					m[row][k] -= f * m[col][k]
				}
			}
		}
	}
	inv := make([][]float64, n)
	for i := range inv {
		inv[i] = m[i][n:]
	}
	return inv, nil
}
