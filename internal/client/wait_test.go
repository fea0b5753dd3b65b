package client

import (
	"testing"
	"time"
)

func TestParseWait(t *testing.T) {
	for _, c := range []struct {
		in   string
		want time.Duration
		bad  bool
	}{
		{in: "300ms", want: 300 * time.Millisecond},
		{in: "2s", want: 2 * time.Second},
		{in: "0.5", want: 500 * time.Millisecond},
		{in: "3", want: 3 * time.Second},
		{in: "10s", want: MaxWait},
		{in: "0", bad: true},
		{in: "-1s", bad: true},
		{in: "11s", bad: true},
		{in: "1h", bad: true},
		{in: "soon", bad: true},
		{in: "", bad: true},
	} {
		got, err := ParseWait(c.in)
		if (err != nil) != c.bad || got != c.want {
			t.Errorf("ParseWait(%q) = %v, %v; want %v, bad %v", c.in, got, err, c.want, c.bad)
		}
	}
}
