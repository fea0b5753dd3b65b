package gitstore

// A Filter turns the work-tree files it claims into the blobs git stores
// and back, as git's clean and smudge filters do; cairn writes objects
// itself, so it applies them itself. internal/crypt's encrypts.
type Filter interface {
	// Match reports whether the repository path p is filtered.
	Match(p string) bool
	// Clean returns the blob for the work-tree content of p. It must
	// return the same blob for the same content, or every checkpoint
	// would commit the file again.
	Clean(p string, data []byte) ([]byte, error)
	// Smudge returns the work-tree content for the blob of p. On an
	// error the blob itself goes to the work tree, so nothing is lost,
	// and the error is a warning.
	Smudge(p string, data []byte) ([]byte, error)
}

// SetFilter replaces the Filter, as Options.Filter sets it. Files it
// changes the blobs of are committed by a checkpoint with Rehash.
func (s *Store) SetFilter(f Filter) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.wt.filter = f
}

// clean is Filter.Clean for the paths the filter claims.
func (wt *worktree) clean(p string, data []byte) ([]byte, error) {
	if wt.filter == nil || !wt.filter.Match(p) {
		return data, nil
	}
	return wt.filter.Clean(p, data)
}

// smudge is Filter.Smudge for the paths the filter claims.
func (wt *worktree) smudge(p string, data []byte) ([]byte, error) {
	if wt.filter == nil || !wt.filter.Match(p) {
		return data, nil
	}
	return wt.filter.Smudge(p, data)
}

// smudgeWarn is smudge for a file going to the work tree: what cannot
// be smudged goes there as it is stored, with a warning, so nothing is
// lost.
func (wt *worktree) smudgeWarn(p string, data []byte) []byte {
	out, err := wt.smudge(p, data)
	if err != nil {
		wt.warn(err.Error() + "; the work tree keeps it as stored")
		return data
	}
	return out
}

// plainDiffs decrypts the sides of diffs where the Filter can, for
// reading; their blob ids stay those of what is stored.
func (wt *worktree) plainDiffs(ds []FileDiff) []FileDiff {
	for i := range ds {
		d := &ds[i]
		if out, err := wt.smudge(d.Path, d.Old); err == nil {
			d.Old = out
		}
		if out, err := wt.smudge(d.Path, d.New); err == nil {
			d.New = out
		}
	}
	return ds
}
