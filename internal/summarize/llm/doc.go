// Package llm holds summarize's model providers: ClaudeCLI (the claude
// command in print mode, with no tools, its own configuration directory
// and CAIRN_SUMMARIZER=1 in its environment, so that its sessions stay
// out of the user's resume list and cairn's hooks can ignore them),
// Anthropic (the Messages API) and OpenAI (any OpenAI-compatible chat
// completions endpoint: Ollama, llama.cpp, LM Studio, vLLM, OpenAI).
//
// They share an initial prompt for a session's first segment and a
// continuation prompt that carries the summary so far (InitPrompt,
// ContinuationPrompt), parse the answer strictly (ParseLLMOutput), retry
// timeouts, 429s and 5xx with bounded backoff (Retry), and stop for the
// day when a Budget of tokens is spent. New builds the configured
// summarize.Summarizer from a summarize.Config: a model behind a
// summarize.Fallback to summarize.Extractive.
//
// The providers send what they are given to a model, which may be a
// remote service: callers redact secrets first (package redact).
package llm
