// Package summarize turns a segment of an agent session into a Markdown
// section of the session's summary and candidate memory items (decisions,
// facts, patterns, preferences), with one of these providers:
//
//   - Extractive, the default: offline, deterministic, no model. It reads
//     the structure of the events (prompts, files read and changed,
//     commands and exit codes, failures and the fixes that followed, tests,
//     commits) and sorts the statements of the user's and the agent's
//     prose by kind: root causes, decisions and their reasons, rejected
//     alternatives, preferences, environment facts, open items.
//   - the model providers of package llm (the claude command, the
//     Anthropic Messages API, OpenAI-compatible endpoints), which build
//     on this package's types and write the same sections; llm.New
//     builds the one a Config names, behind a Fallback to Extractive.
//
// Callers redact secrets (package redact) and cut giant tool outputs
// before text reaches a Summarizer: a model provider sends what it is
// given to a model, which may be a remote service.
//
// Every provider writes the same sections (see Extractive) and proposes
// Candidates with a Subject; ClaimOf reads a statement's subject, value
// and what it gives up, for consolidation to replace an item whose value
// changed.
//
// The package imports nothing of cairn's memory, index or agents: its
// input is a Segment of Turns, its readers of text are package prose, its
// own subpackages (telling, pick, block, agree, offer, edits, manifest,
// runout, …) and shellcmd.
package summarize
