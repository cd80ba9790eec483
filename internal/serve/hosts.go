package serve

import (
	"net"
	"net/http"
	"net/netip"
	"strings"
	"sync"
	"time"
)

// Hosts decides which names a request's Host header may carry, against DNS
// rebinding: a page on a name the attacker controls that resolves to this
// machine would otherwise drive its `dpplay serve` from a visitor's browser,
// with that name as its own origin. Allowed are the listen address, the
// loopback names (localhost, *.localhost, 127.0.0.0/8, ::1), the machine's
// own addresses (read again, at most once a second, when an address is not
// among them, as a laptop's address changes between networks) and the names
// given (`dpplay serve -host`).
type Hosts struct {
	names map[string]bool

	mu     sync.Mutex
	own    map[netip.Addr]bool
	readAt time.Time
}

// NewHosts returns the Hosts of a server that answers to names (host
// names or addresses, such as the host of its listen address): an
// unspecified address (0.0.0.0, ::) is not a name of the server, since
// browsers have let public pages reach local servers through it.
func NewHosts(names ...string) *Hosts {
	h := &Hosts{names: map[string]bool{}}
	for _, n := range names {
		n = canonicalHost(n)
		if a, err := netip.ParseAddr(n); n == "" || err == nil && a.IsUnspecified() {
			continue
		}
		h.names[n] = true
	}
	h.readOwn()
	return h
}

// canonicalHost lower-cases a host name, drops a final dot and IPv6
// brackets, and writes an IP address in its standard form.
func canonicalHost(s string) string {
	s = strings.TrimSuffix(strings.ToLower(strings.TrimSpace(s)), ".")
	s = strings.TrimSuffix(strings.TrimPrefix(s, "["), "]")
	if a, err := netip.ParseAddr(s); err == nil {
		return a.Unmap().WithZone("").String()
	}
	return s
}

// hostOf is the host part of a Host header (host, host:port, [v6]:port).
func hostOf(header string) string {
	if h, _, err := net.SplitHostPort(header); err == nil {
		return canonicalHost(h)
	}
	return canonicalHost(header)
}

func (h *Hosts) readOwn() {
	own := map[netip.Addr]bool{}
	if addrs, err := net.InterfaceAddrs(); err == nil {
		for _, a := range addrs {
			if p, err := netip.ParsePrefix(a.String()); err == nil {
				own[p.Addr().Unmap().WithZone("")] = true
			}
		}
	}
	h.own, h.readAt = own, time.Now()
}

// Own reports whether a is one of this machine's addresses (loopback
// included).
func (h *Hosts) Own(a netip.Addr) bool {
	a = a.Unmap().WithZone("")
	if a.IsLoopback() {
		return true
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.own[a] {
		return true
	}
	if time.Since(h.readAt) > time.Second {
		h.readOwn()
	}
	return h.own[a]
}

// Allowed reports whether a request with this Host header is for this
// server.
func (h *Hosts) Allowed(header string) bool {
	host := hostOf(header)
	if host == "" {
		return false
	}
	if host == "localhost" || strings.HasSuffix(host, ".localhost") || h.names[host] {
		return true
	}
	a, err := netip.ParseAddr(host)
	return err == nil && h.Own(a)
}

// Local reports whether r comes from this machine itself: its TCP peer is
// a loopback address or one of the machine's own.
func (h *Hosts) Local(r *http.Request) bool {
	ap, err := netip.ParseAddrPort(r.RemoteAddr)
	return err == nil && h.Own(ap.Addr())
}

// Check refuses, with 421 Misdirected Request, a request whose Host is not
// allowed, before next sees it.
func (h *Hosts) Check(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !h.Allowed(r.Host) {
			SetSecurityHeaders(w.Header(), APIPolicy)
			http.Error(w, "this server does not answer to that host name (start dpplay serve with -host NAME to allow it)", http.StatusMisdirectedRequest)
			return
		}
		next.ServeHTTP(w, r)
	})
}
