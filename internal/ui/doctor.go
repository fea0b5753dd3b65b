package ui

import (
	"fmt"
	"io"
)

// Results of a check of cairn doctor.
const (
	CheckOK   = "ok"
	CheckWarn = "warn" // works, but less well than it could
	CheckFail = "fail" // broken: exit 1
)

// Check is one finding of cairn doctor.
type Check struct {
	Name   string `json:"name"`
	Status string `json:"status"`
	Detail string `json:"detail"`
	Fix    string `json:"fix,omitempty"`
}

// DoctorReport is what cairn doctor found; --json prints it.
type DoctorReport struct {
	OK     bool    `json:"ok"`
	Checks []Check `json:"checks"`
}

// Add records a finding.
func (r *DoctorReport) Add(name, status, detail, fix string) {
	r.Checks = append(r.Checks, Check{name, status, detail, fix})
}

// Fails counts the findings that are failures, and sets OK.
func (r *DoctorReport) Fails() int {
	n := 0
	for _, c := range r.Checks {
		if c.Status == CheckFail {
			n++
		}
	}
	r.OK = n == 0
	return n
}

// DoctorJSON writes the report (cairn doctor --json).
func DoctorJSON(w io.Writer, r *DoctorReport) error { return JSON(w, r) }

// DoctorText writes a line per finding, and the fix under it.
func DoctorText(w io.Writer, r *DoctorReport) error {
	for _, c := range r.Checks {
		fmt.Fprintf(w, "%-5s %-8s %s\n", c.Status, c.Name, Escape(c.Detail))
		if c.Fix != "" {
			fmt.Fprintf(w, "%-14s fix: %s\n", "", Escape(c.Fix))
		}
	}
	return nil
}
