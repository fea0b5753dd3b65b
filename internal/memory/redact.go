package memory

import (
	"fmt"

	"github.com/cairn-mem/cairn/internal/redact"
)

// Redactor compiles the configured redaction rules.
func (m *Memory) Redactor() (*redact.Redactor, error) {
	r, err := redact.New(m.Config.Capture.Redact)
	if err != nil {
		return nil, fmt.Errorf("cairn.yaml capture.redact: %w", err)
	}
	return r, nil
}
