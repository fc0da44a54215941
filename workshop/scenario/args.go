package scenario

import (
	"strconv"
	"testing"
	"time"

	"github.com/cockroachdb/datadriven"
)

// The arguments of a step, as the commands of every chapter read them:
// key=value after the command's name.

// Arg is the value of an optional argument, "" when the step does not
// give it.
func Arg(t testing.TB, td *datadriven.TestData, key string) string {
	var s string
	td.MaybeScanArgs(t, key, &s)
	return s
}

// MustArg is the value of a required argument: a step without it fails.
func MustArg(t testing.TB, td *datadriven.TestData, key string) string {
	var s string
	td.ScanArgs(t, key, &s)
	return s
}

// DurationArg is the value of an optional duration argument (10s, 1m30s),
// and whether the step gives it.
func DurationArg(t testing.TB, td *datadriven.TestData, key string) (time.Duration, bool) {
	s := Arg(t, td, key)
	if s == "" {
		return 0, false
	}
	v, err := time.ParseDuration(s)
	if err != nil {
		td.Fatalf(t, "%s: %v", key, err)
	}
	return v, true
}

// IntArg is the value of an optional number argument, def when the step
// does not give it.
func IntArg(t testing.TB, td *datadriven.TestData, key string, def int) int {
	for _, a := range td.CmdArgs {
		if a.Key == key && len(a.Vals) > 0 {
			n, err := strconv.Atoi(a.Vals[0])
			if err != nil {
				td.Fatalf(t, "%s: %v", key, err)
			}
			return n
		}
	}
	return def
}

// Advance is how far an "advance" step moves the clock: its first
// argument, a duration (advance 1s); the others are the step's own (04's
// "set"). Each chapter's advance then moves its own clock and reports what
// the time showed.
func Advance(t testing.TB, td *datadriven.TestData) time.Duration {
	if len(td.CmdArgs) == 0 {
		td.Fatalf(t, "advance takes a duration: advance 1s")
	}
	d, err := time.ParseDuration(td.CmdArgs[0].Key)
	if err != nil {
		td.Fatalf(t, "advance: %v", err)
	}
	return d
}
