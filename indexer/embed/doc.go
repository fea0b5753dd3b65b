// Package embed holds the embedders of cairn's search index: the
// built-in hashing embedder (Hash), which needs no model or network, and
// a client for services speaking the OpenAI embeddings API (OpenAI).
// Both satisfy indexer.Embedder; the indexer package is their only user
// and re-exports them under its own names (indexer.HashEmbedder,
// indexer.OpenAIEmbedder), so callers need not import this package.
//
// It keeps nothing on disk. An embedder's Name and Dim identify its
// vector space; the index records them and is rebuilt when they change,
// so Hash.Name changes whenever its features or their weights do.
package embed
