package memory

import (
	"maps"
	"testing"

	"github.com/cairn-mem/cairn/gitstore"
)

// A Cairn-Code-Dirty trailer is read back only as a blob id and a clean
// path inside the project: one a hand-made commit or a remote brought
// that is anything else is passed over.
func TestCodeDirty(t *testing.T) {
	const blob = "c0a7993f261c4110d42b4b4962ba136f5c690f6a"
	c := &gitstore.Commit{Trailers: []gitstore.Trailer{
		{Key: TrailerCodeDirty, Value: blob + " src/verify.js"},
		{Key: "cairn-code-dirty", Value: blob + " docs/a b.md"}, // any case; a space in the path
		{Key: TrailerCodeDirty, Value: blob + " ../outside.js"},
		{Key: TrailerCodeDirty, Value: blob + " /etc/passwd"},
		{Key: TrailerCodeDirty, Value: blob + " src/../../x"},
		{Key: TrailerCodeDirty, Value: "C0A7993F261C4110D42B4B4962BA136F5C690F6A src/upper.js"},
		{Key: TrailerCodeDirty, Value: "c0a7993f src/short.js"},
		{Key: TrailerCodeDirty, Value: blob},
		{Key: TrailerCodeCommit, Value: blob},
	}}
	want := map[string]string{"src/verify.js": blob, "docs/a b.md": blob}
	if got := codeDirty(c); !maps.Equal(got, want) {
		t.Errorf("codeDirty = %v, want %v", got, want)
	}
	if got := codeDirty(&gitstore.Commit{}); got != nil {
		t.Errorf("no trailer gave %v", got)
	}
}
