package gitsync

// Problem is a damaged or missing object found by Verify.
type Problem struct {
	Object string `json:"object"`
	Type   string `json:"type"`            // commit, tree or blob
	Kind   string `json:"kind"`            // missing or corrupt
	Path   string `json:"path,omitempty"`  // where a tree or blob was first met
	Fixed  bool   `json:"fixed,omitempty"` // Repair brought it back
}

// VerifyResult is what Verify found.
type VerifyResult struct {
	Objects  int       `json:"objects"` // objects read and checked
	Problems []Problem `json:"problems"`
}

// Verify reads every object reachable from the branches and tags, checks
// that its content hashes to its name, and reports those that are missing
// or corrupt, as git fsck does for connectivity and hashes.
func (s *Store) Verify(ctx context.Context) (*VerifyResult, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	refs, err := s.repo.Storer.IterReferences()
	if err != nil {
		return nil, fmt.Errorf("verify: %w", err)
	}
	var starts []plumbing.Hash
	refs.ForEach(func(r *plumbing.Reference) error {
		n := r.Name()
		if r.Type() == plumbing.HashReference && (n.IsBranch() || n.IsTag()) {
			starts = append(starts, r.Hash())
		}
		return nil
	})
	v := &verifier{s: s, seen: map[plumbing.Hash]bool{}, res: &VerifyResult{}}
	for _, h := range starts {
		if err := v.commit(ctx, h); err != nil {
			return nil, err
		}
	}
	return v.res, nil
}

type verifier struct {
	s    *Store
	seen map[plumbing.Hash]bool
	res  *VerifyResult
}

// read returns an object's content when its hash checks out; ok is false
// (and the problem recorded) otherwise.
func (v *verifier) read(h plumbing.Hash, t plumbing.ObjectType, where string) ([]byte, bool) {
	v.res.Objects++
	o, err := v.s.repo.Storer.EncodedObject(plumbing.AnyObject, h)
	kind := "corrupt"
	var data []byte
	if err == nil {
		var r io.ReadCloser
		if r, err = o.Reader(); err == nil {
			data, err = io.ReadAll(r)
			r.Close()
		}
		if err == nil && (o.Type() != t || hashObject(t, data) != h) {
			err = errors.New("hash mismatch")
		}
	} else if errors.Is(err, plumbing.ErrObjectNotFound) {
		kind = "missing"
	}
	if err != nil {
		v.res.Problems = append(v.res.Problems, Problem{Object: h.String(), Type: t.String(), Kind: kind, Path: where})
		return nil, false
	}
	return data, true
}

func (v *verifier) commit(ctx context.Context, h plumbing.Hash) error {
	stack := []plumbing.Hash{h}
	for len(stack) > 0 {
		if err := ctx.Err(); err != nil {
			return err
		}
		h := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if v.seen[h] {
			continue
		}
		v.seen[h] = true
		data, ok := v.read(h, plumbing.CommitObject, "")
		if !ok {
			continue
		}
		for _, line := range strings.Split(string(data), "\n") {
			if line == "" {
				break
			}
			k, val, _ := strings.Cut(line, " ")
			switch k {
			case "tree":
				v.tree(plumbing.NewHash(val), "")
			case "parent":
				stack = append(stack, plumbing.NewHash(val))
			}
		}
	}
	return nil
}

func (v *verifier) tree(h plumbing.Hash, prefix string) {
	if v.seen[h] {
		return
	}
	v.seen[h] = true
	data, ok := v.read(h, plumbing.TreeObject, strings.TrimSuffix(prefix, "/"))
	if !ok {
		return
	}
	for len(data) > 0 {
		sp := bytes.IndexByte(data, ' ')
		nul := bytes.IndexByte(data, 0)
		if sp < 0 || nul < sp || nul+21 > len(data) {
			v.res.Problems = append(v.res.Problems, Problem{Object: h.String(), Type: "tree", Kind: "corrupt", Path: prefix})
			return
		}
		mode, name := string(data[:sp]), string(data[sp+1:nul])
		var eh plumbing.Hash
		copy(eh[:], data[nul+1:nul+21])
		data = data[nul+21:]
		switch mode {
		case "40000":
			v.tree(eh, prefix+name+"/")
		case "160000":
		default:
			if !v.seen[eh] {
				v.seen[eh] = true
				v.read(eh, plumbing.BlobObject, prefix+name)
			}
		}
	}
}

// Repair brings back the objects of problems from a remote: it clones
// the remote into a temporary bare repository under the state folder and
// copies each object it has, after moving a corrupt loose object aside
// (into .state/corrupt/). It marks the problems it fixed. The caller
// holds the lock.
func (s *Store) Repair(ctx context.Context, remote string, problems []Problem, getenv func(string) string) (int, error) {
	r, err := s.Remote(remote)
	if err != nil {
		return 0, err
	}
	auth, err := s.auth(r.URL, getenv)
	if err != nil {
		return 0, scrub(err, r.URL)
	}
	tmp, err := os.MkdirTemp(s.state, "repair-")
	if err != nil {
		return 0, err
	}
	defer os.RemoveAll(tmp)
	src, err := git.PlainCloneContext(ctx, tmp, true, &git.CloneOptions{URL: r.URL, Auth: auth, Tags: git.AllTags})
	if err != nil {
		return 0, fmt.Errorf("repair from %s (%s): %w", remote, Redact(r.URL), scrub(netError(err), r.URL))
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	w := newObjectWriter(s.gitDir, nil)
	fixed := 0
	for i := range problems {
		p := &problems[i]
		h := plumbing.NewHash(p.Object)
		o, err := src.Storer.EncodedObject(plumbing.AnyObject, h)
		if err != nil {
			continue
		}
		rd, err := o.Reader()
		if err != nil {
			continue
		}
		data, err := io.ReadAll(rd)
		rd.Close()
		if err != nil || hashObject(o.Type(), data) != h {
			continue
		}
		loose := filepath.Join(s.gitDir, "objects", p.Object[:2], p.Object[2:])
		if _, err := os.Stat(loose); err == nil {
			aside := filepath.Join(s.state, "corrupt", p.Object)
			os.MkdirAll(filepath.Dir(aside), 0o700)
			if err := os.Rename(loose, aside); err != nil {
				return fixed, fmt.Errorf("repair: move corrupt %s aside: %w", p.Object, err)
			}
		}
		if _, err := w.write(o.Type(), data); err != nil {
			return fixed, fmt.Errorf("repair: %w", err)
		}
		p.Fixed = true
		fixed++
	}
	if err := w.flush(); err != nil {
		return fixed, fmt.Errorf("repair: %w", err)
	}
	repo, err := openRepo(s.dir)
	if err == nil {
		closeRepo(s.repo)
		s.repo = repo
	}
	return fixed, nil
}
