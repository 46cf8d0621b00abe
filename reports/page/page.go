package page

import (
	"bytes"
	"errors"
	"fmt"
	"html/template"
	"io"
	"path"
	"path/filepath"
	"strings"
)

// Page is one whole HTML page: its header, the blocks above its table of
// contents, its sections and the chart library it loads.
type Page struct {
	Title string // required
	// Question and Answer, when set, are what the page answers and its
	// answer, each in one line, under the title.
	Question, Answer string
	Meta             []string // header lines under the title
	Warn             []string // what a reader must know before trusting a comparison on the page
	// Intro are the blocks between the header and the table of contents
	// (a description, notes).
	Intro    []Block
	Sections []Section
	Script   Script // required
	// ResultsFile, SpecFile and IndexFile, when set, are files the header
	// links, relative to the page; Related are the pages it links as
	// related.
	ResultsFile, SpecFile, IndexFile string
	Related                          []Link
}

// Write renders the page to w. Nothing is written when the page or a block
// is invalid. The same Page always renders to the same bytes.
func Write(w io.Writer, p Page) error {
	if strings.TrimSpace(p.Title) == "" {
		return errors.New("page title is empty")
	}
	if !p.Script.Valid() {
		return errors.New("page script is not set")
	}
	// The hash goes into the attribute unescaped (html/template would write
	// '+' as "&#43;": valid, but unlike every SRI hash a reader compares it
	// with), so it must be nothing but an SRI value.
	var sri template.HTMLAttr
	if h := p.Script.sri; h != "" {
		if !ValidSRI(h) {
			return fmt.Errorf("%q is not an integrity hash (sha256-, sha384- or sha512- and base64)", h)
		}
		sri = template.HTMLAttr(`integrity="` + h + `"`)
	}
	rd := newRenderer()
	for _, b := range p.Intro {
		if err := rd.block(b); err != nil {
			return err
		}
	}
	intro := rd.buf.String()
	rd.buf.Reset()
	rd.reserve(p.Sections)
	toc, err := rd.sections(p.Sections, 0, "s")
	if err != nil {
		return err
	}
	var tocHTML bytes.Buffer
	if err := tplTOC.Execute(&tocHTML, toc); err != nil {
		return err
	}
	script, err := rd.script()
	if err != nil {
		return err
	}
	pg := pageData{
		Title:    p.Title,
		Question: p.Question,
		Answer:   p.Answer,
		Meta:     p.Meta,
		Warn:     p.Warn,
		Body:     template.HTML(intro + tocHTML.String() + rd.buf.String()),
		About:    p.Script.about,
		Inline:   template.JS(p.Script.inline),
		Src:      p.Script.src,
		SRI:      sri,
		Charts:   script,
		Tables:   template.JS(TableScript),
	}
	if p.ResultsFile != "" {
		l := Link{Path: p.ResultsFile}
		pg.Results = map[string]string{"Path": l.Path, "Href": l.Href()}
	}
	if p.IndexFile != "" {
		pg.Index = Link{Path: p.IndexFile}.Href()
	}
	if p.SpecFile != "" {
		// The link shows the file's name only: the path between the page
		// and the spec says where this copy of the site lies, nothing of
		// the experiment.
		pg.Spec = map[string]string{"Name": path.Base(filepath.ToSlash(p.SpecFile)), "Href": Link{Path: p.SpecFile}.Href()}
	}
	for _, l := range p.Related {
		pg.Related = append(pg.Related, map[string]string{"Text": l.Text, "Href": l.Href()})
	}
	var out bytes.Buffer
	if err := tplPage.Execute(&out, pg); err != nil {
		return err
	}
	_, err = w.Write(out.Bytes())
	return err
}
