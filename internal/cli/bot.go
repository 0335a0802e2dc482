package cli

import (
	"errors"
	"fmt"
	"log/slog"
	"net/url"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"github.com/spf13/cobra"

	"github.com/arbiter-games/arbiter/ai"
	"github.com/arbiter-games/arbiter/internal/botclient"
	"github.com/arbiter-games/arbiter/internal/clip"
)

// tokenEnv names the environment variable --token defaults to: a token
// on the command line is seen by every user of the machine (ps).
const tokenEnv = "ARBITER_BOT_TOKEN"

// botFlags are the settings of 'arbiter bot'.
type botFlags struct {
	site, token, engine string
	options             []string
	games               int
	limits              ai.Limits
	overhead            time.Duration
}

// botCmd is 'arbiter bot': an engine brought onto a site as its bot
// account (package botclient).
func botCmd() *cobra.Command {
	var f botFlags
	var c checks
	cmd := &cobra.Command{
		Use:   "bot --site URL --token TOKEN --engine CMD",
		Short: "Play a site's challenges with an engine, as a bot account",
		Long: `bot connects to the site at --site as the bot account of --token (an API token
of an account turned into a bot; docs/server.md, "Bots"), accepts the
challenges its engine plays (the games the engine's handshake names) up to
--games at once and declines the others, and plays each game: at the bot's
turn it asks the engine for a move, within the clock's time left (less
--overhead) and the limits given, and plays it. --engine is a program that
speaks arbiter's engine protocol, with its arguments ("arbiter engine"
is one); each game starts its own, each --option NAME=VALUE set after the
handshake. Streams that drop are opened again after a wait. It runs until
interrupted.`,
		Args: withUsage(cobra.NoArgs),
		RunE: func(cmd *cobra.Command, _ []string) error {
			if err := c.run(); err != nil {
				return err
			}
			cfg, err := f.config(cmd)
			if err != nil {
				return err
			}
			newEngine, games, err := botclient.Command(strings.Fields(f.engine), cfg.options)
			if err != nil {
				return fmt.Errorf("bot: the engine: %w", err)
			}
			cfg.NewEngine, cfg.Games = newEngine, games
			b, err := botclient.New(cfg.Config)
			if err != nil {
				return err
			}
			ctx, stop := signal.NotifyContext(cmd.Context(), os.Interrupt, syscall.SIGTERM)
			defer stop()
			if err := b.Run(ctx); err != nil && !errors.Is(err, ctx.Err()) {
				return fmt.Errorf("bot: %w", err)
			}
			return nil
		},
	}
	cmd.Flags().StringVar(&f.site, "site", "", "the site's address, such as https://example.org")
	cmd.Flags().StringVar(&f.token, "token", "", "the bot account's API token (default: $"+tokenEnv+")")
	cmd.Flags().StringVar(&f.engine, "engine", "", `the engine's command line, such as "arbiter engine"`)
	cmd.Flags().StringArrayVar(&f.options, "option", nil, "an engine option, NAME=VALUE (setoption), such as Player=ai:level=3; repeatable")
	c.intVar(cmd, &f.games, "games", 2, intRange{lo: 1, hi: 8}, "games played at once")
	c.limitVars(cmd, &f.limits, 0, "the clock alone (a correspondence game's move takes the engine's own default)", "most time a move's search takes")
	c.durationVar(cmd, &f.overhead, "overhead", 300*time.Millisecond, durationRange{max: time.Minute},
		"time a move takes to reach the site, kept off the engine's clock")
	return cmd
}

// botConfig is the client's configuration and the engine's options.
type botConfig struct {
	botclient.Config
	options []botclient.Option
}

// config checks the flags and makes the client's configuration; the
// token comes from $ARBITER_BOT_TOKEN when --token is not given.
func (f botFlags) config(cmd *cobra.Command) (botConfig, error) {
	u, err := url.Parse(f.site)
	switch {
	case f.site == "":
		return botConfig{}, errors.New("bot: give --site, the site's address")
	case err != nil || u.Host == "" || u.Scheme != "http" && u.Scheme != "https":
		return botConfig{}, fmt.Errorf("--site %s: want the site's address, such as https://example.org", clip.Quote(f.site))
	}
	token := f.token
	if token == "" {
		token = os.Getenv(tokenEnv)
	}
	if token == "" {
		return botConfig{}, fmt.Errorf("bot: give --token, or set %s, to the bot account's API token", tokenEnv)
	}
	if strings.TrimSpace(f.engine) == "" {
		return botConfig{}, errors.New(`bot: give --engine, the engine's command line, such as "arbiter engine"`)
	}
	var opts []botclient.Option
	for _, o := range f.options {
		name, value, ok := strings.Cut(o, "=")
		if !ok || strings.TrimSpace(name) == "" || strings.ContainsAny(name, " \t") {
			return botConfig{}, fmt.Errorf("--option %s: want NAME=VALUE, such as Player=ai:level=3", clip.Quote(o))
		}
		opts = append(opts, botclient.Option{Name: name, Value: value})
	}
	log := slog.New(slog.NewTextHandler(cmd.ErrOrStderr(), nil))
	return botConfig{Config: botclient.Config{Site: f.site, Token: token, MaxGames: f.games, Limits: f.limits,
		Overhead: f.overhead, Logger: log}, options: opts}, nil
}
