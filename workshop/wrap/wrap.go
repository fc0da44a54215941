// Package wrap folds the workshop's sentences for an 80-column terminal:
// the runner's own lines, and the reasons progress writes into a report.
package wrap

import "strings"

// Label folds text into lines of at most width columns. The first line
// starts with label; the others are indented by as many spaces.
func Label(label, text string, width int) string {
	pad := strings.Repeat(" ", len(label))
	var lines []string
	line := label
	empty := true
	for _, word := range words(text) {
		if !empty && len(line)+1+len(word) > width {
			lines = append(lines, line)
			line, empty = pad+word, false
			continue
		}
		if empty {
			line += word
		} else {
			line += " " + word
		}
		empty = false
	}
	return strings.Join(append(lines, line), "\n")
}

// words splits text at spaces, but keeps a `quoted command` in one piece
// so that it can be copied from one line.
func words(text string) []string {
	var out []string
	open := false
	for _, w := range strings.Fields(text) {
		if open {
			out[len(out)-1] += " " + w
		} else {
			out = append(out, w)
		}
		if strings.Count(w, "`")%2 == 1 {
			open = !open
		}
	}
	return out
}
