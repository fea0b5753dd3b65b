package indexer

import (
	"context"
	"errors"
	"testing"
)

// A Writer's documents are in the index once Close returns, and a write
// that fails is reported by the next Put or by Close.
func TestWriter(t *testing.T) {
	ctx := context.Background()
	ix, _ := openTest(t, Options{BatchSize: 10})
	docs, _ := benchDocs(60, 1)
	w := ix.NewWriter()
	for i := 0; i < len(docs); i += 20 {
		if err := w.Put(ctx, docs[i:i+20]...); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	if got := len(ix.Paths()); got != len(docs) {
		t.Fatalf("%d documents after Close, want %d", got, len(docs))
	}
	if err := w.Close(); err != nil {
		t.Fatalf("second Close: %v", err)
	}

	w = ix.NewWriter()
	if err := ix.Close(); err != nil {
		t.Fatal(err)
	}
	if err := w.Put(ctx, docs[0]); err != nil {
		t.Fatalf("Put returned %v before its write ran", err)
	}
	if err := w.Put(ctx, docs[1]); !errors.Is(err, ErrClosed) {
		t.Errorf("the next Put returned %v, want ErrClosed", err)
	}
	if err := w.Put(ctx, docs[2]); err != nil {
		t.Fatalf("Put: %v", err)
	}
	if err := w.Close(); !errors.Is(err, ErrClosed) {
		t.Errorf("Close returned %v, want ErrClosed", err)
	}
}
