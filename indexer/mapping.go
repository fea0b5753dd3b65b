package indexer

import (
	"time"

	"github.com/blevesearch/bleve/v2"
	"github.com/blevesearch/bleve/v2/analysis/analyzer/keyword"
	"github.com/blevesearch/bleve/v2/analysis/lang/en"
	"github.com/blevesearch/bleve/v2/mapping"
	index "github.com/blevesearch/bleve_index_api"
)

// Field names in the Bleve index.
const (
	fieldBody    = "body"
	fieldTitle   = "title"
	fieldKind    = "kind"
	fieldLayer   = "layer"
	fieldSession = "session"
	fieldTags    = "tags"
	fieldCreated = "created"
	fieldID      = "_id" // Bleve's own: the chunk id, Path#Seq
)

// schemaVersion changes whenever the mapping, the chunker or the files'
// formats change in a way an existing index cannot follow; Open then
// reports ErrNeedsRebuild.
const schemaVersion = 4 // 2: vectors file format 2; 3: int8 vectors (format 4), fewer Bleve fields; 4: dialogue windows, chunk headers (format 5)

// newMapping returns the static mapping: nothing dynamic, nothing stored
// (hits are shown from the vectors file's metadata and the documents'
// files), no term vectors, no doc values (nothing sorts or facets), no
// _all field, and only the fields a query or filter uses. Body and title
// are analysed in English with stemming; kind, layer, session and tags
// are exact keywords; created is the UTC day ("20261130"), a keyword,
// which a term range narrows --since and --until to before the exact
// times in the vectors file decide (keyword). Importance, updated and
// path are in the vectors file only: a number or date costs Bleve 16
// terms a document, about a tenth of the index each, and a path's chunks
// are found by their ids' prefix.
func newMapping() mapping.IndexMapping {
	text := func() *mapping.FieldMapping {
		f := bleve.NewTextFieldMapping()
		f.Analyzer = en.AnalyzerName
		f.Store = false
		f.IncludeTermVectors = false
		f.IncludeInAll = false
		f.DocValues = false
		return f
	}
	kw := func() *mapping.FieldMapping {
		f := bleve.NewKeywordFieldMapping()
		f.Analyzer = keyword.Name
		f.Store = false
		f.IncludeTermVectors = false
		f.IncludeInAll = false
		f.DocValues = false
		return f
	}
	doc := bleve.NewDocumentStaticMapping()
	doc.AddFieldMappingsAt(fieldBody, text())
	doc.AddFieldMappingsAt(fieldTitle, text())
	for _, name := range []string{fieldKind, fieldLayer, fieldSession, fieldTags, fieldCreated} {
		doc.AddFieldMappingsAt(name, kw())
	}
	// No _all field at all: even empty, Bleve builds and writes it for
	// every document, 9% of the indexing CPU.
	doc.AddSubDocumentMapping("_all", bleve.NewDocumentDisabledMapping())

	m := bleve.NewIndexMapping()
	m.DefaultMapping = doc
	m.DefaultAnalyzer = en.AnalyzerName
	m.IndexDynamic = false
	m.StoreDynamic = false
	m.DocValuesDynamic = false
	m.ScoringModel = index.BM25Scoring
	return m
}

// dayTerm is the created field's term for t: its UTC day, which sorts as
// the days do.
func dayTerm(t time.Time) string { return t.UTC().Format("20060102") }

// textOptions are the indexing options of the body and title fields, as
// the mapping has them, for fields Put builds itself.
func textOptions() index.FieldIndexingOptions { return fieldOptions(fieldBody) }

// keywordOptions are the keyword fields' (all alike), likewise.
func keywordOptions() index.FieldIndexingOptions { return fieldOptions(fieldKind) }

func fieldOptions(name string) index.FieldIndexingOptions {
	m := newMapping().(*mapping.IndexMappingImpl)
	return m.DefaultMapping.Properties[name].Fields[0].Options()
}
