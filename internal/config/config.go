package config

import (
	"errors"
	"fmt"
	"math"
	"os"
	"strconv"
	"strings"
	"time"

	"gopkg.in/yaml.v3"
)

// File is the memory's configuration, at the top of the work tree.
const File = "cairn.yaml"

// Config is the shared configuration in cairn.yaml, read and checked by
// Parse (config_check.go). Unknown keys are ignored, with a
// warning, so a newer cairn's configuration still loads.
type Config struct {
	Schema int `yaml:"schema"`
	// LockTimeout bounds how long a writer waits for another.
	LockTimeout Duration `yaml:"lock_timeout"`
	Checkpoint  struct {
		// Auto makes remember, forget and edit commit at once.
		Auto *bool `yaml:"auto"`
	} `yaml:"checkpoint"`
	// Search configures the index, the ranking and the context pack.
	Search Search `yaml:"search"`
	// Capture says how agent sessions become memory (capture_config.go).
	Capture Capture `yaml:"capture"`
	// Summarize chooses the summarizer of session segments.
	Summarize Summarize `yaml:"summarize"`
	// Hooks configures the agent hooks (hook_config.go).
	Hooks Hooks `yaml:"hooks"`
	// Sync says when the daemon syncs with the remotes (sync_config.go).
	Sync Sync `yaml:"sync"`
	// Daemon says how the daemon uses memory (daemon.go).
	Daemon Daemon `yaml:"daemon"`
	// Encrypt says which files git holds encrypted (encrypt.go).
	Encrypt Encrypt `yaml:"encrypt"`
}

// Search is the search: section of cairn.yaml. Keys left out keep
// their defaults (see defaultConfig); changing the chunking or the
// embedder makes the next search rebuild the index.
type Search struct {
	ChunkTokens   int `yaml:"chunk_tokens"`   // most tokens in a chunk
	OverlapTokens int `yaml:"overlap_tokens"` // tokens a chunk repeats from the one before
	// Weights of the rerank: score = relevance*r + recency*t +
	// importance*i + references*f.
	Weights struct {
		Relevance  float64 `yaml:"relevance"`
		Recency    float64 `yaml:"recency"`
		Importance float64 `yaml:"importance"`
		References float64 `yaml:"references"`
	} `yaml:"weights"`
	// RecencyHalfLifeDays is the age at which recency falls to one half.
	RecencyHalfLifeDays float64  `yaml:"recency_half_life_days"`
	Embedder            Embedder `yaml:"embedder"`
	// MinSimilarity drops hits only vector search found whose cosine
	// similarity is lower; below 0 means the embedder's own floor
	// (0.05 for the built-in one, none for others).
	MinSimilarity float64 `yaml:"min_similarity"`
	// VectorWeight is the weight of the vector ranking in hybrid search,
	// the keyword ranking's being 1; below 0 means the embedder's own
	// (docs/search.md: measured for the built-in one).
	VectorWeight float64 `yaml:"vector_weight"`
	// MinMatch is the least share of a query a hit must hold (its
	// match score, 0..1; docs/search.md) not to be faint: the prompt
	// hook, MCP search and the context pack leave faint hits out, and
	// cairn search shows them only with --all.
	MinMatch float64 `yaml:"min_match"`
	// Associations add to a keyword query the words the memory most
	// often has beside its words (docs/search.md).
	Associations Associations `yaml:"associations"`
	// ContextBudget is cairn context's default budget, in tokens.
	ContextBudget int `yaml:"context_budget"`
	// MaxFileBytes is the most of one file the index reads and chunks;
	// the rest of a larger file is not searchable (said once per file).
	// 0 means DefaultMaxFileBytes.
	MaxFileBytes int64 `yaml:"max_file_bytes"`
}

// Associations are search.associations: how many related words a
// keyword query takes (0: none) and the weight of the strongest against
// a query word's 1 (the others weigh less, in proportion).
type Associations struct {
	Words  int     `yaml:"words"`
	Weight float64 `yaml:"weight"`
}

// DefaultContextBudget is search.context_budget's default, in tokens:
// on the pack-recall benchmark (bench/recall) 2,000 carries more of what
// the next session needs than 1,500 (recall 0.84 → 0.88 on the
// development projects) with no more stale facts, and its largest pack
// was 7,910 characters, well under the 10,000 at which Claude Code cuts
// a hook's output.
const DefaultContextBudget = 2000

// DefaultMinMatch is search.min_match's default, chosen on a labelled
// set of related and unrelated queries (internal/recall's
// TestMatchThreshold).
const DefaultMinMatch = 0.4

// Size limits' defaults.
const (
	DefaultMaxFileBytes = 1 << 20  // search.max_file_bytes: 1 MiB
	DefaultMaxBlobBytes = 16 << 20 // sync.max_blob_bytes: 16 MiB
	// MaxSizeLimit bounds both keys: a limit above 1 GiB is no limit.
	MaxSizeLimit = 1 << 30
	// MinSizeLimit is the least either key may be set to.
	MinSizeLimit = 1 << 10
)

// FileLimit is search.max_file_bytes, with 0 read as the default.
func (s Search) FileLimit() int64 {
	if s.MaxFileBytes <= 0 {
		return DefaultMaxFileBytes
	}
	return s.MaxFileBytes
}

// Embedder chooses what makes the search vectors.
type Embedder struct {
	Provider   string `yaml:"provider"` // builtin or openai-compatible
	BaseURL    string `yaml:"base_url"`
	Model      string `yaml:"model"`
	Dimensions int    `yaml:"dimensions"`
	// APIKeyEnv names the environment variable that holds the API key,
	// so that the key itself is never committed.
	APIKeyEnv string   `yaml:"api_key_env"`
	Timeout   Duration `yaml:"timeout"`
}

// maxDurationSecs bounds a duration written as a number of seconds (about
// 100 years), below where a time.Duration overflows.
const maxDurationSecs = 100 * 365 * 24 * 3600

// Duration is a time.Duration written as "10s" in YAML.
type Duration time.Duration

// UnmarshalYAML reads "10s", "1m30s", a number of days ("90d": retention
// is counted in days) or a number of seconds.
func (d *Duration) UnmarshalYAML(n *yaml.Node) error {
	if v, err := time.ParseDuration(n.Value); err == nil {
		*d = Duration(v)
		return nil
	}
	if days, ok := strings.CutSuffix(n.Value, "d"); ok {
		if v, err := strconv.ParseFloat(days, 64); err == nil && v >= 0 && v*86400 <= maxDurationSecs {
			*d = Duration(v * float64(24*time.Hour))
			return nil
		}
	}
	var secs float64
	if err := n.Decode(&secs); err != nil || math.IsNaN(secs) || math.Abs(secs) > maxDurationSecs {
		return fmt.Errorf("want a duration like 10s, got %q", n.Value)
	}
	*d = Duration(secs * float64(time.Second))
	return nil
}

// AutoCheckpoint reports whether item changes commit at once.
func (c *Config) AutoCheckpoint() bool { return c.Checkpoint.Auto == nil || *c.Checkpoint.Auto }

func Default() Config {
	c := Config{Schema: 1, LockTimeout: Duration(10 * time.Second)}
	s := &c.Search
	s.ChunkTokens, s.OverlapTokens = 512, 50
	s.Weights.Relevance, s.Weights.Recency, s.Weights.Importance, s.Weights.References = 0.4, 0.2, 0.3, 0.1
	s.RecencyHalfLifeDays = 30
	s.MinSimilarity = -1
	s.VectorWeight = -1
	s.MinMatch = DefaultMinMatch
	s.Associations = Associations{Words: 5, Weight: 0.2}
	s.Embedder.Provider = "builtin"
	s.Embedder.Timeout = Duration(30 * time.Second)
	s.ContextBudget = DefaultContextBudget
	s.MaxFileBytes = DefaultMaxFileBytes
	c.Sync.MaxBlobBytes = DefaultMaxBlobBytes
	return c
}

// Load reads cairn.yaml; a missing file means the defaults. Invalid
// keys keep their defaults and are named in the error; unknown keys are
// returned apart.
func Load(name string) (Config, []Problem, error) {
	b, err := os.ReadFile(name)
	if errors.Is(err, os.ErrNotExist) {
		return Default(), nil, nil
	}
	if err != nil {
		return Default(), nil, fmt.Errorf("read config: %w", err)
	}
	return Check(b)
}

// Warning is the one line a command prints about its own cairn.yaml:
// the invalid keys (their defaults are used) and the unknown ones.
func Warning(err error, unknown []Problem) string {
	var parts []string
	if ce, ok := errors.AsType[*Error](err); ok {
		for _, p := range ce.Problems {
			parts = append(parts, p.String())
		}
	} else if err != nil {
		parts = append(parts, err.Error())
	}
	for _, p := range unknown {
		parts = append(parts, p.String())
	}
	if len(parts) == 0 {
		return ""
	}
	msg := File + ": " + strings.Join(parts, "; ")
	switch ce, ok := errors.AsType[*Error](err); {
	case ok && ce.Problems[0].Key != "":
		msg += "; using the defaults for the invalid keys"
	case err != nil:
		msg += "; using the defaults"
	}
	return msg
}
