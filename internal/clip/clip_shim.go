// Package clip: TEMPORARY shim until branch h-ai lands.
package clip

import "strconv"

func Quote(s string) string {
	r := []rune(s)
	if len(r) > 80 {
		return strconv.Quote(string(r[:80])) + "…"
	}
	return strconv.Quote(s)
}
