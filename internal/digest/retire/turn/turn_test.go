package turn

import (
	"slices"
	"testing"
)

func TestSaidNo(t *testing.T) {
	for s, want := range map[string][]string{
		"we keep the whole board as a superloop, no RTOS, it does three things": {"rtos"},
		"COBS + CRC16, without Nanopb for now":                                  {"nanopb"},
		"There is no need for a heap, and no runtime dependencies at all.":      nil,
	} {
		if got := SaidNo(s); !slices.Equal(got, want) {
			t.Errorf("SaidNo(%q) = %q, want %q", s, got, want)
		}
	}
}

func TestTookAfterAll(t *testing.T) {
	for _, tc := range []struct {
		n    string
		no   []string
		want bool
	}{
		{"We're going to move to FreeRTOS after all.", []string{"rtos"}, true},
		{"Let's use Nanopb after all.", []string{"nanopb"}, true},
		{"Turns out we need Redis after all, but still no Kafka.", []string{"kafka"}, false},
	} {
		if got := TookAfterAll(tc.n, tc.no); got != tc.want {
			t.Errorf("TookAfterAll(%q, %q) = %v, want %v", tc.n, tc.no, got, tc.want)
		}
	}
}
