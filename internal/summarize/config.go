package summarize

import "time"

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
