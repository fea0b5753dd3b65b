package llm

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/cairn-mem/cairn/internal/summarize"
)

func TestNew(t *testing.T) {
	state := t.TempDir()
	env := map[string]string{"ANTHROPIC_API_KEY": "sk-test", "MY_KEY": "other"}
	getenv := func(k string) string { return env[k] }
	for _, tc := range []struct {
		cfg  summarize.Config
		want string // the primary's type, or an error
	}{
		{summarize.Config{}, "summarize.Extractive"},
		{summarize.Config{Provider: "extractive"}, "summarize.Extractive"},
		{summarize.Config{Provider: "claude"}, "*summarize.ClaudeCLI"},
		{summarize.Config{Provider: "anthropic"}, "*summarize.Anthropic"},
		{summarize.Config{Provider: "anthropic", APIKeyEnv: "NOPE"}, "no API key in $NOPE"},
		{summarize.Config{Provider: "openai", BaseURL: "http://localhost:11434", Model: "llama3.2"}, "*summarize.OpenAI"},
		{summarize.Config{Provider: "openai"}, "model and base_url are required"},
		{summarize.Config{Provider: "gpt"}, `unknown provider "gpt"`},
	} {
		s, err := New(tc.cfg, state, getenv)
		got := ""
		switch v := s.(type) {
		case nil:
			got = "error: " + err.Error()
		case summarize.Extractive:
			got = "summarize.Extractive"
		case *summarize.Fallback:
			if _, ok := v.Secondary.(summarize.Extractive); !ok {
				t.Errorf("%+v: fallback %T", tc.cfg, v.Secondary)
			}
			switch p := v.Primary.(type) {
			case *ClaudeCLI:
				got = "*summarize.ClaudeCLI"
				if p.ConfigDir != filepath.Join(state, "claude") || p.Budget.DailyTokens != summarize.DefaultDailyTokens {
					t.Errorf("claude: %+v", p)
				}
			case *Anthropic:
				got = "*summarize.Anthropic"
				if p.APIKey != "sk-test" || p.Budget.Path != filepath.Join(state, "usage.json") {
					t.Errorf("anthropic: %+v", p)
				}
			case *OpenAI:
				got = "*summarize.OpenAI"
			}
		}
		if !strings.Contains(got, tc.want) {
			t.Errorf("New(%+v) = %s, want %s", tc.cfg, got, tc.want)
		}
	}
}
