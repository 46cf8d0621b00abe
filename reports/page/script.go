package page

import (
	"errors"
	"fmt"
	"regexp"
	"strings"
)

// Script says how a page loads its chart library (ECharts): the library
// inlined in a <script> element, or a <script src> that needs the network
// when the page is viewed. The zero Script is invalid: Write refuses it, so
// that no page silently depends on the network.
type Script struct {
	inline string // library source
	src    string // URL, when not inlined
	sri    string // its Subresource Integrity hash
	about  string // shown in the page footer
}

// Inline reports whether the library is inlined (the page works offline).
func (s Script) Inline() bool { return s.inline != "" }

// About is the footer text: which library the page uses and how it loads it.
func (s Script) About() string { return s.about }

// Valid says the script loads a library at all.
func (s Script) Valid() bool { return s.inline != "" || s.src != "" }

// SRI is the integrity hash of a library loaded by URL, "" for none.
func (s Script) SRI() string { return s.sri }

// InlineScript returns a Script that inlines src. about names the library in
// the page footer (e.g. "ECharts 5.6.0, inlined"). It fails when src could
// end the <script> element early.
func InlineScript(src, about string) (Script, error) {
	if strings.TrimSpace(src) == "" {
		return Script{}, errors.New("inline ECharts source is empty")
	}
	if i := unsafeInScript(src); i >= 0 {
		return Script{}, fmt.Errorf("ECharts source contains %q at byte %d, which would end the <script> element; cannot inline it", src[i:min(i+9, len(src))], i)
	}
	return Script{inline: src, about: about}, nil
}

// SrcScript returns a Script that loads the library from url, checked by
// the browser against the integrity hash sri ("" for none; otherwise it
// must match ValidSRI, or Write refuses the page).
func SrcScript(url, sri, about string) Script {
	return Script{src: url, sri: sri, about: about}
}

// ValidSRI says h is nothing but a Subresource Integrity value (sha256-,
// sha384- or sha512- and base64): it goes into the page unescaped.
func ValidSRI(h string) bool { return sriPattern.MatchString(h) }

var sriPattern = regexp.MustCompile(`^sha(256|384|512)-[A-Za-z0-9+/]+={0,2}$`)

// unsafeInScript returns the index of the first "</script" or "<!--" in s
// (ASCII case-insensitive), or -1. Either would change how the HTML parser
// reads the rest of a <script> element.
func unsafeInScript(s string) int {
	l := strings.ToLower(s)
	i, j := strings.Index(l, "</script"), strings.Index(l, "<!--")
	switch {
	case i < 0:
		return j
	case j < 0:
		return i
	}
	return min(i, j)
}
