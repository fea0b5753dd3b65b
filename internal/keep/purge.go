package keep

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"slices"
	"strings"

	"github.com/cairn-mem/cairn/internal/config"
	"github.com/cairn-mem/cairn/internal/memory"
	"github.com/cairn-mem/cairn/internal/memory/purgelist"
	"github.com/cairn-mem/cairn/internal/model"
)

// PurgePlan is what cairn purge PATH does, or would do without --confirm.
type PurgePlan struct {
	Path   string   // the repository path
	Files  []string // the files under it in the work tree, removed in the checkpoint
	Listed bool     // memory.PurgedFile names it already
}

// PlanPurge checks a path given to cairn purge (see memory.PathArg for
// base) and lists what purging it removes. It refuses a path outside the
// memory, the memory's own files (cairn.yaml, the purge list, the ignore
// and attribute files), a whole top folder (core/, sessions/, archive/)
// and the folders cairn never commits.
func PlanPurge(ctx context.Context, m *memory.Memory, base, arg string) (*PurgePlan, error) {
	p, err := m.PathArg(base, arg)
	if err != nil {
		return nil, fmt.Errorf("purge %s: %w", arg, err)
	}
	first, _, _ := strings.Cut(p, "/")
	switch {
	case p == "" || p == ".":
		return nil, fmt.Errorf("purge %s: that is the whole memory", arg)
	case slices.Contains([]string{config.File, memory.PurgedFile, ".gitignore", ".gitattributes"}, p):
		return nil, fmt.Errorf("purge %s: %s is the memory's own file; edit it instead", arg, p)
	case slices.Contains(model.ItemRoots, p):
		return nil, fmt.Errorf("purge %s: %s/ is a whole part of the memory; purge what is inside it", arg, p)
	case first == ".git" || first == memory.StateDir || first == "inbox" || first == memory.HooksDir:
		return nil, fmt.Errorf("purge %s: %s/ is never committed; nothing to purge", arg, first)
	}
	plan := &PurgePlan{Path: p, Listed: purgelist.Has(m.Purged(), p)}
	err = m.WalkFiles(ctx, p, func(f string, d fs.DirEntry) error {
		if !d.IsDir() {
			plan.Files = append(plan.Files, f)
		}
		return nil
	})
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("purge %s: %w", arg, err)
	}
	if len(plan.Files) == 0 && m.StatOK(p) {
		plan.Files = []string{p} // a file: WalkFiles walks folders
	}
	return plan, nil
}

// Purge carries out a plan in one checkpoint: its files leave the work
// tree and its path joins memory.PurgedFile, which capture, the other
// writes of the memory, checkpoints and sync then keep out. History is
// not rewritten: HistoryHelp says how, for whoever must.
func Purge(ctx context.Context, m *memory.Memory, plan *PurgePlan) (*memory.Checkpoint, error) {
	tx, err := m.Begin(ctx)
	if err != nil {
		return nil, err
	}
	defer tx.End()
	for _, f := range plan.Files {
		tx.Remove(f)
	}
	if !purgelist.Has(m.Purged(), plan.Path) {
		old, err := m.ReadFile(memory.PurgedFile)
		if err != nil && !errors.Is(err, memory.ErrNoFile) {
			return nil, err
		}
		if len(old) == 0 {
			old = []byte(purgedHeader)
		} else if old[len(old)-1] != '\n' {
			old = append(old, '\n')
		}
		tx.Put(memory.PurgedFile, append(old, plan.Path+"\n"...))
	}
	return tx.Commit(ctx, memory.CheckpointOptions{
		Message: fmt.Sprintf("purge: %s is no longer carried forward (history keeps it)", plan.Path),
		Event:   "purge",
	})
}

const purgedHeader = `# Paths cairn purge stopped carrying forward, one a line. Capture, sync
# and checkpoints never add them back. History still holds them; see
# cairn purge --help for removing them from it.
`

// HistoryHelp says how to remove a purged path from the memory's history
// and its remotes, which cairn never does itself.
func HistoryHelp(memDir, p string) string {
	return fmt.Sprintf(`To remove %[1]s from history too, which rewrites every commit
since it was added (cairn never does; other clones must be made again):
  cd %[2]s
  git filter-repo --invert-paths --path %[1]s
  git push --force --all REMOTE && git push --force --tags REMOTE
git filter-repo: https://github.com/newren/git-filter-repo
`, p, memDir)
}
