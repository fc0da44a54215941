package runner

import (
	"fmt"
	"io"
	"os"
	"slices"
	"strings"
	"sync"
	"time"
)

// board is what a check of every chapter (status), two at a time, says
// while it runs. Each chapter's parts are said as they start ("02-deltafifo:
// running the tests"); its heartbeats and counts are not, as two chapters'
// would interleave (trial H read about 50 lines on a first status): when
// nothing was said for a beat, one line names what every chapter under
// way is doing. A chapter's end is said with its time. On a terminal
// (live), that line is rewritten in place rather than repeated.
type board struct {
	out   io.Writer
	live  bool
	shown bool // live: a still-line is on the screen, with no newline yet
	mu    sync.Mutex
	start map[string]time.Time // chapter → when its check began
	part  map[string]string    // chapter → the part under way, short
	order []string             // the chapters under way, in the order they began
	last  time.Time            // when the board last said something
}

func newBoard(out io.Writer) *board {
	f, ok := out.(*os.File)
	return &board{out: out, live: ok && IsTerminal(f), start: map[string]time.Time{}, part: map[string]string{}}
}

// say takes what chapter's check says: a part is said, a heartbeat or a
// count only marks the chapter as still under way.
func (b *board) say(chapter, what string) {
	b.mu.Lock()
	defer b.mu.Unlock()
	now := time.Now()
	if _, ok := b.start[chapter]; !ok {
		b.start[chapter] = now
		b.order = append(b.order, chapter)
	}
	if strings.HasPrefix(what, "still ") || strings.Contains(what, " tests done") {
		if now.Sub(b.last) >= beat {
			b.stillLocked(now, "under way: "+b.underWayLocked(now)) // trial W read "still 05-workqueue running the tests"
		}
		return
	}
	part, _, _ := strings.Cut(what, ",")
	part, _, _ = strings.Cut(part, ":")
	b.part[chapter] = part
	b.sayLocked(now, fmt.Sprintf("%s: %s (%ds)", chapter, what, int(now.Sub(b.start[chapter]).Seconds())))
}

// finish says that chapter's check is over.
func (b *board) finish(chapter string) {
	b.mu.Lock()
	defer b.mu.Unlock()
	start, ok := b.start[chapter]
	b.order = slices.DeleteFunc(b.order, func(c string) bool { return c == chapter })
	if !ok || strings.HasPrefix(b.part[chapter], "nothing changed") {
		return // its result stood from the last check, as it said
	}
	now := time.Now()
	b.sayLocked(now, fmt.Sprintf("%s: checked (%ds)", chapter, int(now.Sub(start).Seconds())))
}

// underWayLocked names what each chapter under way is doing:
// "01-listwatch running the tests (12s), 02-deltafifo building the tests (3s)".
func (b *board) underWayLocked(now time.Time) string {
	var parts []string
	for _, c := range b.order {
		parts = append(parts, fmt.Sprintf("%s: %s (%ds)", c, b.part[c], int(now.Sub(b.start[c]).Seconds())))
	}
	return strings.Join(parts, "; ")
}

func (b *board) sayLocked(now time.Time, line string) {
	b.last = now
	if b.shown {
		fmt.Fprint(b.out, "\r\x1b[K") // the still-line goes
		b.shown = false
	}
	fmt.Fprintln(b.out, line)
}

// stillLocked says what is under way: on a terminal in place of the last
// such line, cut to the width so that it stays one line.
func (b *board) stillLocked(now time.Time, line string) {
	if !b.live {
		b.sayLocked(now, line)
		return
	}
	b.last = now
	if r := []rune(line); len(r) > Width {
		line = string(r[:Width-1]) + "…"
	}
	fmt.Fprint(b.out, "\r\x1b[K"+line)
	b.shown = true
}

// end clears a still-line left on the screen.
func (b *board) end() {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.shown {
		fmt.Fprint(b.out, "\r\x1b[K")
		b.shown = false
	}
}

// beat is how long the board stays silent while chapters are under way:
// a check's own heartbeat comes as often, so never 2 s without a word.
const beat = 1500 * time.Millisecond
