package retire

import (
	"strings"

	"github.com/cairn-mem/cairn/internal/prose"
)

// passedOver joins the alternative a decision turned down to the choice
// in a summary's Rejected line (summarize.PassedOver).
const passedOver = " — passed over for: "

// overChoice is what a decision took and the alternative it turned down:
// "I picked AdGuard over dnsmasq blocklists".
type overChoice struct {
	alt  string   // the first word of what it turned down, lower-case
	took []string // the content words of what it took
}

// choiceOver reads the choice x makes over an alternative it names; nil
// when it makes none.
func choiceOver(x string) *overChoice {
	if !strings.Contains(x, " over ") && !strings.Contains(x, "instead of") && !strings.Contains(x, "rather than") {
		return nil
	}
	var alt, choice string
	if i := strings.Index(x, passedOver); i > 0 {
		alt, choice = x[:i], x[i+len(passedOver):] // a Rejected line
	} else if alt, choice = prose.Alternative(x); choice == x {
		return nil
	}
	if alt == "" || choice == "" {
		return nil
	}
	// What it took, without why: the reason's words may well be said again.
	for _, sep := range []string{" (", " — ", ", because ", " because "} {
		if i := strings.Index(choice, sep); i > 0 {
			choice = choice[:i]
		}
	}
	ws := prose.ContentWords(alt)
	took := prose.ContentWords(choice)
	if len(ws) == 0 || len(ws[0]) < 3 || len(took) == 0 {
		return nil
	}
	return &overChoice{alt: ws[0], took: took}
}

// backTo reports whether newer text n, which announces a change, went
// back to what the choice turned down: it names that and nothing of what
// was taken, and speaks of the same things (two keys of x's, xk, among
// n's, nk). "DNS filtering is now done inside dnsmasq itself, as a
// dnsmasq blocklist" once AdGuard was picked over dnsmasq blocklists.
func (c *overChoice) backTo(n string, xk, nk map[string]bool) bool {
	if !hasValue(n, c.alt) {
		return false
	}
	for _, w := range c.took {
		if hasValue(n, w) {
			return false
		}
	}
	shared := 0
	for k := range xk {
		if nk[k] {
			shared++
		}
	}
	return shared >= 2
}
