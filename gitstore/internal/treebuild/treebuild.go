package treebuild

import (
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/cairn-mem/cairn/gitstore/internal/loose"
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
	"github.com/go-git/go-git/v5/plumbing/object"
	"github.com/go-git/go-git/v5/plumbing/storer"
)

// Change is one path a new tree adds, modifies or deletes.
type Change struct {
	Path   string // repository path
	Delete bool
	Mode   uint32        // git mode, unless Delete
	Hash   plumbing.Hash // blob, unless Delete
}

// Builder writes the trees of a new commit: the base commit's trees
// with the changed paths replaced. Unchanged subtrees are reused by hash
// and never read.
type Builder struct {
	Storer storer.EncodedObjectStorer // where base trees are read
	W      *loose.Writer              // where new trees are written
}

type entry struct {
	name string
	mode filemode.FileMode
	hash plumbing.Hash
}

// Build returns the tree made from base with changes (sorted by path,
// paths under prefix, which is "" or ends in a slash) applied, and
// whether it is empty.
func (b *Builder) Build(base plumbing.Hash, prefix string, changes []Change) (plumbing.Hash, bool, error) {
	entries := map[string]entry{}
	if !base.IsZero() {
		t, err := object.GetTree(b.Storer, base)
		if err != nil {
			return plumbing.ZeroHash, false, fmt.Errorf("read tree %s (%s): %w", base, prefix, err)
		}
		for _, e := range t.Entries {
			entries[e.Name] = entry{e.Name, e.Mode, e.Hash}
		}
	}
	for i := 0; i < len(changes); {
		rel := strings.TrimPrefix(changes[i].Path, prefix)
		name, _, isDir := strings.Cut(rel, "/")
		if !isDir {
			ch := changes[i]
			if ch.Delete {
				if e, ok := entries[name]; ok && e.mode != filemode.Dir {
					delete(entries, name)
				}
			} else {
				entries[name] = entry{name, filemode.FileMode(ch.Mode), ch.Hash}
			}
			i++
			continue
		}

		sub := prefix + name + "/"
		j := i
		for j < len(changes) && strings.HasPrefix(changes[j].Path, sub) {
			j++
		}
		var subBase plumbing.Hash
		if e, ok := entries[name]; ok && e.mode == filemode.Dir {
			subBase = e.hash
		}
		h, empty, err := b.Build(subBase, sub, changes[i:j])
		if err != nil {
			return plumbing.ZeroHash, false, err
		}
		if empty {
			if e, ok := entries[name]; ok && e.mode == filemode.Dir {
				delete(entries, name)
			}
		} else {
			entries[name] = entry{name, filemode.Dir, h}
		}
		i = j
	}
	if len(entries) == 0 {
		return plumbing.ZeroHash, true, nil
	}
	list := make([]entry, 0, len(entries))
	for _, e := range entries {
		list = append(list, e)
	}
	sort.Slice(list, func(i, j int) bool { return treeKey(list[i]) < treeKey(list[j]) })
	size := 0
	for _, e := range list {
		size += len(e.name) + 28
	}
	buf := make([]byte, 0, size)
	for _, e := range list {
		buf = strconv.AppendUint(buf, uint64(e.mode), 8)
		buf = append(buf, ' ')
		buf = append(buf, e.name...)
		buf = append(buf, 0)
		buf = append(buf, e.hash[:]...)
	}
	h, err := b.W.Write(plumbing.TreeObject, buf)
	return h, false, err
}

// treeKey orders tree entries as git does: a folder sorts as if its name
// ended in a slash.
func treeKey(e entry) string {
	if e.mode == filemode.Dir {
		return e.name + "/"
	}
	return e.name
}
