package summarize

import (
	"fmt"
	"path/filepath"
	"time"
)

// Config chooses and sets up a provider, as cairn.yaml says.
type Config struct {
	// Provider is extractive (the default), claude, anthropic or openai.
	Provider string `json:"provider,omitempty" yaml:"provider,omitempty"`
	Model    string `json:"model,omitempty" yaml:"model,omitempty"`
	BaseURL  string `json:"base_url,omitempty" yaml:"base_url,omitempty"`
	// APIKeyEnv names the environment variable holding the API key;
	// "" means ANTHROPIC_API_KEY for anthropic and OPENAI_API_KEY for
	// openai. Keys are never read from configuration files, which are
	// committed.
	APIKeyEnv string        `json:"api_key_env,omitempty" yaml:"api_key_env,omitempty"`
	Timeout   time.Duration `json:"timeout,omitempty" yaml:"timeout,omitempty"`
	MaxTokens int           `json:"max_tokens,omitempty" yaml:"max_tokens,omitempty"`
	// DailyTokens caps what model providers spend per day: 0 means
	// DefaultDailyTokens, a negative number means no cap.
	DailyTokens int64  `json:"daily_tokens,omitempty" yaml:"daily_tokens,omitempty"`
	ClaudePath  string `json:"claude_path,omitempty" yaml:"claude_path,omitempty"`
}

// DefaultDailyTokens is the daily budget of model providers unless
// configured: enough for some hundred segments with a cheap model.
const DefaultDailyTokens = 500_000

// New returns the configured Summarizer. A model provider comes behind a
// Fallback to Extractive, with a Budget whose file is
// stateDir/usage.json; the claude provider's configuration directory is
// stateDir/claude. getenv reads the environment (os.Getenv).
func New(cfg Config, stateDir string, getenv func(string) string) (Summarizer, error) {
	if cfg.Provider == "" || cfg.Provider == "extractive" {
		return Extractive{}, nil
	}
	if stateDir == "" {
		return nil, fmt.Errorf("summarize: provider %s: no state directory for its usage and configuration", cfg.Provider)
	}
	daily := cfg.DailyTokens
	if daily == 0 {
		daily = DefaultDailyTokens
	}
	budget := &Budget{Path: filepath.Join(stateDir, "usage.json"), DailyTokens: daily}
	key := func(def string) string {
		name := cfg.APIKeyEnv
		if name == "" {
			name = def
		}
		return getenv(name)
	}
	var primary Summarizer
	switch cfg.Provider {
	case "claude", "claude-cli":
		primary = &ClaudeCLI{Path: cfg.ClaudePath, Model: cfg.Model, ConfigDir: filepath.Join(stateDir, "claude"), Timeout: cfg.Timeout, Budget: budget}
	case "anthropic":
		k := key("ANTHROPIC_API_KEY")
		if k == "" {
			return nil, fmt.Errorf("summarize: provider anthropic: no API key in $%s", firstNonEmpty(cfg.APIKeyEnv, "ANTHROPIC_API_KEY"))
		}
		primary = &Anthropic{BaseURL: cfg.BaseURL, APIKey: k, Model: cfg.Model, MaxTokens: cfg.MaxTokens, Timeout: cfg.Timeout, Budget: budget}
	case "openai":
		if cfg.Model == "" || cfg.BaseURL == "" {
			return nil, fmt.Errorf("summarize: provider openai: model and base_url are required (e.g. base_url: http://localhost:11434 for Ollama)")
		}
		primary = &OpenAI{BaseURL: cfg.BaseURL, APIKey: key("OPENAI_API_KEY"), Model: cfg.Model, MaxTokens: cfg.MaxTokens, Timeout: cfg.Timeout, Budget: budget}
	default:
		return nil, fmt.Errorf("summarize: unknown provider %q: want extractive, claude, anthropic or openai", cfg.Provider)
	}
	return NewFallback(primary, Extractive{}), nil
}

func firstNonEmpty(s ...string) string {
	for _, x := range s {
		if x != "" {
			return x
		}
	}
	return ""
}
