package watcher

import (
	"testing"
)

// FuzzClassify looks at arbitrary bytes as a file dropped into the inbox:
// it never panics, a rejection always says why, and a job is always valid.
func FuzzClassify(f *testing.F) {
	for _, s := range []string{
		`{"kind":"hook"}`, `{"kind":"inbox-file"}`, "# notes\n", "{\"a\":1}\n{\"b\":\n{\"c\":2}\n",
		"{x\n{y\n", "\x00\x01", "caf\xe9", "\xEF\xBB\xBF[1,2]", " \n", "",
	} {
		f.Add([]byte(s), true)
	}
	f.Fuzz(func(t *testing.T, data []byte, full bool) {
		j, c, reason := classify(data, full)
		switch c {
		case classJob:
			if j == nil || j.Validate() != nil || j.Kind == KindInboxFile || j.Kind == KindRejected {
				t.Fatalf("took %+v as a job", j)
			}
		case classReject:
			if reason == "" {
				t.Fatal("a rejection without a reason")
			}
		case classFile:
			if len(data) == 0 {
				t.Fatal("an empty file taken as text")
			}
		}
	})
}
