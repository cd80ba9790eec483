package main

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"testing"

	"github.com/dpplay/dpplay/lecture"
	"github.com/dpplay/dpplay/lecture/sqlitedb"
)

func TestSiteHandler(t *testing.T) {
	dir := t.TempDir()
	for name, body := range map[string]string{
		"index.html": "<!doctype html>",
		"app.wasm":   "\x00asm\x01\x00\x00\x00",
		"sw.js":      "//",
		"lesson.mjs": "export {}",
	} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	store, err := sqlitedb.Open(context.Background(), filepath.Join(t.TempDir(), "t.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()
	api, err := lecture.New(store.Write, store.Options(lecture.Options{}))
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(siteHandler(dir, api))
	defer srv.Close()

	tests := []struct {
		path, ctype, cache string
		status             int
	}{
		{"/", "text/html; charset=utf-8", "no-cache", 200},
		{"/app.wasm", "application/wasm", "no-cache", 200},
		{"/sw.js", "text/javascript; charset=utf-8", "no-cache", 200},
		{"/lesson.mjs", "text/javascript; charset=utf-8", "no-cache", 200},
		{"/missing.js", "text/plain; charset=utf-8", "", 404}, // http.Error drops Cache-Control
		{"/api/sessions/ZZZZZZZZ", "application/json", "no-store", 404},
		{"/api/nothing", "application/json", "no-store", 404},
	}
	for _, tc := range tests {
		resp, err := http.Get(srv.URL + tc.path)
		if err != nil {
			t.Fatal(err)
		}
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		if resp.StatusCode != tc.status || resp.Header.Get("Content-Type") != tc.ctype || resp.Header.Get("Cache-Control") != tc.cache {
			t.Errorf("GET %s: %d %q %q, want %d %q %q", tc.path, resp.StatusCode,
				resp.Header.Get("Content-Type"), resp.Header.Get("Cache-Control"), tc.status, tc.ctype, tc.cache)
		}
	}
}

func TestServeFlags(t *testing.T) {
	dir := t.TempDir()
	for _, args := range [][]string{
		{"-dir", filepath.Join(dir, "absent")},
		{"-dir", dir, "-budget", "0"},
		{"-dir", dir, "-budget", "1000"},
		{"-nope"},
		{"-dir", dir, "extra"},
	} {
		err := runServe(args, io.Discard)
		var ue usageError
		if !errors.As(err, &ue) {
			t.Errorf("serve %v: %v, want a usage error", args, err)
		}
	}
}
