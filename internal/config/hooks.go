package config

// Hooks is the hooks: section of cairn.yaml: what the agent hooks
// that cairn init --claude installs do besides capturing.
type Hooks struct {
	// PromptContext adds the memories most relevant to each prompt to
	// the agent's context (UserPromptSubmit). Off by default: the
	// session's start already brings the context pack, and every prompt
	// would pay for a search. Run cairn init --claude again after
	// changing it, to register or unregister the hook.
	PromptContext bool `yaml:"prompt_context"`
	// PromptMemories is how many memories a prompt gets at most; 0 means
	// DefaultPromptMemories.
	PromptMemories int `yaml:"prompt_memories"`
}

// DefaultPromptMemories is how many memories per-prompt injection adds.
const DefaultPromptMemories = 3

// Memories is how many memories a prompt gets.
func (c Hooks) Memories() int { return positive(c.PromptMemories, DefaultPromptMemories) }
