package steppertest

import (
	"strings"
	"testing"
)

// TestABrokenPageDoesNotRead reads pages that package stepper never
// writes: each is an error, not a page read wrong.
func TestABrokenPageDoesNotRead(t *testing.T) {
	for _, page := range []string{
		`<html><section class="part"><h2>x</h2></html>`,
		`<html><section class="part"><h2>x</h2></section>`,
		`<html><!-- a comment that never ends`,
		`<html><body></body></html>`,
		`<html><section class="part"><h2>x</h2><ol><li class="step" data-n="2"></li></ol></section></html>`,
	} {
		if _, err := Read([]byte(page)); err == nil {
			t.Errorf("Read(%q) gives a page, want an error", page)
		}
	}
	p, err := Read([]byte(`<html lang="en"><title>t</title><section class="part" data-from="0" data-to="2"><h2>a &amp; b</h2><ol>` +
		`<li class="step" data-n="1" data-event="agent_start" data-turn="0"><span class="label"></span></li></ol>` +
		`<ol><li class="msg" data-message="user" data-from="1"><div class="text">hi &lt;b&gt;</div></li></ol></section></html>`))
	if err != nil {
		t.Fatal(err)
	}
	if got := p.At(1); p.Steps[0].TraceLine() != "agent_start" || strings.Join(got.Roles(), ",") != "user" || got.History[0].Text != "hi <b>" || got.Part != "a & b" {
		t.Errorf("a small page reads as %+v and %+v", p.Steps, got)
	}
}
