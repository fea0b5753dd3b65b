package indexer

import (
	"context"
	"fmt"
)

// A Writer puts documents into the index as Put does, a call at a time,
// but each call returns once its documents are chunked and analysed and
// their last batches handed to a goroutine of their own that embeds them
// and writes them to Bleve and the vectors file. The next call's work
// (and whatever its caller does meanwhile, such as reading the next
// files) goes on alongside: Bleve makes a batch's segment on one
// goroutine, which left the other processors idle for a tenth of a
// first build. Writes happen one at a time, in the order of the calls,
// so the last of several documents with one path still wins.
//
// A write's error is returned by the next Put or by Close. A Writer is
// used by one goroutine at a time; the index may be searched meanwhile,
// and shows a call's documents once its write is done. Close must be
// called, and before SetVersion: it waits for the last write.
type Writer struct {
	ix *Index
	// done receives the result of the write under way; nil when none is.
	done chan error
}

// NewWriter returns a Writer that puts documents into ix.
func (ix *Index) NewWriter() *Writer { return &Writer{ix: ix} }

// wait waits for the write under way, if any, and returns its error.
func (w *Writer) wait() error {
	if w.done == nil {
		return nil
	}
	err := <-w.done
	w.done = nil
	return err
}

// Close waits until the documents of every Put are written and returns
// the first error of the writes not yet reported.
func (w *Writer) Close() error { return w.wait() }

// Put adds documents as Index.Put does; they are written once a later
// Put or Close returns without an error.
func (w *Writer) Put(ctx context.Context, docs ...Document) error {
	ix := w.ix
	// The last of several documents with one path wins.
	last := make(map[string]int, len(docs))
	for i, d := range docs {
		if d.Path == "" {
			return fmt.Errorf("index put: document %d has no path", i)
		}
		last[d.Path] = i
	}
	// Chunking and embedding (maybe a network call) happen outside the
	// lock, so searches go on meanwhile. The built-in embedder, which
	// fails only when ctx ends, works alongside Bleve's batches instead:
	// each takes about half the CPU. Should it fail, Bleve holds chunks
	// the vectors file does not, as after a crash, which the next Put or
	// Delete of their paths cleans up.
	var (
		group   []pendingChunk
		deletes []string // paths whose old chunks go
		ends    []span   // of group's batches
	)
	hash, local := ix.embedder.(*HashEmbedder)
	flush := func() error {
		group, deletes, ends := group, deletes, ends
		var vecs func() ([][]float32, error)
		if local {
			// The built-in embedder and Bleve share each chunk's analysis.
			if err := ix.analyze(ctx, group); err != nil {
				return err
			}
			var (
				v    [][]float32
				err  error
				done = make(chan struct{})
			)
			go func() {
				defer close(done)
				v, err = ix.embedAnalyzed(ctx, hash, group)
			}()
			vecs = func() ([][]float32, error) { <-done; return v, err }
		} else {
			v, err := ix.embed(ctx, group)
			if err != nil {
				return err
			}
			vecs = func() ([][]float32, error) { return v, nil }
		}
		// One write at a time, in order.
		if err := w.wait(); err != nil {
			vecs() // the embedding goroutine is done with group
			return err
		}
		done := make(chan error, 1)
		w.done = done
		go func() {
			done <- func() error {
				defer vecs()
				ix.mu.Lock()
				defer ix.mu.Unlock()
				if ix.closed {
					return ErrClosed
				}
				return ix.write(deletes, group, ends, vecs)
			}()
		}()
		return nil
	}
	// Chunking is done for all documents at once, on every processor.
	keep := make([]*Document, 0, len(last))
	for i := range docs {
		if last[docs[i].Path] == i {
			keep = append(keep, &docs[i])
		}
	}
	chunked := make([][]pendingChunk, len(keep))
	ix.parallel(len(keep), func(i int) { chunked[i] = ix.chunkDoc(keep[i]) })
	// Batches of even size, none over BatchSize: each is a Bleve
	// segment, and a small one left over would cost a merge for nothing.
	// Up to Workers of them are written at once, each made a segment on
	// a processor of its own, and their vectors appended in one write.
	total := 0
	for _, c := range chunked {
		total += len(c)
	}
	size := ix.opts.BatchSize
	if total > size {
		size = (total + (total+size-1)/size - 1) / ((total + size - 1) / size)
	}
	from := span{}
	for i, d := range keep {
		if err := ctx.Err(); err != nil {
			return err
		}
		deletes = append(deletes, d.Path)
		group = append(group, chunked[i]...)
		chunked[i] = nil
		if len(group)-from.chunks < size && i < len(keep)-1 {
			continue
		}
		from = span{chunks: len(group), paths: len(deletes)}
		ends = append(ends, from)
		if len(ends) < ix.opts.Workers && i < len(keep)-1 {
			continue
		}
		if err := flush(); err != nil {
			return err
		}
		// The write goroutine keeps the slices it was given.
		group, deletes, ends, from = nil, nil, nil, span{}
	}
	return nil
}
