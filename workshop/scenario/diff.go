package scenario

import (
	"fmt"
	"strings"
)

// lineDiff compares two traces line by line, the way a person reads them:
// "- " marks a line only the recording has, "+ " one only yours has, and
// the lines both share are kept, indented, for context. Lines are never
// split: a trace line is one event, and a character-level diff of two
// events reads as noise.
func lineDiff(want, got string) string {
	a := strings.Split(strings.TrimSuffix(want, "\n"), "\n")
	b := strings.Split(strings.TrimSuffix(got, "\n"), "\n")
	// lcs[i][j] is the length of the longest common subsequence of a[i:]
	// and b[j:].
	lcs := make([][]int, len(a)+1)
	for i := range lcs {
		lcs[i] = make([]int, len(b)+1)
	}
	for i := len(a) - 1; i >= 0; i-- {
		for j := len(b) - 1; j >= 0; j-- {
			if a[i] == b[j] {
				lcs[i][j] = lcs[i+1][j+1] + 1
			} else {
				lcs[i][j] = max(lcs[i+1][j], lcs[i][j+1])
			}
		}
	}
	var out strings.Builder
	i, j := 0, 0
	for i < len(a) || j < len(b) {
		switch {
		case i < len(a) && j < len(b) && a[i] == b[j]:
			out.WriteString("  " + CutMiddle(a[i]) + "\n")
			i, j = i+1, j+1
		case i < len(a) && (j == len(b) || lcs[i+1][j] >= lcs[i][j+1]):
			out.WriteString("- " + CutMiddle(a[i]) + "\n")
			i++
		default:
			out.WriteString("+ " + CutMiddle(b[j]) + "\n")
			j++
		}
	}
	return out.String()
}

// CutMiddle leaves out the middle of a line too long to read in a report:
// an error that prints a whole object (trial H's "couldn't create key for
// object {… two Pods …}: object has no meta", 3,000 characters) keeps its
// start and its end, where the reason is. The diff is made on the whole
// lines first. The runner cuts a plain test's long lines the same way.
func CutMiddle(line string) string {
	const head, tail = 200, 100
	r := []rune(line)
	if len(r) <= head+tail+40 {
		return line
	}
	return fmt.Sprintf("%s … (%d characters left out) … %s", string(r[:head]), len(r)-head-tail, string(r[len(r)-tail:]))
}
