package runner

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"

	"example.com/walkthrough/workshop/chapters"
	"example.com/walkthrough/workshop/gotest"
)

// Demo runs the sample controller (the chapter with a cmd/demo) on your
// own components: every chapter it is built from whose exercises all pass
// in your copy stands in for its reference; the others stay the
// reference. It says which are yours before it starts. args go to the
// demo.
func (r *Runner) Demo(args []string) error {
	all, err := chapters.All(r.Root)
	if err != nil {
		return err
	}
	var demo chapters.Chapter
	for _, c := range all {
		if _, err := os.Stat(filepath.Join(c.Dir, "cmd", "demo")); err == nil {
			demo = c
		}
	}
	if demo.Name == "" {
		return fmt.Errorf("no chapter has a demo (a cmd/demo directory)")
	}
	deps, err := chapters.Deps(r.Root, demo)
	if err != nil {
		return err
	}
	parts := append(deps, demo)
	r.say("", fmt.Sprintf("Checking your copies of %d chapters, to run the demo on the ones that pass...", len(parts)))
	// Checked two at a time first; chooseMine then finds them done.
	if r.plain == nil {
		r.plain = &plainChecks{}
	}
	twoAtATime(len(parts), func(i int) {
		if !isCoreCopy(parts[i]) {
			_, _ = r.plainCheck(parts[i])
		}
	})
	choice := r.chooseMine(parts)
	if len(choice.yours) == 0 {
		r.say("", "None of these chapters passes in your copy yet, so this is the reference demo: "+strings.Join(choice.refNames(true), ", ")+".")
	} else {
		choice.say(r)
	}
	r.printf("\n")
	files, err := MineOverlay(demo, choice.yours)
	if err != nil {
		return err
	}
	goArgs := []string{"run"}
	if slices.Contains(args, "-server=ours") {
		goArgs = append(goArgs, "-tags=ours") // chapter 07's server, yours when it passes
	}
	if len(files) > 0 {
		overlay, cleanup, err := gotest.WriteOverlay(demo.Dir, files)
		if err != nil {
			return err
		}
		defer cleanup()
		goArgs = append(goArgs, "-overlay="+overlay)
	}
	cmd := exec.Command("go", append(append(goArgs, "./cmd/demo", "-mine"), args...)...)
	cmd.Dir = demo.Dir
	cmd.Stdout, cmd.Stderr, cmd.Stdin = r.Out, os.Stderr, os.Stdin
	return cmd.Run()
}
