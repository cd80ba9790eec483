package lecture

import (
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"strings"
)

// codeAlphabet is Crockford's base 32: digits and capitals without I, L, O
// and U, so a code read off a projector cannot be confused letter for digit.
const codeAlphabet = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"

// CodeLen is the number of symbols in a join code: 8 × 5 = 40 random bits.
// With GuessLimit (5,000) wrong tries per address per GuessWindow (10
// minutes), one address needs about 2⁴⁰ / (30,000 · sessions) hours to hit
// any of the sessions in the database (docs/lecture.md).
const CodeLen = 8

// newCode draws a join code from crypto/rand.
func newCode() string {
	var b [CodeLen]byte
	rand.Read(b[:])
	out := make([]byte, CodeLen)
	for i, x := range b {
		out[i] = codeAlphabet[x&31] // 256 is a multiple of 32: no bias
	}
	return string(out)
}

// NormalizeCode accepts a join code as a person might type it (any case,
// with spaces or a hyphen, O for 0, I or L for 1) and returns its canonical
// form, or false if it cannot be a code.
func NormalizeCode(s string) (string, bool) {
	if len(s) > 3*CodeLen {
		return "", false
	}
	var b strings.Builder
	for _, c := range strings.ToUpper(s) {
		switch {
		case c == '-' || c == ' ':
			continue
		case c == 'O':
			c = '0'
		case c == 'I' || c == 'L':
			c = '1'
		}
		if !strings.ContainsRune(codeAlphabet, c) {
			return "", false
		}
		b.WriteRune(c)
	}
	if b.Len() != CodeLen {
		return "", false
	}
	return b.String(), true
}

// FormatCode groups a code for display: ABCD-EFGH.
func FormatCode(code string) string {
	if len(code) != CodeLen {
		return code
	}
	return code[:4] + "-" + code[4:]
}

// newToken returns a 128-bit instructor token (base64url, 22 characters)
// and the SHA-256 that the database keeps instead.
func newToken() (token string, hash []byte) {
	var b [16]byte
	rand.Read(b[:])
	token = base64.RawURLEncoding.EncodeToString(b[:])
	sum := sha256.Sum256([]byte(token))
	return token, sum[:]
}
