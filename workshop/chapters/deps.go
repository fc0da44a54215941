package chapters

import (
	"bufio"
	"os"
	"path/filepath"
	"strings"
)

// walkthroughPrefix starts the module path of every chapter.
const walkthroughPrefix = "example.com/walkthrough/"

// Deps lists the earlier chapters c builds on, directly or through another
// chapter, in chapter order. It reads the requirements in each go.mod.
func Deps(root string, c Chapter) ([]Chapter, error) {
	all, err := All(root)
	if err != nil {
		return nil, err
	}
	byName := map[string]Chapter{}
	for _, ch := range all {
		byName[ch.Name] = ch
	}
	seen := map[string]bool{}
	var visit func(ch Chapter) error
	visit = func(ch Chapter) error {
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
	var deps []Chapter
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
