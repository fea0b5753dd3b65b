package gitstore

import (
	"os"

	"github.com/go-git/go-git/v5/config"
)

// defaultIdentity completes id: what it lacks comes from
// CAIRN_AUTHOR_NAME and CAIRN_AUTHOR_EMAIL, else the user's git identity
// when one is configured, so that checkpoints read as theirs in a shared
// history, and "cairn" otherwise.
func defaultIdentity(id Identity) Identity {
	if id.Name == "" {
		id.Name = os.Getenv("CAIRN_AUTHOR_NAME")
	}
	if id.Email == "" {
		id.Email = os.Getenv("CAIRN_AUTHOR_EMAIL")
	}
	if id.Name == "" || id.Email == "" {
		if cfg, err := config.LoadConfig(config.GlobalScope); err == nil {
			if id.Name == "" {
				id.Name = cfg.User.Name
			}
			if id.Email == "" {
				id.Email = cfg.User.Email
			}
		}
	}
	if id.Name == "" {
		id.Name = "cairn"
	}
	if id.Email == "" {
		host, _ := os.Hostname()
		if host == "" {
			host = "localhost"
		}
		id.Email = "cairn@" + host
	}
	return id
}
