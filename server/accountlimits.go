package server

import "github.com/arbiter-games/arbiter/accounts"

// AccountLimits bound the password work and the sign-ups of one client
// address (an IPv6 /64), and the failed-login throttle; zero fields take
// DefaultAccountLimits' values. They are the account service's.
type AccountLimits = accounts.Limits

// DefaultAccountLimits are accounts.DefaultLimits.
var DefaultAccountLimits = accounts.DefaultLimits
