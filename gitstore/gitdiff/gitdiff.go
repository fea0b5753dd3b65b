package gitdiff

import (
	"fmt"
	"io"
	"strings"

	"github.com/cairn-mem/cairn/gitstore"
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
	fdiff "github.com/go-git/go-git/v5/plumbing/format/diff"
	"github.com/go-git/go-git/v5/utils/diff"
	"github.com/sergi/go-diff/diffmatchpatch"
)

// WritePatch writes diffs as a unified diff, the format git diff prints.
func WritePatch(w io.Writer, diffs []gitstore.FileDiff, color bool) error {
	p := patch{}
	for i := range diffs {
		p.files = append(p.files, filePatch{&diffs[i]})
	}
	enc := fdiff.NewUnifiedEncoder(w, fdiff.DefaultContextLines)
	if color {
		enc.SetColor(fdiff.NewColorConfig())
	}
	return enc.Encode(p)
}

// WriteStat writes a summary line per file and a total, like git diff --stat.
func WriteStat(w io.Writer, diffs []gitstore.FileDiff) error {
	width := 0
	for _, d := range diffs {
		width = max(width, len(d.Path))
	}
	var adds, dels int
	for i := range diffs {
		d := &diffs[i]
		if d.Binary() {
			fmt.Fprintf(w, " %-*s | Bin\n", width, d.Path)
			continue
		}
		a, r := lineCounts(string(d.Old), string(d.New))
		adds, dels = adds+a, dels+r
		fmt.Fprintf(w, " %-*s | %4d %s%s\n", width, d.Path, a+r, strings.Repeat("+", min(a, 40)), strings.Repeat("-", min(r, 40)))
	}
	_, err := fmt.Fprintf(w, " %d files changed, %d insertions(+), %d deletions(-)\n", len(diffs), adds, dels)
	return err
}

func lineCounts(old, new string) (adds, dels int) {
	for _, d := range diff.Do(old, new) {
		n := strings.Count(d.Text, "\n")
		if !strings.HasSuffix(d.Text, "\n") && d.Text != "" {
			n++
		}
		switch d.Type {
		case diffmatchpatch.DiffInsert:
			adds += n
		case diffmatchpatch.DiffDelete:
			dels += n
		}
	}
	return adds, dels
}

type patch struct{ files []fdiff.FilePatch }

func (p patch) FilePatches() []fdiff.FilePatch { return p.files }
func (p patch) Message() string                { return "" }

type filePatch struct{ d *gitstore.FileDiff }

func (f filePatch) IsBinary() bool { return f.d.Binary() }

func (f filePatch) Files() (from, to fdiff.File) {
	if h, m := f.d.OldBlob(); !h.IsZero() {
		from = file{f.d.Path, h, m}
	}
	if h, m := f.d.NewBlob(); !h.IsZero() {
		to = file{f.d.Path, h, m}
	}
	return from, to
}

func (f filePatch) Chunks() []fdiff.Chunk {
	var out []fdiff.Chunk
	for _, d := range diff.Do(string(f.d.Old), string(f.d.New)) {
		op := fdiff.Equal
		switch d.Type {
		case diffmatchpatch.DiffInsert:
			op = fdiff.Add
		case diffmatchpatch.DiffDelete:
			op = fdiff.Delete
		}
		out = append(out, chunk{d.Text, op})
	}
	return out
}

type file struct {
	path string
	hash plumbing.Hash
	mode filemode.FileMode
}

func (f file) Hash() plumbing.Hash     { return f.hash }
func (f file) Mode() filemode.FileMode { return f.mode }
func (f file) Path() string            { return f.path }

type chunk struct {
	content string
	op      fdiff.Operation
}

func (c chunk) Content() string       { return c.content }
func (c chunk) Type() fdiff.Operation { return c.op }
