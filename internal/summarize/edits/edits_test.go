package edits

import (
	"slices"
	"testing"
)

func TestNote(t *testing.T) {
	var v Values
	v.Note([2]string{"reminders: 10 # a day", "reminders: 3"})
	v.Note([2]string{"reminders: 3", "reminders: 15"}) // the same line again: first and last value
	v.Note([2]string{"name: api", "name: web"})        // no number: no value changed
	v.Note([2]string{"port: 8080", "port: 8081"})      // given another value
	v.Note([2]string{"port: 8081", "port: 8080"})      // and put back as it was
	v.Note([2]string{"a: 1 b: 2", "a: 3 b: 4"})        // two words changed: no one value
	v.Note([2]string{"executor: 'ramping-vus',", "executor: 'constant-arrival-rate',"})
	v.Note([2]string{"handler = make(db)", "handler = make(db, log)"}) // an expression: code
	if want := (Values{{"reminders: 10", "reminders: 15"}, {"executor: 'ramping-vus',", "executor: 'constant-arrival-rate',"}}); !slices.Equal(v, want) {
		t.Errorf("values = %q, want %q", v, want)
	}
}
