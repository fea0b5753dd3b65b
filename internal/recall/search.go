package recall

import (
	"context"
	"errors"
	"fmt"
	"math"
	"sort"
	"strings"
	"time"

	"github.com/cairn-mem/cairn/indexer"
	"github.com/cairn-mem/cairn/internal/metrics"
	"github.com/cairn-mem/cairn/internal/model"
	"github.com/cairn-mem/cairn/internal/recall/expand"
	"github.com/cairn-mem/cairn/internal/recall/fuse"
	"github.com/cairn-mem/cairn/internal/recall/match"
	"github.com/cairn-mem/cairn/internal/recall/refs"
)

// SearchOptions say what Search looks for. Filters combine with AND.
type SearchOptions struct {
	Mode    indexer.Mode // keyword, vector or hybrid; "" is hybrid
	K       int          // hits wanted; 0 means 10
	Kinds   []string     // any of
	Layers  []string     // any of: core, active, archival
	Session string       // a session id, or a unique prefix of one
	Tags    []string     // all of
	Since   time.Time    // created at or after
	Until   time.Time    // created before
	// All keeps faint hits (Match under search.min_match), marked Faint;
	// without it a search returns only hits that match the query.
	All bool

	noSnippets bool // the context pack shows chunks' text only
}

// Scores are a hit's parts of the rerank, each in 0..1.
type Scores struct {
	Relevance  float64 `json:"relevance"`
	Recency    float64 `json:"recency"`
	Importance float64 `json:"importance"`
	References float64 `json:"references"`
	// Match says how much of the query the chunk holds, on a scale that
	// does not depend on the other hits: 0 nothing, 1 every word of it
	// (or words a letter or two away). Hits under search.min_match are
	// faint: most likely about something else.
	Match float64 `json:"match"`
}

// SearchHit is a chunk of a memory file that matched, in the shape
// `cairn search --json` prints. ID is the item's id, or the file's path
// for files that are not items (session logs); both work with cairn show.
type SearchHit struct {
	ID        string     `json:"id"`
	Path      string     `json:"path"`
	Title     string     `json:"title"`
	Kind      string     `json:"kind"`
	Layer     string     `json:"layer"`
	Session   string     `json:"session"`
	Created   *time.Time `json:"created"` // null when unknown
	Score     float64    `json:"score"`
	Scores    Scores     `json:"scores"`
	StartLine int        `json:"start_line"`
	EndLine   int        `json:"end_line"`
	Text      string     `json:"text"`    // the whole chunk
	Snippet   string     `json:"snippet"` // part of it, matched words marked «like this»

	// Faint says Match is under search.min_match: only a search with
	// SearchOptions.All returns such hits.
	Faint bool `json:"faint,omitempty"`

	Tokens int      `json:"-"` // estimated tokens of Text
	Tags   []string `json:"-"`

	chunk indexer.Hit // the indexer's, for FillText
}

// SearchResults are Search's answer, best first.
type SearchResults struct {
	Query string      `json:"query"`
	Hits  []SearchHit `json:"hits"`
	// Warnings say what went less well than asked (the embedding service
	// was down and keywords alone were used, the index could not catch
	// up). The command line prints them on stderr.
	Warnings []string `json:"-"`
}

// The rerank:
//
//	score = w.relevance*relevance + √relevance*(w.recency*recency + w.importance*importance + w.references*references)
//
// relevance is how well the chunk matches compared with the best match
// (see fuse.Relevance). The other parts count in proportion to the square
// root of relevance: added whole (the seed design), a fresh, important
// item that matched a fifth as well as the best hit outranked it, and on
// a long conversation (bench/convo) core items made at ingest took the
// first places from the sessions that held the answer. recency halves with every RecencyHalfLifeDays of age
// since the file was last updated; importance is the item's; references
// grows with how often the item was packed into a context,
// n/(n+referencesHalf), one half at referencesHalf.
const referencesHalf = 3

// Search finds the chunks of memory that best match query, reranked.
// It catches up with the repository first. An empty query, or one of
// stop words only, finds nothing. When the embedding service is down a
// hybrid or vector search uses keywords alone and says so in Warnings.
func (x *Index) Search(ctx context.Context, query string, opts SearchOptions) (*SearchResults, error) {
	start := time.Now()
	res := &SearchResults{Query: query, Hits: []SearchHit{}}
	q, err := x.query(query, opts)
	if err != nil {
		return nil, err
	}
	lag := x.follow(ctx)
	if lag != nil && ctx.Err() != nil {
		return nil, lag
	}
	if a := x.cfg.Associations; q.Mode != indexer.Vector { // docs/search.md
		q.Related = x.assoc.Related(ctx, x.m.StatePath("assoc"), x.ix, q.Text, a.Words, a.Weight)
	}
	k := q.K
	// Ask for more than k so that the rerank has something to reorder.
	q.K = max(3*k, 30)
	gen := x.generation()
	raw, err := x.ix.Search(ctx, q)
	if errors.Is(err, indexer.ErrNeedsRebuild) {
		if err := x.rebuild(ctx, err, gen); err != nil {
			return nil, err
		}
		raw, err = x.ix.Search(ctx, q)
	}
	vecErr := raw.VectorErr
	if err != nil && q.Mode == indexer.Vector && ctx.Err() == nil {
		vecErr = err
		q.Mode = indexer.Keyword
		raw, err = x.ix.Search(ctx, q)
	}
	if err != nil {
		return nil, err
	}
	// One line says what went wrong, however many things did.
	var warn string
	switch {
	case vecErr != nil:
		warn = x.embedProblem(vecErr) + "; searched by keywords only"
		if lag != nil {
			warn += ", in an index that misses the latest checkpoints"
		}
	case lag != nil:
		warn = "the search index misses the latest checkpoints: " + x.embedProblem(lag)
	}
	if warn != "" {
		res.Warnings = append(res.Warnings, warn)
	}
	hits := x.rerank(x.dropFaint(raw.Hits), q.VectorWeight, refs.Load(x.m), x.m.Now())
	favourDates(hits, query)
	// Text and snippets for the best hits only: reading and analysing
	// every candidate's file was most of a search's time. Twice k, so
	// that faint ones can give way.
	hits = hits[:min(len(hits), 2*k)]
	chunks := make([]indexer.Hit, len(hits))
	for i := range hits {
		chunks[i] = hits[i].chunk
	}
	// Text alone here; snippets for the hits returned only.
	x.ix.FillText(chunks, "")
	qw := match.Words(query)
	matchOf := func(h *SearchHit) {
		h.Scores.Match = match.Score(qw, h.Title+"\n"+h.Text)
		h.Faint = h.Scores.Match < x.cfg.MinMatch
	}
	kept := hits[:0]
	for i := range hits {
		h := hits[i]
		h.Text = chunks[i].Text
		h.chunk.Text = h.Text
		// Faint hits give way unless All keeps them; then only the
		// hits returned need their match.
		if !opts.All {
			if matchOf(&h); h.Faint {
				continue
			}
		}
		kept = append(kept, h)
	}
	Diversify(kept, DefaultDiversity)
	res.Hits = append(res.Hits, kept[:min(len(kept), k)]...)
	if opts.All {
		for i := range res.Hits {
			matchOf(&res.Hits[i])
		}
	}
	if !opts.noSnippets {
		chunks = chunks[:len(res.Hits)]
		for i := range res.Hits {
			chunks[i] = res.Hits[i].chunk
		}
		x.ix.Snippets(chunks, q.Text)
		for i := range res.Hits {
			res.Hits[i].Snippet = chunks[i].Snippet
		}
	}
	metrics.Open(x.m.StatePath("")).Record(ctx, metrics.Event{Kind: metrics.KindSearch, Mode: string(q.Mode), Hits: len(res.Hits), MS: metrics.Millis(time.Since(start))})
	return res, nil
}

// query turns options into the indexer's query, checking them.
func (x *Index) query(text string, opts SearchOptions) (indexer.Query, error) {
	mode, err := indexer.ParseMode(string(opts.Mode))
	if err != nil {
		return indexer.Query{}, err
	}
	// Query syntax is not interpreted, and "title:x" is the words title
	// and x: the tokenizer would otherwise keep it as one word that no
	// text holds.
	text = strings.ReplaceAll(text, ":", " ")
	q := indexer.Query{Text: text, Mode: mode, K: opts.K, Tags: opts.Tags, Since: opts.Since, Until: opts.Until, NoHitText: true,
		VectorWeight: x.vectorWeight()}
	if q.K <= 0 {
		q.K = 10
	}
	q.K = min(q.K, 200)
	for _, k := range opts.Kinds {
		kind, err := parseSearchKind(k)
		if err != nil {
			return q, err
		}
		q.Kinds = append(q.Kinds, kind)
	}
	for _, l := range opts.Layers {
		layer, err := model.ParseLayer(l)
		if err != nil {
			return q, err
		}
		q.Layers = append(q.Layers, string(layer))
	}
	if opts.Session != "" {
		if q.Session, err = x.m.Sessions().Resolve(opts.Session); err != nil {
			return q, err
		}
	}
	return q, nil
}

// SearchKinds are the kinds a search can filter by: the item kinds and
// the session logs'.
func SearchKinds() []string {
	var out []string
	for _, k := range model.AllKinds() {
		out = append(out, string(k))
	}
	return append(out, "prompt", "transcript")
}

// parseSearchKind reads a kind to filter a search by.
func parseSearchKind(s string) (string, error) {
	if k, err := model.ParseKind(s); err == nil {
		return string(k), nil
	}
	switch name := strings.ToLower(strings.TrimSpace(s)); name {
	case "prompt", "prompts":
		return "prompt", nil
	case "transcript", "transcripts":
		return "transcript", nil
	}
	return "", fmt.Errorf("unknown kind %q: want one of %s", s, strings.Join(SearchKinds(), ", "))
}

// CheckSearchOptions reports a mistake in opts (an unknown mode, kind or
// layer) without searching, so that callers can tell usage errors apart.
func CheckSearchOptions(opts SearchOptions) error {
	if _, err := indexer.ParseMode(string(opts.Mode)); err != nil {
		return err
	}
	for _, k := range opts.Kinds {
		if _, err := parseSearchKind(k); err != nil {
			return err
		}
	}
	for _, l := range opts.Layers {
		if _, err := model.ParseLayer(l); err != nil {
			return err
		}
	}
	if !opts.Since.IsZero() && !opts.Until.IsZero() && !opts.Until.After(opts.Since) {
		return fmt.Errorf("--until %s is not after --since %s", opts.Until.Format(time.DateOnly), opts.Since.Format(time.DateOnly))
	}
	return nil
}

// rerank scores hits with the configured weights, best first.
func (x *Index) rerank(hits []indexer.Hit, vw float64, refs map[string]int, now time.Time) []SearchHit {
	w := x.cfg.Weights
	rel := fuse.Relevance(hits, vw, x.builtin())
	halfLife := x.cfg.RecencyHalfLifeDays * 24 * float64(time.Hour)
	out := make([]SearchHit, 0, len(hits))
	for i := range hits {
		h := &hits[i]
		sh := SearchHit{
			ID: hitID(h.Path), Path: h.Path, Title: h.Title, Kind: h.Kind, Layer: h.Layer, Session: h.Session,
			StartLine: h.StartLine, EndLine: h.EndLine, Text: h.Text, Snippet: h.Snippet,
			Tokens: h.Tokens, Tags: h.Tags, chunk: *h,
		}
		if !h.Created.IsZero() {
			c := h.Created
			sh.Created = &c
		}
		when := h.Updated
		if when.IsZero() {
			when = h.Created
		}
		s := Scores{Relevance: rel[i], Importance: clamp01(h.Importance)}
		if !when.IsZero() {
			age := max(now.Sub(when), 0)
			s.Recency = math.Exp2(-float64(age) / halfLife)
		}
		if n := refs[sh.ID]; n > 0 {
			s.References = float64(n) / float64(n+referencesHalf)
		}
		sh.Scores = s
		sh.Score = w.Relevance*s.Relevance + math.Sqrt(s.Relevance)*(w.Recency*s.Recency+w.Importance*s.Importance+w.References*s.References)
		out = append(out, sh)
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Score > out[j].Score })
	return out
}

// dateBoost is how much more a hit dated in a time the query names
// ("in May", "last summer") scores: measured on bench/convo's time
// questions (docs/search.md). A boost, not a filter: the answer to "what
// did she plan for the summer" may have been said in spring.
const dateBoost = 0.8

// favourDates raises the score of hits dated in a time the query names,
// the reference for relative times ("last summer", "two weeks ago")
// being the newest session among the hits (core items are dated when
// they were made, not when what they say happened), and reorders them.
func favourDates(hits []SearchHit, query string) {
	var ref time.Time
	for _, h := range hits {
		if h.Created != nil && h.Layer != "core" && h.Created.After(ref) {
			ref = *h.Created
		}
	}
	wins := expand.When(query, ref)
	if len(wins) == 0 {
		return
	}
	for i := range hits {
		h := &hits[i]
		if h.Created == nil {
			continue
		}
		for _, w := range wins {
			if w.Contains(*h.Created) {
				h.Score *= 1 + dateBoost
				break
			}
		}
	}
	sort.SliceStable(hits, func(i, j int) bool { return hits[i].Score > hits[j].Score })
}

// dropFaint drops hits that only the vector ranking found, with a
// cosine similarity under the embedder's floor: vector search ranks
// everything, and without a floor a query that matches nothing brings
// back whatever is least unlike it.
func (x *Index) dropFaint(hits []indexer.Hit) []indexer.Hit {
	floor := x.cfg.MinSimilarity
	if floor < 0 {
		floor = 0
		if x.builtin() {
			floor = builtinMinSimilarity
		}
	}
	out := hits[:0]
	for _, h := range hits {
		if h.KeywordRank > 0 || h.VectorScore >= floor {
			out = append(out, h)
		}
	}
	return out
}

// vectorWeight is the weight of the vector ranking in hybrid search:
// search.vector_weight, or below 0 the embedder's. The built-in
// embedder hashes words and their letter trigrams: it finds typos and
// inflections BM25 misses, but on text of many topics (a long
// conversation) it ranks by shared common words and pulls the fusion
// below keywords alone, so it weighs builtinVectorWeight. A real model's
// ranking is worth as much as BM25's (RRF's usual 1). 0 is kept tiny
// rather than none, so that the vector ranking still breaks ties and
// adds what keywords do not find, after the keyword hits.
func (x *Index) vectorWeight() float64 {
	switch w := x.cfg.VectorWeight; {
	case w > 0:
		return w
	case w == 0:
		return 1e-3
	}
	if x.builtin() {
		return builtinVectorWeight
	}
	return 1
}

// builtinVectorWeight is the built-in embedder's weight in the fusion,
// measured (docs/search.md).
const builtinVectorWeight = 0.25

// builtinMinSimilarity is the built-in embedder's floor. On the labelled
// set, 62% of the unwanted memories a vector search ranks score below
// it, and 3 of 75 wanted ones.
const builtinMinSimilarity = 0.05

func clamp01(f float64) float64 { return min(max(f, 0), 1) }

// hitID is the id a hit is known by: the item's id from its file name,
// or the path of a file that is not an item.
func hitID(p string) string {
	if id, ok := model.IDFromPath(p); ok {
		return id
	}
	return p
}
