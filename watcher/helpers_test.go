package watcher

// len says how many keys wait.
func (d *debouncer) len() int { return len(d.keys) }
