package model

// ItemChange is what consolidation or sharing did to one core item.
type ItemChange struct {
	Action     string `json:"action"` // added, confirmed, superseded, shared
	ID         string `json:"id"`
	Kind       Kind   `json:"kind"`
	Title      string `json:"title"`
	Path       string `json:"path"`
	Supersedes string `json:"supersedes,omitempty"`
}

// The front-matter keys consolidation and sharing add to items.
const (
	KeySupersedes    = "supersedes"     // the item this one replaced
	KeySubject       = "subject"        // what the item is about ("api port"): a later item about it replaces this one
	KeySharedFrom    = "shared_from"    // the session an item was shared from
	KeySharedItem    = "shared_item"    // the id of the item copied
	KeySharedProject = "shared_project" // the project an item was shared from
)
