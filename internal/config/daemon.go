package config

// Daemon is the daemon: section of cairn.yaml: how the long-running
// process uses memory. Short commands are not concerned: they trade
// memory for speed and exit.
type Daemon struct {
	// MemoryLimitMiB is the daemon's soft memory limit, in MiB: nearing
	// it, the Go runtime collects garbage more often and returns freed
	// memory to the system sooner. It bounds the Go heap, not the search
	// index's files mapped into memory. 0 means DefaultDaemonMemoryMiB;
	// GOMEMLIMIT in the daemon's environment wins over it.
	MemoryLimitMiB int64 `yaml:"memory_limit_mib"`
	// Autostart lets a session start run the daemon, in the background,
	// when none runs; on by default. Off, the daemon runs only when
	// started (cairn daemon start, or a service from cairn daemon
	// install), and session starts capture what waits themselves.
	Autostart *bool `yaml:"autostart"`
}

// Autostarts reports whether a session start runs the daemon when none
// runs.
func (d Daemon) Autostarts() bool { return d.Autostart == nil || *d.Autostart }

// DefaultDaemonMemoryMiB is daemon.memory_limit_mib's default.
const DefaultDaemonMemoryMiB = 200

// MemoryLimit returns daemon.memory_limit_mib in bytes, with 0 read as
// the default.
func (d Daemon) MemoryLimit() int64 {
	mib := d.MemoryLimitMiB
	if mib <= 0 {
		mib = DefaultDaemonMemoryMiB
	}
	return mib << 20
}
