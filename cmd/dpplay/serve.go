package main

import (
	"context"
	"flag"
	"io"
	"os"
	"os/signal"
	"strings"
	"syscall"

	"github.com/dpplay/dpplay/internal/serve"
	"github.com/dpplay/dpplay/lecture"
)

// hostList is a repeatable flag.
type hostList []string

func (h *hostList) String() string     { return strings.Join(*h, ",") }
func (h *hostList) Set(v string) error { *h = append(*h, v); return nil }

var _ flag.Value = (*hostList)(nil)

func runServe(args []string, stdout io.Writer) error {
	fs := newFlagSet("serve")
	var c serve.Config
	var hosts hostList
	fs.StringVar(&c.Addr, "addr", "127.0.0.1:8080", "listen address (host:port; port 0 picks a free one)")
	fs.StringVar(&c.Dir, "dir", "dist", "directory of static files to serve at /")
	fs.StringVar(&c.DB, "db", "dpplay.db", "SQLite database file for the lecture API (never inside -dir)")
	fs.Float64Var(&c.Budget, "budget", lecture.DefaultBudget, "default ε budget of a new lecture session")
	fs.StringVar(&c.CertFile, "tls-cert", "", "serve HTTPS with this PEM certificate (chain) file; needs -tls-key")
	fs.StringVar(&c.KeyFile, "tls-key", "", "the PEM private key of -tls-cert")
	fs.Var(&hosts, "host", "a further host name the server answers to, e.g. laptop.local (repeatable)")
	fs.DurationVar(&c.SessionTTL, "session-ttl", lecture.DefaultSessionTTL, "delete lecture sessions that have seen nothing for this long")
	joins := fs.Int("join-limit", lecture.JoinLimit, "most new students one address may add to a session a minute (0: no limit, for load tests)")
	writes := fs.Int("write-rate", lecture.WriteRate, "most answers one address may send a second (0: no limit, for load tests)")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	c.Hosts = hosts
	c.JoinLimit = *joins
	if *joins <= 0 {
		c.JoinLimit = -1
	}
	c.WriteRate = *writes
	if *writes <= 0 {
		c.WriteRate = -1
	}
	c.Key = os.Getenv("DPPLAY_INSTRUCTOR_KEY")
	if _, err := c.Check(); err != nil {
		return usagef("serve: %v", err)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	return serve.Run(ctx, c, stdout)
}
