package indexer

import (
	"context"
	"encoding/binary"
	"fmt"

	index "github.com/blevesearch/bleve_index_api"
)

// Terms returns the distinct terms of text as the index analyses a
// chunk's body (lower-cased, English stop words out, stemmed), in the
// order they first appear: the words BodyTerms and Query.Related name.
func (ix *Index) Terms(text string) []string {
	ix.mu.RLock()
	defer ix.mu.RUnlock()
	if ix.closed {
		return nil
	}
	return ix.terms(cleanQuery(text))
}

// BodyTerms calls fn with each term of the chunks' bodies that keep
// accepts by its document frequency (the chunks holding it, counted as
// Bleve's dictionary counts them), and the chunks that hold it, as
// numbers private to this call: from 0 up, one chunk one number. It
// returns how many chunks the index holds. Bleve stores no text, so its
// dictionary and postings are the one record of which chunk holds which
// word: this is how statistics over the index's own analysis (term
// associations) are made without reading every file again. Writes wait
// until it returns.
func (ix *Index) BodyTerms(ctx context.Context, keep func(term string, df int) bool, fn func(term string, chunks []uint32)) (int, error) {
	ix.mu.RLock()
	defer ix.mu.RUnlock()
	if ix.closed {
		return 0, ErrClosed
	}
	bi, err := ix.fullText()
	if err != nil {
		return 0, fmt.Errorf("body terms: %w", err)
	}
	adv, err := bi.Advanced()
	if err != nil {
		return 0, fmt.Errorf("body terms: %w", err)
	}
	r, err := adv.Reader()
	if err != nil {
		return 0, fmt.Errorf("body terms: %w", err)
	}
	defer r.Close()
	n, err := r.DocCount()
	if err != nil {
		return 0, fmt.Errorf("body terms: %w", err)
	}
	dict, err := r.FieldDict(fieldBody)
	if err != nil {
		return 0, fmt.Errorf("body terms: %w", err)
	}
	var terms []string
	for {
		e, err := dict.Next()
		if err != nil {
			dict.Close()
			return 0, fmt.Errorf("body terms: %w", err)
		}
		if e == nil {
			break
		}
		if keep(e.Term, int(e.Count)) {
			terms = append(terms, e.Term)
		}
	}
	if err := dict.Close(); err != nil {
		return 0, fmt.Errorf("body terms: %w", err)
	}
	// Bleve's internal ids are the segments' document numbers, deleted
	// ones included: numbered again densely here.
	num := make(map[uint64]uint32, n)
	var (
		docs []uint32
		tfd  index.TermFieldDoc
	)
	for i, t := range terms {
		if i%256 == 0 {
			if err := ctx.Err(); err != nil {
				return 0, err
			}
		}
		tfr, err := r.TermFieldReader(ctx, []byte(t), fieldBody, false, false, false)
		if err != nil {
			return 0, fmt.Errorf("body terms: %q: %w", t, err)
		}
		docs = docs[:0]
		for {
			d, err := tfr.Next(tfd.Reset())
			if err != nil {
				tfr.Close()
				return 0, fmt.Errorf("body terms: %q: %w", t, err)
			}
			if d == nil {
				break
			}
			id := internalNum(d.ID)
			k, ok := num[id]
			if !ok {
				k = uint32(len(num))
				num[id] = k
			}
			docs = append(docs, k)
		}
		tfr.Close()
		if len(docs) > 0 {
			fn(t, docs)
		}
	}
	return int(n), nil
}

// internalNum reads a Bleve (scorch) internal id: a big-endian number.
func internalNum(id index.IndexInternalID) uint64 {
	if len(id) == 8 {
		return binary.BigEndian.Uint64(id)
	}
	var x uint64
	for _, b := range id {
		x = x<<8 | uint64(b)
	}
	return x
}
