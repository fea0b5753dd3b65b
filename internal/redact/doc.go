// Package redact removes secrets from text before it is written anywhere
// cairn keeps it (memory is committed and pushed), and cuts giant tool
// outputs down to their head and tail.
//
// Redact finds API keys and tokens of the common providers by their
// prefixes, private key blocks, JWTs, secrets assigned to secret-looking
// names (in code, YAML, JSON, .env files, XML, connection strings and
// command-line flags), credentials in URLs, Authorization and Bearer
// headers, and high-entropy strings next to secret-looking words ("the DB
// password is …"; such a value is the whole word, punctuation and non-ASCII
// characters included, less a sentence's closing punctuation). Each is
// replaced by a marker such as [REDACTED:aws-access-key]; other occurrences
// of a value found that way are replaced too. Text inside
// <private>…</private> is dropped without a marker. A Config adds patterns
// and an allowlist.
//
// Redact is a fixed point: redacting its output changes nothing. It
// reports what it found (kind and line) but never the secret itself.
//
// It scans the text once, byte by byte, looking only at word starts and a
// few punctuation marks, and runs no regular expression unless a Config
// adds some: see BenchmarkRedact for its speed.
//
// It imports nothing of cairn: it takes strings and returns strings.
package redact
