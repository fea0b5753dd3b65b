package model

import (
	"crypto/rand"
	"strings"
	"time"

	"github.com/oklog/ulid/v2"
)

// idLen is the length of an item id: a ULID in Crockford base32.
const idLen = ulid.EncodedSize

// NewID returns a new item id for time t: a ULID, 26 upper-case characters
// of Crockford base32 whose first ten encode t in milliseconds, so ids sort
// by creation time. The other 80 bits come from crypto/rand, which makes ids
// unique across processes and machines without coordination; two ids made
// in the same millisecond sort in no particular order.
//
// Times before 1970 or after the year 10889 are clamped to the range a ULID
// can hold.
func NewID(t time.Time) string {
	var ms uint64
	switch {
	case t.Before(time.UnixMilli(0)):
	case t.After(ulid.Time(ulid.MaxTime())):
		ms = ulid.MaxTime()
	default:
		ms = ulid.Timestamp(t)
	}
	// ulid.New fails only for a time past MaxTime or an entropy error, and
	// crypto/rand does not return errors.
	return ulid.MustNew(ms, rand.Reader).String()
}

// ValidID reports whether s is an item id in canonical form: a ULID of 26
// upper-case Crockford base32 characters. Ids read from files are upper-cased
// before they are checked, so a hand-written lower-case id is accepted there.
func ValidID(s string) bool {
	if len(s) != idLen || strings.ToUpper(s) != s {
		return false
	}
	_, err := ulid.ParseStrict(s)
	return err == nil
}

// idTime returns the creation time recorded in a valid id, to the second.
func idTime(id string) (time.Time, bool) {
	u, err := ulid.ParseStrict(id)
	if err != nil {
		return time.Time{}, false
	}
	return ulid.Time(u.Time()).UTC().Truncate(time.Second), true
}

// IDFromPath returns the id in the name of an item file, "<slug>--<ID>.md"
// (or "<ID>.md"), in canonical upper case. Directories in p, with either
// slash, are ignored. ok is false when the name does not end in a valid id
// followed by ".md".
func IDFromPath(p string) (id string, ok bool) {
	name := p[strings.LastIndexAny(p, `/\`)+1:]
	name, ok = strings.CutSuffix(name, ".md")
	if !ok {
		return "", false
	}
	if i := strings.LastIndex(name, "--"); i >= 0 {
		name = name[i+2:]
	}
	id = strings.ToUpper(name)
	if !ValidID(id) {
		return "", false
	}
	return id, true
}
