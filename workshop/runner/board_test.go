package runner

import (
	"bytes"
	"strings"
	"testing"
	"testing/synctest"
	"time"
)

// Two chapters checked at once say their parts as they start, and one
// line for both when only their heartbeats speak.
func TestBoardSpeaksForBothChapters(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		var out bytes.Buffer
		b := newBoard(&out)
		b.say("01-listwatch", "building the tests with your copy, under the race detector")
		b.say("02-deltafifo", "building the tests with your copy, under the race detector")
		time.Sleep(time.Second)
		b.say("01-listwatch", "running the tests")
		time.Sleep(time.Second)
		b.say("02-deltafifo", "still building the tests with your copy") // within a beat of the last line
		time.Sleep(time.Second)
		b.say("01-listwatch", "still running the tests")
		b.say("02-deltafifo", "12 tests done, 0 failed so far")
		b.finish("01-listwatch")
		b.finish("03-indexer") // said nothing
		b.say("04-processor", "nothing changed since the last check: its result stands")
		b.finish("04-processor")
		b.end()
		want := []string{
			"01-listwatch: building the tests with your copy, under the race detector (0s)",
			"02-deltafifo: building the tests with your copy, under the race detector (0s)",
			"01-listwatch: running the tests (1s)",
			"under way: 01-listwatch: running the tests (3s); 02-deltafifo: building the tests with your copy (3s)",
			"01-listwatch: checked (3s)",
			"04-processor: nothing changed since the last check: its result stands (0s)",
		}
		if got := strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n"); strings.Join(got, "\n") != strings.Join(want, "\n") {
			t.Errorf("the board said:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
		}
	})
}
