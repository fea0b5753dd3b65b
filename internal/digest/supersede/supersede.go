// Package supersede finds values a newer statement says were replaced
// ("now 4100 instead of 3001", "no longer 8080", "was 128Mi") and drops
// the older sentences that still state them as current. No I/O.
package supersede

import (
	"strings"

	"github.com/cairn-mem/cairn/internal/digest"
	"github.com/cairn-mem/cairn/internal/digest/change"
	"github.com/cairn-mem/cairn/internal/digest/lex"
	"github.com/cairn-mem/cairn/internal/lazyre"
)

// replacedMark finds a value a statement says is no longer current:
// "now 4100 instead of 3001", "no longer 8080", "moved from 1.7.5",
// "was 128Mi".
var replacedMark = lazyre.New("(?i)\\b(?:instead of|no longer(?: on| at| uses?)?|moved (?:away )?from|replac\\w* |was|used to be|formerly|previously|from) [`\"']?([\\w.~^>=<:/#-]*\\d[\\w.~^>=<:/#-]*)")

// replacedValues returns the values (with a digit: ports, versions,
// sizes) that s says were replaced, with the keys of the sentence that
// says so.
func replacedValues(s string) (vals []string, ks map[string]bool) {
	for _, x := range digest.Sentences(s) {
		for _, m := range replacedMark.FindAllStringSubmatch(x, -1) {
			v := strings.TrimRight(m[1], ".,;:")
			if v != "" {
				vals = append(vals, v)
				if ks == nil {
					ks = make(map[string]bool)
				}
				for k := range change.Keys(x) {
					ks[k] = true
				}
			}
		}
	}
	return vals, ks
}

// Value is a value a newer statement says was replaced, with what that
// statement is about.
type Value struct {
	value string
	keys  map[string]bool
}

// By lists what the sessions say was replaced.
func By(sums []*digest.Summary) []Value {
	var out []Value
	for _, d := range sums {
		for p, bullets := range d.Parts {
			if p == digest.Commands || p == digest.Read || p == digest.Files {
				continue
			}
			for _, b := range bullets {
				vals, ks := replacedValues(b)
				for _, v := range vals {
					out = append(out, Value{v, ks})
				}
			}
		}
	}
	return out
}

// Drop returns s without the sentences that state as current a
// value one of rs says was replaced: the sentence holds the value as a
// word, says nothing of its own about it being replaced, and shares two
// other words with the statement that replaced it.
func Drop(s string, rs []Value) string {
	if len(rs) == 0 {
		return s
	}
	var kept []string
next:
	for _, x := range digest.Sentences(s) {
		if own, _ := replacedValues(x); len(own) == 0 {
			ks := change.Keys(x)
			for _, r := range rs {
				if !lex.HasWord(x, r.value) {
					continue
				}
				n := 0
				for k := range ks {
					if r.keys[k] && !strings.ContainsAny(k, "0123456789") {
						n++
					}
				}
				if n >= 2 {
					continue next
				}
			}
		}
		kept = append(kept, x)
	}
	return strings.Join(kept, " ")
}
