package fsview

// Helpers for the tests of package fsview_test, which mount for real.
var (
	NewTestMemory   = testMemory
	IndexedSearcher = indexed
)
