package memory

import (
	"errors"
	"fmt"
	"os"
	"time"

	"gopkg.in/yaml.v3"
)

// Config is the shared configuration in cairn.yaml. Unknown keys are
// ignored, so a newer cairn's configuration still loads.
type Config struct {
	Schema int `yaml:"schema"`
	// LockTimeout bounds how long a writer waits for another.
	LockTimeout Duration `yaml:"lock_timeout"`
	Checkpoint  struct {
		// Auto makes remember, forget and edit commit at once.
		Auto *bool `yaml:"auto"`
	} `yaml:"checkpoint"`
}

// Duration is a time.Duration written as "10s" in YAML.
type Duration time.Duration

// UnmarshalYAML reads "10s", "1m30s" or a number of seconds.
func (d *Duration) UnmarshalYAML(n *yaml.Node) error {
	if v, err := time.ParseDuration(n.Value); err == nil {
		*d = Duration(v)
		return nil
	}
	var secs float64
	if err := n.Decode(&secs); err != nil {
		return fmt.Errorf("line %d: want a duration like 10s, got %q", n.Line, n.Value)
	}
	*d = Duration(secs * float64(time.Second))
	return nil
}

// AutoCheckpoint reports whether item changes commit at once.
func (c *Config) AutoCheckpoint() bool { return c.Checkpoint.Auto == nil || *c.Checkpoint.Auto }

func defaultConfig() Config {
	return Config{Schema: 1, LockTimeout: Duration(10 * time.Second)}
}

// loadConfig reads cairn.yaml; a missing file means the defaults.
func loadConfig(name string) (Config, error) {
	c := defaultConfig()
	b, err := os.ReadFile(name)
	if errors.Is(err, os.ErrNotExist) {
		return c, nil
	}
	if err != nil {
		return c, fmt.Errorf("read config: %w", err)
	}
	if err := yaml.Unmarshal(b, &c); err != nil {
		return defaultConfig(), fmt.Errorf("config %s: %w", name, err)
	}
	if c.LockTimeout <= 0 {
		c.LockTimeout = Duration(10 * time.Second)
	}
	return c, nil
}
