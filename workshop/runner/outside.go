package runner

import (
	"fmt"
	"strings"
)

// outside shows the checks that fail on your code outside the exercises
// (progress.Chapter.Outside): the functions the copy gives you, which
// you changed. With the generated code of those in place of yours the
// checks pass, so no exercise is blamed for them (trial X's
// DeltaFIFO.Close without its Broadcast was put on exercise 2).
func (r *Runner) outside(x *result) {
	if len(x.res.Outside) == 0 {
		return
	}
	r.printf("%s\n", strings.TrimRight(x.res.Outside[0].Report, "\n"))
	passes := "this check passes"
	if len(x.res.Outside) > 1 {
		passes = "these checks pass"
	}
	r.say("  Outside:  ", fmt.Sprintf("with the generated code of %s in place of yours, %s: the bug is in that code, which your copy gives you, not in an exercise.", givenNames(x.res.Given), passes))
	if len(x.res.Outside) > 1 {
		var also []string
		for _, f := range x.res.Outside[1:] {
			also = append(also, f.Test)
		}
		r.say("  Also:     ", "failing on it: "+fewNames(also)+".")
	}
	r.printf("\n")
}

// givenNames is Chapter.Given as a person reads it: "DeltaFIFO.Close
// (deltafifo.go)" for "deltafifo.go: DeltaFIFO.Close".
func givenNames(given []string) string {
	var out []string
	for _, g := range given {
		file, fn, _ := strings.Cut(g, ": ")
		out = append(out, fn+" ("+file+")")
	}
	return strings.Join(out, ", ")
}

// outsideNext is the next step when checks fail on your code outside the
// exercises: put each function back as generated (reset CH FUNC keeps a
// backup), then check again. Not reset CH EX: that stubs an exercise,
// and keeps the bug.
func (r *Runner) outsideNext(x *result) {
	var cmds []string
	for _, g := range x.res.Given {
		_, fn, _ := strings.Cut(g, ": ")
		cmds = append(cmds, r.cmd("reset", x.c.Number(), fn))
	}
	r.next("Next: put that code back as generated (a backup keeps yours), or compare it with the reference's, then check again:",
		append(cmds, r.cmd("check", x.c.Number()))...)
}
