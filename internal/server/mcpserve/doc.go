// Package mcpserve is the MCP server that cairn mcp runs on stdio for an
// agent (docs/mcp.md): the search, get, timeline, remember, checkpoint,
// context and session-status tools, answered through the daemon when one
// runs and from the memory and its index otherwise, with a filter in
// front of stdin that answers malformed lines instead of dropping the
// connection.
package mcpserve
