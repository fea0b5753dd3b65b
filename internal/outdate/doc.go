// Package outdate takes back what an older session said and no longer
// holds, for the user (cairn outdated) and the agent (the MCP tool
// outdated): the statements a line of the pack names are quoted under
// "**No longer true**" in the running session's summary.md, which the
// pack reads (package quote), and the core items they title are retired.
package outdate
