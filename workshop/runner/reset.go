package runner

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"example.com/walkthrough/workshop/chapters"
	"example.com/walkthrough/workshop/exgen"
)

// Reset puts your copy of a chapter (id 0) or of one exercise back as the
// generator writes it. It asks first, unless r.Yes, and copies every file
// it is about to change to .cache/workshop/backups/<time>/ before writing.
//
// Resetting one exercise replaces only the bodies of that exercise's
// functions with their stubs (found by name, so the rest of the file, and
// your other exercises in it, stay as they are), then fixes the imports.
func (r *Runner) Reset(chapter string, id int) error {
	c, err := r.chapter(chapter)
	if err != nil {
		return err
	}
	var what string
	var ex exgen.Exercise
	if id > 0 {
		if ex, err = exercise(c, id); err != nil {
			return err
		}
		what = fmt.Sprintf("exercise %d of %s (%s)", id, c.Name, strings.TrimSuffix(ex.Title, "."))
	} else {
		if list, _ := exgen.Exercises(c.Dir); len(list) == 0 {
			return fmt.Errorf("%s has no exercises yet, so there is nothing to reset", c.Name)
		}
		what = fmt.Sprintf("your whole copy of %s", c.Name)
	}
	// One exercise goes back to its stub, whatever its track; the whole
	// chapter goes back as its track generates it: the committed copy on
	// the core track, every exercise a stub on the deep or blank one (the
	// 04 trial's reset on the deep track went back to core unsaid).
	track := LoadState(r.Root).Tracks[c.Name]
	allStubs := track == TrackDeep || track == TrackBlank
	stub := exgen.StubAll
	if id == 0 && !allStubs {
		if stub, err = exgen.CoreStubs(c.Dir); err != nil {
			return err
		}
	}
	if id == 0 && allStubs {
		what += fmt.Sprintf(", on the %s track it is on (every exercise a stub),", track)
	}
	gen, err := exgen.Generate(c.Dir, stub)
	if err != nil {
		return err
	}
	write, remove, err := r.resetPlan(c, gen, id)
	if err != nil {
		return err
	}
	if len(write) == 0 && len(remove) == 0 {
		r.next(fmt.Sprintf("There is nothing to reset: %s is already as generated. Next: check it:", what), r.checkCmd(c, max(id, 1)))
		return nil
	}
	var names []string
	for name := range write {
		names = append(names, c.Name+"/"+filepath.ToSlash(name))
	}
	for _, name := range remove {
		names = append(names, c.Name+"/"+filepath.ToSlash(name)+" (removed)")
	}
	sort.Strings(names)
	r.say("", fmt.Sprintf("This puts %s back as generated. Your changes to it are lost from these files, but a backup is kept:", what))
	for _, n := range names {
		r.printf("  %s\n", n)
	}
	why := "reset " + c.Number()
	ids := []int{id}
	if id > 0 {
		why += fmt.Sprintf(" %d", id)
	} else if list, err := exgen.Exercises(c.Dir); err == nil {
		ids = exerciseIDs(list)
	}
	// As core, deep and blank do (trial I's reset of a passing exercise
	// said nothing of it).
	r.warnWork(c, ids, write, why, "puts %s back as generated")
	if !r.confirm("Reset? [y/N] ") {
		r.declined(why)
		return nil
	}
	backup, err := r.backup(c, id, append(keys(write), remove...), why)
	if err != nil {
		return err
	}
	for name, src := range write {
		if err := os.WriteFile(filepath.Join(c.Dir, name), src, 0o644); err != nil {
			return err
		}
	}
	for _, name := range remove {
		if err := os.Remove(filepath.Join(c.Dir, name)); err != nil {
			return err
		}
	}
	s := LoadState(r.Root)
	if id > 0 {
		delete(s.Hints, hintKey(c.Name, id))
		s.forgetPassed(c.Name, []int{id})
	} else {
		s.forgetPassed(c.Name, s.Passed[c.Name])
		for k := range s.Hints {
			if strings.HasPrefix(k, c.Name+"/") {
				delete(s.Hints, k)
			}
		}
		if !allStubs {
			s.Tracks[c.Name] = TrackCore
		}
	}
	if err := s.Save(r.Root); err != nil {
		return err
	}
	r.say("", fmt.Sprintf("Done. Your old files are in %s.", backup))
	next := 1
	if id > 0 {
		next = id
	}
	r.next("Next: see where you start again:", r.checkCmd(c, next))
	return nil
}

// resetPlan works out the files to write (path relative to the chapter →
// content) and to remove.
func (r *Runner) resetPlan(c chapters.Chapter, gen map[string][]byte, id int) (map[string][]byte, []string, error) {
	write := map[string][]byte{}
	if id == 0 {
		// Against what this track generates (gen), not the committed
		// core copy: on the deep track a file you left as the core copy
		// has it still (the 02 trial's reset left delta.go and
		// realfifo.go whole, and exercise 7 with them).
		var remove []string
		for _, name := range exgen.StaleAgainst(c.Dir, gen) {
			if src, ok := gen[name]; ok {
				write[name] = src
			} else {
				remove = append(remove, name)
			}
		}
		return write, remove, nil
	}
	write, err := stubPlan(c, gen, []int{id})
	return write, nil, err
}

// stubPlan works out the files that put the functions of the exercises
// ids back to their stubs in your copy (gen is the generated copy with
// them stubbed): only those functions change, so your other work in the
// same files stays. A file you do not have is written whole. It returns
// only the files that change.
func stubPlan(c chapters.Chapter, gen map[string][]byte, ids []int) (map[string][]byte, error) {
	write := map[string][]byte{}
	onDisk := map[string][]byte{} // nil for a file you do not have
	for _, id := range ids {
		parts, err := exgen.ExerciseParts(gen, id)
		if err != nil {
			return nil, err
		}
		for name, funcs := range parts {
			mine, planned := write[name]
			if !planned {
				mine, err = os.ReadFile(filepath.Join(c.Dir, name))
				if os.IsNotExist(err) {
					write[name], onDisk[name] = gen[name], nil
					continue
				}
				if err != nil {
					return nil, err
				}
				onDisk[name] = mine
			}
			if onDisk[name] == nil {
				continue // written whole from gen
			}
			restored, err := exgen.SpliceBodies(mine, gen[name], funcs)
			if err != nil {
				return nil, fmt.Errorf("%s/%s: %w", c.Name, name, err)
			}
			write[name] = restored
		}
	}
	for name, src := range write {
		if onDisk[name] != nil && bytes.Equal(onDisk[name], src) {
			delete(write, name)
		}
	}
	return write, nil
}

// backup is BackupFiles at the runner's clock.
func (r *Runner) backup(c chapters.Chapter, id int, names []string, why string) (string, error) {
	return BackupFiles(r.Root, r.clock(), c, id, names, why)
}

// BackupsDir is where backups live, relative to the workspace root.
var BackupsDir = filepath.Join(".cache", "workshop", "backups")

// BackupFiles copies the chapter's files named (relative to the chapter)
// to a new directory under BackupsDir of the workspace root, records it
// in the state file with why (the command about to write) and the
// chapter's track, and returns its path relative to the root. id is the
// exercise the backup is for, 0 for the whole chapter. Every command
// that writes your copy (reset, core, deep, blank, restore, and
// `make exercises FORCE=1`) calls it first; `restore` lists what it kept.
func BackupFiles(root string, when time.Time, c chapters.Chapter, id int, names []string, why string) (string, error) {
	base := filepath.Join(BackupsDir, when.Format("20060102-150405"))
	rel := base
	for n := 2; ; n++ {
		if _, err := os.Stat(filepath.Join(root, rel)); os.IsNotExist(err) {
			break
		}
		rel = fmt.Sprintf("%s-%d", base, n)
	}
	sort.Strings(names)
	var saved []string
	for _, name := range names {
		data, err := os.ReadFile(filepath.Join(c.Dir, name))
		if os.IsNotExist(err) {
			continue
		}
		if err != nil {
			return "", err
		}
		dst := filepath.Join(root, rel, c.Name, name)
		if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
			return "", err
		}
		if err := os.WriteFile(dst, data, 0o644); err != nil {
			return "", err
		}
		saved = append(saved, filepath.ToSlash(filepath.Join(c.Name, name)))
	}
	if err := os.MkdirAll(filepath.Join(root, rel), 0o755); err != nil {
		return "", err
	}
	s := LoadState(root)
	s.Backups = append(s.Backups, Backup{When: when, Chapter: c.Name, Exercise: id, Dir: filepath.ToSlash(rel), Files: saved,
		Why: why, Track: s.Tracks[c.Name]})
	if err := s.Save(root); err != nil {
		return "", err
	}
	return filepath.ToSlash(rel), nil
}

func keys(m map[string][]byte) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	return out
}
