// Package docs says which files of a memory the search index holds and
// how each becomes the indexer's document: its title, kind, layer,
// session, times and importance, from the one front-matter codec and the
// one session.yaml codec of internal/model. Pure but for reading a
// session's session.yaml (never through a link).
package docs
