package progress

import (
	"fmt"
	"path/filepath"
	"regexp"
	"strings"

	"example.com/walkthrough/workshop/scenario"
)

// testFileLoc is a frame's file:line in a test file, as a test binary
// prints it: indented, absolute, maybe with a +0x offset.
var testFileLoc = regexp.MustCompile(`^\s+(/\S+)/(\w+_test\.go):(\d+)(?: \+0x[0-9a-f]+)?$`)

// harnessFrames folds each run of frames in the chapter's test files
// (the adapter, the scenario driver, a test) into one line that says they
// are the test harness, which runs your copy. Trial X read
// "02-deltafifo_test.init.1.func3.1 … /tmp/…/adapter_reference_test.go:62"
// under "implementation: your copy" and wondered whether the reference
// ran: under the runner the reference's adapter calls your copy, which
// stands in for the reference package.
func (s *standIn) harnessFrames(text string) string {
	lines := strings.Split(text, "\n")
	var out []string
	for i := 0; i < len(lines); i++ {
		var where []string
		j := i
		for j+1 < len(lines) && s.isHarnessFrame(lines[j], lines[j+1]) {
			m := testFileLoc.FindStringSubmatch(lines[j+1])
			where = append(where, m[2]+":"+m[3])
			j += 2
		}
		if len(where) == 0 {
			out = append(out, lines[i])
			continue
		}
		indent := lines[i][:len(lines[i])-len(strings.TrimLeft(lines[i], " \t"))]
		said := "test harness (it runs your copy): " + strings.Join(where, ", ")
		if len(where) > 3 {
			said = fmt.Sprintf("test harness (it runs your copy): %s and %d more", strings.Join(where[:2], ", "), len(where)-2)
		}
		folded := scenario.Fold(said, max(80-len(indent)-2, 40))
		out = append(out, indent+strings.Join(folded, "\n"+indent+"  "))
		i = j - 1
	}
	return strings.Join(out, "\n")
}

// isHarnessFrame reports whether fn and loc are a frame (its function
// line, or a "created by" line, then its file:line) in one of the
// chapter's test files.
func (s *standIn) isHarnessFrame(fn, loc string) bool {
	m := testFileLoc.FindStringSubmatch(loc)
	return m != nil && filepath.Clean(m[1]) == filepath.Clean(s.dir) &&
		strings.TrimSpace(fn) != "" && !testFileLoc.MatchString(fn)
}
