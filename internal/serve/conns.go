package serve

import (
	"context"
	"io"
	"net"
	"net/http"
	"slices"
	"sync"
	"time"

	"github.com/dpplay/dpplay/lecture"
)

// Limits of a connection. Headers are small (the API's largest is the
// instructor's Authorization); a request's body must arrive within
// BodyTimeout of its headers (the API takes at most 8 KB, which a phone on
// bad Wi-Fi sends in well under a second); idle connections are closed
// after IdleTimeout.
const (
	// MaxHeaderBytes is the most bytes of a request line and headers.
	// net/http reads 4,096 bytes past its own setting, so the setting is
	// that much lower.
	MaxHeaderBytes    = 16 << 10
	ReadHeaderTimeout = 5 * time.Second
	BodyTimeout       = 5 * time.Second
	IdleTimeout       = 30 * time.Second
)

// guard keeps one client from holding every connection the process may
// open (the open-file limit): past high open connections it closes those
// idle longest (new ones that have sent nothing, kept-alive ones between
// requests), then those that have been reading a request body longest; and
// it caps the connections of one address (lecture.ClientKey: an IPv4
// address, or an IPv6 /48) at perAddr: a new one past it takes the place of
// that address's connection idle longest, or stuck in a body longest, and
// is closed at once if there is neither.
// An honest client reconnects (browsers and HTTP clients retry a kept-alive
// connection closed under them); one holding hundreds of connections open
// to exhaust the server's file descriptors loses them instead of keeping
// everyone else out. It acts on accepting a connection, so high must leave
// room below the file limit for that accept to succeed.
//
// perAddr is shared by a hall behind one NAT address: with the default
// file limit of a Linux session (1,024) that is 384 connections; raise the
// limit (ulimit -n) for a larger hall on plain HTTP/1.1.
type guard struct {
	high, perAddr int
	bodyTimeout   time.Duration // BodyTimeout, shorter in some tests

	mu       sync.Mutex
	conns    map[net.Conn]*connState
	byAddr   map[string]int // open connections per address
	shedBy   map[string]int // of those, closed here and not yet reported closed
	shedding int            // closed here, not yet reported closed
}

// connState is what the guard knows of one connection.
type connState struct {
	c         net.Conn
	addr      string
	idleSince time.Time // zero while a request is in progress
	bodySince time.Time // when its request's handler began reading a body; zero otherwise
	shed      bool
}

func newGuard(nofile uint64) *guard {
	high := int(min(nofile*3/4, 1<<20))
	high = max(high, 64)
	return &guard{high: high, perAddr: max(16, high/2), bodyTimeout: BodyTimeout,
		conns: map[net.Conn]*connState{}, byAddr: map[string]int{}, shedBy: map[string]int{}}
}

type connKey struct{}

// connContext puts the connection's state in its requests' context.
func (g *guard) connContext(ctx context.Context, c net.Conn) context.Context {
	g.mu.Lock()
	defer g.mu.Unlock()
	if s := g.conns[c]; s != nil {
		return context.WithValue(ctx, connKey{}, s)
	}
	return ctx
}

func addrKey(c net.Conn) string {
	if a, ok := c.RemoteAddr().(*net.TCPAddr); ok {
		return lecture.ClientKey(a.IP.String())
	}
	return c.RemoteAddr().String()
}

// track is the server's ConnState hook.
func (g *guard) track(c net.Conn, st http.ConnState) {
	g.mu.Lock()
	defer g.mu.Unlock()
	s := g.conns[c]
	switch st {
	case http.StateNew:
		s = &connState{c: c, addr: addrKey(c), idleSince: time.Now()}
		g.conns[c] = s
		g.byAddr[s.addr]++
		if g.byAddr[s.addr]-g.shedBy[s.addr] > g.perAddr {
			// The address's own connection idle longest makes room, or
			// the one stuck in a body longest; with neither, the new one
			// goes.
			if old := g.oldestLocked(s); old != nil {
				g.closeLocked(old)
			} else {
				g.closeLocked(s)
				return
			}
		}
		if len(g.conns)-g.shedding > g.high {
			g.shedLocked(s)
		}
	case http.StateActive:
		if s != nil {
			s.idleSince = time.Time{}
		}
	case http.StateIdle:
		if s != nil && !s.shed {
			s.idleSince, s.bodySince = time.Now(), time.Time{}
		}
	case http.StateClosed, http.StateHijacked:
		if s == nil {
			return
		}
		delete(g.conns, c)
		if g.byAddr[s.addr]--; g.byAddr[s.addr] <= 0 {
			delete(g.byAddr, s.addr)
		}
		if s.shed {
			g.shedding--
			if g.shedBy[s.addr]--; g.shedBy[s.addr] <= 0 {
				delete(g.shedBy, s.addr)
			}
		}
	}
}

// oldestLocked is the connection of keep's address, other than keep, idle
// longest, or else the one reading a body longest, or nil.
func (g *guard) oldestLocked(keep *connState) *connState {
	var idle, body *connState
	for _, x := range g.conns {
		switch {
		case x == keep || x.shed || x.addr != keep.addr:
		case !x.idleSince.IsZero():
			if idle == nil || x.idleSince.Before(idle.idleSince) {
				idle = x
			}
		case !x.bodySince.IsZero():
			if body == nil || x.bodySince.Before(body.bodySince) {
				body = x
			}
		}
	}
	if idle != nil {
		return idle
	}
	return body
}

func (g *guard) closeLocked(s *connState) {
	if s.shed {
		return
	}
	s.shed = true
	g.shedding++
	g.shedBy[s.addr]++
	s.c.Close() // the server's goroutine for it then reports StateClosed
}

// shedLocked closes connections, idle ones first and then those stuck in
// a body, each group oldest first, until a quarter of high is free again.
func (g *guard) shedLocked(keep *connState) {
	var idle, body []*connState
	for _, s := range g.conns {
		switch {
		case s == keep || s.shed:
		case !s.idleSince.IsZero():
			idle = append(idle, s)
		case !s.bodySince.IsZero():
			body = append(body, s)
		}
	}
	slices.SortFunc(idle, func(a, b *connState) int { return a.idleSince.Compare(b.idleSince) })
	slices.SortFunc(body, func(a, b *connState) int { return a.bodySince.Compare(b.bodySince) })
	for _, s := range append(idle, body...) {
		if len(g.conns)-g.shedding <= g.high*3/4 {
			break
		}
		g.closeLocked(s)
	}
}

// bodies bounds the time a request may take to send its body: its
// connection's read deadline is set bodyTimeout ahead, and while the body
// is being read the guard may shed the connection.
func (g *guard) bodies(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Body == nil || r.Body == http.NoBody {
			next.ServeHTTP(w, r)
			return
		}
		http.NewResponseController(w).SetReadDeadline(time.Now().Add(g.bodyTimeout))
		s, _ := r.Context().Value(connKey{}).(*connState)
		if s != nil {
			g.mu.Lock()
			s.bodySince = time.Now()
			g.mu.Unlock()
			r.Body = &bodyReader{ReadCloser: r.Body, g: g, s: s}
		}
		next.ServeHTTP(w, r)
		if s != nil {
			g.mu.Lock()
			s.bodySince = time.Time{}
			g.mu.Unlock()
		}
	})
}

// bodyReader marks its connection done with its body once it is read.
type bodyReader struct {
	io.ReadCloser
	g *guard
	s *connState
}

func (b *bodyReader) Read(p []byte) (int, error) {
	n, err := b.ReadCloser.Read(p)
	if err != nil {
		b.g.mu.Lock()
		b.s.bodySince = time.Time{}
		b.g.mu.Unlock()
	}
	return n, err
}
