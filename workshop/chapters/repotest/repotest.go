// Package repotest copies parts of the repository into a test's temporary
// directory, for tests that run the go command, make or the runner on a
// workspace of their own, where nothing they do reaches the real one.
package repotest

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"example.com/walkthrough/workshop/chapters"
)

// Copy copies the repository's directories dirs and its files files into
// a new temporary directory, writes a go.work there that uses the modules
// uses (each a directory among dirs), with go.work.sum when the repository
// has one, and returns the directory.
func Copy(t testing.TB, dirs, files, uses []string) string {
	t.Helper()
	src, err := chapters.Root()
	if err != nil {
		t.Fatal(err)
	}
	dst := t.TempDir()
	for _, dir := range dirs {
		if err := os.CopyFS(filepath.Join(dst, dir), os.DirFS(filepath.Join(src, dir))); err != nil {
			t.Fatal(err)
		}
	}
	for _, file := range append(files, "go.work.sum") {
		data, err := os.ReadFile(filepath.Join(src, file))
		if os.IsNotExist(err) && file == "go.work.sum" {
			continue
		}
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dst, file), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	work, err := os.ReadFile(filepath.Join(src, "go.work"))
	if err != nil {
		t.Fatal(err)
	}
	goLine, _, _ := strings.Cut(string(work), "\n")
	use := ""
	for _, dir := range uses {
		use += "\t./" + dir + "\n"
	}
	if err := os.WriteFile(filepath.Join(dst, "go.work"), []byte(goLine+"\n\nuse (\n"+use+")\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	return dst
}
