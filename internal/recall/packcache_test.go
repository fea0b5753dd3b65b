package recall

import (
	"bytes"
	"context"
	"errors"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/cairn-mem/cairn/internal/model"
	"github.com/cairn-mem/cairn/internal/recall/derived"
)

// The pack cache changes nothing a pack shows: the pack made from it
// equals the one made without it, a pack of the same inputs computes
// nothing (the file is not written again), and a damaged cache is said
// in one line and rebuilt.
func TestPackCache(t *testing.T) {
	ctx := context.Background()
	m, w := reopen(t, projectMemory(t))
	name := m.StatePath(derived.File)
	packText := func() string {
		t.Helper()
		p, err := Context(ctx, m, ContextOptions{Budget: 1500})
		if err != nil {
			t.Fatal(err)
		}
		return p.Text
	}
	fresh := func() string {
		t.Helper()
		if err := os.Remove(name); err != nil && !errors.Is(err, os.ErrNotExist) {
			t.Fatal(err)
		}
		return packText()
	}

	want := fresh()
	fi, err := os.Stat(name)
	if err != nil {
		t.Fatalf("no cache after a pack: %v", err)
	}
	if fi.Mode().Perm() != 0o600 {
		t.Errorf("cache mode %v, want 0600", fi.Mode().Perm())
	}
	data, _ := os.ReadFile(name)
	if got := packText(); got != want {
		t.Errorf("pack from the cache differs:\n%s\nwant:\n%s", got, want)
	}
	if again, _ := os.ReadFile(name); !bytes.Equal(again, data) {
		t.Error("a pack of the same inputs wrote the cache again")
	}
	if l := w.take(); len(l) != 0 {
		t.Errorf("warnings: %q", l)
	}

	// Damaged: a flipped byte in the answers, then a file cut short.
	for _, damage := range [][]byte{
		append(slices.Clone(data[:len(data)-1]), data[len(data)-1]^0xff),
		data[:len("cairn-packcache 1\n")+5],
	} {
		if err := os.WriteFile(name, damage, 0o600); err != nil {
			t.Fatal(err)
		}
		if got := packText(); got != want {
			t.Errorf("pack from a damaged cache differs:\n%s\nwant:\n%s", got, want)
		}
		if l := w.take(); len(l) != 1 || !strings.Contains(l[0], "damaged") {
			t.Errorf("warnings %q, want one saying the cache is damaged", l)
		}
		if again, _ := os.ReadFile(name); !bytes.Equal(again, data) {
			t.Error("the damaged cache was not rebuilt")
		}
	}

	// A new core item changes the inputs: the answers are computed again,
	// and agree with a pack made from nothing.
	it := model.NewItem(model.Fact, "The API listens on port 9090 now", m.Now())
	it.Body, it.Importance = "Moved from 8081 for the new load balancer.", 0.95
	if _, err := m.Remember(ctx, it); err != nil {
		t.Fatal(err)
	}
	got := packText()
	if again, _ := os.ReadFile(name); bytes.Equal(again, data) {
		t.Error("the cache was not made again for the new inputs")
	}
	if want := fresh(); got != want {
		t.Errorf("pack after a change differs from one made without the cache:\n%s\nwant:\n%s", got, want)
	}
	if !strings.Contains(got, "9090") {
		t.Errorf("the new item is not in the pack:\n%s", got)
	}
}
