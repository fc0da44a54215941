// Command chaosmutant builds a `go build -overlay` file that applies one of the fault tier's
// mutants (04-processor/chaos/testdata/mutants/NAME.txt) to the reference code, so that
// `make chaos-mutants` can run the fault suite against a known bug and expect it to fail.
//
//	go run ./workshop/cmd/chaosmutant NAME    prints the overlay file's path
//	go run ./workshop/cmd/chaosmutant -list   prints the mutants' names
//	go run ./workshop/cmd/chaosmutant -pairs  prints NAME:FAULT for each, FAULT the CHAOS_ONLY
//	                                          regexp of the fault that must catch it
//
// A mutant's paragraph ends with a line CHAOS_ONLY=regexp: the fault that must catch it, which
// `make chaos-mutants` runs it against.
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"

	"example.com/walkthrough/workshop/cluster"
	"example.com/walkthrough/workshop/mutant"
)

func main() {
	list := flag.Bool("list", false, "print the mutants' names")
	pairs := flag.Bool("pairs", false, "print NAME:FAULT for each mutant, FAULT the regexp of the fault that must catch it")
	flag.Parse()
	if err := run(*list, *pairs, flag.Args()); err != nil {
		fmt.Fprintln(os.Stderr, "chaosmutant:", err)
		os.Exit(1)
	}
}

func run(list, pairs bool, args []string) error {
	p, err := cluster.FindPaths(".")
	if err != nil {
		return err
	}
	// The mutants' file paths are relative to the repository root, so the root plays the
	// part a chapter directory plays for chapter mutants.
	mutants, err := mutant.Load(filepath.Join(p.Root, "04-processor", "chaos"))
	if err != nil {
		return err
	}
	if list {
		for _, m := range mutants {
			fmt.Println(m.Name)
		}
		return nil
	}
	if pairs {
		for _, m := range mutants {
			fault, err := caughtBy(m)
			if err != nil {
				return err
			}
			fmt.Printf("%s:%s\n", m.Name, fault)
		}
		return nil
	}
	if len(args) != 1 {
		return fmt.Errorf("usage: chaosmutant NAME (or -list)")
	}
	for _, m := range mutants {
		if m.Name != args[0] {
			continue
		}
		files, err := m.Apply(p.Root)
		if err != nil {
			return err
		}
		dir := filepath.Join(p.Root, ".cache", "chaos-mutants", m.Name)
		overlay := struct{ Replace map[string]string }{map[string]string{}}
		for rel, content := range files {
			dst := filepath.Join(dir, rel)
			if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
				return err
			}
			if err := os.WriteFile(dst, content, 0o644); err != nil {
				return err
			}
			overlay.Replace[filepath.Join(p.Root, rel)] = dst
		}
		b, err := json.MarshalIndent(overlay, "", "  ")
		if err != nil {
			return err
		}
		path := filepath.Join(dir, "overlay.json")
		if err := os.WriteFile(path, b, 0o644); err != nil {
			return err
		}
		fmt.Println(path)
		return nil
	}
	return fmt.Errorf("no mutant %q in 04-processor/chaos/testdata/mutants (try -list)", args[0])
}

// caughtBy is the CHAOS_ONLY regexp on the last line of m's paragraph: the fault that must
// catch it.
func caughtBy(m mutant.Mutant) (string, error) {
	words := strings.Fields(m.About) // the paragraph's lines, joined
	fault, ok := strings.CutPrefix(words[len(words)-1], "CHAOS_ONLY=")
	if !ok || fault == "" {
		return "", fmt.Errorf("mutant %s: its paragraph must end with a line CHAOS_ONLY=regexp, the fault that must catch it", m.Name)
	}
	if _, err := regexp.Compile(fault); err != nil {
		return "", fmt.Errorf("mutant %s: CHAOS_ONLY=%s: %v", m.Name, fault, err)
	}
	return fault, nil
}
