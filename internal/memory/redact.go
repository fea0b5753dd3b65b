package memory

import (
	"fmt"

	"github.com/cairn-mem/cairn/internal/redact"
)

// Redactor returns the configured redaction rules, compiled at the first
// call: every checkpoint and every batch of writes asks for them, and the
// configuration is read once, when the memory is opened.
func (m *Memory) Redactor() (*redact.Redactor, error) {
	m.red.once.Do(func() {
		m.red.r, m.red.err = redact.New(m.Config.Capture.Redact)
		if m.red.err != nil {
			m.red.err = fmt.Errorf("cairn.yaml capture.redact: %w", m.red.err)
		}
	})
	return m.red.r, m.red.err
}
