package cli

import (
	"context"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/arbiter-games/arbiter/community"
)

// adminCmd is "admin grant|revoke NAME": the moderator role, given and
// taken against the store directly, never through the site.
func adminCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "admin",
		Short: "Give or take the moderator role (against the server's store)",
		Long: `admin gives an account the moderator role, or takes it back, writing
straight into the store "arbiter serve" keeps (--data, the same default
folder, or --db for PostgreSQL); the site itself never grants it. Each change
is written to the moderators' audit log as done from the command line.
A running server sees the change at the account's next request.`,
	}
	cmd.AddCommand(roleCmd("grant", true), roleCmd("revoke", false))
	return cmd
}

func roleCmd(verb string, grant bool) *cobra.Command {
	var t storeTarget
	cmd := &cobra.Command{
		Use:   verb + " NAME",
		Short: map[bool]string{true: "Make the account NAME a moderator", false: "Take the moderator role from NAME"}[grant],
		Args:  withUsage(cobra.ExactArgs(1)),
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := t.check(); err != nil {
				return err
			}
			if t.data == "" && t.db == "" {
				dir, err := dataDir("")
				if err != nil {
					return err
				}
				t.data = dir
			}
			return setRole(cmd.Context(), t, args[0], grant, func(line string) { fmt.Fprintln(cmd.OutOrStdout(), line) })
		},
	}
	cmd.Flags().StringVar(&t.data, "data", "", "the folder of the SQLite database arbiter serve keeps (default: its default folder)")
	cmd.Flags().StringVar(&t.db, "db", "", "the PostgreSQL database arbiter serve uses (postgres://...)")
	return cmd
}

// setRole gives or takes the role of the account named name in t's store.
func setRole(ctx context.Context, t storeTarget, name string, grant bool, say func(string)) error {
	st, err := t.open(ctx)
	if err != nil {
		return err
	}
	defer st.Close()
	svc, err := community.New(community.Config{Store: st})
	if err != nil {
		return err
	}
	if err := svc.Grant(ctx, name, grant); err != nil {
		return fmt.Errorf("admin: %w", err)
	}
	if grant {
		say(name + " is a moderator now")
	} else {
		say(name + " is no longer a moderator")
	}
	return nil
}
