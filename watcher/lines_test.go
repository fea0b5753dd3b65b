package watcher

import (
	"strings"
	"testing"
)

func TestLastLineEnd(t *testing.T) {
	long := strings.Repeat("x", 3*readChunk) // lines longer than a read
	tests := []struct {
		data string
		from int64
		want int64
	}{
		{"", 0, 0},
		{"abc", 0, 0},
		{"abc\n", 0, 4},
		{"abc\nde", 0, 4},
		{"abc\nde", 4, 4},
		{"abc\nde\n", 4, 7},
		{"a\nb\nc\n", 2, 6},
		{"\n", 0, 1},
		{strings.Repeat("y", 100) + "\n" + strings.Repeat("z", readChunk-30) + "\n", 0, int64(100 + readChunk - 30 + 2)},
		{strings.Repeat("y", 100) + "\n" + strings.Repeat("z", readChunk-30), 0, 101},
		{long + "\n" + long, 0, int64(len(long)) + 1},
		{"a\n" + long, 0, 2},
		{"a\n" + long, 2, 2},
		{long + "\n" + long + "\n", 10, int64(2*len(long)) + 2},
	}
	for _, tt := range tests {
		r := strings.NewReader(tt.data)
		got, tail, err := lastLineEnd(r, tt.from, int64(len(tt.data)))
		if err != nil || got != tt.want {
			t.Errorf("lastLineEnd(%.20q…, %d) = %d, %v; want %d", tt.data, tt.from, got, err, tt.want)
		}
		if want, _ := tailHash(r, got); got > tt.from && tail != want {
			t.Errorf("lastLineEnd(%.20q…, %d): tail %s, want %s", tt.data, tt.from, tail, want)
		}
	}
}

func TestLineUUIDs(t *testing.T) {
	data := `{"type":"user","uuid":"u1","message":{"uuid":"inner"}}` + "\n" +
		`not json` + "\n" +
		`{"parentUuid":"u1","uuid":"u3"}` + "\n"
	tests := []struct {
		from, to    int64
		first, last string
	}{
		{0, int64(len(data)), "u1", "u3"},
		{0, int64(strings.Index(data, "not")), "u1", "u1"},
		{int64(strings.Index(data, "not")), int64(len(data)), "", "u3"},
		{int64(strings.Index(data, `{"parent`)), int64(len(data)), "u3", "u3"},
		{5, 5, "", ""},
	}
	for _, tt := range tests {
		first, last := lineUUIDs(strings.NewReader(data), tt.from, tt.to)
		if first != tt.first || last != tt.last {
			t.Errorf("lineUUIDs(%d, %d) = %q, %q; want %q, %q", tt.from, tt.to, first, last, tt.first, tt.last)
		}
	}
}
