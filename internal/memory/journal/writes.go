package journal

import (
	"sort"
	"strings"

	"github.com/cairn-mem/cairn/internal/model"
)

// Writes collects the changes of one batch.
type Writes struct {
	moves  []FileMove
	writes []FileWrite
}

func (b *Writes) Empty() bool { return len(b.moves) == 0 && len(b.writes) == 0 }

// Moves are the batch's moves, in order.
func (b *Writes) Moves() []FileMove { return b.moves }

// Changes are the batch's writes, in order.
func (b *Writes) Changes() []FileWrite { return b.writes }

// DropIf takes out of the batch the writes drop reports true for.
func (b *Writes) DropIf(drop func(FileWrite) bool) {
	out := b.writes[:0]
	for _, w := range b.writes {
		if drop(w) {
			continue
		}
		out = append(out, w)
	}
	b.writes = out
}

// move renames a folder (or file) from one repository path to another.
// Writes added after it name the new place.
func (b *Writes) Move(from, to string) {
	b.moves = append(b.moves, FileMove{From: from, To: to})
}

// put replaces a file's content.
func (b *Writes) Put(p string, data []byte) {
	for i := range b.writes {
		if w := &b.writes[i]; w.Path == p {
			*w = FileWrite{Path: p, Data: data}
			return
		}
	}
	b.writes = append(b.writes, FileWrite{Path: p, Data: data})
}

// add appends to a file (making it when missing).
func (b *Writes) Add(p string, data []byte) {
	if len(data) == 0 {
		return
	}
	for i := range b.writes {
		if w := &b.writes[i]; w.Path == p && !w.Remove {
			w.Data = append(w.Data, data...)
			return
		}
	}
	b.writes = append(b.writes, FileWrite{Path: p, Append: true, Data: append([]byte(nil), data...)})
}

// drop takes back the batch's writes to p.
func (b *Writes) Drop(p string) {
	out := b.writes[:0]
	for _, w := range b.writes {
		if w.Path != p {
			out = append(out, w)
		}
	}
	b.writes = out
}

// remove deletes a file.
func (b *Writes) Remove(p string) {
	b.writes = append(b.writes, FileWrite{Path: p, Remove: true})
}

// writeSession adds a session's session.yaml to the batch.
func (b *Writes) WriteSession(e *model.SessionEntry) error {
	data, err := e.Marshal()
	if err != nil {
		return err
	}
	b.Put(e.File(model.SessionFile), data)
	return nil
}

// before maps a path named after the batch's moves to where the file is
// before them.
func (b *Writes) Before(p string) string {
	for i := len(b.moves) - 1; i >= 0; i-- {
		mv := b.moves[i]
		if p == mv.To || strings.HasPrefix(p, mv.To+"/") {
			p = mv.From + p[len(mv.To):]
		}
	}
	return p
}

// paths are the repository paths the batch touches, for the checkpoint.
func (b *Writes) Paths() []string {
	set := map[string]bool{}
	for _, mv := range b.moves {
		set[mv.From], set[mv.To] = true, true
	}
	for _, w := range b.writes {
		set[w.Path] = true
	}
	out := make([]string, 0, len(set))
	for p := range set {
		out = append(out, p)
	}
	sort.Strings(out)
	return out
}

// Prepend puts head before what the batch writes to p: at the start of
// the file it creates or of what it appends.
func (b *Writes) Prepend(p string, head []byte) {
	for i := range b.writes {
		if w := &b.writes[i]; w.Path == p {
			w.Data = append(head, w.Data...)
			return
		}
	}
	b.Add(p, head)
}
