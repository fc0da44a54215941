// Command exgen writes each chapter's exercise copy from its reference
// code (`make exercises`), or with -check fails when a committed copy is
// not what it would write now (part of `make test`).
//
//	go run ./workshop/cmd/exgen [-check] [chapter ...]
package main

import (
	"flag"
	"fmt"
	"os"

	"example.com/walkthrough/workshop/chapters"
	"example.com/walkthrough/workshop/exgen"
)

func main() {
	check := flag.Bool("check", false, "fail if a committed exercise copy is stale instead of writing it")
	flag.Parse()
	if err := run(*check, flag.Args()); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}

func run(check bool, args []string) error {
	root, err := chapters.Root()
	if err != nil {
		return err
	}
	list, err := chapters.Find(root, args...)
	if err != nil {
		return err
	}
	failed := false
	for _, c := range list {
		exercises, err := exgen.Exercises(c.Dir)
		if err != nil {
			return err
		}
		if len(exercises) == 0 {
			continue // a chapter without exercises yet
		}
		if !check {
			if err := exgen.Write(c.Dir); err != nil {
				return err
			}
			fmt.Printf("%s: wrote exercise/ (%d exercises)\n", c.Name, len(exercises))
			continue
		}
		switch err := exgen.CheckFresh(c.Dir); {
		case err == nil:
			fmt.Printf("%s: exercise copy is current\n", c.Name)
		case exgen.EditedByLearner(c.Dir):
			fmt.Printf("%s: exercise/ has your edits, so its freshness is not checked here (CI checks a clean clone)\n", c.Name)
		default:
			fmt.Fprintln(os.Stderr, err)
			failed = true
		}
	}
	if failed {
		return fmt.Errorf("exercise copies are stale")
	}
	return nil
}
