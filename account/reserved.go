package account

// Reserved reports whether key (a name as Key gives it) is one the site
// keeps for itself or its AI levels (reservedNames, and the prefixes
// "ai-" and "ai_"): no person may register it, and the hall refuses it as
// the name of a seat played without an account.
func Reserved(key string) bool { return reserved(key) }
