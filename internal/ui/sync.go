package ui

import (
	"context"
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"github.com/cairn-mem/cairn/internal/memory"
	"github.com/cairn-mem/cairn/internal/memsync"
	"github.com/cairn-mem/cairn/internal/recall"
)

// SyncJSON writes what cairn sync did with each remote (--json).
func SyncJSON(w io.Writer, res *memsync.SyncResult) error { return JSON(w, res) }

// SyncText writes a line per remote (what came from it, its conflict
// copies, what was pushed); a remote that failed is left to the error.
// noPush leaves out what was pushed.
func SyncText(w io.Writer, res *memsync.SyncResult, noPush bool) error {
	if res.Saved != nil {
		fmt.Fprintf(w, "checkpointed %s first: %s\n", Short(res.Saved.Hash), Escape(res.Saved.Subject))
	}
	for _, r := range res.Remotes {
		if r.Error != "" {
			continue // said once, as the error
		}
		var parts []string
		switch r.Merge {
		case "empty":
			parts = append(parts, "the remote was empty")
		case "up-to-date", "":
			parts = append(parts, "nothing new from it")
		default:
			parts = append(parts, fmt.Sprintf("%s (%d files changed)", r.Merge, r.Changes))
		}
		if len(r.Conflicts) > 0 {
			parts = append(parts, fmt.Sprintf("%d conflict copies (see cairn status, settle with cairn resolve)", len(r.Conflicts)))
		}
		switch {
		case noPush:
		case r.Pushed:
			parts = append(parts, "pushed "+Short(r.Commit))
		default:
			parts = append(parts, "nothing to push")
		}
		fmt.Fprintf(w, "%s: %s\n", r.Remote, strings.Join(parts, "; "))
		for _, c := range r.Conflicts {
			fmt.Fprintf(w, "  conflict  %s\n", Escape(c))
		}
	}
	return nil
}

// VerifyJSON writes the report of cairn verify (--json).
func VerifyJSON(w io.Writer, rep *memsync.VerifyReport) error { return JSON(w, rep) }

// VerifyText writes the objects checked, their problems, the conflict
// copies and the index's state; index is false when the index was not
// looked at (--no-index, or verification failed), and ok adds the last
// line.
func VerifyText(w io.Writer, rep *memsync.VerifyReport, dir string, index, ok bool) error {
	fmt.Fprintf(w, "history: %d objects checked\n", rep.Objects)
	for _, p := range rep.Problems {
		state := ""
		if p.Fixed {
			state = " (repaired)"
		}
		where := ""
		if p.Path != "" {
			where = " at " + Escape(p.Path)
		}
		fmt.Fprintf(w, "  %s %s %s%s%s\n", p.Kind, p.Type, p.Object, where, state)
	}
	if rep.Repaired > 0 {
		fmt.Fprintf(w, "repaired %d objects from %v\n", rep.Repaired, rep.Remotes)
	}
	for _, p := range rep.Links {
		fmt.Fprintf(w, "  link      %s (a symbolic link in the work tree; cairn does not follow it: rm %s)\n", Escape(p), Escape(filepath.Join(dir, filepath.FromSlash(p))))
	}
	for _, p := range rep.CommittedLinks {
		fmt.Fprintf(w, "  link      %s (a symbolic link HEAD records; remove it and cairn checkpoint)\n", Escape(p))
	}
	ConflictLines(w, rep.Conflicts)
	switch {
	case !index:
	case rep.IndexNote != "":
		fmt.Fprintf(w, "search index: %s\n", rep.IndexNote)
	default:
		fmt.Fprintf(w, "search index: %d documents, up to date\n", rep.IndexDocs)
	}
	if ok {
		_, err := fmt.Fprintln(w, "ok")
		return err
	}
	return nil
}

// ConflictLines writes a line per conflict copy, as status and verify
// show them.
func ConflictLines(w io.Writer, cs []memsync.Conflict) {
	for _, c := range cs {
		fmt.Fprintf(w, "  conflict  %s (beside %s; settle with cairn resolve)\n", Escape(c.Path), Escape(c.Original))
	}
}

// ConflictsJSON writes the conflict copies (cairn resolve --json).
func ConflictsJSON(w io.Writer, cs []memsync.Conflict) error { return JSON(w, NonNil(cs)) }

// ConflictsText writes one line per conflict copy, or that there is none.
func ConflictsText(w io.Writer, cs []memsync.Conflict) error {
	if len(cs) == 0 {
		fmt.Fprintln(w, "no conflict copies")
	}
	for _, c := range cs {
		fmt.Fprintf(w, "%s\tbeside %s\n", Escape(c.Path), Escape(c.Original))
	}
	return nil
}

// CommitLine writes a commit's short id and subject (cairn resolve).
func CommitLine(w io.Writer, cp *memory.Checkpoint) error {
	_, err := fmt.Fprintf(w, "%s %s\n", Short(cp.Hash), Escape(cp.Subject))
	return err
}

// ShareJSON writes what cairn share copied into another project (--json).
func ShareJSON(w io.Writer, res *memsync.ProjectShareResult) error { return JSON(w, res) }

// ShareText writes a line per item copied, then the total.
func ShareText(w io.Writer, res *memsync.ProjectShareResult) error {
	for _, it := range res.Items {
		fmt.Fprintf(w, "shared %s %s %q\n", it.Kind, it.ID, it.Title)
	}
	switch {
	case res.Checkpoint != nil:
		fmt.Fprintf(w, "%d items into %s (%s)", len(res.Items), res.To, Short(res.Checkpoint.Hash))
		if res.Skipped > 0 {
			fmt.Fprintf(w, "; %d shared before", res.Skipped)
		}
		_, err := fmt.Fprintln(w)
		return err
	case res.Skipped > 0:
		_, err := fmt.Fprintf(w, "nothing new to share: %d shared before\n", res.Skipped)
		return err
	}
	_, err := fmt.Fprintln(w, "nothing to share")
	return err
}

// RemotesJSON writes the remotes (cairn remote list --json). Their URLs
// must be redacted already.
func RemotesJSON(w io.Writer, rs []memory.Remote) error { return JSON(w, NonNil(rs)) }

// RemotesText writes one line per remote: its name and URL.
func RemotesText(w io.Writer, rs []memory.Remote) error {
	for _, r := range rs {
		fmt.Fprintf(w, "%s\t%s\n", Escape(r.Name), Escape(r.URL))
	}
	return nil
}

// Resolve is cairn resolve: with no path, the sync conflicts left; with
// one (relative to dir), the conflict on it settled by keeping keep.
func Resolve(ctx context.Context, w io.Writer, m *memory.Memory, dir string, paths []string, keep string, asJSON bool) error {
	if len(paths) == 0 {
		cs, err := memsync.Conflicts(ctx, m)
		if err != nil {
			return err
		}
		return Print(w, asJSON, cs, ConflictsJSON, ConflictsText)
	}
	p, err := m.PathArg(dir, paths[0])
	if err != nil {
		p = paths[0]
	}
	cp, err := memsync.Resolve(ctx, m, p, keep)
	if err != nil {
		return err
	}
	return CommitLine(w, cp)
}

// Sync is cairn sync: memsync.Sync, then what it did (as JSON with
// asJSON); the sync's error is returned once that is said.
func Sync(ctx context.Context, w io.Writer, m *memory.Memory, so memsync.SyncOptions, asJSON bool) error {
	res, serr := memsync.Sync(ctx, m, so)
	if res == nil {
		return serr
	}
	if asJSON {
		if err := SyncJSON(w, res); err != nil {
			return err
		}
		return serr
	}
	SyncText(w, res, so.NoPush)
	return serr
}

// Verify is cairn verify: memsync.Verify and, with index and no error,
// the search index's check (recall.CheckIndex), then the report.
func Verify(ctx context.Context, w io.Writer, m *memory.Memory, vo memsync.VerifyOptions, index, asJSON bool) error {
	rep, verr := memsync.Verify(ctx, m, vo)
	if rep == nil {
		return verr
	}
	if index && verr == nil {
		rep.IndexDocs, rep.IndexNote = recall.CheckIndex(ctx, m)
	}
	if asJSON {
		if err := VerifyJSON(w, rep); err != nil {
			return err
		}
		return verr
	}
	VerifyText(w, rep, m.Dir, index && verr == nil, verr == nil)
	return verr
}
