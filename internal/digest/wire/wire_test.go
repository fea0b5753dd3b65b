package wire

import (
	"encoding/binary"
	"errors"
	"reflect"
	"testing"
)

var errBad = errors.New("bad")

// TestRoundTrip: what the Append functions write reads back the same,
// nil apart from empty.
func TestRoundTrip(t *testing.T) {
	var b []byte
	b = binary.AppendVarint(b, -3)
	b = AppendStr(b, "héllo")
	b = AppendBool(b, true)
	b = AppendStrs(b, nil)
	b = AppendStrs(b, []string{})
	b = AppendStrs(b, []string{"a", ""})
	b = AppendSet(b, map[string]bool{"z": true, "a": false})
	b = AppendMap(b, nil)
	b = AppendMap(b, map[string]string{"port": "8080"})
	b = AppendSets(b, []map[string]bool{{"x": true}, nil})

	d := NewDecoder(string(b), errBad)
	got := []any{d.Int(), d.Str(), d.Bool(), d.Strs(), d.Strs(), d.Strs(), d.Set(), d.Map(), d.Map(), d.Sets()}
	want := []any{int64(-3), "héllo", true, []string(nil), []string{}, []string{"a", ""},
		map[string]bool{"z": true, "a": false}, map[string]string(nil), map[string]string{"port": "8080"},
		[]map[string]bool{{"x": true}, nil}}
	if err := d.End(); err != nil {
		t.Fatalf("End: %v", err)
	}
	for i := range want {
		if !reflect.DeepEqual(got[i], want[i]) {
			t.Errorf("value %d: got %#v, want %#v", i, got[i], want[i])
		}
	}
}

// TestCutShort: every cut of a valid encoding fails with bad, never
// panics; bytes left over fail End.
func TestCutShort(t *testing.T) {
	b := AppendMap(AppendStrs(nil, []string{"one", "two"}), map[string]string{"k": "v"})
	for n := range len(b) {
		d := NewDecoder(string(b[:n]), errBad)
		d.Strs()
		d.Map()
		if err := d.End(); !errors.Is(err, errBad) {
			t.Errorf("cut at %d: End = %v, want bad", n, err)
		}
	}
	d := NewDecoder(string(AppendStr(nil, "x"))+"!", errBad)
	d.Str()
	if err := d.End(); !errors.Is(err, errBad) {
		t.Errorf("a byte left over: End = %v", err)
	}
}
