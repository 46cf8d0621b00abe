package corpus

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"unicode"
	"unicode/utf8"
)

// MaxTokenBytes is the longest token the reader accepts; a longer run
// without whitespace means the input is not a text corpus (or is binary).
const MaxTokenBytes = 1 << 20

var asciiSpace = [256]bool{'\t': true, '\n': true, '\v': true, '\f': true, '\r': true, ' ': true}

// scanWords is bufio.ScanWords (split at unicode.IsSpace, the same rule as
// strings.Fields) with a fast path for ASCII bytes.
func scanWords(data []byte, atEOF bool) (advance int, token []byte, err error) {
	start := 0
	for start < len(data) {
		c := data[start]
		if c < utf8.RuneSelf {
			if !asciiSpace[c] {
				break
			}
			start++
			continue
		}
		r, w := utf8.DecodeRune(data[start:])
		if !unicode.IsSpace(r) {
			break
		}
		start += w
	}
	for i := start; i < len(data); {
		c := data[i]
		if c < utf8.RuneSelf {
			if asciiSpace[c] {
				return i + 1, data[start:i], nil
			}
			i++
			continue
		}
		r, w := utf8.DecodeRune(data[i:])
		if unicode.IsSpace(r) {
			return i + w, data[start:i], nil
		}
		i += w
	}
	if atEOF && len(data) > start {
		return len(data), data[start:], nil
	}
	return start, nil, nil
}

// tokenizer streams the whitespace-separated tokens of r.
type tokenizer struct {
	sc    *bufio.Scanner
	lower bool
	tok   []byte
	n     int64 // tokens returned so far
}

func newTokenizer(r io.Reader, lower bool) *tokenizer {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 256<<10), MaxTokenBytes)
	sc.Split(scanWords)
	return &tokenizer{sc: sc, lower: lower}
}

// next advances to the next token; it returns false at the end of input or
// on an error (see err).
func (t *tokenizer) next() bool {
	if !t.sc.Scan() {
		return false
	}
	t.tok = t.sc.Bytes()
	t.n++
	if t.lower {
		t.tok = lowerInPlace(t.tok)
	}
	return true
}

// err reports why next returned false (nil at a clean end of input).
func (t *tokenizer) err() error {
	err := t.sc.Err()
	if errors.Is(err, bufio.ErrTooLong) {
		return fmt.Errorf("token %d is longer than %d bytes without whitespace (not a text corpus?)", t.n+1, MaxTokenBytes)
	}
	return err
}

// lowerInPlace lowercases ASCII tokens in the scanner's buffer (it never
// rereads consumed bytes); other tokens go through bytes.ToLower, which
// agrees with strings.ToLower.
func lowerInPlace(b []byte) []byte {
	for _, c := range b {
		if c >= utf8.RuneSelf {
			return bytes.ToLower(b)
		}
	}
	for i, c := range b {
		if 'A' <= c && c <= 'Z' {
			b[i] = c + ('a' - 'A')
		}
	}
	return b
}
