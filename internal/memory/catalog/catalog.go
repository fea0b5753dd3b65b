package catalog

import (
	"bytes"
	"crypto/sha1"
	"encoding/hex"
	"errors"
	"fmt"
	"maps"
	"path"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/cairn-mem/cairn/internal/model"
	"github.com/cairn-mem/cairn/internal/safefile"
)

// Type says what a described file is.
type Type byte

// The types of a Row.
const (
	Other   Type = 'n' // neither an item nor a session's state: a log, a summary without front matter
	Item    Type = 'i' // an item that parses
	Broken  Type = 'e' // an item file that does not parse
	Session Type = 's' // a session's session.yaml
)

// Row describes one file.
type Row struct {
	Path  string
	Type  Type
	Blob  string // the git blob id of the content described
	Size  int64
	MTime int64 // the file's modification time in nanoseconds; 0 when described from history

	// Of an Item; Title, Created and Updated of a Session as well (its
	// title, start and last update).
	ID, Kind, Title    string
	Tags               []string
	Session            string
	Supersedes         string // the id of the item this one replaced
	Created, Updated   time.Time
	Importance, Confid float64
	Pinned             bool
	Schema             int

	Status   string    // a Session's status
	Activity time.Time // a Session's last activity

	Line int    // where a Broken item fails to parse, 0 if unknown
	Err  string // why
}

// Relevant reports whether the file at repository path p is described:
// Markdown files (items, summaries, logs) and sessions' session.yaml.
func Relevant(p string) bool {
	base := path.Base(p)
	if strings.HasPrefix(base, ".") {
		return false
	}
	return strings.HasSuffix(base, ".md") || base == model.SessionFile
}

// BlobID is the git object id of a blob holding data.
func BlobID(data []byte) string {
	h := sha1.New()
	fmt.Fprintf(h, "blob %d\x00", len(data))
	h.Write(data)
	return hex.EncodeToString(h.Sum(nil))
}

// Describe reads the file at repository path p holding data. Outside
// core/ a Markdown file is an item only when it opens with front matter,
// as List has always had it.
func Describe(p string, data []byte) *Row {
	r := &Row{Path: p, Type: Other, Blob: BlobID(data), Size: int64(len(data))}
	if path.Base(p) == model.SessionFile {
		if s, err := model.ParseSession(p, data); err == nil {
			r.Type, r.Title, r.Status = Session, s.Title, string(s.Status)
			r.Created, r.Updated, r.Activity = s.Started, s.Updated, s.LastActivity
		}
		return r
	}
	if !strings.HasSuffix(p, ".md") || (!strings.HasPrefix(p, "core/") && !bytes.HasPrefix(data, []byte("---"))) {
		return r
	}
	var it *model.Item
	var err error
	if len(data) > describeHead {
		// What a row says is in the front matter and the body's first
		// line: a file of megabytes parsed whole cost a pack after a
		// checkpoint its length several times over. A head that does
		// not parse (front matter longer than it) is parsed whole, for
		// the error's line.
		head := headOf(data, describeHead)
		if it, err = model.Parse(p, head); err != nil {
			it, err = model.Parse(p, data)
		} else {
			data = head
		}
	} else {
		it, err = model.Parse(p, data)
	}
	if err != nil {
		r.Type, r.Err = Broken, err.Error()
		if pe, ok := errors.AsType[*model.ParseError](err); ok {
			r.Line, r.Err = pe.Line, pe.Err.Error()
		}
		return r
	}
	r.Type = Item
	r.ID, r.Kind, r.Title, r.Tags, r.Session = it.ID, string(it.Kind), it.Title, it.Tags, it.Session
	r.Created, r.Updated, r.Importance, r.Confid = it.Created, it.Updated, it.Importance, it.Confidence
	r.Pinned, r.Schema = it.Pinned, it.Schema
	// Parse keeps unknown keys to itself: look for the line.
	text := strings.TrimPrefix(string(data), "\uFEFF")
	if _, after, ok := strings.Cut(text, "\n"+model.KeySupersedes+":"); ok {
		val, _, _ := strings.Cut(after, "\n")
		r.Supersedes = strings.ToUpper(strings.Trim(strings.TrimSpace(val), `'"`))
	}
	return r
}

// describeHead is the most of a large item file Describe parses.
const describeHead = 256 << 10

// headOf returns data's first n bytes at most, cut after a line's end
// in their second half, else before a rune's start (inside a line longer
// than that: a title made of it is cut far shorter).
func headOf(data []byte, n int) []byte {
	head := data[:n]
	if i := bytes.LastIndexByte(head, '\n'); i >= n/2 {
		return head[:i+1]
	}
	for n > 0 && !utf8.RuneStart(data[n]) {
		n--
	}
	return data[:n]
}

// Entry is the item an Item row describes, without its body.
func (r *Row) Entry() model.Entry {
	it := &model.Item{
		ID: r.ID, Kind: model.Kind(r.Kind), Title: r.Title, Importance: r.Importance, Confidence: r.Confid,
		Tags: r.Tags, Session: r.Session, Created: r.Created, Updated: r.Updated, Pinned: r.Pinned, Schema: r.Schema,
	}
	return model.Entry{Item: it, Path: r.Path, Layer: model.LayerOf(r.Path)}
}

// ParseError is why a Broken row's file does not parse.
func (r *Row) ParseError() error {
	return &model.ParseError{Path: r.Path, Line: r.Line, Err: errors.New(r.Err)}
}

// Part is the description of the files under one folder of the memory.
type Part struct {
	Root   string // core, sessions or archive
	Commit string // the commit the rows were last brought up to
	Tree   string // Root's tree id at Commit; "" when it had none
	// Written is when the rows' times were taken (Unix nanoseconds): a
	// file changed within a second of it may have the same time and size
	// after the change, so it is read again (git's racy clean).
	Written int64
	Rows    map[string]*Row
	// Dirs are the folders under Root (Root too) with the modification
	// time each had when its files were last listed, 0 when that listing
	// is not to be trusted (see Keeper.worktreePart).
	Dirs map[string]int64
	// DirsTaken is when the folders' times were last taken, when later
	// than Written: a read that listed a folder again and changed no row
	// writes the folders' times alone, with their own time.
	DirsTaken int64
	// sorted are rows in path order, for Sorted: those Read found, kept
	// by the copies of the part as the order of the rows they still hold.
	// A file is written in path order. Never changed after Read.
	sorted []*Row
	// lines are the rows Read made, each with the line it read: Write
	// copies the line of a row still there rather than formatting it
	// again (a row is never changed in place, only replaced), so writing
	// a part of 5,000 core items back costs what changed in it. Shared
	// by the copies of a part; never changed after Read.
	lines map[*Row]string
}

// NewPart returns an empty Part of root.
func NewPart(root string) *Part {
	return &Part{Root: root, Rows: make(map[string]*Row), Dirs: make(map[string]int64)}
}

// Racy reports whether a file's time and size are too close to when they
// were taken to tell a change from none.
func (p *Part) Racy(r *Row) bool { return r.MTime == 0 || r.MTime >= p.Written-int64(time.Second) }

// RacyDir reports whether folder time t is within a second of when the
// folders' times were taken: its listing is not trusted, as a racy row.
func (p *Part) RacyDir(t int64) bool { return t >= max(p.Written, p.DirsTaken)-int64(time.Second) }

// Sorted returns the rows in path order.
//
// Sorting 5,000 paths that share long prefixes costs more than looking
// each up: when p.sorted holds (this part's rows as read, or those of the
// part it was copied from, in path order), the rows still there are taken
// in its order, current, and the few added since are sorted and merged in.
func (p *Part) Sorted() []*Row {
	if p.sorted == nil {
		return sortRows(slices.Collect(maps.Values(p.Rows)))
	}
	out := make([]*Row, 0, len(p.Rows))
	for _, r := range p.sorted {
		if c := p.Rows[r.Path]; c != nil {
			out = append(out, c)
		}
	}
	if len(out) == len(p.Rows) {
		return out
	}
	had := make(map[string]bool, len(out))
	for _, r := range out {
		had[r.Path] = true
	}
	var added []*Row
	for path, r := range p.Rows {
		if !had[path] {
			added = append(added, r)
		}
	}
	sortRows(added)
	merged := make([]*Row, 0, len(p.Rows))
	i, j := 0, 0
	for i < len(out) && j < len(added) {
		if added[j].Path < out[i].Path {
			merged = append(merged, added[j])
			j++
		} else {
			merged = append(merged, out[i])
			i++
		}
	}
	merged = append(merged, out[i:]...)
	return append(merged, added[j:]...)
}

// sortRows sorts rows by path, and returns them.
func sortRows(rows []*Row) []*Row {
	sort.Slice(rows, func(i, j int) bool { return rows[i].Path < rows[j].Path })
	return rows
}

// The file format: a first line "cairn-catalog 1 ROOT COMMIT TREE
// WRITTEN" ("-" for an empty tree), then a line per row of
// tab-separated fields (see appendRow), then "end N" with the number of
// rows, so that a truncated file is told from a short one.
//
// The folders' times are kept beside it, in a file of the same name
// ending in ".dirs" (see DirsName): "cairn-catalog-dirs 1 ROOT COMMIT
// WRITTEN [TAKEN]" (TAKEN when the times were taken after the part was
// written: DirsTaken), a line "PATH\tMTIME" per folder, and "end N". They count
// only for the part of the same first line: a binary that knows nothing
// of them rewrites the part, and they are not read.
const (
	magic     = "cairn-catalog 1 "
	dirsMagic = "cairn-catalog-dirs 1 "
)

// DirsName is the name of the folders' times kept beside the part in
// the file name.
func DirsName(name string) string { return name + ".dirs" }

// ErrDamaged says a catalogue file is not one this version wrote whole.
var ErrDamaged = errors.New("damaged catalogue")

// Write stores p in the file name, atomically, readable by its owner only.
func (p *Part) Write(name string) error {
	tree := p.Tree
	if tree == "" {
		tree = "-"
	}
	b := make([]byte, 0, 64+256*(len(p.Rows)+len(p.Dirs)))
	b = fmt.Appendf(b, "%s%s %s %s %d\n", magic, p.Root, p.Commit, tree, p.Written)
	rows := p.Sorted()
	for _, r := range rows {
		if line, ok := p.lines[r]; ok {
			b = append(b, line...)
			b = append(b, '\n')
			continue
		}
		b = appendRow(b, r)
	}
	b = fmt.Appendf(b, "end %d\n", len(rows))
	if err := safefile.WriteSync(name, b, 0o600, safefile.SyncNone); err != nil {
		return err
	}
	// After the part: folders' times beside a part they were not taken
	// with never count.
	return p.WriteDirs(name)
}

// WriteDirs stores p's folders' times beside its file name, for the
// part written there with p's commit and time.
func (p *Part) WriteDirs(name string) error {
	b := make([]byte, 0, 64+64*len(p.Dirs))
	b = fmt.Appendf(b, "%s%s %s %d", dirsMagic, p.Root, p.Commit, p.Written)
	if p.DirsTaken > p.Written {
		b = fmt.Appendf(b, " %d", p.DirsTaken)
	}
	b = append(b, '\n')
	dirs := slices.Sorted(maps.Keys(p.Dirs))
	for _, d := range dirs {
		b = fmt.Appendf(b, "%s\t%d\n", escape(d), p.Dirs[d])
	}
	b = fmt.Appendf(b, "end %d\n", len(dirs))
	return safefile.WriteSync(DirsName(name), b, 0o600, safefile.SyncNone)
}

// ReadDirs sets p.Dirs from data, the content of the folders' times kept
// beside p's file, when they were written with p; else it leaves them
// empty, and the folders are listed again.
func (p *Part) ReadDirs(data []byte) {
	p.Dirs = make(map[string]int64)
	head, rest, ok := strings.Cut(string(data), "\n")
	taken, ok2 := strings.CutPrefix(head, fmt.Sprintf("%s%s %s %d", dirsMagic, p.Root, p.Commit, p.Written))
	if !ok || !ok2 {
		return
	}
	var when int64
	if taken != "" {
		t, err := strconv.ParseInt(strings.TrimPrefix(taken, " "), 10, 64)
		if err != nil || taken[0] != ' ' || t <= p.Written {
			return
		}
		when = t
	}
	dirs := make(map[string]int64)
	for len(rest) > 0 {
		line, more, ok := strings.Cut(rest, "\n")
		if !ok {
			return
		}
		rest = more
		if n, isEnd := strings.CutPrefix(line, "end "); isEnd {
			if rest == "" && n == strconv.Itoa(len(dirs)) {
				p.Dirs, p.DirsTaken = dirs, when
			}
			return
		}
		name, t, _ := strings.Cut(line, "\t")
		mtime, err := strconv.ParseInt(t, 10, 64)
		if err != nil {
			return
		}
		dirs[unescape(name)] = mtime
	}
}

// Fields are escaped so that any text makes the round trip: a tab, a
// line break or the tags' separator (\x1f) never ends up in one.
var (
	esc   = strings.NewReplacer(`\`, `\\`, "\t", `\t`, "\n", `\n`, "\r", `\r`, "\x1f", `\u`)
	unesc = strings.NewReplacer(`\\`, `\`, `\t`, "\t", `\n`, "\n", `\r`, "\r", `\u`, "\x1f")
)

// escape and unescape leave a field with nothing to escape as it is:
// most are, and a Replacer copies each (5,000 rows of 17 fields at
// 100,000 files).
func escape(s string) string {
	for i := range len(s) {
		if c := s[i]; c == '\\' || c == '\t' || c == '\n' || c == '\r' || c == '\x1f' {
			return esc.Replace(s)
		}
	}
	return s
}

func unescape(s string) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	return unesc.Replace(s)
}

// appendRow appends r's line to b.
func appendRow(b []byte, r *Row) []byte {
	b = append(b, escape(r.Path)...)
	b = append(b, '\t', byte(r.Type), '\t')
	b = append(b, r.Blob...)
	b = append(b, '\t')
	b = strconv.AppendInt(b, r.Size, 10)
	b = append(b, '\t')
	b = strconv.AppendInt(b, r.MTime, 10)
	field := func(s string) {
		b = append(b, '\t')
		b = append(b, escape(s)...)
	}
	stamp := func(t time.Time) {
		b = append(b, '\t')
		if !t.IsZero() {
			b = t.AppendFormat(b, time.RFC3339Nano)
		}
	}
	switch r.Type {
	case Item:
		field(r.ID)
		field(r.Kind)
		field(r.Title)
		b = append(b, '\t')
		for i, t := range r.Tags {
			if i > 0 {
				b = append(b, '\x1f')
			}
			b = append(b, escape(t)...)
		}
		field(r.Session)
		field(r.Supersedes)
		stamp(r.Created)
		stamp(r.Updated)
		b = append(b, '\t')
		b = strconv.AppendFloat(b, r.Importance, 'g', -1, 64)
		b = append(b, '\t')
		b = strconv.AppendFloat(b, r.Confid, 'g', -1, 64)
		field(bit(r.Pinned))
		b = append(b, '\t')
		b = strconv.AppendInt(b, int64(r.Schema), 10)
	case Broken:
		b = append(b, '\t')
		b = strconv.AppendInt(b, int64(r.Line), 10)
		field(r.Err)
	case Session:
		field(r.Title)
		field(r.Status)
		stamp(r.Created)
		stamp(r.Updated)
		stamp(r.Activity)
	}
	return append(b, '\n')
}

// Read loads the Part stored in data (a file's content).
func Read(data []byte) (*Part, error) {
	text := string(data)
	first, rest, ok := strings.Cut(text, "\n")
	head, found := strings.CutPrefix(first, magic)
	h := strings.Fields(head)
	if !ok || !found || len(h) != 4 {
		return nil, fmt.Errorf("%w: bad first line", ErrDamaged)
	}
	written, err := strconv.ParseInt(h[3], 10, 64)
	if err != nil {
		return nil, fmt.Errorf("%w: bad first line", ErrDamaged)
	}
	// Sized for the rows the file holds, which are made in one slab: at
	// 100,000 files the core part has 5,000, read at every pack.
	n := strings.Count(rest, "\n")
	p := &Part{Root: h[0], Commit: h[1], Tree: h[2], Written: written, Rows: make(map[string]*Row, n), Dirs: make(map[string]int64), sorted: make([]*Row, 0, n), lines: make(map[*Row]string, n)}
	if p.Tree == "-" {
		p.Tree = ""
	}
	slab := make([]Row, n)
	for len(rest) > 0 {
		line, more, ok := strings.Cut(rest, "\n")
		if !ok {
			return nil, fmt.Errorf("%w: truncated", ErrDamaged)
		}
		rest = more
		if n, isEnd := strings.CutPrefix(line, "end "); isEnd {
			if rest != "" || n != strconv.Itoa(len(p.Rows)) {
				return nil, fmt.Errorf("%w: %s rows announced, %d read", ErrDamaged, n, len(p.Rows))
			}
			return p, nil
		}
		r := &slab[0]
		slab = slab[1:]
		err := parseRowInto(r, line)
		if err != nil {
			return nil, fmt.Errorf("%w: %v", ErrDamaged, err)
		}
		if p.sorted != nil && (len(p.sorted) == 0 || p.sorted[len(p.sorted)-1].Path < r.Path) {
			p.sorted = append(p.sorted, r)
		} else {
			p.sorted = nil // not in order: Sorted sorts
		}
		p.Rows[r.Path] = r
		p.lines[r] = line
	}
	return nil, fmt.Errorf("%w: truncated", ErrDamaged)
}

// maxFields is the most fields a row has (an Item's).
const maxFields = 17

// parseRowInto reads a row's line into r, a zero Row, without
// allocating its list of fields.
func parseRowInto(r *Row, line string) error {
	var fields [maxFields + 1]string
	f := fields[:0]
	for rest := line; ; {
		if len(f) == len(fields) {
			return fmt.Errorf("bad row %.40q", line)
		}
		i := strings.IndexByte(rest, '\t')
		if i < 0 {
			f = append(f, rest)
			break
		}
		f = append(f, rest[:i])
		rest = rest[i+1:]
	}
	if len(f) < 5 || len(f[1]) != 1 {
		return fmt.Errorf("bad row %.40q", line)
	}
	r.Path, r.Type, r.Blob = unescape(f[0]), Type(f[1][0]), f[2]
	var errs []error
	r.Size, errs = parseInt(f[3], errs)
	r.MTime, errs = parseInt(f[4], errs)
	want := 0
	switch r.Type {
	case Other:
		want = 5
	case Item:
		want = 17
	case Broken:
		want = 7
	case Session:
		want = 10
	}
	if want == 0 || len(f) != want {
		return fmt.Errorf("bad row %.40q", line)
	}
	switch r.Type {
	case Item:
		r.ID, r.Kind, r.Title, r.Session, r.Supersedes = unescape(f[5]), unescape(f[6]), unescape(f[7]), unescape(f[9]), unescape(f[10])
		if f[8] != "" {
			r.Tags = strings.Split(f[8], "\x1f")
			for i, t := range r.Tags {
				r.Tags[i] = unescape(t)
			}
		}
		r.Created, errs = parseStamp(f[11], errs)
		r.Updated, errs = parseStamp(f[12], errs)
		r.Importance, errs = parseNum(f[13], errs)
		r.Confid, errs = parseNum(f[14], errs)
		r.Pinned = f[15] == "1"
		var schema int64
		schema, errs = parseInt(f[16], errs)
		r.Schema = int(schema)
	case Broken:
		var line int64
		line, errs = parseInt(f[5], errs)
		r.Line, r.Err = int(line), unescape(f[6])
	case Session:
		r.Title, r.Status = unescape(f[5]), unescape(f[6])
		r.Created, errs = parseStamp(f[7], errs)
		r.Updated, errs = parseStamp(f[8], errs)
		r.Activity, errs = parseStamp(f[9], errs)
	}
	if len(errs) > 0 {
		return fmt.Errorf("row %.40q: %w", line, errors.Join(errs...))
	}
	return nil
}

func parseStamp(s string, errs []error) (time.Time, []error) {
	if s == "" {
		return time.Time{}, errs
	}
	t, err := time.Parse(time.RFC3339Nano, s)
	if err != nil {
		errs = append(errs, err)
	}
	return t, errs
}

func parseNum(s string, errs []error) (float64, []error) {
	f, err := strconv.ParseFloat(s, 64)
	if err != nil {
		errs = append(errs, err)
	}
	return f, errs
}

func parseInt(s string, errs []error) (int64, []error) {
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil {
		errs = append(errs, err)
	}
	return n, errs
}

func bit(b bool) string {
	if b {
		return "1"
	}
	return "0"
}
