package wire

import (
	"encoding/binary"
	"maps"
	"slices"
)

// AppendLen appends a length n, or nil.
func AppendLen(b []byte, isNil bool, n int) []byte {
	if isNil {
		return append(b, 0)
	}
	return binary.AppendUvarint(b, uint64(n)+1)
}

// AppendStr appends s with its length.
func AppendStr(b []byte, s string) []byte {
	b = binary.AppendUvarint(b, uint64(len(s)))
	return append(b, s...)
}

// AppendBool appends v as one byte.
func AppendBool(b []byte, v bool) []byte {
	if v {
		return append(b, 1)
	}
	return append(b, 0)
}

// AppendStrs appends a list of strings.
func AppendStrs(b []byte, ss []string) []byte {
	b = AppendLen(b, ss == nil, len(ss))
	for _, s := range ss {
		b = AppendStr(b, s)
	}
	return b
}

// AppendSet appends a set, its keys sorted: a map's order is random.
func AppendSet(b []byte, m map[string]bool) []byte {
	b = AppendLen(b, m == nil, len(m))
	for _, k := range slices.Sorted(maps.Keys(m)) {
		b = AppendStr(b, k)
		b = AppendBool(b, m[k])
	}
	return b
}

// AppendMap appends a map of strings, its keys sorted.
func AppendMap(b []byte, m map[string]string) []byte {
	b = AppendLen(b, m == nil, len(m))
	for _, k := range slices.Sorted(maps.Keys(m)) {
		b = AppendStr(b, k)
		b = AppendStr(b, m[k])
	}
	return b
}

// AppendSets appends a list of sets.
func AppendSets(b []byte, ms []map[string]bool) []byte {
	b = AppendLen(b, ms == nil, len(ms))
	for _, m := range ms {
		b = AppendSet(b, m)
	}
	return b
}

// Uvarint is binary.Uvarint of a string.
func Uvarint(s string) (uint64, int) {
	var x uint64
	var shift uint
	for i := range min(len(s), binary.MaxVarintLen64) {
		c := s[i]
		if c < 0x80 {
			if i == binary.MaxVarintLen64-1 && c > 1 {
				return 0, -(i + 1) // overflow
			}
			return x | uint64(c)<<shift, i + 1
		}
		x |= uint64(c&0x7f) << shift
		shift += 7
	}
	return 0, 0
}

// A Decoder reads what the Append functions wrote. Its first failure
// stays: every later read returns the zero value, and Err the failure.
type Decoder struct {
	b   string
	bad error
	err error
}

// NewDecoder reads b; bad is the error it reports when b is cut short
// or malformed.
func NewDecoder(b string, bad error) *Decoder { return &Decoder{b: b, bad: bad} }

// Err is the first failure, or nil.
func (d *Decoder) Err() error { return d.err }

// End is Err, or bad when bytes are left over.
func (d *Decoder) End() error {
	if d.err == nil && len(d.b) > 0 {
		d.err = d.bad
	}
	return d.err
}

// Uint reads an unsigned varint.
func (d *Decoder) Uint() uint64 {
	if d.err != nil {
		return 0
	}
	v, n := Uvarint(d.b)
	if n <= 0 {
		d.err = d.bad
		return 0
	}
	d.b = d.b[n:]
	return v
}

// Int reads a signed varint (binary.AppendVarint's zig-zag).
func (d *Decoder) Int() int64 {
	ux := d.Uint()
	v := int64(ux >> 1)
	if ux&1 != 0 {
		v = ^v
	}
	return v
}

// Len reads a length stored plus one, and whether it is nil.
func (d *Decoder) Len() (int, bool) {
	n := d.Uint()
	if d.err == nil && n > uint64(len(d.b))+1 {
		d.err = d.bad // every element takes a byte at least
	}
	if n == 0 || d.err != nil {
		return 0, true
	}
	return int(n - 1), false
}

// Str reads a string.
func (d *Decoder) Str() string {
	n := d.Uint()
	if d.err != nil || n > uint64(len(d.b)) {
		d.err = d.bad
		return ""
	}
	s := d.b[:n]
	d.b = d.b[n:]
	return s
}

// Bool reads a bool.
func (d *Decoder) Bool() bool { return d.Uint() == 1 }

// Strs reads a list of strings.
func (d *Decoder) Strs() []string {
	n, isNil := d.Len()
	if isNil {
		return nil
	}
	out := make([]string, 0, n)
	for range n {
		out = append(out, d.Str())
	}
	return out
}

// Set reads a set.
func (d *Decoder) Set() map[string]bool {
	n, isNil := d.Len()
	if isNil {
		return nil
	}
	m := make(map[string]bool, n)
	for range n {
		k := d.Str()
		m[k] = d.Bool()
	}
	return m
}

// Map reads a map of strings.
func (d *Decoder) Map() map[string]string {
	n, isNil := d.Len()
	if isNil {
		return nil
	}
	m := make(map[string]string, n)
	for range n {
		k := d.Str()
		m[k] = d.Str()
	}
	return m
}

// Sets reads a list of sets.
func (d *Decoder) Sets() []map[string]bool {
	n, isNil := d.Len()
	if isNil {
		return nil
	}
	out := make([]map[string]bool, 0, n)
	for range n {
		out = append(out, d.Set())
	}
	return out
}
