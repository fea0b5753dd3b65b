package gitsync

import "testing"

// The size of the object a delta makes is its second number (issue 12,
// item 10): a small delta can make a huge object.
func TestDeltaHeadTarget(t *testing.T) {
	for _, c := range []struct {
		in   []byte
		want int64
	}{
		{[]byte{0x05, 0x0a, 0x90}, 10},
		{[]byte{0x80, 0x01, 0x80, 0x80, 0x80, 0x96, 0x01}, 300 << 20},
		{[]byte{0x05}, 0},
		{[]byte{0x80, 0x80}, 0},
		{nil, 0},
	} {
		var d deltaHead
		d.Write(c.in)
		if got := d.target(); got != c.want {
			t.Errorf("target(% x) = %d, want %d", c.in, got, c.want)
		}
	}
}
