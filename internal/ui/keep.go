package ui

import (
	"fmt"
	"io"

	"github.com/cairn-mem/cairn/internal/keep"
	"github.com/cairn-mem/cairn/internal/memory"
)

// GCText writes what cairn gc did and freed.
func GCText(w io.Writer, res *keep.GCResult) {
	if r := res.Retain; r != nil {
		if r.Checkpoint != nil {
			fmt.Fprintf(w, "retention: %d file(s) of %d archived session(s) left the work tree in checkpoint %s (cairn restore brings them back)\n",
				len(r.Dropped), r.Sessions, Short(r.Checkpoint.Hash))
		}
		if n := len(r.Unsummarised); n > 0 {
			fmt.Fprintf(w, "retention: %d archived session(s) kept whole until their summary is written\n", n)
		}
	}
	p := res.Repack
	if p == nil {
		return
	}
	if p.Skipped {
		fmt.Fprintf(w, "repack: already packed (%d pack, %s on disk); nothing to do\n", p.After.Packs, humanBytes(p.After.Disk))
		return
	}
	fmt.Fprintf(w, "repack: %d objects in one pack; before: %d loose, %d pack(s); after: %d loose\n",
		p.Packed, p.Before.Loose, p.Before.Packs, p.After.Loose)
	fmt.Fprintf(w, "freed: %s on disk (%s before, %s after); %d unreachable object(s) pruned",
		humanBytes(p.Before.Disk-p.After.Disk), humanBytes(p.Before.Disk), humanBytes(p.After.Disk), p.Pruned+p.Dropped)
	if p.Swept > 0 {
		fmt.Fprintf(w, "; %d leftover(s) of killed writers removed", p.Swept)
	}
	fmt.Fprintln(w)
}

// PurgePlanText writes what cairn purge does (done) or would do.
func PurgePlanText(w io.Writer, plan *keep.PurgePlan, done bool) {
	verb := map[bool]string{false: "would remove", true: "removed"}[done]
	fmt.Fprintf(w, "purge %s: %s %d file(s) from the work tree in a checkpoint", plan.Path, verb, len(plan.Files))
	if plan.Listed {
		fmt.Fprintf(w, "; it is in %s already\n", memory.PurgedFile)
	} else {
		fmt.Fprintf(w, " and %s it to %s, which capture, sync and checkpoints never add back\n",
			map[bool]string{false: "add", true: "added"}[done], memory.PurgedFile)
	}
	for _, f := range plan.Files {
		fmt.Fprintf(w, "  %s\n", Escape(f))
	}
	fmt.Fprintln(w, "History is not rewritten: older checkpoints still hold it.")
}

// MigrateText writes what cairn migrate rewrote and left.
func MigrateText(w io.Writer, res *keep.MigrateResult) {
	for _, p := range res.Upgraded {
		fmt.Fprintf(w, "upgraded %s\n", Escape(p))
	}
	for _, line := range append(res.Newer, res.Broken...) {
		fmt.Fprintf(w, "left %s\n", OneLine(line))
	}
	switch {
	case res.Checkpoint != nil:
		fmt.Fprintf(w, "%d file(s) upgraded in checkpoint %s\n", len(res.Upgraded), Short(res.Checkpoint.Hash))
	case len(res.Newer)+len(res.Broken) == 0:
		fmt.Fprintln(w, "every file is at the current schema")
	}
	if len(res.Newer) > 0 {
		fmt.Fprintf(w, "%d file(s) of a newer schema left as they are; a newer cairn reads them\n", len(res.Newer))
	}
}
