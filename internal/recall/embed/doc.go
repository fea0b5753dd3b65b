// Package embed makes the embedder cairn.yaml configures (the built-in
// hashing one, or an OpenAI-compatible service) and tells the errors of an
// embedding service from those of the index: a query waits at most a few
// seconds for its vector, and an index whose service is down is only
// behind, not broken.
package embed
