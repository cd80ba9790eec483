package lecture_test

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"math/big"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// docs/security.md: `dpplay serve -tls-cert -tls-key` serves the site and
// the API over HTTPS.
func TestServeTLS(t *testing.T) {
	requireE2E(t)
	dir := t.TempDir()
	key, _ := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	tmpl := &x509.Certificate{SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "127.0.0.1"},
		IPAddresses: []net.IP{net.ParseIP("127.0.0.1")}, NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(time.Hour)}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	kder, _ := x509.MarshalECPrivateKey(key)
	cert, keyFile := filepath.Join(dir, "c.pem"), filepath.Join(dir, "k.pem")
	os.WriteFile(cert, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}), 0o600)
	os.WriteFile(keyFile, pem.EncodeToMemory(&pem.Block{Type: "EC PRIVATE KEY", Bytes: kder}), 0o600)
	url := startCmd(t, exec.Command(dpplayBin(t), "serve", "-addr", "127.0.0.1:0", "-dir", staticDir(t), "-db", filepath.Join(dir, "l.db"),
		"-tls-cert", cert, "-tls-key", keyFile), "https://127.0.0.1:").url + "/"
	pool := x509.NewCertPool()
	pool.AddCert(must(x509.ParseCertificate(der)))
	c := &http.Client{Transport: &http.Transport{TLSClientConfig: &tls.Config{RootCAs: pool}}, Timeout: 10 * time.Second}
	for _, p := range []string{"", "api/sessions/ZZZZ"} {
		resp, err := c.Get(url + p)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if want := map[string]int{"": 200, "api/sessions/ZZZZ": 404}[p]; resp.StatusCode != want || resp.TLS == nil {
			t.Errorf("GET %s over TLS: %d, want %d", p, resp.StatusCode, want)
		}
	}
	// Plain HTTP to the TLS port gets no page.
	if resp, err := http.Get(strings.Replace(url, "https", "http", 1)); err == nil {
		resp.Body.Close()
		if resp.StatusCode == 200 {
			t.Errorf("plain HTTP to the TLS port served a page")
		}
	}
}

func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}

// docs/security.md: with its open-file limit at 1,024, `dpplay serve`
// keeps answering while one client holds 2,000 idle connections: a real
// request made after them succeeds within a few seconds.
func TestServeUnderIdleConnections(t *testing.T) {
	requireE2E(t)
	if _, err := exec.LookPath("prlimit"); err != nil {
		t.Skip("prlimit (util-linux) not installed")
	}
	const idle, limit = 2000, 1024
	srv := startCmd(t, exec.Command("prlimit", "--nofile=1024:1024", dpplayBin(t), "serve", "-addr", "127.0.0.1:0",
		"-dir", staticDir(t), "-db", filepath.Join(t.TempDir(), "l.db")), "http://127.0.0.1:")
	addr := srv.addr()
	var conns []net.Conn
	defer func() {
		for _, c := range conns {
			c.Close()
		}
	}()
	for range idle {
		c, err := net.DialTimeout("tcp", addr, 2*time.Second)
		if err != nil {
			break // the backlog is full: the flood is as big as it gets
		}
		conns = append(conns, c)
	}
	t.Logf("%d idle connections open against a file limit of %d", len(conns), limit)
	start := time.Now()
	c := &http.Client{Timeout: 4 * time.Second}
	var last error
	for time.Since(start) < 4*time.Second {
		resp, err := c.Get(srv.url + "/api/sessions/ZZZZ")
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode == 404 {
				t.Logf("a real request answered %v after the flood", time.Since(start).Round(time.Millisecond))
				return
			}
		}
		last = err
		time.Sleep(100 * time.Millisecond)
	}
	t.Errorf("no answer within 4 s under %d idle connections: %v", len(conns), last)
}
