// Package gemini reads Gemini CLI's chat files into package transcript's
// events: ~/.gemini/tmp/<project>/chats/session-<YYYY-MM-DDTHH-MM>-<id8>.jsonl,
// where <project> is the short name ~/.gemini/projects.json gives the
// project's folder (older releases: the SHA-256 of its path, in hex).
//
// A chat file is JSON Lines, appended to: a metadata line (sessionId,
// projectHash, startTime, lastUpdated, kind), then the messages
// ({id, timestamp, type: user|gemini|info|error|warning, content, and for
// gemini toolCalls, thoughts, tokens, model}), each appended again, whole,
// every time it grows, and updates ({"$set": {...}}, {"$rewindTo": id}).
// Releases before that wrote one JSON document, rewritten whole, with the
// same fields and a "messages" list (session-*.json); Parse reads those
// too, whole.
//
// The format is Gemini's and lives apart from package transcript, whose
// parsers share a line builder this one does not need.
package gemini
