package progress

import (
	"regexp"
	"strconv"
	"strings"
)

// frame is one call of a stack: the function, and where it was.
type frame struct {
	fn   string // "example.com/walkthrough/03-indexer.(*threadSafeMap).Update"
	file string // the absolute path, as the binary knows it
	line int
}

// goroutine is one goroutine of a dump: what it waits for ("sync.Mutex.Lock",
// "chan receive", "running") and its frames, innermost first.
type goroutine struct {
	state  string
	frames []frame
}

var (
	goroutineHeader = regexp.MustCompile(`^goroutine \d+(?: \w+=\S+)* \[([^\],]+)[^\]]*\]:?$`)
	fileLine        = regexp.MustCompile(`^\s*(/\S+\.go|\S+\.go):(\d+)`)
)

// parseFrames reads the frames of one stack: a line naming the function
// ("pkg.(*T).M(...)" or, in a race report, "pkg.(*T).M()"), then a line
// with its file and line.
func parseFrames(lines []string) []frame {
	var out []frame
	for i := 0; i+1 < len(lines); i++ {
		m := fileLine.FindStringSubmatch(lines[i+1])
		if m == nil {
			continue
		}
		fn := strings.TrimSpace(lines[i])
		if j := strings.LastIndex(fn, "("); j > 0 && strings.HasSuffix(fn, ")") {
			fn = fn[:j]
		}
		fn = strings.TrimPrefix(fn, "created by ")
		if k := strings.Index(fn, " in goroutine "); k > 0 {
			fn = fn[:k]
		}
		n, _ := strconv.Atoi(m[2])
		out = append(out, frame{fn: fn, file: m[1], line: n})
		i++
	}
	return out
}

// parseDump reads a goroutine dump (a crash's, or SIGQUIT's).
func parseDump(text string) []goroutine {
	var out []goroutine
	for _, block := range strings.Split(text, "\n\n") {
		lines := strings.Split(strings.TrimSpace(block), "\n")
		m := goroutineHeader.FindStringSubmatch(strings.TrimSpace(lines[0]))
		if m == nil {
			continue
		}
		out = append(out, goroutine{state: m[1], frames: parseFrames(lines[1:])})
	}
	return out
}

// race is one data race report: the access that raced and the earlier
// one it raced with, each as "Write at ... by goroutine 8" and its stack.
type race struct {
	accesses []access
}

type access struct {
	what   string // "write", "previous read"
	frames []frame
}

var raceAccess = regexp.MustCompile(`^((?:Previous )?(?:[Ww]rite|[Rr]ead)) at 0x[0-9a-f]+ by (?:goroutine \d+|main goroutine):$`)

// parseRaces reads the race detector's reports in a test's output.
func parseRaces(output string) []race {
	var out []race
	parts := strings.Split(output, "WARNING: DATA RACE")
	for _, part := range parts[1:] {
		part, _, _ = strings.Cut(part, "==================")
		var r race
		var cur *access
		var lines []string
		flush := func() {
			if cur != nil {
				cur.frames = parseFrames(lines)
				r.accesses = append(r.accesses, *cur)
			}
			cur, lines = nil, nil
		}
		for _, line := range strings.Split(part, "\n") {
			t := strings.TrimSpace(line)
			if m := raceAccess.FindStringSubmatch(t); m != nil {
				flush()
				cur = &access{what: strings.ToLower(m[1])}
				continue
			}
			if strings.HasPrefix(t, "Goroutine ") {
				flush()
				continue
			}
			lines = append(lines, line)
		}
		flush()
		if len(r.accesses) > 0 {
			out = append(out, r)
		}
	}
	return out
}

// funcKey turns a frame's function into the key exgen names functions by
// ("threadSafeMap.Update"), or "" outside package pkg: closures and
// goroutines started inside a function count as that function.
func funcKey(fn, pkg string) string {
	rest, ok := strings.CutPrefix(fn, pkg+".")
	if !ok {
		return ""
	}
	for { // type parameters: "Typed[...]" is Typed
		i := strings.Index(rest, "[")
		j := strings.Index(rest, "]")
		if i < 0 || j < i {
			break
		}
		rest = rest[:i] + rest[j+1:]
	}
	// A closure is named after its function and a number ("(*Cache).dispatch.func1");
	// a closure of a function inlined into another is named after both, the
	// caller first ("TestX.func1.(*cacheWatcher).Stop.2"): it belongs to the
	// last function named. A function is a name, or a receiver and a method.
	var key []string
	method := false // the last part was a receiver: the method comes next
	for _, p := range strings.Split(rest, ".") {
		switch {
		case closurePart(p):
			method = false
		case strings.HasPrefix(p, "("):
			key, method = []string{strings.Trim(p, "(*)")}, true
		case method:
			key, method = append(key, p), false
		default:
			key = []string{p}
		}
	}
	return strings.Join(key, ".")
}

// closurePart reports whether one dot-separated part of a function's
// name in a stack names a function literal, or the wrapper Go makes for a
// go or defer statement ("func1", "2", "gowrap1", "deferwrap2"): code of
// the function named before it.
func closurePart(p string) bool {
	return strings.HasPrefix(p, "func") && len(p) > 4 && isDigits(p[4:]) || strings.HasPrefix(p, "gowrap") || strings.HasPrefix(p, "deferwrap") || isDigits(p)
}

// inClosure reports whether a frame's function is a function literal (or
// a go or defer wrapper), not the function it is written in.
func inClosure(fn string) bool {
	parts := strings.Split(fn[strings.LastIndex(fn, "/")+1:], ".")
	return len(parts) > 1 && closurePart(parts[len(parts)-1])
}

func isDigits(s string) bool {
	if s == "" {
		return false
	}
	for _, r := range s {
		if r < '0' || r > '9' {
			return false
		}
	}
	return true
}
