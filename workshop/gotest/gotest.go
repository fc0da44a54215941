// Package gotest runs `go test -json` on a chapter and collects what each
// test did, for the learner's runner and the tests of the tests.
package gotest

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// Result is the outcome of one `go test` run.
type Result struct {
	Passed map[string]bool   // test name → passed; subtests are "TestX/sub"
	Output map[string]string // test name → everything it printed
	Build  string            // compiler output, when the package did not build
	OK     bool              // go test exited 0
	// Crash is the "panic: ..." line of a panic that stopped the test
	// binary: one no test recovered, raised in a goroutine of the code
	// under test. The goroutine dump after it is kept out of Output: it
	// is noise to a learner, and under --mine its paths name the reference
	// files that the learner's own copy stands in for.
	Crash string
}

// Failed lists the tests that ran and failed.
func (r *Result) Failed() []string {
	var names []string
	for name, ok := range r.Passed {
		if !ok {
			names = append(names, name)
		}
	}
	return names
}

// Run runs `go test -json -count=1 args...` in dir with extra environment
// variables. files, if not empty, replaces or adds source files for this
// run only (a go build overlay: path relative to dir → content; nil
// content deletes the file), leaving the working tree untouched.
func Run(dir string, env []string, files map[string][]byte, args ...string) (*Result, error) {
	cmdArgs := []string{"test", "-json", "-count=1"}
	if len(files) > 0 {
		overlay, cleanup, err := WriteOverlay(dir, files)
		if err != nil {
			return nil, err
		}
		defer cleanup()
		cmdArgs = append(cmdArgs, "-overlay="+overlay)
	}
	cmd := exec.Command("go", append(cmdArgs, args...)...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), env...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	runErr := cmd.Run()
	if _, isExit := runErr.(*exec.ExitError); runErr != nil && !isExit {
		return nil, fmt.Errorf("go test in %s: %w", dir, runErr)
	}
	r := &Result{Passed: map[string]bool{}, Output: map[string]string{}, OK: runErr == nil}
	var build strings.Builder
	started := map[string]bool{}
	sc := bufio.NewScanner(&stdout)
	sc.Buffer(make([]byte, 1<<20), 16<<20)
	for sc.Scan() {
		var ev struct {
			Action, Test, Output string
			ImportPath           string
		}
		if err := json.Unmarshal(sc.Bytes(), &ev); err != nil {
			build.WriteString(sc.Text() + "\n")
			continue
		}
		if ev.Action == "output" && r.Crash == "" && strings.HasPrefix(ev.Output, "panic: ") {
			r.Crash = strings.TrimSpace(ev.Output)
		}
		switch {
		case ev.Action == "build-output":
			build.WriteString(ev.Output)
		case ev.Test == "":
		case ev.Action == "output" && r.Crash != "":
			// the dump of a crash: see Crash
		case ev.Action == "run":
			started[ev.Test] = true
		case ev.Action == "output":
			r.Output[ev.Test] += ev.Output
		case ev.Action == "pass":
			r.Passed[ev.Test] = true
		case ev.Action == "fail":
			r.Passed[ev.Test] = false
		}
	}
	// A crash ends the binary without a result for the tests that were
	// running: they failed, with the crash as the reason.
	if r.Crash != "" {
		for test := range started {
			if _, ok := r.Passed[test]; !ok {
				r.Passed[test] = false
			}
		}
	}
	build.WriteString(stderr.String())
	if !r.OK && len(r.Passed) == 0 && r.Crash == "" {
		r.Build = strings.TrimSpace(build.String())
	}
	return r, nil
}

// WriteOverlay writes files to a temporary directory and an overlay JSON
// file that maps each real path to its stand-in, for the go command's
// -overlay flag. cleanup removes them.
func WriteOverlay(dir string, files map[string][]byte) (string, func(), error) {
	tmp, err := os.MkdirTemp("", "walkthrough-overlay-")
	if err != nil {
		return "", nil, err
	}
	cleanup := func() { os.RemoveAll(tmp) }
	replace := map[string]string{}
	i := 0
	for rel, content := range files {
		abs, err := filepath.Abs(filepath.Join(dir, rel))
		if err != nil {
			cleanup()
			return "", nil, err
		}
		if content == nil {
			replace[abs] = "" // delete
			continue
		}
		i++
		stand := filepath.Join(tmp, fmt.Sprintf("%d-%s", i, filepath.Base(rel)))
		if err := os.WriteFile(stand, content, 0o644); err != nil {
			cleanup()
			return "", nil, err
		}
		replace[abs] = stand
	}
	data, _ := json.Marshal(map[string]any{"Replace": replace})
	overlay := filepath.Join(tmp, "overlay.json")
	if err := os.WriteFile(overlay, data, 0o644); err != nil {
		cleanup()
		return "", nil, err
	}
	return overlay, cleanup, nil
}
