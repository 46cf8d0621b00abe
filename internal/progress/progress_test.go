package progress

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestOutput(t *testing.T) {
	long := strings.Repeat("é", defaultWidth+10)
	tests := []struct {
		name  string
		tty   bool
		steps func(r *Reporter)
		want  string
	}{
		{"plain lines", false, func(r *Reporter) {
			r.Update("a 10%")
			r.Line("note")
			r.Update("a 20%")
			r.Clear()
		}, "a 10%\nnote\na 20%\n"},
		{"terminal redraws", true, func(r *Reporter) {
			r.Update("a 10%")
			r.Update("a 20%")
			r.Line("note")
			r.Line("another")
			r.Update("a 30%")
			r.Clear()
			r.Clear()
		}, "\ra 10%\x1b[K\ra 20%\x1b[K\r\x1b[Knote\nanother\n\ra 30%\x1b[K\r\x1b[K"},
		{"terminal cuts long lines by runes", true, func(r *Reporter) { r.Update(long) },
			"\r" + strings.Repeat("é", defaultWidth) + "\x1b[K"},
		{"plain keeps long lines", false, func(r *Reporter) { r.Update(long) }, long + "\n"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var b strings.Builder
			r := New(&b)
			require.False(t, r.Terminal(), "a buffer is no terminal")
			r.tty, r.fd = tc.tty, -1 // no real terminal: width unknown
			tc.steps(r)
			assert.Equal(t, tc.want, b.String())
		})
	}
}

func TestNilIsSilent(t *testing.T) {
	r := New(nil)
	require.Nil(t, r)
	r.Update("x")
	r.Line("x")
	r.Clear()
	assert.False(t, r.Terminal())
	assert.Zero(t, r.Elapsed())
}

func TestIsTerminal(t *testing.T) {
	f, err := os.Create(filepath.Join(t.TempDir(), "log"))
	require.NoError(t, err)
	defer f.Close()
	assert.False(t, IsTerminal(f), "a regular file")
	pr, pw, err := os.Pipe()
	require.NoError(t, err)
	defer pr.Close()
	defer pw.Close()
	assert.False(t, IsTerminal(pw), "a pipe")
	assert.False(t, New(pw).Terminal())
}

func TestElapsed(t *testing.T) {
	r := New(&strings.Builder{})
	time.Sleep(2 * time.Millisecond)
	assert.GreaterOrEqual(t, r.Elapsed(), 2*time.Millisecond)
}

func TestBar(t *testing.T) {
	tests := []struct {
		frac  float64
		width int
		want  string
	}{
		{0, 4, "░░░░"},
		{0.5, 4, "██░░"},
		{0.99, 4, "███░"},
		{1, 4, "████"},
		{-1, 3, "░░░"},
		{7, 3, "███"},
	}
	for _, tc := range tests {
		assert.Equal(t, tc.want, Bar(tc.frac, tc.width), "Bar(%v, %d)", tc.frac, tc.width)
	}
}
