package retire

import (
	"strings"

	"github.com/cairn-mem/cairn/internal/digest/change"
	"github.com/cairn-mem/cairn/internal/prose"
	"github.com/cairn-mem/cairn/internal/summarize"
)

// overChoice is what a decision took and the alternative it turned down:
// "I picked AdGuard over dnsmasq blocklists".
type overChoice struct {
	alt  string          // the first word of what it turned down, lower-case
	took []string        // the content words of what it took
	keys map[string]bool // the keys of the choice and the alternative, without the reason
}

// choiceOver reads the choice x makes over an alternative it names; nil
// when it makes none.
func choiceOver(x string) *overChoice {
	if !strings.Contains(x, " over ") && !strings.Contains(x, "instead of") && !strings.Contains(x, "rather than") {
		return nil
	}
	var alt, choice, said string
	if i := strings.Index(x, summarize.PassedOver); i > 0 {
		alt, choice = x[:i], x[i+len(summarize.PassedOver):] // a Rejected line
	} else if alt, choice = prose.Alternative(x); choice == x {
		return nil
	}
	if alt == "" || choice == "" {
		return nil
	}
	// What it took, without why: the reason's words may well be said
	// again of something else ("since they never need concurrent
	// writers").
	for _, sep := range []string{" (", " — ", ", because ", " because ", " for ", ", since ", " since "} {
		if i := strings.Index(choice, sep); i > 0 {
			choice = choice[:i]
		}
	}
	said = choice + " " + alt
	if i := strings.Index(x, alt); i >= 0 && !strings.HasPrefix(x, alt) {
		said = x[:i+len(alt)] // "I picked AdGuard over dnsmasq blocklists", without what follows
	}
	ws := prose.ContentWords(alt)
	took := prose.ContentWords(choice)
	if len(ws) == 0 || len(ws[0]) < 3 || len(took) == 0 {
		return nil
	}
	return &overChoice{alt: ws[0], took: took, keys: change.TopicKeys(said)}
}

// backTo reports whether newer text n, of keys nk, which announces a
// change, went back to what the choice turned down: it names that and
// nothing of what was taken, and two of its distinctive keys (shared
// counts them) are the choice's own, not its reason's. "DNS filtering is
// now done inside dnsmasq itself, as a dnsmasq blocklist" once AdGuard
// was picked over dnsmasq blocklists.
func (c *overChoice) backTo(n string, nk map[string]bool, shared func(a, b map[string]bool) int) bool {
	if !hasValue(n, c.alt) {
		return false
	}
	for _, w := range c.took {
		if hasValue(n, w) {
			return false
		}
	}
	return shared(c.keys, nk) >= 2
}
