package retire

import (
	"reflect"
	"slices"
	"testing"

	"github.com/cairn-mem/cairn/internal/digest"
)

// readingCorpus are statements that give the retirer something to read:
// changes, settings, versions, quantities, removals, names and claims.
var readingCorpus = []string{
	"Tests run with `cargo nextest run` now instead of `cargo test --workspace`.",
	"With the lab additions, 424 of the 430 codes translate.",
	"The billing worker now listens on port 7171 instead of 7070, since the proxy took it.",
	"The billing worker listens on port 7070 behind the proxy.",
	"115200 is a bottleneck, move the link to 921600.",
	"Hilt is out; we ripped out `node-fetch` too.",
	"The MSRV is now 1.80.",
	"Our MSRV is 1.74.",
	"Vulkan is installed under /opt/vulkan/1.3.280 on the build box.",
	"The SDK moved to /opt/vulkan/1.4.304.",
	"The profile lakehouse-stg is lakehouse-stg2 now.",
	"Use the lakehouse-stg profile for the nightly jobs.",
	"Cut the pool to 6.",
	"maximumPoolSize is 10 in the datasource config.",
	"db03 is still on CentOS 7.",
	"Set `retry_after` to 300 in config/queue.php.",
	"keep it on",
	"compile is off again",
	"The Gradle toolchain with Java 17 builds the app.",
	"The toolchain is Java 21 now.",
	"The cache holds 500 MB; raised it to 2 GB.",
	"We're off the compose Kafka.",
	"Deploy with `fly deploy` from main.",
	"The API base URL is https://api.example.com/v2.",
	"The session timeout is 30 minutes.",
	"Change of plan on updates: let's move to RAUC bundles.",
	"Run the specs with mini.test instead.",
	"After the upgrade the import is BILL_YYYYMM.csv instead of the fixed-width file.",
	"ExactMinutes.kt replaces the quarter-hour rounding in the pipeline.",
}

func corpusStatements() []Statement {
	var stmts []Statement
	for i, s := range readingCorpus {
		stmts = append(stmts, Statement{Text: s, Rank: i % 5})
	}
	for _, f := range append(slices.Clone(filler), moreFiller...) {
		stmts = append(stmts, Statement{Text: f, Rank: 6})
	}
	return stmts
}

// The readings a cache gives back are the readings themselves, nil and
// empty told apart, whatever part of them was read.
func TestReadingsRoundTrip(t *testing.T) {
	stmts := corpusStatements()
	sums := []*digest.Summary{{Parts: [digest.NumParts][]string{digest.Request: {"Move the worker off port 7070?"}, digest.Outcome: {"The worker listens on 7171 now."}}}}
	rd, err := ParseReadings(nil)
	if err != nil {
		t.Fatal(err)
	}
	r := NewWith(rd, stmts, sums)
	for i := range r.stmts {
		if i%3 != 2 { // some read, some with a claim, some neither
			r.stmts[i].read()
		}
		if i%2 == 0 {
			r.stmts[i].factClaim()
		}
	}
	var change, plan, quantities, removed, named, values, bare, fractions, insteadOf, files bool
	for _, st := range r.stmts {
		fractions, insteadOf = fractions || len(st.fractions) > 0, insteadOf || len(st.insteadOf) > 0
		files = files || len(st.files) > 0
		change, quantities, removed = change || st.change != nil, quantities || len(st.quantities) > 0, removed || len(st.removed) > 0
		plan = plan || st.change != nil && st.change.Plan
		named, bare = named || len(st.named) > 0, bare || len(st.bare) > 0
		values = values || st.claim != nil && len(st.claim.Values) > 0
	}
	if !change || !plan || !quantities || !removed || !named || !values || !bare || !fractions || !insteadOf || !files {
		t.Fatalf("the corpus reads no change %v, change of plan %v, quantity %v, removal %v, name %v, claimed value %v, bare setting %v, fraction %v, code replaced %v or file named %v", change, plan, quantities, removed, named, values, bare, fractions, insteadOf, files)
	}
	if !rd.Keep(r) {
		t.Fatal("Keep: nothing new in an empty cache")
	}
	data := rd.Encode()
	rd2, err := ParseReadings(data)
	if err != nil {
		t.Fatal(err)
	}
	r2 := NewWith(rd2, stmts, sums)
	if !reflect.DeepEqual(r.stmts, r2.stmts) {
		for i := range r.stmts {
			if !reflect.DeepEqual(r.stmts[i], r2.stmts[i]) {
				t.Errorf("statement %d %q:\nread   %#v\ncached %#v", i, r.stmts[i].Text, r.stmts[i], r2.stmts[i])
			}
		}
	}
	if rd2.Keep(r2) {
		t.Error("Keep: the cache held everything, and says it grew")
	}
	if got := rd2.Encode(); !slices.Equal(got, data) {
		t.Error("the same readings encode otherwise")
	}
	// Reading more than the cache held makes it grow.
	rd3, _ := ParseReadings(data)
	r3 := NewWith(rd3, stmts, sums)
	for i := range r3.stmts {
		r3.stmts[i].read()
	}
	if !rd3.Keep(r3) {
		t.Error("Keep: statements read beyond the cache, and it says it did not grow")
	}
	for _, cut := range []int{1, len(data) / 2, len(data) - 1} {
		if _, err := ParseReadings(data[:cut]); err == nil {
			// A cut inside a record's body parses and fails when that
			// reading is decoded: it is read again.
			rd4, _ := ParseReadings(data[:cut])
			r4 := NewWith(rd4, stmts, sums)
			for i := range r4.stmts {
				if !reflect.DeepEqual(r4.stmts[i].keys, r.stmts[i].keys) {
					t.Errorf("cut at %d: statement %d keys %v, want %v", cut, i, r4.stmts[i].keys, r.stmts[i].keys)
				}
			}
		}
	}
}

// A reading that does not decode is read again, and none panics. (One
// damaged so that it still decodes is caught by the checksum of the file
// that holds it, package recall/derived.)
func TestReadingsDamaged(t *testing.T) {
	stmts := corpusStatements()
	rd, _ := ParseReadings(nil)
	r := NewWith(rd, stmts, nil)
	for i := range r.stmts {
		r.stmts[i].read()
		r.stmts[i].factClaim()
	}
	rd.Keep(r)
	data := rd.Encode()
	for i := 0; i < len(data); i += 5 {
		bad := slices.Clone(data)
		bad[i] ^= 0x5a
		rd, err := ParseReadings(bad)
		if err != nil {
			continue
		}
		got := NewWith(rd, stmts, nil)
		for j := range got.stmts {
			if st := &got.stmts[j]; st.keys == nil {
				t.Fatalf("byte %d flipped: statement %d has no keys", i, j)
			}
		}
	}
}

// A retirer that takes its readings from a cache answers as one that
// reads every text.
func TestReadingsSameAnswers(t *testing.T) {
	stmts := corpusStatements()
	rd, _ := ParseReadings(nil)
	warm := NewWith(rd, stmts, nil)
	for i := range warm.stmts {
		warm.stmts[i].read()
		warm.stmts[i].factClaim()
	}
	rd.Keep(warm)
	cached, err := ParseReadings(rd.Encode())
	if err != nil {
		t.Fatal(err)
	}
	plain, fromCache := New(stmts, nil), NewWith(cached, stmts, nil)
	n := 0
	for _, x := range readingCorpus {
		for rank := range 7 {
			a, b := plain.Retired(x, rank), fromCache.Retired(x, rank)
			if a != b {
				t.Errorf("Retired(%q, %d): read %v, cached %v", x, rank, a, b)
			}
			if a {
				n++
			}
			if a, b := plain.DropRetired(x, rank), fromCache.DropRetired(x, rank); a != b {
				t.Errorf("DropRetired(%q, %d): read %q, cached %q", x, rank, a, b)
			}
		}
	}
	if n == 0 {
		t.Error("nothing retired: the corpus tests nothing")
	}
}
