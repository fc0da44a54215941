package exgen

import (
	"bytes"
	"fmt"
	"go/format"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
)

// TodoImport is the package a stub's panic comes from.
const TodoImport = "example.com/walkthrough/workshop/todo"

// ExerciseDir is where the learner's copy lives inside a chapter.
const ExerciseDir = "exercise"

// Generate returns the files `make exercises` writes for a chapter, keyed by
// their path relative to the chapter directory:
//
//   - exercise/<file>.go for every reference file, with the regions of every
//     exercise for which stub(id) is true replaced by a panic;
//   - <name>_exercise_test.go for every <name>_reference_test.go adapter:
//     the same adapter pointed at the exercise package, so the chapter's
//     tests can run the learner's copy with WALKTHROUGH_IMPL=exercise;
//   - <name>_clientgo_test.go where the reference adapter says that
//     renaming its packages makes it client-go's (clientGoTwin).
//
// `make exercises` stubs the core track (CoreStubs); the runner's `deep`
// and `blank` stub every exercise (StubAll); the tests of the tests stub
// one at a time to prove each exercise is checked by some scenario.
func Generate(chapterDir string, stub func(id int) bool) (map[string][]byte, error) {
	files, exercises, err := readPackage(chapterDir)
	if err != nil {
		return nil, err
	}
	if err := findImportDirs(chapterDir, files); err != nil {
		return nil, err
	}
	out := map[string][]byte{}
	for _, f := range files {
		src, err := stubFile(chapterDir, f, exercises, stub)
		if err != nil {
			return nil, err
		}
		out[filepath.Join(ExerciseDir, f.name)] = src
	}
	twins, err := adapterTwins(chapterDir)
	if err != nil {
		return nil, err
	}
	for name, src := range twins {
		out[name] = src
	}
	return out, nil
}

// StubAll stubs every exercise of both tracks: the deep track's copy.
func StubAll(int) bool { return true }

// CoreStubs is the stub set of the committed copy, the core track: its
// exercises are stubbed, while deep ones keep the reference code until
// the learner takes them on (`workshop deep`).
func CoreStubs(chapterDir string) (func(int) bool, error) {
	list, err := Exercises(chapterDir)
	if err != nil {
		return nil, err
	}
	core := map[int]bool{}
	for _, e := range list {
		core[e.ID] = e.Track == TrackCore
	}
	return func(id int) bool { return core[id] }, nil
}

// GenerateCore is Generate with the committed copy's stubs (CoreStubs).
func GenerateCore(chapterDir string) (map[string][]byte, error) {
	stub, err := CoreStubs(chapterDir)
	if err != nil {
		return nil, err
	}
	return Generate(chapterDir, stub)
}

// stubFile writes one exercise-copy file.
func stubFile(chapterDir string, f sourceFile, exercises map[int]*Exercise, stub func(int) bool) ([]byte, error) {
	chapter := filepath.Base(chapterDir)
	stubs, err := describeStubs(f, exercises)
	if err != nil {
		return nil, err
	}
	var b strings.Builder
	fmt.Fprintf(&b, "// Your copy of ../%s, written by `make exercises`. Fill in each\n"+
		"// panic(todo.Exercise(...)); `go run ./workshop/cmd/workshop check %s`\n"+
		"// checks your work, and `go run ./workshop/cmd/workshop hint %s N` gives\n"+
		"// exercise N's hint.\n\n", f.name, chapter[:2], chapter[:2])
	next := 0 // index of the next region in f.regions
	markers := MarkerLines(f.lines)
	for i := 0; i < len(f.lines); i++ {
		if next < len(f.regions) && f.regions[next].begin == i {
			r := f.regions[next]
			next++
			if stub(r.id) {
				writeStub(&b, chapter, r, stubs[r.begin])
				i = r.end
				continue
			}
		}
		if markers[i] {
			continue // the learner's copy has no markers, stubbed or not
		}
		b.WriteString(f.lines[i])
		b.WriteByte('\n')
	}
	// Every file with an exercise keeps its imports and the todo import,
	// stubbed or done, so that a learner's finished file is the generated
	// one minus stubs.
	if len(f.regions) > 0 {
		keep, err := keepers(chapterDir, f)
		if err != nil {
			return nil, err
		}
		b.WriteString(keep)
	}
	src := []byte(b.String())
	if len(f.regions) > 0 {
		var err error
		if src, err = FixImports(src); err != nil {
			return nil, fmt.Errorf("%s: %w", f.name, err)
		}
	}
	formatted, err := format.Source(src)
	if err != nil {
		return nil, fmt.Errorf("exercise copy of %s does not parse: %w", f.name, err)
	}
	return formatted, nil
}

// writeStub replaces a region by one line saying what its function does
// and the panic, which names the exercise and the function.
func writeStub(b *strings.Builder, chapter string, r region, s stubText) {
	fmt.Fprintf(b, "%s// %s\n", r.indent, s.what)
	fmt.Fprintf(b, "%spanic(todo.Exercise(%q, %d, %q))\n", r.indent, chapter, r.id, s.fn)
}

// adapterTwins derives the exercise adapters from the reference adapters.
// A reference adapter imports the chapter package and registers itself
// under scenario.Reference; its twin imports the exercise package and
// registers under scenario.Exercise. Nothing else changes, so the learner's
// copy is driven by exactly the code that drives the reference. A
// reference adapter with an exgen:clientgo directive has a client-go twin
// too (clientGoTwin).
func adapterTwins(chapterDir string) (map[string][]byte, error) {
	modPath, err := ModulePath(chapterDir)
	if err != nil {
		return nil, err
	}
	names, err := filepath.Glob(filepath.Join(chapterDir, "*_reference_test.go"))
	if err != nil {
		return nil, err
	}
	sort.Strings(names)
	out := map[string][]byte{}
	for _, path := range names {
		src, err := os.ReadFile(path)
		if err != nil {
			return nil, err
		}
		base := filepath.Base(path)
		clientGo, err := clientGoTwin(base, src)
		if err != nil {
			return nil, err
		}
		replacements := []struct{ old, new string }{
			{strconv.Quote(modPath), strconv.Quote(modPath + "/" + ExerciseDir)},
			{"scenario.Reference", "scenario.Exercise"},
		}
		for _, r := range replacements {
			if !bytes.Contains(src, []byte(r.old)) {
				return nil, fmt.Errorf("%s: a reference adapter must mention %s", path, r.old)
			}
			src = bytes.ReplaceAll(src, []byte(r.old), []byte(r.new))
		}
		header := fmt.Sprintf("// Code generated by make exercises from %s. DO NOT EDIT.\n\n", base)
		out[strings.TrimSuffix(base, "_reference_test.go")+"_exercise_test.go"] = append([]byte(header), src...)
		if clientGo != nil {
			out[strings.TrimSuffix(base, "_reference_test.go")+"_clientgo_test.go"] = clientGo
		}
	}
	return out, nil
}

// ModulePath reads the module path from a chapter's go.mod.
func ModulePath(chapterDir string) (string, error) {
	data, err := os.ReadFile(filepath.Join(chapterDir, "go.mod"))
	if err != nil {
		return "", err
	}
	for _, line := range strings.Split(string(data), "\n") {
		if path, ok := strings.CutPrefix(strings.TrimSpace(line), "module "); ok {
			return strings.Trim(strings.TrimSpace(path), `"`), nil
		}
	}
	return "", fmt.Errorf("%s/go.mod has no module line", chapterDir)
}
