package indexer

import (
	"bufio"
	"context"
	"fmt"
	"io/fs"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/blevesearch/bleve/v2"
	bsearch "github.com/blevesearch/bleve/v2/search"
	"github.com/blevesearch/bleve/v2/search/query"
	"github.com/cairn-mem/cairn/indexer/embed"
	"github.com/cairn-mem/cairn/indexer/snippet"
	"github.com/cairn-mem/cairn/indexer/vecstore"
)

// Mode says which rankings a search uses.
type Mode string

const (
	Hybrid  Mode = "hybrid"  // keyword and vector, fused
	Keyword Mode = "keyword" // BM25 only
	Vector  Mode = "vector"  // cosine similarity only
)

// ParseMode turns "hybrid", "keyword" or "vector" ("" is hybrid) into a
// Mode.
func ParseMode(s string) (Mode, error) {
	switch m := Mode(strings.ToLower(strings.TrimSpace(s))); m {
	case "":
		return Hybrid, nil
	case Hybrid, Keyword, Vector:
		return m, nil
	}
	return "", fmt.Errorf("unknown search mode %q (want hybrid, keyword or vector)", s)
}

// Limits on queries: longer text is cut, more distinct terms are dropped.
const (
	maxQueryBytes = 4096
	maxQueryTerms = 64
	maxK          = 1000
	titleBoost    = 2.0
)

// Query is a search. Filters combine with AND; an empty filter passes all.
type Query struct {
	Text string
	Mode Mode // "" is Hybrid
	K    int  // hits wanted; 0 means 10
	// Candidates is how many hits each ranking contributes to the fusion;
	// 0 means max(5*K, 50).
	Candidates int
	// VectorWeight is the weight of the vector ranking in a hybrid
	// search's fusion, the keyword ranking's being 1: how much the
	// embedder is trusted against BM25. 0 means 1.
	VectorWeight float64

	Kinds   []string  // any of
	Layers  []string  // any of
	Session string    // exactly
	Tags    []string  // all of
	Since   time.Time // created at or after
	Until   time.Time // created before

	// Related are words the keyword ranking adds to the query's, each at
	// its Weight against a query word's 1: terms as Terms gives them,
	// words the memory says go with the query's (a gap of vocabulary
	// closed). They reorder the chunks that hold a word of the query,
	// adding to a chunk at most the largest Weight times the best score
	// the query's own words give any chunk: they never outweigh those
	// words, and never bring a chunk that holds none of them.
	Related []Term

	// NoHitText leaves the hits' Text and Snippet empty even with
	// Options.Source, for a caller that reorders the hits and shows only
	// some: FillText fills those (reading and analysing every candidate's
	// file was most of such a search's time).
	NoHitText bool
}

// A Term is an analysed word with a weight.
type Term struct {
	Text   string
	Weight float64
}

// A Hit is a chunk that matched, with what the caller needs to show and
// rerank it.
type Hit struct {
	ID                 string // Path#Seq
	Path               string
	Seq                int
	StartLine, EndLine int // 1-based, inclusive, in the file
	StartCol, EndCol   int // byte offsets in StartLine and EndLine
	Tokens             int // EstimateTokens of the chunk, with its Header

	Title, Kind, Layer, Session string
	// Header is the document's line that heads the chunk (Document.Header),
	// "" if it had none; Text starts with it.
	Header           string
	Tags             []string
	Created, Updated time.Time // zero if the document had none
	Importance       float64

	// KeywordScore is the BM25 score and KeywordRank the 1-based rank in
	// the keyword ranking (0: not in it); likewise VectorScore (cosine
	// similarity, -1..1, of the query and the chunk's int8 codes) and
	// VectorRank.
	KeywordScore float64
	KeywordRank  int
	VectorScore  float64
	VectorRank   int
	// Score is the reciprocal rank fusion: the sum of 1/(RRFK+rank) over
	// the rankings the hit is in, the vector ranking's times
	// Query.VectorWeight. Relevance is Score divided by the best
	// possible (first in every ranking used), so it lies in (0, 1].
	Score     float64
	Relevance float64

	// Text is the chunk as the file has it now, after its Header line if
	// it has one, and Snippet a part of it
	// (about 240 characters, whitespace collapsed) with the words that
	// matched the query marked «like this». Both are empty without
	// Options.Source, with Query.NoHitText (until FillText) or if the
	// file cannot be read; Stale says the file changed since it was
	// indexed (Text is then what the lines hold now).
	Text    string
	Snippet string
	Stale   bool
}

// Results are a search's hits, best first.
type Results struct {
	Hits []Hit
	// VectorErr is set when a hybrid search could not embed the query and
	// used keywords alone.
	VectorErr error
}

// Search runs q. Text that is empty or only stop words finds nothing;
// query syntax is not interpreted (every word is just a word).
func (ix *Index) Search(ctx context.Context, q Query) (Results, error) {
	mode := q.Mode
	if mode == "" {
		mode = Hybrid
	}
	if _, err := ParseMode(string(mode)); err != nil {
		return Results{}, err
	}
	k := q.K
	if k <= 0 {
		k = 10
	}
	k = min(k, maxK)
	n := q.Candidates
	if n <= 0 {
		n = max(5*k, 50)
	}
	text := cleanQuery(q.Text)
	vw := q.VectorWeight
	if vw <= 0 {
		vw = 1
	}

	// Embed before taking the lock: it may be a network call.
	var (
		qvec []float32
		res  Results
	)
	if mode != Keyword && strings.TrimSpace(text) != "" {
		vs, err := ix.embedder.Embed(ctx, []string{text})
		if err == nil && (len(vs) != 1 || len(vs[0]) != ix.embedder.Dim()) {
			err = fmt.Errorf("embedder %s returned a vector of the wrong size", ix.embedder.Name())
		}
		switch {
		case err != nil && mode == Vector:
			return Results{}, fmt.Errorf("search: %w", err)
		case err != nil:
			res.VectorErr = err
		default:
			qvec = append([]float32(nil), vs[0]...)
			embed.Normalize(qvec)
		}
	}

	ix.mu.RLock()
	defer ix.mu.RUnlock()
	if ix.closed {
		return Results{}, ErrClosed
	}
	terms := ix.terms(text)
	kwTerms := terms[:min(len(terms), maxQueryTerms)]

	// The vector scan runs alongside the keyword search (each is about
	// half of a hybrid search's time). Candidates are kept by slot, and
	// only the k that are returned become Hits.
	var (
		vec  []vecstore.Scored
		wg   sync.WaitGroup
		fuse = make(map[int]*fused)
	)
	// best is the fused score of a hit first in every ranking used.
	best := 0.0
	if mode != Keyword && res.VectorErr == nil {
		best += vw
		if qvec != nil && !isZero(qvec) {
			// The vectors are read on first use; damage in them shows
			// here, as ErrNeedsRebuild.
			if err := ix.vecErr(ix.vecs.Materialize()); err != nil {
				return Results{}, fmt.Errorf("search: %w", err)
			}
			keep := filter(q)
			wg.Add(1)
			go func() {
				defer wg.Done()
				vec = ix.vecs.Search(qvec, n, keep)
			}()
		}
	}
	at := func(slot int) *fused {
		f := fuse[slot]
		if f == nil {
			f = &fused{slot: slot}
			fuse[slot] = f
		}
		return f
	}
	if mode != Vector {
		best++
		kw, err := ix.keyword(ctx, kwTerms, q, n)
		if err != nil {
			wg.Wait()
			return Results{}, err
		}
		for i, s := range kw {
			f := at(s.slot)
			f.kwRank, f.kwScore = i+1, s.score
			f.score += 1 / float64(ix.opts.RRFK+i+1)
		}
	}
	wg.Wait()
	for i, s := range vec {
		if s.Score <= 0 {
			break // orthogonal or opposite: not a match
		}
		f := at(s.Slot)
		f.vRank, f.vScore = i+1, float64(s.Score)
		f.score += vw / float64(ix.opts.RRFK+i+1)
	}

	ranked := make([]*fused, 0, len(fuse))
	for _, f := range fuse {
		ranked = append(ranked, f)
	}
	sort.Slice(ranked, func(i, j int) bool {
		a, b := ranked[i], ranked[j]
		if a.score != b.score {
			return a.score > b.score
		}
		if a.kwScore != b.kwScore {
			return a.kwScore > b.kwScore
		}
		if a.vScore != b.vScore {
			return a.vScore > b.vScore
		}
		return ix.vecs.Entry(a.slot).ID() < ix.vecs.Entry(b.slot).ID()
	})
	if len(ranked) > k {
		ranked = ranked[:k]
	}
	out := make([]Hit, len(ranked))
	best /= float64(ix.opts.RRFK + 1)
	for i, f := range ranked {
		h := &out[i]
		ix.hit(h, f.slot)
		h.KeywordRank, h.KeywordScore = f.kwRank, f.kwScore
		h.VectorRank, h.VectorScore = f.vRank, f.vScore
		h.Score, h.Relevance = f.score, f.score/best
	}
	if ix.opts.Source != nil && !q.NoHitText {
		for i := range out {
			ix.fillText(&out[i], terms, true)
		}
	}
	res.Hits = out
	return res, nil
}

// cleanQuery makes text valid UTF-8 of at most maxQueryBytes.
func cleanQuery(s string) string {
	s = strings.ToValidUTF8(s, " ")
	if len(s) > maxQueryBytes {
		cut := maxQueryBytes
		for cut > 0 && !utf8.RuneStart(s[cut]) {
			cut--
		}
		s = s[:cut]
	}
	return s
}

func isZero(v []float32) bool {
	for _, x := range v {
		if x != 0 {
			return false
		}
	}
	return true
}

// terms analyses text as the body field is analysed, returning its
// distinct terms in the order they first appear. The keyword ranking
// takes the first maxQueryTerms; snippets mark them all.
func (ix *Index) terms(text string) []string {
	var terms []string
	seen := make(map[string]bool)
	for _, t := range ix.analyzer.Analyze([]byte(text)) {
		term := string(t.Term)
		if seen[term] {
			continue
		}
		seen[term] = true
		terms = append(terms, term)
	}
	return terms
}

// fused is a candidate's place in each ranking and its fused score.
type fused struct {
	slot            int
	kwRank, vRank   int
	kwScore, vScore float64
	score           float64
}

// hit sets h's fields from slot's entry.
func (ix *Index) hit(h *Hit, slot int) {
	e := ix.vecs.Entry(slot)
	*h = Hit{
		ID: e.ID(), Path: e.Path, Seq: e.Seq,
		StartLine: e.StartLine, EndLine: e.EndLine, StartCol: e.StartCol, EndCol: e.EndCol,
		Tokens: e.Tokens,
		Title:  e.Title, Kind: e.Kind, Layer: e.Layer, Session: e.Session,
		Header:     e.Header,
		Tags:       append([]string(nil), e.Tags...),
		Importance: e.Importance,
	}
	if e.Created != 0 {
		h.Created = time.Unix(0, e.Created).UTC()
	}
	if e.Updated != 0 {
		h.Updated = time.Unix(0, e.Updated).UTC()
	}
}

// keyword runs the BM25 ranking: every term against body, and boosted
// against title, under the filters. Hits Bleve has but the vectors file
// does not (left by a crash) are skipped.
func (ix *Index) keyword(ctx context.Context, terms []string, q Query, n int) ([]kwHit, error) {
	if len(terms) == 0 {
		return nil, nil
	}
	// Bleve filters dates by whole days: ask for more when a date filter
	// may drop some of the first and last day's hits.
	dates := !q.Since.IsZero() || !q.Until.IsZero()
	size := n
	if dates {
		size = 2 * n
	}
	res, err := ix.bm25(ctx, weighted(terms), bleveFilter(q), size)
	if err != nil {
		return nil, err
	}
	hits := res.Hits
	if rel := related(q.Related, terms); len(rel) > 0 && len(hits) > 0 {
		// Scored on the query's hits alone.
		ids := make([]string, len(hits))
		for i, h := range hits {
			ids[i] = h.ID
		}
		more, err := ix.bm25(ctx, rel, query.NewDocIDQuery(ids), len(hits))
		if err != nil {
			return nil, err
		}
		hits = addRelated(hits, more.Hits, rel, len(terms))
	}
	var keep func(*vecstore.Entry) bool
	if dates {
		keep = filter(Query{Since: q.Since, Until: q.Until})
	}
	out := make([]kwHit, 0, len(hits))
	for _, h := range hits {
		slot, ok := ix.vecs.Slot(h.ID)
		if !ok || (keep != nil && !keep(ix.vecs.Entry(slot))) {
			continue
		}
		out = append(out, kwHit{slot: slot, score: h.Score})
		if len(out) == n {
			break
		}
	}
	return out, nil
}

// bm25 runs terms, each at its weight, against body and (boosted) title
// under filter (nil: none), returning the best size hits.
func (ix *Index) bm25(ctx context.Context, terms []Term, filter query.Query, size int) (*bleve.SearchResult, error) {
	var should []query.Query
	for _, t := range terms {
		body := query.NewTermQuery(t.Text)
		body.SetField(fieldBody)
		body.SetBoost(t.Weight)
		title := query.NewTermQuery(t.Text)
		title.SetField(fieldTitle)
		title.SetBoost(titleBoost * t.Weight)
		should = append(should, body, title)
	}
	// Without filters, the disjunction alone: wrapped in a boolean query
	// every hit also went through a conjunction searcher, about a sixth
	// of a keyword search's time at 100k chunks.
	var bq query.Query = query.NewDisjunctionQuery(should)
	if filter != nil {
		b := query.NewBooleanQuery([]query.Query{bq}, nil, nil)
		b.AddFilter(filter)
		bq = b
	}
	req := bleve.NewSearchRequestOptions(bq, size, 0, false)
	bi, err := ix.fullText()
	if err != nil {
		return nil, fmt.Errorf("keyword search: %w", err)
	}
	res, err := bi.SearchInContext(ctx, req)
	if err != nil {
		return nil, fmt.Errorf("keyword search: %w", err)
	}
	return res, nil
}

// weighted gives each term the weight 1.
func weighted(terms []string) []Term {
	out := make([]Term, len(terms))
	for i, t := range terms {
		out[i] = Term{Text: t, Weight: 1}
	}
	return out
}

// maxRelated is the most related words a query takes.
const maxRelated = 32

// related keeps the related words that are not the query's own, with a
// weight in (0, 1).
func related(rel []Term, terms []string) []Term {
	var out []Term
	for _, r := range rel {
		if r.Weight <= 0 || r.Text == "" || slices.Contains(terms, r.Text) {
			continue
		}
		out = append(out, Term{Text: r.Text, Weight: min(r.Weight, 1)})
		if len(out) == maxRelated {
			break
		}
	}
	return out
}

// addRelated adds to the scores of the query's hits those the related
// words give them, and orders them again: related words reorder the
// chunks that hold a word of the query and find none of their own (a
// chunk that shares no word with the query is one cairn's search calls
// faint, and on bench/convo finding such chunks lost more than it
// gave). Bleve
// scales a disjunction's sum by the share of its clauses a hit matched,
// so the related words' scores are put on the query's scale (times its
// clauses over theirs) before they are added: a related word of weight
// w counts w of a query word. What they add to a chunk is capped at the
// largest weight times the best score of the query's words.
func addRelated(hits, more bsearch.DocumentMatchCollection, rel []Term, nterms int) bsearch.DocumentMatchCollection {
	top := hits[0].Score
	wmax := 0.0
	for _, r := range rel {
		wmax = max(wmax, r.Weight)
	}
	scale := float64(len(rel)) / float64(nterms)
	bonus := make(map[string]float64, len(more))
	for _, h := range more {
		bonus[h.ID] = min(h.Score*scale, wmax*top)
	}
	for _, h := range hits {
		h.Score += bonus[h.ID]
	}
	sort.SliceStable(hits, func(i, j int) bool {
		if hits[i].Score != hits[j].Score {
			return hits[i].Score > hits[j].Score
		}
		return hits[i].ID < hits[j].ID
	})
	return hits
}

type kwHit struct {
	slot  int
	score float64
}

// bleveFilter turns q's filters into a Bleve query, nil if there are none.
func bleveFilter(q Query) query.Query {
	var must []query.Query
	anyOf := func(field string, values []string) {
		if len(values) == 0 {
			return
		}
		var qs []query.Query
		for _, v := range values {
			t := query.NewTermQuery(v)
			t.SetField(field)
			qs = append(qs, t)
		}
		must = append(must, query.NewDisjunctionQuery(qs))
	}
	anyOf(fieldKind, q.Kinds)
	anyOf(fieldLayer, q.Layers)
	if q.Session != "" {
		anyOf(fieldSession, []string{q.Session})
	}
	for _, t := range q.Tags {
		anyOf(fieldTags, []string{t})
	}
	if !q.Since.IsZero() || !q.Until.IsZero() {
		// Whole days here, both ends included; keyword drops the hits
		// of the first and last day that are out of range.
		var from, to string
		if !q.Since.IsZero() {
			from = dayTerm(q.Since)
		}
		if !q.Until.IsZero() {
			to = dayTerm(q.Until)
		} else {
			to = "99999999"
		}
		incl := true
		r := query.NewTermRangeInclusiveQuery(from, to, &incl, &incl)
		r.SetField(fieldCreated)
		must = append(must, r)
	}
	if len(must) == 0 {
		return nil
	}
	return query.NewConjunctionQuery(must)
}

// filter is bleveFilter for the vectors file's entries.
func filter(q Query) func(*vecstore.Entry) bool {
	if len(q.Kinds) == 0 && len(q.Layers) == 0 && q.Session == "" && len(q.Tags) == 0 && q.Since.IsZero() && q.Until.IsZero() {
		return nil
	}
	var since, until int64
	if !q.Since.IsZero() {
		since = q.Since.UnixNano()
	}
	if !q.Until.IsZero() {
		until = q.Until.UnixNano()
	}
	in := func(v string, set []string) bool {
		for _, s := range set {
			if s == v {
				return true
			}
		}
		return false
	}
	return func(e *vecstore.Entry) bool {
		if len(q.Kinds) > 0 && !in(e.Kind, q.Kinds) {
			return false
		}
		if len(q.Layers) > 0 && !in(e.Layer, q.Layers) {
			return false
		}
		if q.Session != "" && e.Session != q.Session {
			return false
		}
		for _, t := range q.Tags {
			if !in(t, e.Tags) {
				return false
			}
		}
		if (since != 0 || until != 0) && e.Created == 0 {
			return false
		}
		if since != 0 && e.Created < since {
			return false
		}
		if until != 0 && e.Created >= until {
			return false
		}
		return true
	}
}

// FillText sets the Text, Stale and Snippet of hits from Options.Source,
// as Search does without Query.NoHitText, marking the words of query in
// the snippets. An empty query leaves Snippet empty: the caller wants the
// text alone. Hits must be this index's (FillText reads their ID, Path,
// lines and columns); a hit whose file cannot be read is left as it is.
func (ix *Index) FillText(hits []Hit, query string) {
	if ix.opts.Source == nil {
		return
	}
	ix.mu.RLock()
	defer ix.mu.RUnlock()
	if ix.closed {
		return
	}
	terms := ix.terms(query)
	for i := range hits {
		ix.fillText(&hits[i], terms, query != "")
	}
}

// Snippets sets the Snippet of hits whose Text is filled (by FillText
// with an empty query), marking the words of query: a caller that fills
// more hits than it shows makes snippets only for those it shows, since
// a snippet analyses the whole chunk.
func (ix *Index) Snippets(hits []Hit, query string) {
	ix.mu.RLock()
	defer ix.mu.RUnlock()
	if ix.closed {
		return
	}
	terms := ix.terms(query)
	for i := range hits {
		if hits[i].Text != "" {
			hits[i].Snippet = snippet.Make(ix.analyzer.Analyze, hits[i].Text, terms)
		}
	}
}

// fillText reads h's chunk from Options.Source and, if mark, makes its
// snippet marking terms. The caller holds ix.mu.
func (ix *Index) fillText(h *Hit, terms []string, mark bool) {
	text, ok := readChunk(ix.opts.Source, h)
	if !ok {
		return
	}
	if e, ok := ix.vecs.Lookup(h.ID); ok && e.Hash != textHash(text) {
		h.Stale = true
	}
	h.Text = withHeader(h.Header, text)
	if mark {
		h.Snippet = snippet.Make(ix.analyzer.Analyze, text, terms)
	}
}

// readChunk returns the text of h's line and column range in its file.
func readChunk(fsys fs.FS, h *Hit) (string, bool) {
	f, err := fsys.Open(h.Path)
	if err != nil {
		return "", false
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 0, 64<<10), 64<<20)
	var lines []string
	for n := 1; sc.Scan() && n <= h.EndLine; n++ {
		if n >= h.StartLine {
			lines = append(lines, strings.TrimSuffix(sc.Text(), "\r"))
		}
	}
	if len(lines) == 0 {
		return "", false
	}
	last := len(lines) - 1
	// Columns are of the file as indexed; clamp them to the file as it is.
	if h.EndCol <= len(lines[last]) && len(lines) == h.EndLine-h.StartLine+1 {
		lines[last] = lines[last][:h.EndCol]
	}
	if h.StartCol <= len(lines[0]) {
		lines[0] = lines[0][h.StartCol:]
	}
	return strings.Join(lines, "\n"), true
}
