// Package chapters finds the workshop's chapters on disk.
package chapters

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
)

// Chapter is one numbered chapter module, such as 03-indexer.
type Chapter struct {
	Name string // "03-indexer"
	Dir  string // absolute path
}

// Number is the chapter's two-digit number, "03".
func (c Chapter) Number() string { return c.Name[:2] }

var chapterName = regexp.MustCompile(`^\d\d-[a-z]+$`)

// Root finds the workspace root: the nearest directory at or above the
// working directory that has a go.work file.
func Root() (string, error) { return FindUp("go.work") }

// FindUp returns the nearest directory at or above the working directory
// that contains a file called name.
func FindUp(name string) (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for d := dir; ; d = filepath.Dir(d) {
		if _, err := os.Stat(filepath.Join(d, name)); err == nil {
			return d, nil
		}
		if filepath.Dir(d) == d {
			return "", fmt.Errorf("no %s at or above %s: run this from inside the workshop", name, dir)
		}
	}
}

// All lists the chapters under root in order.
func All(root string) ([]Chapter, error) {
	entries, err := os.ReadDir(root)
	if err != nil {
		return nil, err
	}
	var list []Chapter
	for _, e := range entries {
		if e.IsDir() && chapterName.MatchString(e.Name()) {
			if _, err := os.Stat(filepath.Join(root, e.Name(), "go.mod")); err == nil {
				list = append(list, Chapter{Name: e.Name(), Dir: filepath.Join(root, e.Name())})
			}
		}
	}
	sort.Slice(list, func(i, j int) bool { return list[i].Name < list[j].Name })
	return list, nil
}

// Find returns the chapters named by args, each a number ("3", "03") or a
// name ("03-indexer"); no args means every chapter.
func Find(root string, args ...string) ([]Chapter, error) {
	all, err := All(root)
	if err != nil || len(args) == 0 {
		return all, err
	}
	var found []Chapter
	for _, arg := range args {
		want := arg
		if len(want) == 1 {
			want = "0" + want
		}
		var match *Chapter
		for i, c := range all {
			if c.Name == want || c.Number() == want || strings.TrimSuffix(want, "/") == c.Name {
				match = &all[i]
			}
		}
		if match == nil {
			names := make([]string, len(all))
			for i, c := range all {
				names[i] = c.Name
			}
			return nil, fmt.Errorf("no chapter %q; the chapters are %s", arg, strings.Join(names, ", "))
		}
		found = append(found, *match)
	}
	return found, nil
}

// RealClockFile, in a chapter's testdata, says that the chapter's
// scenarios run on a real clock (a real etcd, streams that end after
// their timeout) rather than in a synctest bubble, and why. Their checks
// mostly wait, so selftest gives them workers of their own.
const RealClockFile = "testdata/real-clock.txt"

// RealClock reports whether the chapter has a RealClockFile.
func (c Chapter) RealClock() bool {
	_, err := os.Stat(filepath.Join(c.Dir, RealClockFile))
	return err == nil
}
