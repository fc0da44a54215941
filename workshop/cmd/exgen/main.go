// Command exgen writes each chapter's exercise copy from its reference
// code (`make exercises`, a maintainer's command), and its exercise index
// (testdata/exercises.txt, see package exindex), or with -check fails
// when a committed copy or index is not what it would write now (part of
// `make test`).
//
// It never overwrites work that is not the generator's: a chapter whose
// exercise/ holds edits or added files is left as it is, with a word on
// how to force it (-force, `make exercises FORCE=1`), which first backs
// those files up the way the runner's reset does. Keeping such a chapter
// is not an error: the exit status is 0 unless something failed.
//
//	go run ./workshop/cmd/exgen [-check | -force] [chapter ...]
package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"example.com/walkthrough/workshop/chapters"
	"example.com/walkthrough/workshop/exgen"
	"example.com/walkthrough/workshop/exindex"
	"example.com/walkthrough/workshop/runner"
)

func main() {
	check := flag.Bool("check", false, "fail if a committed exercise copy is stale instead of writing it")
	force := flag.Bool("force", false, "overwrite exercise files that hold edits, after backing them up")
	flag.Parse()
	if err := run(os.Stdout, *check, *force, flag.Args()); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}

func run(out io.Writer, check, force bool, args []string) error {
	root, err := chapters.Root()
	if err != nil {
		return err
	}
	list, err := chapters.Find(root, args...)
	if err != nil {
		return err
	}
	failed, kept := false, 0
	for _, c := range list {
		exercises, err := exgen.Exercises(c.Dir)
		if err != nil {
			return err
		}
		if len(exercises) == 0 {
			continue // a chapter without exercises yet
		}
		// The index comes from the reference and testdata alone, never
		// from exercise/, so a learner's work there changes nothing about it.
		if err := index(out, c, check); err != nil {
			fmt.Fprintln(os.Stderr, err)
			failed = true
		}
		if !check {
			wrote, err := write(out, root, c, force)
			if err != nil {
				return err
			}
			if wrote {
				fmt.Fprintf(out, "%s: wrote exercise/ (%d exercises)\n", c.Name, len(exercises))
			} else {
				kept++
			}
			continue
		}
		switch err := exgen.CheckFresh(c.Dir); {
		case err == nil:
			fmt.Fprintf(out, "%s: exercise copy is current\n", c.Name)
		case exgen.EditedByLearner(c.Dir):
			fmt.Fprintf(out, "%s: exercise/ has your edits, so its freshness is not checked here (CI checks a clean clone)\n", c.Name)
		default:
			fmt.Fprintln(os.Stderr, err)
			failed = true
		}
	}
	if failed {
		return fmt.Errorf("exercise copies or indexes are stale")
	}
	// Keeping a learner's work is what exgen is meant to do, not a
	// failure: say so plainly and exit 0, so make does not end in
	// "Error 1" (a real error above returns non-zero).
	if kept > 0 {
		fmt.Fprintf(out, "Done. %d of %d chapters kept as they are: they hold your work (see above).\nNothing failed.\n", kept, len(list))
	}
	return nil
}

// index writes a chapter's exercise index, or with check says whether it
// is current; a stale one is the returned error.
func index(out io.Writer, c chapters.Chapter, check bool) error {
	if check {
		return exindex.CheckFresh(c.Dir)
	}
	wrote, err := exindex.Write(c.Dir)
	if wrote {
		fmt.Fprintf(out, "%s: wrote %s\n", c.Name, exindex.File)
	}
	return err
}

// write regenerates one chapter's copy unless that would overwrite files
// the generator did not write; with force it backs those up first. It
// reports whether it wrote.
func write(out io.Writer, root string, c chapters.Chapter, force bool) (bool, error) {
	files, err := exgen.GenerateCore(c.Dir)
	if err != nil {
		return false, err
	}
	guarded := exgen.Guarded(c.Dir, files)
	if len(guarded) > 0 && !force {
		fmt.Fprintf(out, "%s: left as it is. These files are not what the generator wrote, so they\n"+
			"probably hold your work, and regenerating would overwrite them:\n  %s\n"+
			"To regenerate anyway, keeping a backup of them: make exercises FORCE=1\n"+
			"To put back just one exercise (here the first), the runner asks first\n"+
			"and keeps a backup too: go run ./workshop/cmd/workshop reset %s 1\n",
			c.Name, strings.Join(guarded, "\n  "), c.Number())
		return false, nil
	}
	// A file you added to exercise/ (a helper of yours) is no file the
	// generator writes: it stays (trial X lost one to FORCE=1, if only to
	// the backup).
	var added, overwritten []string
	for _, name := range guarded {
		if _, generated := files[name]; generated {
			overwritten = append(overwritten, name)
		} else {
			added = append(added, name)
		}
	}
	if len(overwritten) > 0 {
		backup, err := runner.BackupFiles(root, time.Now(), c, 0, overwritten, "make exercises FORCE=1")
		if err != nil {
			return false, fmt.Errorf("%s: backing up %s before overwriting them: %w", c.Name, strings.Join(overwritten, ", "), err)
		}
		fmt.Fprintf(out, "%s: overwriting %s; the old files are in %s\n", c.Name, strings.Join(overwritten, ", "), backup)
	}
	if len(added) > 0 {
		fmt.Fprintf(out, "%s: keeping %s: you added it, and the generator does not write it\n", c.Name, strings.Join(added, ", "))
	}
	if err := exgen.WriteFiles(c.Dir, files, added...); err != nil {
		return false, err
	}
	// The copy is the core track now: a runner that remembered deep or
	// blank for this chapter must not go on showing deep rows.
	if _, started := runner.LoadState(root).Tracks[c.Name]; started {
		if err := runner.SetTrack(root, c.Name, runner.TrackCore); err != nil {
			return false, err
		}
	}
	return true, nil
}
