package reports

import (
	"fmt"
	"net/url"
	"path/filepath"
	"strings"

	"kcalab/records"
)

// Links is a bulleted list of links to files, each "Text: href".
type Links []Link

// Link names a file by a path relative to the page ('/'-separated) or an
// absolute one.
type Link struct {
	Text string
	Path string
}

func (Links) block() {}

// href turns a relative file path into a relative link (the page and its
// files move together); an absolute path gets none ("": shown as text),
// since html/template rightly refuses file: URLs and a page moved to
// another machine could not follow one anyway.
func (l Link) href() string {
	p := filepath.ToSlash(l.Path)
	if filepath.IsAbs(l.Path) || strings.HasPrefix(p, "/") {
		return ""
	}
	return (&url.URL{Path: p}).String() // escapes '?', '#', ' ' and a leading "x:"
}

// filesBlock lists the files the trials wrote (their word vectors), or nil
// when none did. A record's Files are relative to its output directory,
// where the page is written.
func filesBlock(recs []records.Record) []Block {
	var l Links
	for _, rec := range recs {
		name := rec.ID
		if label, _ := rec.Settings["label"].(string); label != "" {
			name = fmt.Sprintf("%s (%s)", label, rec.ID)
		}
		for _, f := range rec.Files {
			l = append(l, Link{Text: name, Path: f})
		}
	}
	if len(l) == 0 {
		return nil
	}
	return []Block{Paragraph("Files the trials wrote (word vectors in word2vec text format):"), l}
}
