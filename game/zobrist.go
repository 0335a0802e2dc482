package game

// ZobristKeys returns n pseudo-random 64-bit keys, the same for the same
// seed on every run and machine (splitmix64), so that hashes can be stored
// and compared across processes.
func ZobristKeys(seed uint64, n int) []uint64 {
	keys := make([]uint64, n)
	for i := range keys {
		seed += 0x9e3779b97f4a7c15
		z := seed
		z = (z ^ z>>30) * 0xbf58476d1ce4e5b9
		z = (z ^ z>>27) * 0x94d049bb133111eb
		keys[i] = z ^ z>>31
	}
	return keys
}
