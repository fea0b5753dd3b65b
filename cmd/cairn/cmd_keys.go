package main

import (
	"github.com/cairn-mem/cairn/internal/crypt"
	"github.com/cairn-mem/cairn/internal/memory"
	"github.com/cairn-mem/cairn/internal/ui"
	"github.com/spf13/cobra"
)

func newKeysCommand(g *globals) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "keys",
		Short: "Manage the age keys of encrypted paths",
		Long: `cairn.yaml's encrypt.paths are stored in git as age ciphertext for
encrypt.recipients (age or SSH public keys) and kept in plain text in the
work tree where a key opens them. The private key is $CAIRN_AGE_IDENTITY or
~/.config/cairn/age.key, never in the memory. add and remove change the
recipients and re-encrypt every encrypted file in one checkpoint; history
keeps what was encrypted before for the old recipients.`,
	}
	cmd.AddCommand(&cobra.Command{
		Use:   "init",
		Short: "Make this machine's age key if it has none, and print its public key",
		Args:  exactArgs(0),
		RunE: func(cmd *cobra.Command, args []string) error {
			file := crypt.IdentityFile(g.getenv)
			pub, created, err := crypt.InitIdentity(file)
			if err != nil {
				return err
			}
			ui.KeyInitText(g.stdout, file, pub, created)
			return nil
		},
	}, &cobra.Command{
		Use:   "list",
		Short: "List the recipients, the encrypted paths and this machine's key",
		Args:  exactArgs(0),
		RunE: func(cmd *cobra.Command, args []string) error {
			return withMemory(cmd.Context(), g, func(m *memory.Memory) error {
				e := m.Encryption()
				ui.KeysText(g.stdout, e)
				if e.Problem != "" {
					g.warn(e.Problem)
				}
				return nil
			})
		},
	}, &cobra.Command{
		Use:   "add RECIPIENT",
		Short: "Add an age or SSH public key and re-encrypt for it",
		Args:  exactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return withMemory(cmd.Context(), g, func(m *memory.Memory) error {
				cp, err := m.AddRecipient(cmd.Context(), args[0])
				return ui.RekeyedText(g.stdout, cp, err)
			})
		},
	}, &cobra.Command{
		Use:   "remove RECIPIENT",
		Short: "Remove a public key and re-encrypt without it",
		Args:  exactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return withMemory(cmd.Context(), g, func(m *memory.Memory) error {
				cp, err := m.RemoveRecipient(cmd.Context(), args[0])
				return ui.RekeyedText(g.stdout, cp, err)
			})
		},
	})
	return cmd
}
