// Command chaosmutant builds a `go build -overlay` file that applies one of the fault tier's
// mutants (04-processor/chaos/testdata/mutants/NAME.txt) to the reference code, so that
// `make chaos-mutants` can run the fault suite against a known bug and expect it to fail.
//
//	go run ./workshop/cmd/chaosmutant NAME    prints the overlay file's path
//	go run ./workshop/cmd/chaosmutant -list   prints the mutants' names
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"

	"example.com/walkthrough/workshop/cluster"
	"example.com/walkthrough/workshop/mutant"
)

func main() {
	list := flag.Bool("list", false, "print the mutants' names")
	flag.Parse()
	if err := run(*list, flag.Args()); err != nil {
		fmt.Fprintln(os.Stderr, "chaosmutant:", err)
		os.Exit(1)
	}
}

func run(list bool, args []string) error {
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
