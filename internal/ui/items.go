package ui

import (
	"context"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/cairn-mem/cairn/internal/memory"
	"github.com/cairn-mem/cairn/internal/memsync"
	"github.com/cairn-mem/cairn/internal/model"
)

// Item is how commands print an item under --json.
type Item struct {
	ID         string    `json:"id"`
	Path       string    `json:"path"`
	Kind       string    `json:"kind"`
	Layer      string    `json:"layer"`
	Title      string    `json:"title"`
	Importance float64   `json:"importance"`
	Confidence float64   `json:"confidence"`
	Tags       []string  `json:"tags"`
	Session    string    `json:"session,omitempty"`
	Created    time.Time `json:"created"`
	Updated    time.Time `json:"updated"`
	Pinned     bool      `json:"pinned"`
	Body       string    `json:"body,omitempty"`
}

// ItemOf is the JSON form of the item it, stored at path.
func ItemOf(it *model.Item, path string) Item {
	tags := it.Tags
	if tags == nil {
		tags = []string{}
	}
	return Item{
		ID: it.ID, Path: path, Kind: string(it.Kind), Layer: string(model.LayerOf(path)),
		Title: it.Title, Importance: it.Importance, Confidence: it.Confidence, Tags: tags,
		Session: it.Session, Created: it.Created, Updated: it.Updated, Pinned: it.Pinned, Body: it.Body,
	}
}

// ItemJSON writes one item, body included (cairn show --json, remember
// --json).
func ItemJSON(w io.Writer, it *model.Item, path string) error { return JSON(w, ItemOf(it, path)) }

// ListJSON writes items without their bodies (cairn list --json).
func ListJSON(w io.Writer, items []model.Entry) error {
	out := make([]Item, 0, len(items))
	for _, e := range items {
		j := ItemOf(e.Item, e.Path)
		j.Body = ""
		out = append(out, j)
	}
	return JSON(w, out)
}

// ListText writes one line per item: id, kind, when, title, pin and tags.
func ListText(w io.Writer, items []model.Entry) error {
	tw := table(w)
	for _, e := range items {
		it := e.Item
		pin := ""
		if it.Pinned {
			pin = " [pinned]"
		}
		tags := ""
		if len(it.Tags) > 0 {
			tags = " #" + strings.Join(it.Tags, " #")
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s%s%s\n", Escape(it.ID), Escape(string(it.Kind)), it.Updated.Local().Format("2006-01-02 15:04"), Escape(it.Title), pin, Escape(tags))
	}
	return tw.Flush()
}

// LogJSON writes checkpoints as cairn log --json prints them.
func LogJSON(w io.Writer, entries []memory.LogEntry) error { return JSON(w, NonNil(entries)) }

// LogText writes two lines per checkpoint: id, time, subject and tags;
// then its session, code commit and number of files.
func LogText(w io.Writer, entries []memory.LogEntry) error {
	for _, e := range entries {
		deco := ""
		if len(e.Tags) > 0 {
			deco = " (tag: " + strings.Join(e.Tags, ", tag: ") + ")"
		}
		fmt.Fprintf(w, "%s %s %s%s\n", Short(e.Commit), e.Time.Local().Format("2006-01-02 15:04:05"), Escape(e.Subject), Escape(deco))
		var meta []string
		if e.Session != "" {
			meta = append(meta, "session "+Escape(e.Session))
		}
		if e.CodeCommit != "" {
			meta = append(meta, "code "+Escape(Short(e.CodeCommit)))
		}
		meta = append(meta, fmt.Sprintf("%d file(s)", e.FilesChanged))
		if _, err := fmt.Fprintf(w, "           %s\n", strings.Join(meta, ", ")); err != nil {
			return err
		}
	}
	return nil
}

// TagsJSON writes named checkpoints (cairn tag --json).
func TagsJSON(w io.Writer, tags []memory.Tag) error {
	out := make([]map[string]string, 0, len(tags))
	for _, t := range tags {
		out = append(out, map[string]string{"name": t.Name, "commit": t.Commit})
	}
	return JSON(w, out)
}

// TagsText writes one line per named checkpoint.
func TagsText(w io.Writer, tags []memory.Tag) error {
	for _, t := range tags {
		fmt.Fprintf(w, "%s\t%s\n", Short(t.Commit), Escape(t.Name))
	}
	return nil
}

// StatusJSON writes what the next checkpoint would commit (cairn status
// --json).
func StatusJSON(w io.Writer, dir string, changes []memory.FileChange, conflicts []memsync.Conflict) error {
	return JSON(w, map[string]any{"dir": dir, "changes": NonNil(changes), "conflicts": NonNil(conflicts)})
}

// StatusText writes the memory's folder, its conflict copies and its
// changes.
func StatusText(w io.Writer, dir string, changes []memory.FileChange, conflicts []memsync.Conflict) error {
	fmt.Fprintf(w, "memory: %s\n", dir)
	for _, c := range conflicts {
		fmt.Fprintf(w, "  conflict  %s (beside %s; settle with cairn resolve)\n", Escape(c.Path), Escape(c.Original))
	}
	if len(changes) == 0 {
		_, err := fmt.Fprintln(w, "nothing to checkpoint")
		return err
	}
	for _, c := range changes {
		fmt.Fprintf(w, "  %-9s %s\n", c.Action, Escape(c.Path))
	}
	return nil
}

// CheckpointJSON writes a checkpoint, or that there was nothing to
// commit when commit is "" (cairn checkpoint --json).
func CheckpointJSON(w io.Writer, commit, subject string, changes []memory.FileChange) error {
	if commit == "" {
		return JSON(w, map[string]any{"commit": nil, "changes": []any{}})
	}
	return JSON(w, map[string]any{"commit": commit, "subject": subject, "changes": NonNil(changes)})
}

// CheckpointText writes the new commit's id, or that there was nothing
// to commit.
func CheckpointText(w io.Writer, commit string) error {
	if commit == "" {
		_, err := fmt.Fprintln(w, "nothing to checkpoint")
		return err
	}
	_, err := fmt.Fprintln(w, commit)
	return err
}

// TaggedHeadJSON and TaggedHeadText say that a checkpoint with nothing
// to commit named the current state instead.
func TaggedHeadJSON(w io.Writer, head, tag string) error {
	return JSON(w, map[string]any{"commit": head, "changes": []any{}, "tag": tag})
}

func TaggedHeadText(w io.Writer, head, tag string) error {
	_, err := fmt.Fprintf(w, "nothing to checkpoint; named %s %s\n", Short(head), Escape(tag))
	return err
}

// RestoreJSON writes what cairn restore did (--json).
func RestoreJSON(w io.Writer, res *memory.RestoreResult) error {
	out := map[string]any{"from": res.From, "commit": nil, "changes": NonNil(res.Changes)}
	if res.Checkpoint != nil {
		out["commit"] = res.Checkpoint.Hash
	}
	return JSON(w, out)
}

// RestoreText says what cairn restore did.
func RestoreText(w io.Writer, res *memory.RestoreResult) error {
	if res.Saved != nil {
		fmt.Fprintf(w, "checkpointed pending changes first as %s\n", Short(res.Saved.Hash))
	}
	if res.Checkpoint == nil {
		_, err := fmt.Fprintf(w, "memory already matches %s; nothing to restore\n", Short(res.From))
		return err
	}
	_, err := fmt.Fprintf(w, "restored %d file(s) from %s as checkpoint %s\n", len(res.Changes), Short(res.From), res.Checkpoint.Hash)
	return err
}

// Reindexed is what cairn reindex reports about the new index.
type Reindexed struct {
	Files, Chunks    int
	Commit, Embedder string
	Bytes            int64
	Took             time.Duration
}

// ReindexJSON writes figures about the new index (cairn reindex --json).
func ReindexJSON(w io.Writer, r Reindexed) error {
	return JSON(w, map[string]any{
		"files": r.Files, "chunks": r.Chunks, "commit": r.Commit, "embedder": r.Embedder,
		"bytes": r.Bytes, "seconds": r.Took.Seconds(),
	})
}

// ReindexText writes them in one line.
func ReindexText(w io.Writer, r Reindexed) error {
	_, err := fmt.Fprintf(w, "indexed %d files (%d chunks) in %.1fs; the index takes %s\n",
		r.Files, r.Chunks, r.Took.Seconds(), humanBytes(r.Bytes))
	return err
}

func humanBytes(n int64) string {
	switch {
	case n >= 1<<30:
		return fmt.Sprintf("%.1f GB", float64(n)/(1<<30))
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MB", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%.1f KB", float64(n)/(1<<10))
	}
	return fmt.Sprintf("%d bytes", n)
}

// DiffStat writes a summary per file, as git diff --stat does; nothing
// when nothing changed.
func DiffStat(w io.Writer, diffs []memory.FileDiff) error {
	if len(diffs) == 0 {
		return nil
	}
	return memory.WriteStat(w, diffs)
}

// DiffPatch writes the patch, coloured when color is set.
func DiffPatch(w io.Writer, diffs []memory.FileDiff, color bool) error {
	return memory.WritePatch(w, diffs, color)
}

// ListItems is cairn list: the items that pass f, what it skipped
// through warn.
func ListItems(ctx context.Context, w io.Writer, m *memory.Memory, f memory.Filter, asJSON bool, warn func(string)) error {
	items, problems, err := m.List(ctx, f)
	if err != nil {
		return err
	}
	for _, p := range problems {
		warn("skipped " + p.Error())
	}
	return Print(w, asJSON, items, ListJSON, ListText)
}

// ShowStatus is cairn status: the changes since the last checkpoint and
// the sync conflicts left.
func ShowStatus(ctx context.Context, w io.Writer, m *memory.Memory, asJSON bool) error {
	changes, err := m.Status(ctx)
	if err != nil {
		return err
	}
	conflicts, err := memsync.Conflicts(ctx, m)
	if err != nil {
		return err
	}
	if asJSON {
		return StatusJSON(w, m.Dir, changes, conflicts)
	}
	return StatusText(w, m.Dir, changes, conflicts)
}

// Restore is cairn restore: the paths (relative to dir; none: the whole
// memory) as they were at rev, or at the checkpoint of the code commit
// code when it is set.
func Restore(ctx context.Context, w io.Writer, m *memory.Memory, rev, code, dir string, paths []string, asJSON bool) (err error) {
	if code != "" {
		if rev, err = m.History().CheckpointForCode(ctx, code); err != nil {
			return err
		}
	}
	rel, err := m.PathArgs(dir, paths)
	if err != nil {
		return err
	}
	res, err := m.History().Restore(ctx, rev, rel)
	if err != nil {
		return err
	}
	return Print(w, asJSON, res, RestoreJSON, RestoreText)
}
