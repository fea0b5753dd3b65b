package config

// Sync is the sync: section of cairn.yaml: whether and when the
// daemon syncs with the remotes on its own. The daemon reads it when it
// starts.
type Sync struct {
	// Auto turns the daemon's syncing on or off; on by default, and it
	// does nothing until a remote is added.
	Auto *bool `yaml:"auto"`
	// After is how long after a checkpoint its sync runs, so that a burst
	// of checkpoints makes one sync; 0 means 10 seconds.
	After Duration `yaml:"after"`
	// Interval is the time between syncs when nothing happens here, to
	// bring in what other machines pushed; 0 means 5 minutes.
	Interval Duration `yaml:"interval"`
	// MaxBackoff is the longest wait after failed syncs (offline, a
	// server down); 0 means 30 minutes.
	MaxBackoff Duration `yaml:"max_backoff"`
	// MaxBlobBytes is the largest file a sync takes from a remote: a
	// fetched history whose merge would bring a bigger one is refused,
	// naming the path and its size, before the file is read. 0 means
	// DefaultMaxBlobBytes.
	MaxBlobBytes int64 `yaml:"max_blob_bytes"`
}

// BlobLimit is sync.max_blob_bytes, with 0 read as the default.
func (c Sync) BlobLimit() int64 {
	if c.MaxBlobBytes <= 0 {
		return DefaultMaxBlobBytes
	}
	return c.MaxBlobBytes
}

// Enabled reports whether the daemon syncs on its own.
func (c Sync) Enabled() bool { return c.Auto == nil || *c.Auto }
