package model

import (
	"fmt"
	"strings"
)

// Entry is an item and where it lives.
type Entry struct {
	Item  *Item
	Path  string // repository path
	Layer Layer
}

// Layer is where an item sits in the memory hierarchy.
type Layer string

// The layers of the seed design.
const (
	LayerCore     Layer = "core"     // core/: durable, always relevant
	LayerActive   Layer = "active"   // sessions/: the current and recent sessions
	LayerArchival Layer = "archival" // archive/ and everything else, reached through search
)

// ParseLayer reads a layer name.
func ParseLayer(s string) (Layer, error) {
	switch l := Layer(strings.ToLower(s)); l {
	case LayerCore, LayerActive, LayerArchival:
		return l, nil
	}
	return "", fmt.Errorf("unknown layer %q: want core, active or archival", s)
}

// LayerOf returns the layer of a repository path.
func LayerOf(p string) Layer {
	switch first, _, _ := strings.Cut(p, "/"); first {
	case "core":
		return LayerCore
	case "sessions":
		return LayerActive
	}
	return LayerArchival
}

// ItemRoots are the folders that hold items.
var ItemRoots = []string{"core", "sessions", "archive"}
