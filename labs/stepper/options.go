package stepper

import (
	"errors"
	"fmt"
	"io"
	"net/url"
	"os"
	"path/filepath"
	"strconv"

	"github.com/agent-loop-lab/agent-loop-lab/labs/cli"
	"github.com/agent-loop-lab/agent-loop-lab/labs/diagram"
)

// Options are a lab's flags -html and -lang: where to write the page, and
// the language of the page's own words. Define them with Flags.
type Options struct {
	// File is where the page goes: a file's name, "-" for standard
	// output, or "" without -html.
	File string
	// Lang is the language of the page's own words.
	Lang Lang
	// program is the lab's name, as its flag set has it: "05-parallel".
	program string
}

// A Lang is a language of the page's own words: English, the default, or
// Chinese.
type Lang string

// The page's languages, as -lang names them.
const (
	English Lang = "en"
	Chinese Lang = "zh"
)

// String returns the language's name, for the flag package.
func (l *Lang) String() string {
	if l == nil || *l == "" {
		return string(English)
	}
	return string(*l)
}

// Set takes the language from the command line.
func (l *Lang) Set(s string) error {
	switch Lang(s) {
	case English, Chinese:
		*l = Lang(s)
		return nil
	}
	return errors.New("must be en or zh")
}

// Usage is the help text of -html.
const Usage = "write the run to `FILE` as a page to step through in a browser, with\n" +
	"the history, the request, the tool calls and the counts at each step\n" +
	"(a FILE of \"-\" is standard output)"

// Flags defines -html and -lang on fs. -html goes with every flag that
// changes the run, not with those that print it another way (-trace,
// -diagram, -timeline) or print the requests (-requests): Parse refuses
// those, and -lang without -html. A name that is no flag of fs is never
// given.
func (o *Options) Flags(fs *cli.FlagSet) {
	o.program = fs.Name()
	fs.Var((*pageFile)(&o.File), "html", Usage)
	fs.Var(&o.Lang, "lang", "with -html, the language of the page's own words: `en` or zh (what\nthe run says stays English)")
	for _, other := range []string{"trace", "diagram", "timeline"} {
		fs.OneOf("one writes the run as a page, the other prints it: run the lab once for each", "html", other)
	}
	fs.OneOf("the page shows every request already", "html", "requests")
	fs.Needs("html", "it sets the language of the page's own words; the labs' output stays English", "lang")
	fs.Check(func() error {
		if o.File == "" {
			return nil // no page: nothing to write, and nowhere to try
		}
		if err := writable(o.File); err != nil {
			return cli.BadInput(fmt.Errorf("-html %s: %w", cli.Quote(o.File), err))
		}
		return nil
	})
}

// Wanted reports whether the command line asked for a page.
func (o Options) Wanted() bool { return o.File != "" }

// Write writes the page of the finished runs of labs 02 to 04, one section
// each, to o.File, and says on w where it went (see Page.Write).
func (o Options) Write(w io.Writer, runs ...diagram.Finished) error {
	b := newBuilder(o, false)
	for _, f := range runs {
		b.finished(f)
	}
	return o.write(w, b)
}

// write renders the page that b built and writes it out: to w if File is
// "-", and otherwise to File, followed by a line on w that says where and
// how to open it.
func (o Options) write(w io.Writer, b *builder) error {
	page, err := render(b.view())
	if err != nil {
		return err
	}
	if o.File == "-" {
		_, err := w.Write(page)
		return err
	}
	if err := os.WriteFile(o.File, page, 0o644); err != nil {
		return fmt.Errorf("write the page: %w", err)
	}
	steps := "events"
	if !b.v.Events {
		steps = "steps"
	}
	_, err = fmt.Fprintf(w, "wrote the page %s (%d %s, %d KB): open %s in a browser, and step with ← and →\n",
		cli.Quote(o.File), b.v.Total, steps, (len(page)+1023)/1024, fileURL(o.File))
	return err
}

// fileURL is the address of the file name in a browser.
func fileURL(name string) string {
	abs, err := filepath.Abs(name)
	if err != nil {
		abs = name
	}
	u := url.URL{Scheme: "file", Path: filepath.ToSlash(abs)}
	return u.String()
}

// A pageFile is the value of -html: a file's name, or "-". Parse then checks
// that the page can be written there (writable), before the run, and
// creates nothing.
type pageFile string

// String returns the file's name, for the flag package.
func (f *pageFile) String() string {
	if f == nil {
		return ""
	}
	return string(*f)
}

// Set takes the file's name from the command line.
func (f *pageFile) Set(s string) error {
	if s == "" {
		return errors.New("must name a file, or - for standard output")
	}
	*f = pageFile(s)
	return nil
}

// writable reports why no page can be written to the file name, or nil.
// It writes nothing: it opens an existing file for writing without
// truncating it, or, for a new file, makes and removes a file beside it.
func writable(name string) error {
	if name == "-" {
		return nil
	}
	info, err := os.Stat(name)
	switch {
	case err == nil && info.IsDir():
		return errors.New("is a folder: name a file in it, such as " + strconv.Quote(filepath.Join(name, "run.html")))
	case err == nil:
		f, err := os.OpenFile(name, os.O_WRONLY, 0)
		if err != nil {
			return fmt.Errorf("cannot be written: %w", unwrapPath(err))
		}
		return f.Close()
	}
	dir := filepath.Dir(name)
	switch info, dirErr := os.Stat(dir); {
	case dirErr != nil:
		return fmt.Errorf("its folder %s does not exist", cli.Quote(dir))
	case !info.IsDir():
		return fmt.Errorf("%s is not a folder", cli.Quote(dir))
	case !errors.Is(err, os.ErrNotExist):
		return unwrapPath(err)
	}
	probe, err := os.CreateTemp(dir, ".stepper-*")
	if err != nil {
		return fmt.Errorf("cannot be written in its folder %s: %w", cli.Quote(dir), unwrapPath(err))
	}
	probe.Close()
	return os.Remove(probe.Name())
}

// unwrapPath returns the reason of a *os.PathError without the path, which
// the flag's message names already.
func unwrapPath(err error) error {
	var p *os.PathError
	if errors.As(err, &p) {
		return p.Err
	}
	return err
}

// itoa writes n in decimal.
func itoa(n int) string { return strconv.Itoa(n) }
