package page

import (
	"net/url"
	"path/filepath"
	"strings"
)

// Links is a bulleted list of links to files, each "Text: href".
type Links []Link

// Link names a file by a path relative to the page ('/'-separated) or an
// absolute one.
type Link struct {
	Text string
	Path string
	// Absent marks a file that is not where the link points: it is named
	// without a link, with a note saying so.
	Absent bool
}

func (Links) block() {}

// Href turns a relative file path into a relative link (the page and its
// files move together); an absolute path gets none ("": shown as text),
// since html/template rightly refuses file: URLs and a page moved to
// another machine could not follow one anyway.
func (l Link) Href() string {
	p := filepath.ToSlash(l.Path)
	if l.Absent {
		return ""
	}
	if filepath.IsAbs(l.Path) || strings.HasPrefix(p, "/") {
		return ""
	}
	return (&url.URL{Path: p}).String() // escapes '?', '#', ' ' and a leading "x:"
}
