// Package transcripts keeps the runner transcripts of docs/workshop.md
// true: Regenerate plays a scripted story of a learner's commands (Story)
// on a temporary copy of the whole repository, and writes each command's
// output into the doc's block marked for it,
//
//	<!-- transcript: check-03-2-wrong -->
//	```
//	$ go run ./workshop/cmd/workshop check 03 2
//	...
//	```
//
// It also records, in docs/.transcripts.sum, a hash of everything the
// transcripts depend on (Inputs). Replaying the story takes minutes, so
// the test in make test does not: it recomputes the hash and fails,
// naming `go run ./workshop/cmd/transcripts`, when the runner, a
// chapter, an exercise copy or the story changed since.
package transcripts

import (
	"bytes"
	"crypto/sha256"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
)

// Doc is the doc the transcripts live in, and SumFile where the hash of
// their inputs is kept, both relative to the repository root.
const (
	Doc = "docs/workshop.md"
	// Twin is its translation, which carries the same markers: its
	// blocks are rewritten too (the runner speaks English to everyone).
	Twin    = "docs/zh/workshop.md"
	SumFile = "docs/.transcripts.sum"
	// Command regenerates them (make transcripts runs it).
	Command = "go run ./workshop/cmd/transcripts"
)

// workshopPackages are the packages of module workshop whose code decides
// what the runner prints (the runner and what it imports), and this
// package and its command, which hold the story.
var workshopPackages = []string{
	"workshop/chapters", "workshop/exgen", "workshop/gotest", "workshop/todo",
	"workshop/scenario", "workshop/progress", "workshop/runner",
	"workshop/transcripts", "workshop/cmd/transcripts",
}

// Inputs lists, relative to root and sorted, the files the transcripts
// depend on: the non-test Go files of workshopPackages; and of every
// chapter (status shows them all), its reference Go files, its exercise
// copy, its scenarios and its blame file.
func Inputs(root string) ([]string, error) {
	var out []string
	add := func(pattern string) error {
		m, err := filepath.Glob(filepath.Join(root, pattern))
		if err != nil {
			return err
		}
		for _, p := range m {
			if strings.HasSuffix(p, "_test.go") {
				continue
			}
			if info, err := os.Stat(p); err != nil || !info.Mode().IsRegular() {
				continue
			}
			rel, _ := filepath.Rel(root, p)
			out = append(out, filepath.ToSlash(rel))
		}
		return nil
	}
	for _, pkg := range workshopPackages {
		if err := add(filepath.Join(pkg, "*.go")); err != nil {
			return nil, err
		}
	}
	dirs, _ := filepath.Glob(filepath.Join(root, "[0-9][0-9]-*", "go.mod"))
	for _, d := range dirs {
		ch, _ := filepath.Rel(root, filepath.Dir(d))
		for _, pattern := range []string{"*.go", "exercise/*.go", "testdata/blame.txt"} {
			if err := add(filepath.Join(ch, pattern)); err != nil {
				return nil, err
			}
		}
		scen := filepath.Join(root, ch, "testdata", "scenarios")
		err := filepath.WalkDir(scen, func(p string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return nil
			}
			rel, _ := filepath.Rel(root, p)
			out = append(out, filepath.ToSlash(rel))
			return nil
		})
		if err != nil {
			return nil, err
		}
	}
	sort.Strings(out)
	return out, nil
}

// Sum is the sha256 of the names and contents of Inputs, in hex.
func Sum(root string) (string, error) {
	files, err := Inputs(root)
	if err != nil {
		return "", err
	}
	h := sha256.New()
	for _, f := range files {
		data, err := os.ReadFile(filepath.Join(root, f))
		if err != nil {
			return "", err
		}
		fmt.Fprintf(h, "%s %d\n", f, len(data))
		h.Write(data)
	}
	return fmt.Sprintf("%x", h.Sum(nil)), nil
}

// SumText is what SumFile holds for a sum.
func SumText(sum string) string {
	return "# The inputs of docs/workshop.md's transcripts (package workshop/transcripts).\n" +
		"# Regenerate with: " + Command + "\n" +
		"sha256:" + sum + "\n"
}

// RecordedSum reads the sum SumFile holds, "" if none.
func RecordedSum(root string) string {
	data, err := os.ReadFile(filepath.Join(root, SumFile))
	if err != nil {
		return ""
	}
	for _, line := range strings.Split(string(data), "\n") {
		if s, ok := strings.CutPrefix(line, "sha256:"); ok {
			return strings.TrimSpace(s)
		}
	}
	return ""
}

// marker is the comment before a transcript block: the names of the
// story's steps whose output it shows, in order.
var marker = regexp.MustCompile(`^<!-- transcript: ([a-z0-9 -]+) -->$`)

// Block is one marked transcript block of the doc.
type Block struct {
	Steps []string // the steps it shows, in order
	Line  int      // the marker's line, from 1
}

// Blocks finds the marked blocks of a doc.
func Blocks(doc []byte) ([]Block, error) {
	lines := strings.Split(string(doc), "\n")
	var out []Block
	for i, line := range lines {
		m := marker.FindStringSubmatch(line)
		if m == nil {
			continue
		}
		if i+1 >= len(lines) || lines[i+1] != "```" {
			return nil, fmt.Errorf("line %d: a transcript marker must come right before a ``` fence", i+1)
		}
		out = append(out, Block{Steps: strings.Fields(m[1]), Line: i + 1})
	}
	return out, nil
}

// Rewrite replaces the body of every marked block with text(steps),
// leaving a block as it is when text says it has no body for it (its
// steps have not run yet). It fails when a block has no closing fence.
func Rewrite(doc []byte, text func(steps []string) (body string, ok bool)) ([]byte, error) {
	lines := strings.Split(string(doc), "\n")
	var out []string
	for i := 0; i < len(lines); i++ {
		line := lines[i]
		out = append(out, line)
		m := marker.FindStringSubmatch(line)
		if m == nil {
			continue
		}
		if i+1 >= len(lines) || lines[i+1] != "```" {
			return nil, fmt.Errorf("line %d: a transcript marker must come right before a ``` fence", i+1)
		}
		end := i + 2
		for end < len(lines) && lines[end] != "```" {
			end++
		}
		if end == len(lines) {
			return nil, fmt.Errorf("line %d: the transcript block never closes", i+1)
		}
		body, ok := text(strings.Fields(m[1]))
		if !ok {
			continue // the fence and the old body follow as they are
		}
		out = append(out, "```")
		out = append(out, strings.Split(strings.TrimRight(body, "\n"), "\n")...)
		out = append(out, "```")
		i = end
	}
	return []byte(strings.Join(out, "\n")), nil
}

// trimLines drops trailing spaces from every line and blank lines at the
// end: what a reader of the doc cannot see.
func trimLines(s string) string {
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		lines[i] = strings.TrimRight(l, " \t")
	}
	return string(bytes.TrimRight([]byte(strings.Join(lines, "\n")), "\n"))
}
