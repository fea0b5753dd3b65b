// Package summarize turns a segment of an agent session into a Markdown
// section of the session's summary and candidate memory items (decisions,
// facts, patterns, preferences), with one of four providers:
//
//   - Extractive, the default: offline, deterministic, no model. It reads
//     the structure of the events (prompts, files read and changed,
//     commands and exit codes, failures and the fixes that followed, tests,
//     commits) and sorts the statements of the user's and the agent's
//     prose by kind: root causes, decisions and their reasons, rejected
//     alternatives, preferences, environment facts, open items.
//   - ClaudeCLI: the claude command in print mode, with no tools, its own
//     configuration directory and CAIRN_SUMMARIZER=1 in its environment, so
//     that its sessions stay out of the user's resume list and cairn's hooks
//     can ignore them.
//   - Anthropic: the Messages API.
//   - OpenAI: any OpenAI-compatible chat completions endpoint (Ollama,
//     llama.cpp, LM Studio, vLLM, OpenAI).
//
// The model providers share an initial prompt for a session's first
// segment and a continuation prompt that carries the summary so far
// (InitPrompt, ContinuationPrompt), parse the answer strictly
// (ParseLLMOutput), retry timeouts, 429s and 5xx with bounded backoff, and
// stop for the day when a Budget of tokens is spent. Fallback puts the
// extractive summarizer behind a model, and New builds that from a Config.
//
// Callers redact secrets (package redact) and cut giant tool outputs
// before text reaches a Summarizer: the model providers send what they are
// given to a model, which may be a remote service.
//
// Every provider writes the same sections (see Extractive) and proposes
// Candidates with a Subject; ClaimOf reads a statement's subject, value
// and what it gives up, for consolidation to replace an item whose value
// changed.
//
// The package imports nothing of cairn but package prose, which reads
// the statements: its input is a Segment of Turns.
package summarize
