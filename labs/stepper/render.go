package stepper

import (
	"bytes"
	_ "embed"
	"fmt"
	"html/template"
)

// The page is one file: the template, with the stylesheet and the script
// inside it, so that it opens from the file system and asks the network
// for nothing.
var (
	//go:embed page.html
	pageHTML string
	//go:embed page.css
	pageCSS string
	//go:embed page.js
	pageJS string
)

// pageTemplate renders a view. html/template escapes everything a run
// says wherever it goes: in the text, in an attribute, in a style.
var pageTemplate = template.Must(template.New("page").Funcs(template.FuncMap{
	"css": func() template.CSS { return template.CSS(pageCSS) },
	"js":  func() template.JS { return template.JS(pageJS) },
}).Parse(pageHTML))

// render writes the page of v.
func render(v *view) ([]byte, error) {
	var b bytes.Buffer
	if err := pageTemplate.Execute(&b, v); err != nil {
		return nil, fmt.Errorf("render the page: %w", err)
	}
	return b.Bytes(), nil
}
