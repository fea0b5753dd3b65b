package main

import (
	"time"

	"github.com/cairn-mem/cairn/internal/model"
)

// jsonItem is how commands print an item under --json.
type jsonItem struct {
	ID         string    `json:"id"`
	Path       string    `json:"path"`
	Kind       string    `json:"kind"`
	Layer      string    `json:"layer"`
	Title      string    `json:"title"`
	Importance float64   `json:"importance"`
	Confidence float64   `json:"confidence"`
	Tags       []string  `json:"tags"`
	Session    string    `json:"session,omitempty"`
	Created    time.Time `json:"created"`
	Updated    time.Time `json:"updated"`
	Pinned     bool      `json:"pinned"`
	Body       string    `json:"body,omitempty"`
}

func itemJSON(it *model.Item, path string) jsonItem {
	tags := it.Tags
	if tags == nil {
		tags = []string{}
	}
	return jsonItem{
		ID: it.ID, Path: path, Kind: string(it.Kind), Layer: string(model.LayerOf(path)),
		Title: it.Title, Importance: it.Importance, Confidence: it.Confidence, Tags: tags,
		Session: it.Session, Created: it.Created, Updated: it.Updated, Pinned: it.Pinned, Body: it.Body,
	}
}
