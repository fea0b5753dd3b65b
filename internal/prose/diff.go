package prose

// OneDiffers is the one place where a and b, of the same length, hold
// different words; -1 when they differ in none, in more than one, or in
// length.
func OneDiffers(a, b []string) int {
	if len(a) != len(b) {
		return -1
	}
	differ := -1
	for i := range a {
		if a[i] != b[i] {
			if differ >= 0 {
				return -1
			}
			differ = i
		}
	}
	return differ
}
