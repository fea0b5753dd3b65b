package redact

// Redact redacts text with the built-in rules only: the tests' shorthand.
func Redact(text string) (string, []Finding) {
	var r Redactor
	return r.Redact(text)
}
