package ui

import (
	"context"
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

// Doctor is cairn doctor: it runs the checks and prints the report; a
// failed check makes an error.
func Doctor(ctx context.Context, w io.Writer, opts doctor.Options, asJSON bool) error {
	r := doctor.Run(ctx, opts)
	fails := r.Fails()
	if asJSON {
		if err := DoctorJSON(w, r); err != nil {
			return err
		}
	} else {
		DoctorText(w, r)
	}
	if fails > 0 {
		return fmt.Errorf("doctor: %s", CountOf(fails, "problem", "problems"))
	}
	return nil
}
