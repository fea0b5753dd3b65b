package watcher

import (
	"bytes"
	"encoding/json"
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

// FuzzDocumentPrefix holds the queue to what lets the capture hook write
// its payload in place: of a JSON object or array, every part its writer
// may have written so far, short of the whole, is cut short, and the whole
// is not (QueueOptions.Document).
func FuzzDocumentPrefix(f *testing.F) {
	for _, s := range []string{
		`{"session_id":"s1","hook_event_name":"Stop","last_assistant_message":"done \u00e9"}` + "\n",
		`[1,{"a":[true,null,"}"]}]`, `{"a":"\\\""}`, `{}`, " {\"x\":1.5e3} \n",
		"\u00a0{}", "\xef\xbb\xbf{\"a\":1}", "\r\n\t[]",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		whole := jsonTrim(bytes.TrimPrefix(data, utf8BOM))
		if len(whole) == 0 || whole[0] != '{' && whole[0] != '[' || !json.Valid(whole) {
			return
		}
		if cutShort(data) {
			t.Fatalf("the whole document %q is taken as cut short", data)
		}
		end := bytes.LastIndexAny(data, "}]") + 1
		for n := 0; n < end; n++ {
			if !cutShort(data[:n]) {
				t.Fatalf("%q, the first %d bytes of %q, is taken as whole", data[:n], n, data)
			}
		}
	})
}
