//go:build !amd64

package indexer

// dot is the inner product of two vectors of the same length.
func dot(a, b []float32) float32 { return dotGo(a, b) }
