// Package still reads what a bullet of an older session's summary still
// says once the sessions after it had their say: the clauses a newer
// session changed or took back are gone, a to-do dealt with is done, a
// rule's reason does not stay behind without its rule, and a request
// keeps what it states, not what it asked. The context pack
// (internal/recall) shows what is left.
package still
