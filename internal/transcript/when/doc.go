// Package when reads the dates and times that transcripts and chat exports
// write in prose and headings ("2025-03-09 19:45", "March 9, 2025",
// "1:56 pm on 8 May, 2023", RFC 3339 stamps), always as UTC.
package when
