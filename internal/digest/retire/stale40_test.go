package retire

import (
	"testing"

	"github.com/cairn-mem/cairn/internal/digest"
)

// TestRetiredFormerDuration: a newer statement that gives a thing's
// duration now beside what it took before ("11 ms now, against 180 ms
// before") retires what gave the old one; it names the old value only as
// the past. Another thing's duration stays.
func TestRetiredFormerDuration(t *testing.T) {
	checkRetired(t, digest.Outcome, "The 3-hour ride parses in 11 ms now, against 180 ms before, and the peak heap is under 3 KiB whatever the file size.", map[string]bool{
		"A 3-hour ride is 180 ms and 40 MB.":                                true,
		"The 20-minute commute file parses in 2 ms.":                        false,
		"The health check times out after 180 ms on the ingestion workers.": false,
	})
	checkRetired(t, digest.Outcome, "The nightly build takes 4 minutes, down from 11 minutes.", map[string]bool{
		"The nightly build takes 11 minutes on the runner.": true,
		"The deploy takes 11 minutes.":                      false,
	})
}

// TestRetiredMailServer: the mail server a project submits through is
// one setting, named by its host and its submission port: a move to
// another one retires the older server's clauses, whatever else the
// memory says about mail.
func TestRetiredMailServer(t *testing.T) {
	checkRetired(t, digest.Outcome, "Our club mail moved to mailbox.org, so SMTP is smtp.mailbox.org port 465 now.", map[string]bool{
		"Mails go out through our own server, mail.rc-weserstein.de on port 587, sender kasse@rc-weserstein.de.": true,
		"Mails leave at least 14 days before the debit, through mail.rc-weserstein.de:587 with STARTTLS.":        true,
		"Never send the XML file around by mail, it stays on kasse01.":                                           false,
	})
}

// TestRetiredLiftedGate: a rule that holds a thing back until someone
// has looked at it goes once a newer statement on the same thing lets it
// go without them; a hold on another thing, and the thing's own
// description, stay.
func TestRetiredLiftedGate(t *testing.T) {
	checkRetired(t, digest.Outcome, "Ute says the dry-run list has been right three times now — you can send the pre-notifications automatically from now on, no need to wait for us.", map[string]bool{
		"And please: nothing goes out to members unless Ute and I have seen the dry-run list first.":                             true,
		"`--send` is only for after you and Ute have gone through the dry-run list.":                                             true,
		"No invoice is booked until Jens has approved the export.":                                                               false,
		"Pre-notification: `beitrag prenotify --dry-run` prints the list (member, address, amount, due date) and sends nothing.": false,
	})
}

// TestDropLiftedGate: a hold lifted goes whole, though its sentence
// splits into clauses ("unless Ute | and I have seen …"); a sentence the
// newer statement retires as a whole, none of whose clauses goes on its
// own, stays as it was said rather than rejoined.
func TestDropLiftedGate(t *testing.T) {
	n, o := &digest.Summary{}, &digest.Summary{}
	n.Parts[digest.Outcome] = []string{"Ute says the dry-run list has been right three times now — you can send the pre-notifications automatically from now on, no need to wait for us."}
	x := "Mails go out through kasse01. And please: nothing goes out to members unless Ute and I have seen the dry-run list first."
	o.Parts[digest.Request] = []string{x}
	r := New(nil, []*digest.Summary{n, o})
	if got, want := r.DropRetiredAsked(x, 1), "Mails go out through kasse01."; got != want {
		t.Errorf("DropRetiredAsked(%q) = %q, want %q", x, got, want)
	}
	n.Parts[digest.Outcome] = []string{"Updated: family cap 420 € (from the AGM); the 3.50 € return fee is added to the member's next debit as its own line in the pre-notification; mail now through smtp.mailbox.org on 465 (implicit TLS)."}
	x = "She finally told me why last year went wrong: twelve families were charged twice, because in her Excel every child had its own row and the family cap was applied to each row separately instead of to the family."
	o.Parts[digest.Request] = nil
	o.Parts[digest.Outcome] = []string{x}
	r = New(nil, []*digest.Summary{n, o})
	if got := r.DropRetired(x, 1); got != x {
		t.Errorf("DropRetired(%q) = %q, want it as it was", x, got)
	}
}
