package serve

import (
	"context"
	"crypto/tls"
	"errors"
	"io"
	"log"
	"net"
	"net/http"
	"os"
	"slices"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/dpplay/dpplay/lecture"
)

// Limits of a connection. Headers are small (the API's largest is the
// instructor's Authorization); a request's body must arrive within
// BodyTimeout of its headers (the API takes at most 8 KB, which a phone on
// bad Wi-Fi sends in well under a second); idle connections are closed
// after IdleTimeout. A reply is written in pieces of at most 16 KB, each
// of which must leave within WriteStall, so a reader taking less than
// 16 KB in 10 s loses its connection; a connection answers requests for
// ConnLifetime, after which its replies say Connection: close and it is
// closed once idle, and it ends whatever it is doing ConnGrace later.
const (
	// MaxHeaderBytes is the most bytes of a request line and headers.
	// net/http reads 4,096 bytes past its own setting, so the setting is
	// that much lower.
	MaxHeaderBytes    = 16 << 10
	ReadHeaderTimeout = 5 * time.Second
	BodyTimeout       = 5 * time.Second
	IdleTimeout       = 30 * time.Second
	WriteStall        = 10 * time.Second
	ConnLifetime      = time.Minute
	// ConnGrace is the server's WriteTimeout, so a request begun just
	// before ConnLifetime has the whole of it.
	ConnGrace = time.Minute
)

// writePiece is the most bytes one write may hand the socket: each piece
// gets its own WriteStall.
const writePiece = 16 << 10

// sendBuffer is each connection's socket send buffer. Left to itself the
// kernel grows a buffer to megabytes (tcp_wmem), and a reader that takes
// nothing leaves it full: hundreds of slow readers then hold a gigabyte of
// the memory the kernel shares among all connections (tcp_mem), and the
// others slow down. 256 KB (which Linux doubles) still fills a path of
// 40 Mbit/s at 100 ms.
const sendBuffer = 256 << 10

// limits are a guard's durations; tests shorten them.
type limits struct {
	body, stall, lifetime, grace time.Duration
	tick                         time.Duration // how often the guard looks at every connection
}

var defaultLimits = limits{BodyTimeout, WriteStall, ConnLifetime, ConnGrace, time.Second}

// guard keeps one client from holding every file descriptor the process
// may open (the open-file limit, nofile). It counts descriptors, not
// connections: each connection's socket and the files its requests hold
// open (a static file, its .br or .gz copy). Past high of them it closes
// connections, those idle longest first (new ones that have sent nothing,
// kept-alive ones between requests), then those that have been reading a
// request body longest, then those whose reply has been stuck longest in
// one write (a reader taking nothing); and one address (lecture.ClientKey:
// an IPv4 address, or an IPv6 /48) may hold at most perAddr descriptors: a
// new connection or file past that takes the place of that address's
// connection idle, in a body or stuck in a write longest, and a new
// connection is closed at once if there is none.
//
// It acts when it accepts a connection, when a request opens a file, and
// every tick, when it also closes idle connections past ConnLifetime. Its
// listener keeps a spare descriptor: if accept still fails for want of
// descriptors (the process holds some the guard does not count: the
// database, its own), it lowers high to what it counted then, sheds, and
// accepts the waiting connection with the spare and closes it, instead of
// failing on it over and over.
//
// An honest client reconnects (browsers and HTTP clients retry a kept-alive
// connection closed under them); one holding hundreds of connections open
// to exhaust the server's file descriptors loses them instead of keeping
// everyone else out. perAddr is shared by a hall behind one NAT address:
// with the default file limit of a Linux session (1,024) that is 384
// descriptors; raise the limit (ulimit -n) for a larger hall on plain
// HTTP/1.1.
type guard struct {
	lim limits

	mu       sync.Mutex
	high     int // descriptors
	perAddr  int
	conns    map[*conn]struct{}
	byAddr   map[string]int // descriptors held per address
	shedBy   map[string]int // of those, held by connections closed here and not yet gone
	fds      int            // descriptors held by the connections tracked
	shedding int            // of those, held by connections closed here
	lowered  time.Time      // when accept last failed for want of descriptors

	refused atomic.Int64 // connections accepted with the spare and closed
}

// conn is an accepted connection as the guard sees it. Its reads and
// writes never run past end, whatever deadline net/http sets for each
// request (net/http sets them per request, so pipelined requests would
// otherwise extend a connection without bound).
type conn struct {
	net.Conn
	g    *guard
	addr string
	born time.Time
	end  time.Time // born + lifetime + grace

	writing atomic.Int64 // UnixNano when the piece being written began; 0 if none

	dl        sync.Mutex
	wantWrite time.Time // the write deadline net/http asked for

	// Under g.mu.
	idleSince time.Time // zero while a request is in progress
	bodySince time.Time // when its request's handler began reading a body; zero otherwise
	files     int       // files its requests hold open
	served    bool      // it has sent a request
	shed      bool      // closed by the guard
	gone      bool      // reported closed
}

func newGuard(nofile uint64, lim limits) *guard {
	high := int(min(nofile*3/4, 1<<20))
	high = max(high, 64)
	return &guard{lim: lim, high: high, perAddr: max(16, high/2),
		conns: map[*conn]struct{}{}, byAddr: map[string]int{}, shedBy: map[string]int{}}
}

func (c *conn) clamp(t time.Time) time.Time {
	if t.IsZero() || t.After(c.end) {
		return c.end
	}
	return t
}

func (c *conn) SetDeadline(t time.Time) error {
	c.dl.Lock()
	c.wantWrite = t
	c.dl.Unlock()
	return c.Conn.SetDeadline(c.clamp(t))
}

func (c *conn) SetReadDeadline(t time.Time) error { return c.Conn.SetReadDeadline(c.clamp(t)) }

func (c *conn) SetWriteDeadline(t time.Time) error {
	c.dl.Lock()
	c.wantWrite = t
	c.dl.Unlock()
	return c.Conn.SetWriteDeadline(c.clamp(t))
}

// Write writes p in pieces of writePiece, each with a deadline of its own
// lim.stall ahead (or the one net/http asked for, or end, if sooner).
func (c *conn) Write(p []byte) (int, error) {
	n := 0
	defer c.writing.Store(0)
	for n < len(p) {
		k := min(len(p)-n, writePiece)
		now := time.Now()
		c.dl.Lock()
		dl := c.clamp(c.wantWrite)
		c.dl.Unlock()
		if stall := now.Add(c.g.lim.stall); stall.Before(dl) {
			dl = stall
		}
		c.Conn.SetWriteDeadline(dl)
		c.writing.Store(now.UnixNano())
		m, err := c.Conn.Write(p[n : n+k])
		n += m
		if err != nil {
			return n, err
		}
	}
	return n, nil
}

// stuck reports whether c's reply has been in one write for a tenth of
// lim.stall or more.
func (g *guard) stuck(c *conn, now time.Time) (since time.Time, ok bool) {
	w := c.writing.Load()
	if w == 0 {
		return time.Time{}, false
	}
	since = time.Unix(0, w)
	return since, now.Sub(since) >= g.lim.stall/10
}

type connKey struct{}

// inner is the guard's conn under c (a TLS connection's too), or nil.
func inner(c net.Conn) *conn {
	if t, ok := c.(*tls.Conn); ok {
		c = t.NetConn()
	}
	x, _ := c.(*conn)
	return x
}

// connContext puts the connection in its requests' context.
func (g *guard) connContext(ctx context.Context, c net.Conn) context.Context {
	if x := inner(c); x != nil {
		return context.WithValue(ctx, connKey{}, x)
	}
	return ctx
}

func addrKey(c net.Conn) string {
	if a, ok := c.RemoteAddr().(*net.TCPAddr); ok {
		return lecture.ClientKey(a.IP.String())
	}
	return c.RemoteAddr().String()
}

// live is how many descriptors the guard counts that it has not closed.
func (g *guard) liveLocked() int { return g.fds - g.shedding }

// accepted starts tracking nc, and returns it wrapped, or nil if it was
// closed at once.
func (g *guard) accepted(nc net.Conn) *conn {
	now := time.Now()
	c := &conn{Conn: nc, g: g, addr: addrKey(nc), born: now, end: now.Add(g.lim.lifetime + g.lim.grace), idleSince: now}
	nc.SetDeadline(c.end)
	if tc, ok := nc.(*net.TCPConn); ok {
		tc.SetWriteBuffer(sendBuffer)
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	g.conns[c] = struct{}{}
	g.fds++
	g.byAddr[c.addr]++
	if g.byAddr[c.addr]-g.shedBy[c.addr] > g.perAddr {
		// The address's own connection idle longest makes room, or the
		// one stuck longest; with none, the new one goes.
		old := g.oldestLocked(c.addr, c, now)
		if old == nil {
			g.removeLocked(c)
			nc.Close()
			return nil
		}
		g.closeLocked(old)
	}
	if g.liveLocked() > g.high {
		g.shedLocked(c, now)
	}
	return c
}

// track is the server's ConnState hook.
func (g *guard) track(nc net.Conn, st http.ConnState) {
	c := inner(nc)
	if c == nil {
		return
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	switch st {
	case http.StateActive:
		c.idleSince, c.served = time.Time{}, true
	case http.StateIdle:
		if !c.shed {
			c.idleSince, c.bodySince = time.Now(), time.Time{}
		}
	case http.StateClosed, http.StateHijacked:
		g.removeLocked(c)
	}
}

// removeLocked stops counting c and the files it holds.
func (g *guard) removeLocked(c *conn) {
	if c.gone {
		return
	}
	c.gone = true
	delete(g.conns, c)
	g.addLocked(c, -(1 + c.files))
}

// addLocked counts d more descriptors held by c.
func (g *guard) addLocked(c *conn, d int) {
	g.fds += d
	if g.byAddr[c.addr] += d; g.byAddr[c.addr] <= 0 {
		delete(g.byAddr, c.addr)
	}
	if c.shed {
		g.shedding += d
		if g.shedBy[c.addr] += d; g.shedBy[c.addr] <= 0 {
			delete(g.shedBy, c.addr)
		}
	}
}

// holdFile counts a file that r's handler has opened against r's
// connection and address, shedding as a new connection would, and returns
// the function that stops counting it (once, however often it is called).
func holdFile(r *http.Request) (release func()) {
	c, _ := r.Context().Value(connKey{}).(*conn)
	if c == nil {
		return func() {}
	}
	g := c.g
	now := time.Now()
	g.mu.Lock()
	if !c.gone {
		c.files++
		g.addLocked(c, 1)
		if g.byAddr[c.addr]-g.shedBy[c.addr] > g.perAddr {
			if old := g.oldestLocked(c.addr, c, now); old != nil {
				g.closeLocked(old)
			}
		}
		if g.liveLocked() > g.high {
			g.shedLocked(c, now)
		}
	}
	g.mu.Unlock()
	var once sync.Once
	return func() {
		once.Do(func() {
			g.mu.Lock()
			defer g.mu.Unlock()
			if !c.gone {
				c.files--
				g.addLocked(c, -1)
			}
		})
	}
}

// oldestLocked is the connection of addr, other than keep, idle
// longest, or else the one reading a body longest, or else the one stuck
// in a write longest, or nil.
func (g *guard) oldestLocked(addr string, keep *conn, now time.Time) *conn {
	var best *conn
	var bestRank int
	var bestAt time.Time
	for x := range g.conns {
		if x == keep || x.shed || x.addr != addr {
			continue
		}
		rank, at, ok := g.rankLocked(x, now)
		if ok && (best == nil || rank < bestRank || rank == bestRank && at.Before(bestAt)) {
			best, bestRank, bestAt = x, rank, at
		}
	}
	return best
}

// newSilence is how long a new connection may send nothing before the
// guard counts it idle.
const newSilence = time.Second

// rankLocked places c in the order connections are shed: 0 idle, 1 in a
// body, 2 stuck in a write, each with the time it has been so; ok is false
// for a connection doing none of these (answering at speed, or new and
// silent for less than newSilence).
func (g *guard) rankLocked(c *conn, now time.Time) (rank int, since time.Time, ok bool) {
	switch {
	case !c.idleSince.IsZero() && (c.served || now.Sub(c.idleSince) >= newSilence):
		// A new connection that has sent nothing yet may be a phone
		// whose request is on its way.
		return 0, c.idleSince, true
	case !c.bodySince.IsZero():
		return 1, c.bodySince, true
	}
	if at, stuck := g.stuck(c, now); stuck {
		return 2, at, true
	}
	return 0, time.Time{}, false
}

func (g *guard) closeLocked(c *conn) {
	if c.shed || c.gone {
		return
	}
	c.shed = true
	g.shedding += 1 + c.files
	g.shedBy[c.addr] += 1 + c.files
	c.Conn.Close() // the server's goroutine for it then reports StateClosed
}

// shedLocked closes connections, in rankLocked's order, oldest first
// within each rank, until a quarter of high is free again.
func (g *guard) shedLocked(keep *conn, now time.Time) {
	type cand struct {
		c    *conn
		rank int
		at   time.Time
	}
	var cs []cand
	for c := range g.conns {
		if c == keep || c.shed {
			continue
		}
		if rank, at, ok := g.rankLocked(c, now); ok {
			cs = append(cs, cand{c, rank, at})
		}
	}
	slices.SortFunc(cs, func(a, b cand) int {
		if a.rank != b.rank {
			return a.rank - b.rank
		}
		return a.at.Compare(b.at)
	})
	for _, x := range cs {
		if g.liveLocked() <= g.high*3/4 {
			break
		}
		g.closeLocked(x.c)
	}
}

// sweep is the guard's tick: it closes idle connections past their
// lifetime, and sheds where the count, of an address or of all, is past
// its limit (requests that opened files, connections that became idle or
// stuck since they were counted).
func (g *guard) sweep(now time.Time) {
	g.mu.Lock()
	defer g.mu.Unlock()
	for c := range g.conns {
		if !c.shed && !c.idleSince.IsZero() && now.Sub(c.born) > g.lim.lifetime {
			g.closeLocked(c)
		}
	}
	for addr := range g.byAddr {
		for g.byAddr[addr]-g.shedBy[addr] > g.perAddr {
			old := g.oldestLocked(addr, nil, now)
			if old == nil {
				break
			}
			g.closeLocked(old)
		}
	}
	if g.liveLocked() > g.high {
		g.shedLocked(nil, now)
	}
}

// full is called when accept fails for want of descriptors: the guard's
// count is then all the process has room for, so high comes down to 7/8 of
// it (at most once a tick: closing takes a moment to free them) and the
// guard sheds. It never goes up again.
func (g *guard) full(now time.Time) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if now.Sub(g.lowered) < g.lim.tick {
		return
	}
	g.lowered = now
	// Connections closed here still hold their descriptors for a moment,
	// so all that are counted are what filled the process.
	if g.fds <= g.high+g.shedding {
		g.high = max(16, g.fds-g.fds/8)
		g.perAddr = max(8, g.high/2)
		log.Printf("serve: out of file descriptors with %d counted; keeping below %d from now on", g.fds, g.high)
	}
	g.shedLocked(nil, now)
}

// listener is the guard's listener: every connection it returns is a
// *conn the guard tracks, and it runs the guard's tick until closed.
type listener struct {
	net.Listener
	g     *guard
	spare *os.File
	stop  chan struct{}
	once  sync.Once
}

// listen wraps ln for g.
func (g *guard) listen(ln net.Listener) *listener {
	l := &listener{Listener: ln, g: g, stop: make(chan struct{})}
	l.spare, _ = os.Open(os.DevNull)
	go func() {
		t := time.NewTicker(g.lim.tick)
		defer t.Stop()
		for {
			select {
			case <-l.stop:
				return
			case now := <-t.C:
				g.sweep(now)
			}
		}
	}()
	return l
}

func (l *listener) Accept() (net.Conn, error) {
	for {
		nc, err := l.Listener.Accept()
		if err != nil {
			if errors.Is(err, syscall.EMFILE) || errors.Is(err, syscall.ENFILE) {
				l.atLimit()
				continue
			}
			return nil, err
		}
		if c := l.g.accepted(nc); c != nil {
			return c, nil
		}
	}
}

// atLimit handles an accept that failed for want of descriptors: the
// guard sheds, and the spare descriptor makes room to accept the waiting
// connection and close it, so that the next accept does not fail on it
// again at once. Without a spare (it could not be opened again yet) it
// waits a moment instead.
func (l *listener) atLimit() {
	l.g.full(time.Now())
	if l.spare == nil {
		if l.spare, _ = os.Open(os.DevNull); l.spare == nil {
			time.Sleep(10 * time.Millisecond)
			return
		}
	}
	l.spare.Close()
	l.spare = nil
	// The connection is waiting; the deadline keeps a race from blocking
	// here on a later one.
	d, _ := l.Listener.(interface{ SetDeadline(time.Time) error })
	if d != nil {
		d.SetDeadline(time.Now().Add(10 * time.Millisecond))
	}
	if nc, err := l.Listener.Accept(); err == nil {
		nc.Close()
		l.g.refused.Add(1)
	}
	if d != nil {
		d.SetDeadline(time.Time{})
	}
	l.spare, _ = os.Open(os.DevNull)
}

func (l *listener) Close() error {
	l.once.Do(func() {
		close(l.stop)
		if l.spare != nil {
			l.spare.Close()
		}
	})
	return l.Listener.Close()
}

// handler bounds the time a request may take to send its body (its
// connection's read deadline is set lim.body ahead, and while the body is
// being read the guard may shed the connection), and asks the client to
// close a connection past its lifetime.
func (g *guard) handler(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		c, _ := r.Context().Value(connKey{}).(*conn)
		if c != nil && time.Since(c.born) > g.lim.lifetime {
			w.Header().Set("Connection", "close")
		}
		if r.Body == nil || r.Body == http.NoBody {
			next.ServeHTTP(w, r)
			return
		}
		http.NewResponseController(w).SetReadDeadline(time.Now().Add(g.lim.body))
		if c != nil {
			g.mu.Lock()
			c.bodySince = time.Now()
			g.mu.Unlock()
			r.Body = &bodyReader{ReadCloser: r.Body, g: g, c: c}
		}
		next.ServeHTTP(w, r)
		if c != nil {
			g.mu.Lock()
			c.bodySince = time.Time{}
			g.mu.Unlock()
		}
	})
}

// bodyReader marks its connection done with its body once it is read.
type bodyReader struct {
	io.ReadCloser
	g *guard
	c *conn
}

func (b *bodyReader) Read(p []byte) (int, error) {
	n, err := b.ReadCloser.Read(p)
	if err != nil {
		b.g.mu.Lock()
		b.c.bodySince = time.Time{}
		b.g.mu.Unlock()
	}
	return n, err
}
