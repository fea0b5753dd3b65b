package summarize

import "github.com/cairn-mem/cairn/internal/prose"

// ClaimOf reads the claim of a statement of kind k (see package prose).
// It never fails: a statement it cannot read has an empty claim.
func ClaimOf(k Kind, text string) prose.Claim {
	switch k {
	case Fact:
		return prose.FactClaim(text)
	case Decision:
		return prose.DecisionClaim(text)
	default:
		return prose.TopicClaim(text)
	}
}
