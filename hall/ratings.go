package hall

import "github.com/arbiter-games/arbiter/store"

// Result is a game's result as the store keeps it and the API shows it
// (StoredResult): a transport names it through the hall, which owns the
// store.
type Result = store.Result
