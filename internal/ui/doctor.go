package ui

import (
	"fmt"
	"io"

	"github.com/cairn-mem/cairn/internal/doctor"
)

// DoctorJSON writes the report (cairn doctor --json).
func DoctorJSON(w io.Writer, r *doctor.Report) error { return JSON(w, r) }

// DoctorText writes a line per finding, and the fix under it.
func DoctorText(w io.Writer, r *doctor.Report) error {
	for _, c := range r.Checks {
		fmt.Fprintf(w, "%-5s %-8s %s\n", c.Status, c.Name, Escape(c.Detail))
		if c.Fix != "" {
			fmt.Fprintf(w, "%-14s fix: %s\n", "", Escape(c.Fix))
		}
	}
	return nil
}
