package llm

import (
	"fmt"
	"path/filepath"

	"github.com/cairn-mem/cairn/internal/summarize"
)

// New returns the configured Summarizer. A model provider comes behind a
// Fallback to Extractive, with a Budget whose file is
// stateDir/usage.json; the claude provider's configuration directory is
// stateDir/claude. getenv reads the environment (os.Getenv).
func New(cfg summarize.Config, stateDir string, getenv func(string) string) (summarize.Summarizer, error) {
	if cfg.Provider == "" || cfg.Provider == "extractive" {
		return summarize.Extractive{}, nil
	}
	if stateDir == "" {
		return nil, fmt.Errorf("summarize: provider %s: no state directory for its usage and configuration", cfg.Provider)
	}
	daily := cfg.DailyTokens
	if daily == 0 {
		daily = summarize.DefaultDailyTokens
	}
	budget := &Budget{Path: filepath.Join(stateDir, "usage.json"), DailyTokens: daily}
	key := func(def string) string {
		name := cfg.APIKeyEnv
		if name == "" {
			name = def
		}
		return getenv(name)
	}
	var primary summarize.Summarizer
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
	return summarize.NewFallback(primary, summarize.Extractive{}), nil
}

func firstNonEmpty(s ...string) string {
	for _, x := range s {
		if x != "" {
			return x
		}
	}
	return ""
}
