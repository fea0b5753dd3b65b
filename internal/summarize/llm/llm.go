package llm

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/cairn-mem/cairn/internal/summarize"
)

// DefaultModel is the model of the Anthropic and claude CLI providers
// when none is configured: a cheap one, since summaries run often.
const DefaultModel = "claude-haiku-4-5"

// asker sends one prompt to a model and returns its answer and what it
// cost. An answer cut short still returns its usage with the error.
type asker func(ctx context.Context, system, prompt string) (answer string, u summarize.Usage, err error)

// llmCall is what the model providers share.
type llmCall struct {
	name    string
	budget  *Budget
	retry   Retry
	timeout time.Duration // of one try
	// reserve is added to the prompt's estimated tokens when checking the
	// budget: the answer's share.
	reserve int64
	ask     asker
}

// summarize builds the prompt, checks the budget, asks with retries
// (recording each try's usage), and parses the answer.
func (c llmCall) summarize(ctx context.Context, req summarize.Request) (summarize.Result, error) {
	fail := func(err error) (summarize.Result, error) {
		return summarize.Result{}, fmt.Errorf("summarize: %s: %w", c.name, err)
	}
	if err := ctx.Err(); err != nil {
		return summarize.Result{}, err
	}
	index := summarize.SegmentIndex(req)
	head := summarize.Heading(index, req.Segment.Turns)
	prompt, err := buildPrompt(req, index, head)
	if err != nil {
		return summarize.Result{}, err
	}
	estimate := int64(len(SystemPrompt)+len(prompt))/4 + c.reserve
	if err := c.budget.Check(estimate); err != nil {
		return fail(err)
	}
	var (
		usage  summarize.Usage
		answer string
	)
	err = c.retry.do(ctx, func(ctx context.Context) error {
		tctx, cancel := context.WithTimeout(ctx, c.timeout)
		defer cancel()
		a, u, err := c.ask(tctx, SystemPrompt, prompt)
		if u.Total() > 0 {
			usage.InputTokens += u.InputTokens
			usage.OutputTokens += u.OutputTokens
			if rerr := c.budget.Record(c.name, u); rerr != nil {
				return errors.Join(err, rerr)
			}
		}
		if err != nil {
			if ctx.Err() == nil && tctx.Err() == context.DeadlineExceeded {
				return fmt.Errorf("%w after %s: %w", errTimeout, c.timeout, err)
			}
			return err
		}
		answer = a
		return nil
	})
	if err != nil {
		if ctx.Err() != nil {
			return summarize.Result{}, ctx.Err()
		}
		return fail(err)
	}
	summary, items, err := ParseLLMOutput(answer)
	if err != nil {
		return fail(err)
	}
	summary, untrue := quoteUntrue(summary, bounded(req.Earlier, maxPromptEarlier)) // the numbers the prompt gave
	return summarize.Result{
		Summary:  normalizeSummary(summary, head),
		Items:    items,
		Untrue:   untrue,
		Usage:    usage,
		Provider: c.name,
	}, nil
}
