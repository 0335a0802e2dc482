// Package minimize finds the least of a function of one number, for the
// fits of the tuning (its scale) and of the review's win-chance curves.
package minimize

// phi is the golden ratio's inverse, the share of the interval kept at
// each step.
const phi = 0.6180339887498949

// Golden returns the x in [lo, hi] where f is least, by golden-section
// search of steps steps (f taken to have one minimum there): the middle
// of the interval left. Each step calls f once.
func Golden(lo, hi float64, steps int, f func(float64) float64) float64 {
	a, b := hi-phi*(hi-lo), lo+phi*(hi-lo)
	fa, fb := f(a), f(b)
	for range steps {
		if fa < fb {
			hi, b, fb = b, a, fa
			a = hi - phi*(hi-lo)
			fa = f(a)
		} else {
			lo, a, fa = a, b, fb
			b = lo + phi*(hi-lo)
			fb = f(b)
		}
	}
	return (lo + hi) / 2
}
