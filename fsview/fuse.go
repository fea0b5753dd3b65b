package fsview

import (
	"context"
	"errors"
	"fmt"
	"hash/fnv"
	"io/fs"
	"os"
	"path"
	"strings"
	"sync"
	"syscall"
	"time"

	gofs "github.com/hanwen/go-fuse/v2/fs"
	"github.com/hanwen/go-fuse/v2/fuse"
)

// MountOptions tune a mount.
type MountOptions struct {
	// Poll is how often HEAD and the tags are read to notice a new
	// checkpoint; 0 means every 500 ms.
	Poll time.Duration
	// Debug logs every FUSE request on standard error.
	Debug bool
}

// cacheTTL is how long the kernel may keep names and attributes without
// asking again. Everything is cached this long: history never changes,
// and what does change is invalidated explicitly when a checkpoint lands.
const cacheTTL = 24 * time.Hour

// Server is a mounted view.
type Server struct {
	dir    string
	v      *View
	srv    *fuse.Server
	root   *fnode
	cancel context.CancelFunc
	polled chan struct{}

	uid  uint32
	gid  uint32
	once sync.Once
	err  error
}

// Mount serves the view at dir, an existing empty folder, until Unmount
// or until the file system is unmounted from outside (cairn umount,
// umount, fusermount3 -u). A stale mount of an earlier process that was
// killed is cleaned up first.
func Mount(ctx context.Context, dir string, v *View, opts MountOptions) (*Server, error) {
	if err := Available(); err != nil {
		return nil, err
	}
	if err := checkMountPoint(dir); err != nil {
		return nil, err
	}
	if opts.Poll <= 0 {
		opts.Poll = 500 * time.Millisecond
	}
	s := &Server{dir: dir, v: v, uid: uint32(os.Getuid()), gid: uint32(os.Getgid()), polled: make(chan struct{})}
	s.root = &fnode{s: s, path: "."}
	v.onContext = func() {
		root := s.root.EmbeddedInode()
		root.NotifyEntry(contextFile)
		if n := root.GetChild(contextFile); n != nil {
			n.NotifyContent(0, 0)
		}
	}
	ttl := cacheTTL
	fo := &gofs.Options{
		EntryTimeout: &ttl,
		AttrTimeout:  &ttl,
		UID:          s.uid,
		GID:          s.gid,
		RootStableAttr: &gofs.StableAttr{
			Ino: 1,
		},
		MountOptions: fuse.MountOptions{
			FsName:               "cairn",
			Name:                 "cairn",
			Options:              []string{"ro", "default_permissions"},
			DirectMount:          os.Geteuid() == 0,
			EnableSymlinkCaching: true,
			DisableXAttrs:        true,
			MaxReadAhead:         128 << 10,
			Debug:                opts.Debug,
		},
	}
	srv, err := fuse.NewServer(handlelessDirs{gofs.NewNodeFS(s.root, fo)}, dir, &fo.MountOptions)
	if err != nil {
		return nil, fmt.Errorf("mount %s: %w%s", dir, err, installHint(err))
	}
	go srv.Serve()
	if err := srv.WaitMount(); err != nil {
		srv.Unmount()
		return nil, fmt.Errorf("mount %s: %w", dir, err)
	}
	s.srv = srv
	pctx, cancel := context.WithCancel(context.Background())
	s.cancel = cancel
	go s.poll(pctx, opts.Poll)
	return s, nil
}

// Dir returns the mount point.
func (s *Server) Dir() string { return s.dir }

// Serve returns when the file system has been unmounted from outside,
// or when ctx ends, which unmounts it: stopped reports the latter.
func (s *Server) Serve(ctx context.Context) (stopped bool, err error) {
	done := make(chan struct{})
	go func() {
		s.Wait()
		close(done)
	}()
	select {
	case <-done:
		return false, nil
	case <-ctx.Done():
		return true, s.Unmount()
	}
}

// Wait returns when the file system has been unmounted.
func (s *Server) Wait() {
	s.srv.Wait()
	s.cancel()
	<-s.polled
}

// Unmount unmounts the file system and waits until it is no longer
// served. When programs still use it, it is detached: it disappears from
// the name space now, and they keep what they have open.
func (s *Server) Unmount() error {
	s.once.Do(func() {
		s.cancel()
		if err := s.srv.Unmount(); err != nil {
			if err2 := detach(s.dir); err2 != nil {
				s.err = fmt.Errorf("unmount %s: %w", s.dir, err)
			}
		}
		s.srv.Wait()
		<-s.polled
	})
	return s.err
}

// poll follows new checkpoints and tags, and tells the kernel what changed.
func (s *Server) poll(ctx context.Context, every time.Duration) {
	defer close(s.polled)
	t := time.NewTicker(every)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		ch, err := s.v.Refresh(ctx)
		if err != nil {
			if ctx.Err() == nil {
				s.v.opts.Warn(err.Error())
			}
			continue
		}
		if ch != nil {
			s.invalidate(ch)
		}
	}
}

// invalidate drops from the kernel's caches what a change made stale:
// the changed live files and the names in their folders, and everything
// outside the history and the live tree (CONTEXT.md, checkpoints/, tags/,
// search/, kinds/, tagged/), which is cheap to make again.
//
// The inodes to tell are looked up in go-fuse's tree of the nodes the
// kernel knows, at the time of telling. A node that Lookup made is not
// necessarily one: when the kernel looks a known name up again (READDIRPLUS
// of the parent, or after its entry expired), go-fuse keeps the node it
// already has under that inode number and drops the new one, and a
// notice about the dropped one fails with ENOENT. Remembering what Lookup
// returned left a folder in use during a checkpoint (so that the kernel
// could not drop it) with its old listing for good: core/decisions was
// missing a new decision for 5 s under load in CI.
func (s *Server) invalidate(ch *Change) {
	root := s.root.EmbeddedInode()
	stale := map[string]*gofs.Inode{}
	var collect func(dir string, n *gofs.Inode)
	collect = func(dir string, n *gofs.Inode) {
		for name, c := range n.Children() {
			p := name
			if dir != "." {
				p = dir + "/" + name
			}
			if f, ok := c.Operations().(*fnode); !ok || f.history || (dir == "." && isLive(p) && !ch.Rewritten) {
				continue
			}
			stale[p] = c
			collect(p, c)
		}
	}
	collect(".", root)
	for _, p := range ch.Paths {
		// nil when the kernel does not know it: still drop the name from
		// its folder.
		stale[p] = s.known(p)
	}
	parents := make(map[string]*gofs.Inode, len(stale))
	for p := range stale {
		dir := path.Dir(p)
		if dir == "." {
			parents[p] = root
		} else if n := s.known(dir); n != nil {
			parents[p] = n
		}
	}
	root.NotifyContent(0, 0)
	listed := map[*gofs.Inode]bool{root: true}
	for p, n := range stale {
		if dir := parents[p]; dir != nil {
			dir.NotifyEntry(path.Base(p))
			if !listed[dir] {
				// The kernel keeps folders' listings (FOPEN_CACHE_DIR,
				// its default as OPENDIR is not implemented) until
				// told, or until their time changes, and a checkpoint
				// in the same second as the last leaves it as it was.
				listed[dir] = true
				dir.NotifyContent(0, 0)
			}
		}
		if n != nil {
			n.NotifyContent(0, 0)
		}
	}
}

// known returns the inode that the kernel knows for a view path, or nil.
func (s *Server) known(p string) *gofs.Inode {
	n := s.root.EmbeddedInode()
	for name := range strings.SplitSeq(p, "/") {
		if n = n.GetChild(name); n == nil {
			return nil
		}
	}
	return n
}

// isLive reports whether a view path is in core/, sessions/ or archive/.
func isLive(p string) bool {
	top, _, _ := strings.Cut(p, "/")
	for _, r := range liveRoots {
		if top == r {
			return true
		}
	}
	return false
}

// fnode is a name in the mounted view. It keeps only its path: every
// request resolves it against the view's current state, so a live file
// shows the latest checkpoint's content once the kernel asks again.
type fnode struct {
	gofs.Inode
	s       *Server
	path    string
	history bool

	mu       sync.Mutex
	list     []fuse.DirEntry // the last listing, of listSnap
	listSnap *snapshot
}

var (
	_ gofs.NodeLookuper       = (*fnode)(nil)
	_ gofs.NodeGetattrer      = (*fnode)(nil)
	_ gofs.NodeReaddirer      = (*fnode)(nil)
	_ gofs.NodeOpendirHandler = (*fnode)(nil)
	_ gofs.NodeOpener         = (*fnode)(nil)
	_ gofs.NodeReader         = (*fnode)(nil)
	_ gofs.NodeReadlinker     = (*fnode)(nil)
	_ gofs.NodeStatfser       = (*fnode)(nil)
	_ gofs.NodeSetattrer      = (*fnode)(nil)
	_ gofs.NodeFlusher        = (*fnode)(nil)
)

func (f *fnode) node(ctx context.Context) (*node, syscall.Errno) {
	n, err := f.s.v.walk(ctx, f.path, false)
	if err != nil {
		return nil, errno(err)
	}
	return n, 0
}

func errno(err error) syscall.Errno {
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return syscall.ENOENT
	case errors.Is(err, fs.ErrInvalid):
		return syscall.EINVAL
	case errors.Is(err, context.Canceled), errors.Is(err, context.DeadlineExceeded):
		return syscall.EINTR
	case errors.Is(err, errNotDir):
		return syscall.ENOTDIR
	}
	return syscall.EIO
}

// ino is a node's inode number: a hash of its path and type, the same in
// every mount. Numbers 0 and 1 (the root) are not used.
func ino(p string, mode fs.FileMode) uint64 {
	h := fnv.New64a()
	h.Write([]byte(p))
	h.Write([]byte{0, byte(mode.Type() >> 24)})
	n := h.Sum64()
	if n <= 1 || n == ^uint64(0) {
		n += 2
	}
	return n
}

func dirIno(p string) uint64 {
	if p == "." {
		return 1
	}
	return ino(p, fs.ModeDir)
}

func fuseMode(m fs.FileMode) uint32 {
	perm := uint32(m.Perm()) &^ 0o222 // read-only
	switch {
	case m.IsDir():
		return syscall.S_IFDIR | perm
	case m&fs.ModeSymlink != 0:
		return syscall.S_IFLNK | 0o777
	}
	return syscall.S_IFREG | perm
}

func (f *fnode) fill(ctx context.Context, n *node, a *fuse.Attr) syscall.Errno {
	size, err := f.s.v.size(ctx, n)
	if err != nil {
		return errno(err)
	}
	a.Mode = fuseMode(n.mode)
	if n.path == "." {
		a.Ino = 1
	} else {
		a.Ino = ino(n.path, n.mode)
	}
	a.Size = uint64(size)
	a.Blocks = (a.Size + 511) / 512
	a.Blksize = 4096
	a.Nlink = 1
	if n.isDir() {
		a.Nlink = 2
	}
	t := n.mtime
	a.SetTimes(&t, &t, &t)
	a.Owner = fuse.Owner{Uid: f.s.uid, Gid: f.s.gid}
	return 0
}

// Lookup finds a name in a folder. In search/ that runs the search.
func (f *fnode) Lookup(ctx context.Context, name string, out *fuse.EntryOut) (*gofs.Inode, syscall.Errno) {
	dir, e := f.node(ctx)
	if e != 0 {
		return nil, e
	}
	if !dir.isDir() {
		return nil, syscall.ENOTDIR
	}
	c, err := f.s.v.lookup(ctx, dir, name)
	if err != nil {
		if errors.Is(err, fs.ErrInvalid) && dir.kind == kSearches {
			f.s.v.opts.Warn(err.Error())
		}
		return nil, errno(err)
	}
	if e := f.fill(ctx, c, &out.Attr); e != 0 {
		return nil, e
	}
	out.SetEntryTimeout(cacheTTL)
	out.SetAttrTimeout(cacheTTL)
	return f.newChild(ctx, c), 0
}

func (f *fnode) newChild(ctx context.Context, c *node) *gofs.Inode {
	child := &fnode{s: f.s, path: c.path, history: c.history}
	return f.NewInode(ctx, child, gofs.StableAttr{Mode: fuseMode(c.mode) & syscall.S_IFMT, Ino: ino(c.path, c.mode)})
}

func (f *fnode) Getattr(ctx context.Context, fh gofs.FileHandle, out *fuse.AttrOut) syscall.Errno {
	n, e := f.node(ctx)
	if e != 0 {
		return e
	}
	out.SetTimeout(cacheTTL)
	return f.fill(ctx, n, &out.Attr)
}

// OpendirHandle lets the kernel keep a folder's listing in its cache; a
// live folder's is dropped when a checkpoint changes it.
func (f *fnode) OpendirHandle(ctx context.Context, flags uint32) (gofs.FileHandle, uint32, syscall.Errno) {
	return &dirHandle{f: f}, fuse.FOPEN_CACHE_DIR | fuse.FOPEN_KEEP_CACHE, 0
}

type dirHandle struct {
	f  *fnode
	ds gofs.DirStream
}

var _ gofs.FileReaddirenter = (*dirHandle)(nil)

func (d *dirHandle) Readdirent(ctx context.Context) (*fuse.DirEntry, syscall.Errno) {
	if d.ds == nil {
		ds, e := d.f.Readdir(ctx)
		if e != 0 {
			return nil, e
		}
		d.ds = ds
	}
	if !d.ds.HasNext() {
		return nil, 0
	}
	de, e := d.ds.Next()
	return &de, e
}

func (d *dirHandle) Seekdir(ctx context.Context, off uint64) syscall.Errno {
	if d.ds == nil {
		ds, e := d.f.Readdir(ctx)
		if e != 0 {
			return e
		}
		d.ds = ds
	}
	if sd, ok := d.ds.(gofs.FileSeekdirer); ok {
		return sd.Seekdir(ctx, off)
	}
	return syscall.ENOTSUP
}

func (d *dirHandle) Releasedir(ctx context.Context, flags uint32) {
	if d.ds != nil {
		d.ds.Close()
	}
}

func (f *fnode) Readdir(ctx context.Context) (gofs.DirStream, syscall.Errno) {
	n, e := f.node(ctx)
	if e != 0 {
		return nil, e
	}
	// The kernel reads a large folder a few dozen entries per request,
	// each through a handle of its own: list it once per snapshot.
	f.mu.Lock()
	if f.list != nil && f.listSnap == n.snap {
		es := f.list
		f.mu.Unlock()
		return gofs.NewListDirStream(es), 0
	}
	f.mu.Unlock()
	cs, err := f.s.v.readDir(ctx, n)
	if err != nil {
		return nil, errno(err)
	}
	es := make([]fuse.DirEntry, 0, len(cs)+2)
	es = append(es, fuse.DirEntry{Name: ".", Mode: syscall.S_IFDIR, Ino: dirIno(f.path)},
		fuse.DirEntry{Name: "..", Mode: syscall.S_IFDIR, Ino: dirIno(path.Dir(f.path))})
	for _, c := range cs {
		es = append(es, fuse.DirEntry{Name: c.name(), Mode: fuseMode(c.mode), Ino: ino(c.path, c.mode)})
	}
	if n.kind != kSearches {
		f.mu.Lock()
		f.list, f.listSnap = es, n.snap
		f.mu.Unlock()
	}
	return gofs.NewListDirStream(es), 0
}

// handlelessDirs answers the kernel's OPENDIR with ENOSYS, after which it
// sends none (and no RELEASEDIR), and keeps listings in its cache; a
// listing it asks for without a handle is read through a handle opened
// for that one request. On a warm grep -r or find, the two round trips
// per folder were most of what the mount cost over the native disk.
type handlelessDirs struct{ fuse.RawFileSystem }

func (h handlelessDirs) OpenDir(cancel <-chan struct{}, in *fuse.OpenIn, out *fuse.OpenOut) fuse.Status {
	return fuse.ENOSYS
}

func (h handlelessDirs) ReadDir(cancel <-chan struct{}, in *fuse.ReadIn, out *fuse.DirEntryList) fuse.Status {
	return h.read(cancel, in, out, h.RawFileSystem.ReadDir)
}

func (h handlelessDirs) ReadDirPlus(cancel <-chan struct{}, in *fuse.ReadIn, out *fuse.DirEntryList) fuse.Status {
	return h.read(cancel, in, out, h.RawFileSystem.ReadDirPlus)
}

func (h handlelessDirs) read(cancel <-chan struct{}, in *fuse.ReadIn, out *fuse.DirEntryList, read func(<-chan struct{}, *fuse.ReadIn, *fuse.DirEntryList) fuse.Status) fuse.Status {
	if in.Fh != 0 {
		return read(cancel, in, out)
	}
	var oo fuse.OpenOut
	if st := h.RawFileSystem.OpenDir(cancel, &fuse.OpenIn{InHeader: in.InHeader}, &oo); !st.Ok() {
		return st
	}
	defer h.RawFileSystem.ReleaseDir(&fuse.ReleaseIn{InHeader: in.InHeader, Fh: oo.Fh})
	with := *in
	with.Fh = oo.Fh
	return read(cancel, &with, out)
}

func (h handlelessDirs) ReleaseDir(in *fuse.ReleaseIn) {
	if in.Fh != 0 {
		h.RawFileSystem.ReleaseDir(in)
	}
}

// Open is not implemented on purpose: the kernel then stops sending
// opens at all, keeps file pages cached across opens, and reads come
// without a handle. Content that changes is invalidated explicitly.
func (f *fnode) Open(ctx context.Context, flags uint32) (gofs.FileHandle, uint32, syscall.Errno) {
	if flags&(syscall.O_WRONLY|syscall.O_RDWR|syscall.O_TRUNC|syscall.O_APPEND|syscall.O_CREAT) != 0 {
		return nil, 0, syscall.EROFS
	}
	return nil, 0, syscall.ENOSYS
}

// Flush is not implemented either: after the first ENOSYS the kernel
// stops sending one on every close, which would otherwise cost a round
// trip per file that grep -r reads.
func (f *fnode) Flush(ctx context.Context, fh gofs.FileHandle) syscall.Errno {
	return syscall.ENOSYS
}

func (f *fnode) Read(ctx context.Context, fh gofs.FileHandle, dest []byte, off int64) (fuse.ReadResult, syscall.Errno) {
	n, e := f.node(ctx)
	if e != 0 {
		return nil, e
	}
	if n.isDir() {
		return nil, syscall.EISDIR
	}
	b, err := f.s.v.read(ctx, n)
	if err != nil {
		return nil, errno(err)
	}
	if off >= int64(len(b)) {
		return fuse.ReadResultData(nil), 0
	}
	end := min(off+int64(len(dest)), int64(len(b)))
	return fuse.ReadResultData(b[off:end]), 0
}

func (f *fnode) Readlink(ctx context.Context) ([]byte, syscall.Errno) {
	n, e := f.node(ctx)
	if e != 0 {
		return nil, e
	}
	if n.kind != kLink {
		return nil, syscall.EINVAL
	}
	return []byte(n.target), 0
}

func (f *fnode) Statfs(ctx context.Context, out *fuse.StatfsOut) syscall.Errno {
	out.Bsize = 4096
	out.Frsize = 4096
	out.NameLen = 255
	return 0
}

// Setattr refuses changes: the view is read-only. The kernel refuses
// most writes itself, as the mount is read-only.
func (f *fnode) Setattr(ctx context.Context, fh gofs.FileHandle, in *fuse.SetAttrIn, out *fuse.AttrOut) syscall.Errno {
	return syscall.EROFS
}
