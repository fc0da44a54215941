package runner

import (
	"bufio"
	"os"
	"path/filepath"
	"strings"

	"example.com/walkthrough/workshop/chapters"
	"example.com/walkthrough/workshop/exgen"
)

// walkthroughPrefix starts the module path of every chapter.
const walkthroughPrefix = "example.com/walkthrough/"

// Deps lists the earlier chapters c builds on, directly or through another
// chapter, in chapter order. It reads the requirements in each go.mod.
func Deps(root string, c chapters.Chapter) ([]chapters.Chapter, error) {
	all, err := chapters.All(root)
	if err != nil {
		return nil, err
	}
	byName := map[string]chapters.Chapter{}
	for _, ch := range all {
		byName[ch.Name] = ch
	}
	seen := map[string]bool{}
	var visit func(ch chapters.Chapter) error
	visit = func(ch chapters.Chapter) error {
		names, err := requiredChapters(ch.Dir)
		if err != nil {
			return err
		}
		for _, name := range names {
			dep, ok := byName[name]
			if !ok || seen[name] || name == c.Name {
				continue
			}
			seen[name] = true
			if err := visit(dep); err != nil {
				return err
			}
		}
		return nil
	}
	if err := visit(c); err != nil {
		return nil, err
	}
	var deps []chapters.Chapter
	for _, ch := range all {
		if seen[ch.Name] {
			deps = append(deps, ch)
		}
	}
	return deps, nil
}

// requiredChapters reads the chapter modules a go.mod requires
// ("example.com/walkthrough/03-indexer" gives "03-indexer").
func requiredChapters(dir string) ([]string, error) {
	f, err := os.Open(filepath.Join(dir, "go.mod"))
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var names []string
	inRequire := false
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		switch {
		case line == "require (":
			inRequire = true
			continue
		case inRequire && line == ")":
			inRequire = false
			continue
		case strings.HasPrefix(line, "require "):
			line = strings.TrimPrefix(line, "require ")
		case !inRequire:
			continue
		}
		path, _, _ := strings.Cut(line, " ")
		name, ok := strings.CutPrefix(path, walkthroughPrefix)
		if ok && name != "workshop" && !strings.Contains(name, "/") {
			names = append(names, name)
		}
	}
	return names, sc.Err()
}

// MineOverlay returns the go build overlay that runs chapter c on your own
// copies of the chapters in deps: each dep's reference files are replaced
// by the files of the same name in its exercise/ directory. A reference
// file your copy lacks is left out of the build; a file only your copy has
// is added. Your copy is the same package under the same name, so whatever
// imports the dep's reference package compiles against your code instead.
// Paths are relative to c's directory, as gotest.Run wants them.
func MineOverlay(c chapters.Chapter, deps []chapters.Chapter) (map[string][]byte, error) {
	files := map[string][]byte{}
	for _, d := range deps {
		ref, err := exgen.GoFiles(d.Dir)
		if err != nil {
			return nil, err
		}
		mine, err := exgen.GoFiles(filepath.Join(d.Dir, exgen.ExerciseDir))
		if err != nil {
			return nil, err
		}
		rel := func(name string) (string, error) { return filepath.Rel(c.Dir, filepath.Join(d.Dir, name)) }
		for _, name := range ref {
			path, err := rel(name)
			if err != nil {
				return nil, err
			}
			files[path] = nil
		}
		for _, name := range mine {
			data, err := os.ReadFile(filepath.Join(d.Dir, exgen.ExerciseDir, name))
			if err != nil {
				return nil, err
			}
			path, err := rel(name)
			if err != nil {
				return nil, err
			}
			files[path] = data
		}
	}
	return files, nil
}
