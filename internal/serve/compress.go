package serve

import (
	"bytes"
	"compress/gzip"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"

	"github.com/andybalholm/brotli"
)

// Encodings are the precompressed copies Precompress writes beside a file
// and Site serves, in order of preference: brotli (browsers offer it over
// HTTPS) and gzip (every browser, plain HTTP too).
var encodings = []struct{ name, suffix string }{{"br", ".br"}, {"gzip", ".gz"}}

// compressible reports whether files with extension ext are worth
// compressing: text and WebAssembly, not images or fonts already packed.
func compressible(ext string) bool {
	switch ext {
	case ".html", ".js", ".mjs", ".css", ".json", ".webmanifest", ".wasm", ".svg", ".txt", ".csv", ".xml", ".map":
		return true
	}
	return false
}

// negotiate returns the precompressed copy of name (whose FileInfo is st)
// that accept allows, its FileInfo and its encoding, or nil. A copy older
// than the file is stale (the file was edited after the build) and is not
// used.
func negotiate(root *os.Root, name string, st os.FileInfo, accept string) (*os.File, os.FileInfo, string) {
	for _, e := range encodings {
		if !acceptsEncoding(accept, e.name) {
			continue
		}
		f, cst, err := openRegular(root, name+e.suffix)
		if err != nil {
			continue
		}
		if cst.ModTime().Before(st.ModTime()) {
			f.Close()
			continue
		}
		return f, cst, e.name
	}
	return nil, nil, ""
}

// acceptsEncoding reports whether an Accept-Encoding header allows the
// content coding enc: named, or covered by "*", with a q-value above zero
// (RFC 9110, 12.5.3). Names are case-insensitive; a malformed q counts as 0.
func acceptsEncoding(header, enc string) bool {
	star, named := false, false
	for _, part := range strings.Split(header, ",") {
		coding, params, _ := strings.Cut(part, ";")
		coding = strings.ToLower(strings.TrimSpace(coding))
		if coding != enc && coding != "*" {
			continue
		}
		ok := true
		for _, p := range strings.Split(params, ";") {
			k, v, found := strings.Cut(strings.TrimSpace(p), "=")
			if found && strings.EqualFold(strings.TrimSpace(k), "q") {
				q, err := strconv.ParseFloat(strings.TrimSpace(v), 64)
				ok = err == nil && q > 0 && q <= 1
			}
		}
		if coding == enc {
			if !ok {
				return false // refused by name, whatever "*" says
			}
			named = true
		} else {
			star = ok
		}
	}
	return named || star
}

// Precompress writes, beside every compressible file under dir of at least
// 512 bytes, its brotli (name.br) and gzip (name.gz, level 9) copies, each
// kept only if smaller than the file, and dated as the file so that Site
// takes them as current. Brotli runs at its best level (11) where best
// reports true, for the files a first visit loads, and at level 5
// elsewhere: level 11 costs about 6 s a megabyte here, level 5 a tenth of
// that for 13% more bytes. It returns the number of files compressed.
func Precompress(dir string, best func(name string) bool) (int, error) {
	var names []string
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		if info.Mode().IsRegular() && info.Size() >= 512 && compressible(strings.ToLower(path.Ext(p))) {
			names = append(names, p)
		}
		return nil
	})
	if err != nil {
		return 0, err
	}
	var (
		wg    sync.WaitGroup
		mu    sync.Mutex
		first error
		next  = make(chan string)
	)
	for range max(1, runtime.GOMAXPROCS(0)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for p := range next {
				rel, _ := filepath.Rel(dir, p)
				if err := precompressFile(p, best(filepath.ToSlash(rel))); err != nil {
					mu.Lock()
					first = cmpOr(first, err)
					mu.Unlock()
				}
			}
		}()
	}
	for _, p := range names {
		next <- p
	}
	close(next)
	wg.Wait()
	return len(names), first
}

func cmpOr(a, b error) error {
	if a != nil {
		return a
	}
	return b
}

// precompressFile writes p.br and p.gz (see Precompress).
func precompressFile(p string, best bool) error {
	src, err := os.ReadFile(p)
	if err != nil {
		return err
	}
	st, err := os.Stat(p)
	if err != nil {
		return err
	}
	level := 5
	if best {
		level = brotli.BestCompression
	}
	var br, gz bytes.Buffer
	bw := brotli.NewWriterLevel(&br, level)
	bw.Write(src)
	if err := bw.Close(); err != nil {
		return err
	}
	gw, _ := gzip.NewWriterLevel(&gz, gzip.BestCompression)
	gw.Write(src)
	if err := gw.Close(); err != nil {
		return err
	}
	for suffix, b := range map[string][]byte{".br": br.Bytes(), ".gz": gz.Bytes()} {
		out := p + suffix
		if len(b) >= len(src) {
			os.Remove(out)
			continue
		}
		if err := os.WriteFile(out, b, 0o644); err != nil {
			return err
		}
		if err := os.Chtimes(out, st.ModTime(), st.ModTime()); err != nil {
			return err
		}
	}
	return nil
}
