package runner

import (
	"bytes"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strconv"

	"example.com/walkthrough/workshop/chapters"
	"example.com/walkthrough/workshop/exgen"
)

// kept is one backup of a chapter's files, found on disk under
// BackupsDir; the state file adds why it was made, when it knows.
type kept struct {
	Name  string   // the backup's directory name: 20261124-144109
	Dir   string   // relative to the root: .cache/workshop/backups/20261124-144109
	Files []string // relative to the chapter: exercise/keys.go
	Why   string   // the command that made it, "" when the state file forgot
	Track string   // the chapter's track then, "" when unknown
}

// why says what a backup was kept before.
func (b kept) why() string {
	if b.Why == "" {
		return "(made by an older runner)"
	}
	return "before " + b.Why
}

// noBackup says there is no backup yet, of chapter or ("") of any, and
// which commands keep one.
func (r *Runner) noBackup(chapter string) {
	of := ""
	if chapter != "" {
		of = " of " + chapter
	}
	r.say("", fmt.Sprintf("There is no backup%s yet. reset, core, deep, blank and `make exercises FORCE=1` keep one in %s before they write.", of, filepath.ToSlash(BackupsDir)))
}

// Restore puts back the files of a chapter that a backup kept (reset,
// core, deep, blank, restore itself and `make exercises FORCE=1` keep
// one before they write). With which "" it lists the chapter's backups,
// newest first, and asks which one; which is a backup's name or its
// number in that list. It asks before writing, and backs up the files it
// replaces first, so a restore can be undone by another. With chapter ""
// it is the chapter of the newest backup (the 03 trial typed a bare
// restore). With --yes and a single backup, that one is put back.
func (r *Runner) Restore(chapter, which string) error {
	if chapter == "" {
		backups := LoadState(r.Root).Backups
		if len(backups) == 0 {
			r.noBackup("")
			return nil
		}
		chapter = backups[len(backups)-1].Chapter
	}
	c, err := r.chapter(chapter)
	if err != nil {
		return err
	}
	list, err := backupsOf(r.Root, c)
	if err != nil {
		return err
	}
	if len(list) == 0 {
		r.noBackup(c.Name)
		return nil
	}
	if which == "" && r.Yes && len(list) == 1 {
		// --yes answers the one question there is (trial P typed
		// `restore 02 --yes` with one backup, and got a list of one).
		which = list[0].Name
	}
	if which == "" {
		r.say("", fmt.Sprintf("Backups of %s, newest first:", c.Name))
		nameWidth, whyWidth := 0, 0
		for _, b := range list {
			nameWidth, whyWidth = max(nameWidth, len(b.Name)), max(whyWidth, len(b.why()))
		}
		for i, b := range list {
			r.printf("  %*d  %-*s  %-*s  %s\n", len(fmt.Sprint(len(list))), i+1, nameWidth, b.Name, whyWidth, b.why(), countFiles(len(b.Files)))
		}
		if r.Yes || r.In == nil {
			r.next("Next: name the one to put back (here the newest):", r.restoreCmd(c, list[0]))
			return nil
		}
		if which = r.ask(fmt.Sprintf("Put back which one? [1-%d] (Enter: none) ", len(list))); which == "" {
			r.say("", "Nothing changed.")
			r.next("Next: to put one back, name it (here the newest):", r.restoreCmd(c, list[0]))
			return nil
		}
	}
	b, ok := pickBackup(list, which)
	if !ok {
		return fmt.Errorf("%s has no backup %q. Next: list them:\n  %s", c.Name, which, r.cmd("restore", c.Number()))
	}
	return r.putBack(c, b)
}

// restoreCmd is the command that puts backup b back. Where no one is
// there to answer its question (no input, or input that gave no answer,
// as in a script), it carries --yes: without it, the command it names
// would only be answered no.
func (r *Runner) restoreCmd(c chapters.Chapter, b kept) string {
	words := []string{"restore", c.Number(), b.Name}
	if r.Yes || r.In == nil || r.noAnswer {
		words = append(words, "--yes")
	}
	return r.cmd(words...)
}

// putBack writes a backup's files over your copy, after asking and after
// backing up the files it replaces.
func (r *Runner) putBack(c chapters.Chapter, b kept) error {
	write := map[string][]byte{}
	for _, name := range b.Files {
		data, err := os.ReadFile(filepath.Join(r.Root, b.Dir, c.Name, name))
		if err != nil {
			return err
		}
		if mine, err := os.ReadFile(filepath.Join(c.Dir, name)); err != nil || !bytes.Equal(mine, data) {
			write[name] = data
		}
	}
	if len(write) == 0 {
		r.next(fmt.Sprintf("Your copy of %s already holds the files of backup %s, so nothing changes. Next: check it:", c.Name, b.Name), r.cmd("check", c.Number()))
		return nil
	}
	r.say("", fmt.Sprintf("This puts back these files of %s as backup %s kept them. The files they replace are backed up first:", c.Name, b.Name))
	r.fileList(c, write)
	if !r.confirm("Restore? [y/N] ") {
		r.declined("restore", c.Number(), b.Name)
		return nil
	}
	backup, err := r.backup(c, 0, keys(write), "restore "+c.Number()+" "+b.Name)
	if err != nil {
		return err
	}
	for name, data := range write {
		path := filepath.Join(c.Dir, name)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(path, data, 0o644); err != nil {
			return err
		}
	}
	track := b.Track
	if track == "" {
		track = trackOfFiles(c)
	}
	if err := SetTrack(r.Root, c.Name, track); err != nil {
		return err
	}
	r.say("", fmt.Sprintf("Done: %s is back as backup %s kept it, on the %s track. The files it replaced are in %s.", c.Name, b.Name, track, backup))
	r.next("Next: see where you stand:", r.cmd("check", c.Number()))
	return nil
}

// backupsOf lists the backups that hold files of chapter c, newest first.
// The directories are the truth; the state file only says why each was
// made.
func backupsOf(root string, c chapters.Chapter) ([]kept, error) {
	entries, err := os.ReadDir(filepath.Join(root, BackupsDir))
	if os.IsNotExist(err) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	records := map[string]Backup{}
	for _, b := range LoadState(root).Backups {
		if b.Chapter == c.Name {
			records[b.Dir] = b
		}
	}
	var list []kept
	for _, e := range entries {
		if !e.IsDir() {
			continue
		}
		dir := filepath.ToSlash(filepath.Join(BackupsDir, e.Name()))
		var files []string
		base := filepath.Join(root, dir, c.Name)
		filepath.WalkDir(base, func(p string, d fs.DirEntry, err error) error {
			if err == nil && d.Type().IsRegular() {
				rel, _ := filepath.Rel(base, p)
				files = append(files, filepath.ToSlash(rel))
			}
			return nil
		})
		if len(files) == 0 {
			continue
		}
		sort.Strings(files)
		rec := records[dir]
		list = append(list, kept{Name: e.Name(), Dir: dir, Files: files, Why: rec.Why, Track: rec.Track})
	}
	// Names are times, and a second backup in the same second gets "-2":
	// the greater name is the newer.
	sort.Slice(list, func(i, j int) bool { return list[i].Name > list[j].Name })
	return list, nil
}

// pickBackup finds a backup by name or by its number in the list.
func pickBackup(list []kept, which string) (kept, bool) {
	if n, err := strconv.Atoi(which); err == nil && n >= 1 && n <= len(list) {
		return list[n-1], true
	}
	for _, b := range list {
		if b.Name == which || b.Dir == which {
			return b, true
		}
	}
	return kept{}, false
}

// trackOfFiles is the track your copy shows when no record says: deep
// when a deep exercise's stub is in it, else core.
func trackOfFiles(c chapters.Chapter) string {
	list, err := exgen.Exercises(c.Dir)
	if err != nil {
		return TrackCore
	}
	all, err := exgen.Generate(c.Dir, exgen.StubAll)
	if err != nil {
		return TrackCore
	}
	for _, e := range list {
		if e.Track != exgen.TrackDeep {
			continue
		}
		parts, err := exgen.ExerciseParts(all, e.ID)
		if err != nil || len(parts) == 0 {
			continue
		}
		stubbed := true
		for name, funcs := range parts {
			mine, err := os.ReadFile(filepath.Join(c.Dir, name))
			stubbed = stubbed && err == nil && exgen.Untouched(mine, all[name], funcs)
		}
		if stubbed {
			return TrackDeep
		}
	}
	return TrackCore
}

func countFiles(n int) string {
	if n == 1 {
		return "1 file"
	}
	return fmt.Sprintf("%d files", n)
}
