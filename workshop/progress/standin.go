package progress

import (
	"os"
	"path/filepath"
	"sort"
	"strings"

	"example.com/walkthrough/workshop/chapters"
	"example.com/walkthrough/workshop/exgen"
)

// standIn is the build a check runs: the chapter's test package with your
// copy (exercise/) standing in for the reference package. Every test that
// judges the reference, scenario, stress test, leak check or plain test,
// then judges your code, and so does every known-bug mutant's test.
type standIn struct {
	dir   string            // the chapter
	files map[string][]byte // the overlay: path relative to dir → content (nil deletes)
	// yours maps the absolute path of a reference file that one of your
	// files stands in for to your file's path as you name it
	// ("03-indexer/exercise/store.go"): compiler errors, panics, races and
	// stacks speak of the reference's paths, and you edit yours.
	yours map[string]string
}

// newStandIn makes the overlay for chapter c: your files in place of the
// reference's, over extra (files standing in for this run only: the tests
// of the tests' generated copies, or your earlier chapters under --mine,
// which may already map reference files of other chapters).
func newStandIn(root string, c chapters.Chapter, extra map[string][]byte) (*standIn, error) {
	s := &standIn{dir: c.Dir, files: map[string][]byte{}, yours: map[string]string{}}
	for path, content := range extra {
		s.files[path] = content
	}
	// Earlier chapters under --mine: their reference files are already
	// replaced by yours; name yours in what you are shown.
	for path, content := range extra {
		if content == nil || strings.HasPrefix(filepath.ToSlash(path), exgen.ExerciseDir+"/") {
			continue
		}
		abs := filepath.Clean(filepath.Join(c.Dir, path))
		rel, err := filepath.Rel(root, filepath.Join(filepath.Dir(abs), exgen.ExerciseDir, filepath.Base(abs)))
		if err == nil {
			s.yours[abs] = filepath.ToSlash(rel)
		}
	}
	ref, err := exgen.GoFiles(c.Dir)
	if err != nil {
		return nil, err
	}
	mine, err := exgen.GoFiles(filepath.Join(c.Dir, exgen.ExerciseDir))
	if err != nil {
		return nil, err
	}
	// The overlay's own exercise files (the generated copies of the tests
	// of the tests) count as yours too, and a nil one is a file you lack.
	set := map[string]bool{}
	for _, name := range mine {
		set[name] = true
	}
	for path, content := range extra {
		dir, name := filepath.Split(filepath.ToSlash(path))
		if dir == exgen.ExerciseDir+"/" && strings.HasSuffix(name, ".go") && !strings.HasSuffix(name, "_test.go") {
			set[name] = content != nil
		}
	}
	for _, name := range ref {
		s.files[name] = nil // a reference file your copy lacks is left out
	}
	for name, have := range set {
		if !have {
			continue
		}
		content, ok := extra[filepath.Join(exgen.ExerciseDir, name)]
		if !ok {
			if content, err = os.ReadFile(filepath.Join(c.Dir, exgen.ExerciseDir, name)); err != nil {
				return nil, err
			}
		}
		s.files[name] = content
		s.yours[filepath.Join(c.Dir, name)] = filepath.ToSlash(filepath.Join(c.Name, exgen.ExerciseDir, name))
	}
	// The exercise adapter would build your copy a second time, as its
	// own package: the stand-in needs only the reference adapter.
	for _, name := range exgen.AdapterTwinNames(c.Dir) {
		s.files[name] = nil
	}
	return s, nil
}

// translate rewrites the reference paths in text (a compiler error, a
// stack) to the paths of your files that stood in for them.
func (s *standIn) translate(text string) string {
	refs := make([]string, 0, len(s.yours))
	for ref := range s.yours {
		refs = append(refs, ref)
	}
	// Longest first, so that no path is cut by a shorter one it contains.
	sort.Slice(refs, func(i, j int) bool { return len(refs[i]) > len(refs[j]) })
	for _, ref := range refs {
		text = strings.ReplaceAll(text, ref, s.yours[ref])
	}
	// The compiler names files relative to the package: "./store.go:12:3".
	for ref, mine := range s.yours {
		if filepath.Dir(ref) == s.dir {
			text = strings.ReplaceAll(text, "./"+filepath.Base(ref)+":", mine+":")
		}
	}
	return s.harnessFrames(text)
}

// isYours reports whether path (a reference file's absolute path, as a
// stack names it) is one of your files standing in.
func (s *standIn) isYours(path string) bool {
	_, ok := s.yours[path]
	return ok
}
