package llm

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"sync"
	"time"

	"github.com/cairn-mem/cairn/internal/safefile"
	"github.com/cairn-mem/cairn/internal/summarize"
)

// Budget caps the tokens model providers spend per day, and records what
// they spent in a small JSON file (for example
// .cairn/.state/summarize/usage.json), written atomically with mode 0600.
// Days are local calendar days. Several processes may share the file: a
// file lock serialises the updates.
//
// A nil *Budget allows everything and records nothing.
type Budget struct {
	Path string
	// DailyTokens is the most input plus output tokens per day; 0 or
	// less means no limit (usage is still recorded).
	DailyTokens int64
	// Now is the clock; nil means time.Now.
	Now func() time.Time

	mu sync.Mutex // between goroutines; the file lock is between processes
}

// DayUsage is one day's spending.
type DayUsage struct {
	InputTokens  int64                      `json:"input_tokens"`
	OutputTokens int64                      `json:"output_tokens"`
	Calls        int                        `json:"calls"`
	Providers    map[string]summarize.Usage `json:"providers,omitempty"`
}

// Total is input plus output tokens.
func (d DayUsage) Total() int64 { return d.InputTokens + d.OutputTokens }

type usageFile struct {
	Days map[string]DayUsage `json:"days"`
}

// keepDays bounds the file: older days are dropped when it is written.
const keepDays = 31

func (b *Budget) now() time.Time {
	if b.Now != nil {
		return b.Now()
	}
	return time.Now()
}

func (b *Budget) today() string { return b.now().Format("2006-01-02") }

// Check returns an error wrapping ErrBudgetSpent when today's spending has
// reached the budget, or would pass it with estimate more tokens.
func (b *Budget) Check(estimate int64) error {
	if b == nil || b.DailyTokens <= 0 {
		return nil
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	f, err := b.load(false)
	if err != nil {
		return err
	}
	day := b.today()
	used := f.Days[day].Total()
	if used >= b.DailyTokens || used+estimate > b.DailyTokens {
		return fmt.Errorf("%w: %d of %d tokens used on %s, this call needs about %d", summarize.ErrBudgetSpent, used, b.DailyTokens, day, estimate)
	}
	return nil
}

// Record adds a call's usage to today's.
func (b *Budget) Record(provider string, u summarize.Usage) error {
	if b == nil {
		return nil
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	if err := os.MkdirAll(filepath.Dir(b.Path), 0o700); err != nil {
		return fmt.Errorf("summarize: budget: %w", err)
	}
	unlock, err := safefile.Lock(context.Background(), b.Path+".lock", 10*time.Second)
	if err != nil {
		return fmt.Errorf("summarize: budget: %w", err)
	}
	defer unlock()

	f, err := b.load(true)
	if err != nil {
		return err
	}
	day := b.today()
	d := f.Days[day]
	d.InputTokens += u.InputTokens
	d.OutputTokens += u.OutputTokens
	d.Calls++
	if d.Providers == nil {
		d.Providers = map[string]summarize.Usage{}
	}
	p := d.Providers[provider]
	p.InputTokens += u.InputTokens
	p.OutputTokens += u.OutputTokens
	d.Providers[provider] = p
	f.Days[day] = d
	var days []string
	for k := range f.Days {
		days = append(days, k)
	}
	sort.Strings(days)
	for len(days) > keepDays {
		delete(f.Days, days[0])
		days = days[1:]
	}
	data, err := json.MarshalIndent(f, "", "  ")
	if err != nil {
		return fmt.Errorf("summarize: budget: %w", err)
	}
	if err := safefile.Write(b.Path, append(data, '\n'), 0o600); err != nil {
		return fmt.Errorf("summarize: %w", err)
	}
	return nil
}

// Today is today's spending so far.
func (b *Budget) Today() (DayUsage, error) {
	if b == nil {
		return DayUsage{}, nil
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	f, err := b.load(false)
	return f.Days[b.today()], err
}

// load reads the file. A missing file is no spending. A file that cannot
// be parsed counts as no spending too; repair (under the file lock) moves
// it aside, kept as usage.json.corrupt-<time>, so that counting starts
// again: at worst one more day's budget is spent.
func (b *Budget) load(repair bool) (usageFile, error) {
	f := usageFile{Days: map[string]DayUsage{}}
	data, err := os.ReadFile(b.Path)
	if errors.Is(err, os.ErrNotExist) {
		return f, nil
	}
	if err != nil {
		return f, fmt.Errorf("summarize: budget: %w", err)
	}
	if err := json.Unmarshal(data, &f); err != nil || f.Days == nil {
		if !repair {
			return usageFile{Days: map[string]DayUsage{}}, nil
		}
		aside := fmt.Sprintf("%s.corrupt-%s", b.Path, b.now().UTC().Format("20060102T150405Z"))
		if rerr := os.Rename(b.Path, aside); rerr != nil {
			return f, fmt.Errorf("summarize: budget: %s is not a usage file (%v) and cannot be moved aside: %w", b.Path, err, rerr)
		}
		return usageFile{Days: map[string]DayUsage{}}, nil
	}
	return f, nil
}
