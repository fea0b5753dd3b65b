// Package snippet cuts the snippet of a search hit: a short stretch of
// the chunk's text around the densest cluster of the query's terms, with
// the words that match them marked. It knows words only through the
// analyzer it is given, the index's own.
package snippet
