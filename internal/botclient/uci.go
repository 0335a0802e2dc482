package botclient

import (
	"fmt"

	"github.com/arbiter-games/arbiter/uci"
)

// Option is one setoption of an engine: its name and value.
type Option struct{ Name, Value string }

// Command is the engine of a program that speaks arbiter's engine
// protocol (uci), run as argv, each option set after its handshake. It
// starts one engine at once, to learn the games its handshake names (nil
// when it names none) and to fail early, and gives it to the first game;
// each later game starts one of its own.
func Command(argv []string, options []Option) (newEngine func() (Engine, error), games []string, err error) {
	if len(argv) == 0 {
		return nil, nil, fmt.Errorf("botclient: no engine command")
	}
	start := func() (*uci.Client, error) {
		c, err := uci.Start(argv[0], argv[0], argv[1:]...)
		if err != nil {
			return nil, err
		}
		for _, o := range options {
			if err := c.SetOption(o.Name, o.Value); err != nil {
				c.Close()
				return nil, err
			}
		}
		return c, nil
	}
	first, err := start()
	if err != nil {
		return nil, nil, err
	}
	spare := make(chan *uci.Client, 1)
	spare <- first
	return func() (Engine, error) {
		select {
		case c := <-spare:
			return c, nil
		default:
			return start()
		}
	}, first.Games(), nil
}
