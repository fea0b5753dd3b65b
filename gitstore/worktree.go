package gitstore

func (s *Store) encodeMerge(tree plumbing.Hash, parents []plumbing.Hash, msg []byte) []byte {
	var b bytes.Buffer
	fmt.Fprintf(&b, "tree %s\n", tree)
	for _, p := range parents {
		fmt.Fprintf(&b, "parent %s\n", p)
	}
	t := s.now()
	sig := fmt.Sprintf("%s <%s> %d %s", s.ident.Name, s.ident.Email, t.Unix(), t.Format("-0700"))
	fmt.Fprintf(&b, "author %s\ncommitter %s\n\n", sig, sig)
	b.Write(msg)
	return b.Bytes()
}

// checkWorktree makes sure the files a merge changes hold what the cache
// says ours holds, so that no change that was not checkpointed is
// overwritten. It costs what the merge changes.
func (s *Store) checkWorktree(c *cache, changes []change) error {
	for _, ch := range changes {
		name := filepath.Join(s.dir, filepath.FromSlash(ch.Path))
		i, found := c.find(ch.Path)
		fi, err := os.Lstat(name)
		if errors.Is(err, os.ErrNotExist) {
			if !found {
				continue
			}
			return fmt.Errorf("%w: %s was deleted but not checkpointed", ErrDirty, ch.Path)
		}
		if err != nil {
			return err
		}
		if fi.IsDir() {
			return fmt.Errorf("%w: %s is a folder in the work tree", ErrDirty, ch.Path)
		}
		if !found {
			// A file git does not track yet, or an ignored one.
			h, err := s.hashFile(ch.Path, 0o100644)
			if err == nil && ch.Action != Deleted && h == ch.e.hash {
				continue
			}
			return fmt.Errorf("%w: %s exists but is not checkpointed", ErrDirty, ch.Path)
		}
		e := &c.entries[i]
		var st unix.Stat_t
		if unix.Lstat(name, &st) == nil {
			if cur := statOf(&st); statMatches(&e.stat, &cur) && !racy(e, c.written) {
				continue
			}
		}
		h, err := s.hashFile(ch.Path, e.mode)
		if err != nil {
			return err
		}
		if h != e.hash {
			return fmt.Errorf("%w: %s has changes that are not checkpointed", ErrDirty, ch.Path)
		}
	}
	return nil
}

// writeChanges makes the work tree hold what changes say: deletions
// first, so that a file can take the place of a folder and the reverse.
func (s *Store) writeChanges(changes []change) error {
	for _, ch := range changes {
		if ch.Action != Deleted {
			continue
		}
		name := filepath.Join(s.dir, filepath.FromSlash(ch.Path))
		if err := os.Remove(name); err != nil && !errors.Is(err, os.ErrNotExist) {
			return fmt.Errorf("remove %s: %w", ch.Path, err)
		}
		for d := filepath.Dir(name); len(d) > len(s.dir); d = filepath.Dir(d) {
			if os.Remove(d) != nil {
				break
			}
		}
	}
	batch, last := true, ""
	for _, ch := range changes {
		if ch.Action == Deleted {
			continue
		}
		name := filepath.Join(s.dir, filepath.FromSlash(ch.Path))
		data, err := s.readBlob(ch.e.hash)
		if err != nil {
			return err
		}
		perm := os.FileMode(0o644)
		if ch.e.mode == 0o100755 {
			perm = 0o755
		}
		if err := writeStarted(name, data, perm, &batch); err != nil {
			return err
		}
		last = name
	}
	if len(changes) == 0 {
		return nil
	}
	// The files' data is on its way to the disk; as for objects (see
	// objectWriter), one fsync waits for it and commits every rename
	// before it. Without sync_file_range, one syncfs does.
	if batch && last != "" {
		f, err := os.Open(last)
		if err != nil {
			return err
		}
		defer f.Close()
		return f.Sync()
	}
	return syncfs(s.dir)
}

// writeStarted writes name through a temporary file and rename, starting
// the data's writeback without waiting for it; batch becomes false when
// that cannot be done. It is not safefile.Write because its durability is
// batched: one fsync or syncfs after the last file commits them all. Its
// temporary files are named as safefile's, so that safefile.IsTemp
// recognises them.
func writeStarted(name string, data []byte, perm os.FileMode, batch *bool) error {
	dir := filepath.Dir(name)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("write %s: %w", name, err)
	}
	f, err := os.CreateTemp(dir, "."+filepath.Base(name)+".tmp-*")
	if err != nil {
		return fmt.Errorf("write %s: %w", name, err)
	}
	_, err = f.Write(data)
	if err == nil {
		err = f.Chmod(perm)
	}
	if err == nil && *batch && unix.SyncFileRange(int(f.Fd()), 0, 0, unix.SYNC_FILE_RANGE_WRITE) != nil {
		*batch = false
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(f.Name(), name)
	}
	if err != nil {
		os.Remove(f.Name())
		return fmt.Errorf("write %s: %w", name, err)
	}
	return nil
}

// syncfs makes everything written to dir's file system durable with one
// call, instead of one fsync per file written.
func syncfs(dir string) error {
	f, err := os.Open(dir)
	if err != nil {
		return err
	}
	defer f.Close()
	if err := unix.Syncfs(int(f.Fd())); err != nil {
		return fmt.Errorf("sync %s: %w", dir, err)
	}
	return nil
}
