package gotest

import (
	"fmt"
	"os/exec"
	"strings"
)

// Warm starts compiling, in the background, every package the tests of
// the package in dir import, with flags (-race, -tags), so that the
// first check of a chapter finds them in the build cache: chapter 07's
// dependencies (client-go, etcd's server) take about three minutes on
// two cores under the race detector, the time a learner spends reading
// before their first check. It compiles the dependencies only, not the
// chapter (its files change) and links nothing; marker is the file that
// says it runs, for StopWarm. Where it cannot run in the background, it
// does nothing.
func Warm(dir, marker string, flags ...string) error {
	list := exec.Command("go", "list", "-deps", "-test", "-f", "{{.ImportPath}}\t{{with .Module}}{{.Main}}{{end}}", ".")
	list.Dir = dir
	out, err := list.Output()
	if err != nil {
		return fmt.Errorf("go list in %s: %w", dir, err)
	}
	var pkgs []string
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		path, main, _ := strings.Cut(line, "\t")
		// The workspace's own packages change as you edit them; a
		// package's test variant ("p [p.test]") and the test main are
		// built by the check itself.
		if main == "true" || strings.Contains(path, " ") || strings.HasSuffix(path, ".test") || path == "" {
			continue
		}
		pkgs = append(pkgs, path)
	}
	if len(pkgs) == 0 {
		return nil
	}
	cmd := exec.Command("go", append(append([]string{"build"}, flags...), pkgs...)...)
	cmd.Dir = dir
	return startDetached(cmd, marker)
}
