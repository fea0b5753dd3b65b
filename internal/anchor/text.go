package anchor

import (
	"fmt"
	"io"
	"strings"
)

// WriteText prints a report for a person: the possibly stale memories
// with what changed at each anchor, then those whose anchors are gone,
// then what could not be checked. esc makes text from the memory safe
// to print (control characters).
func WriteText(w io.Writer, r *Report, esc func(string) string) error {
	var b strings.Builder
	if r.Head == "" {
		b.WriteString("The project is in no git repository (or has no commits): nothing is anchored to its code.\n")
		_, err := io.WriteString(w, b.String())
		return err
	}
	list := func(head string, ss []Stale) {
		if len(ss) == 0 {
			return
		}
		fmt.Fprintf(&b, "%s (%d):\n", head, len(ss))
		for _, s := range ss {
			fmt.Fprintf(&b, "  %s  %s  (written at %s%s)\n", esc(s.ID), esc(s.Title), short(s.Commit), ago(s.Ago, ", "))
			for _, c := range s.Changes {
				fmt.Fprintf(&b, "      %s\n", esc(Describe(c)))
			}
		}
	}
	list("Possibly stale: the code changed at what they name", r.Stale)
	list("Anchors that no longer exist", r.Gone)
	ids := make(map[string]bool)
	for _, s := range append(r.Stale, r.Gone...) {
		ids[s.ID] = true
	}
	if len(ids) == 0 {
		fmt.Fprintf(&b, "No memory is stale: %d anchored to the code, none changed since.\n", r.Anchored)
	} else {
		fmt.Fprintf(&b, "%s of %d anchored to the code may be stale; cairn stale --confirm ID once checked (an edit clears it too).\n", memories(len(ids)), r.Anchored)
	}
	if n := len(r.Unknown); n > 0 {
		fmt.Fprintf(&b, "Not checked: %s written at commits this clone lacks (a shallow clone?).\n", memories(n))
	}
	for _, rj := range r.Rejected {
		b.WriteString(esc(rj.String()) + "\n")
	}
	_, err := io.WriteString(w, b.String())
	return err
}

func memories(n int) string {
	if n == 1 {
		return "1 memory"
	}
	return fmt.Sprintf("%d memories", n)
}

func short(id string) string {
	if len(id) > 10 {
		return id[:10]
	}
	return id
}
