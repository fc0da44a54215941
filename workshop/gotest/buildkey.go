package gotest

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"sync"
)

// A kept binary (BuildAt) carries, in a file beside it, the sum of what
// it was built from: every file of the workspace, the overlay, the build
// flags and the Go toolchain. When the sum is unchanged the go command is
// not asked at all. Asking it costs about a second even when nothing
// changed, for a package that imports client-go and etcd: it hashes every
// file of every dependency to find that out. Summing the workspace (a few
// megabytes, the dependencies in the module cache never change) takes a
// few tens of milliseconds.

// keyFile is where the sum of the binary at path is kept.
func keyFile(path string) string { return path + ".key" }

// buildKey sums up what the test binary of the package in dir is built
// from; "" when it cannot tell, and the go command must be asked.
func buildKey(dir string, files map[string][]byte, flags []string) string {
	h := sha256.New()
	root := SumSettings(h, dir, files, flags)
	if root == "" || SumTree(h, root, nil) != nil {
		return ""
	}
	return hex.EncodeToString(h.Sum(nil))
}

// SumSettings adds to h what a test binary of the package in dir is built
// with besides the workspace's files: the Go toolchain and its settings,
// the flags and the overlay. It returns the workspace's directory (go.work's,
// or the module's), or "" when it cannot tell.
func SumSettings(h io.Writer, dir string, files map[string][]byte, flags []string) string {
	env, err := goEnv(dir)
	if err != nil {
		return ""
	}
	fmt.Fprintf(h, "flags %q\nenv %s\n", flags, env)
	lines := strings.Split(string(env), "\n")
	root := ""
	if len(lines) > 3 {
		for _, f := range []string{lines[2], lines[3]} {
			if f != "" && f != "off" && f != os.DevNull {
				root = filepath.Dir(f)
				break
			}
		}
	}
	absDir, err := filepath.Abs(dir)
	if err != nil {
		return ""
	}
	names := make([]string, 0, len(files))
	for rel := range files {
		names = append(names, rel)
	}
	sort.Strings(names)
	for _, rel := range names {
		fmt.Fprintf(h, "overlay %s %t %d\n", filepath.Join(absDir, rel), files[rel] == nil, len(files[rel]))
		h.Write(files[rel])
	}
	return root
}

// goEnvs remembers goEnv's answers for this process: a check asks twice
// (the binary's key and the result's), and status asks for every chapter.
var goEnvs sync.Map // dir and environment → go env's output

// goEnv is the toolchain and the settings a build in dir uses, as go env
// prints them. The answer depends on dir and on the environment (GOFLAGS,
// GOWORK, ...), so both key it.
func goEnv(dir string) ([]byte, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, err
	}
	key := abs + "\x00" + strings.Join(os.Environ(), "\x00")
	if env, ok := goEnvs.Load(key); ok {
		return env.([]byte), nil
	}
	cmd := exec.Command("go", "env", "GOVERSION", "GOROOT", "GOWORK", "GOMOD", "GOFLAGS", "GOOS", "GOARCH",
		"GOAMD64", "GOARM64", "GOEXPERIMENT", "CGO_ENABLED", "CC", "CGO_CFLAGS", "CGO_LDFLAGS")
	cmd.Dir = dir
	env, err := cmd.Output()
	if err != nil {
		return nil, err
	}
	goEnvs.Store(key, env)
	return env, nil
}

// SumTree adds every regular file under root to h, by path and content,
// except the directories no build reads (version control, caches, and
// those the go command ignores: a name starting with "." or "_") and
// those skip, if not nil, leaves out.
func SumTree(h io.Writer, root string, skip func(dir string) bool) error {
	return filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		name := d.Name()
		if d.IsDir() {
			if path != root && (strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_") || name == "node_modules" || skip != nil && skip(path)) {
				return filepath.SkipDir
			}
			return nil
		}
		if !d.Type().IsRegular() {
			return nil
		}
		f, err := os.Open(path)
		if err != nil {
			return err
		}
		defer f.Close()
		fmt.Fprintf(h, "file %s\n", path)
		_, err = io.Copy(h, f)
		return err
	})
}

// builtFrom reports whether the binary at path is there, unchanged since
// it was built, from what key sums up.
func builtFrom(path, key string) bool {
	if key == "" {
		return false
	}
	kept, err := os.ReadFile(keyFile(path))
	return err == nil && string(kept) == key+" "+binaryStamp(path)
}

// keepKey notes that the binary at path was just built from key.
func keepKey(path, key string) {
	if key != "" {
		os.WriteFile(keyFile(path), []byte(key+" "+binaryStamp(path)), 0o644)
	}
}

// binaryStamp tells one binary file from another written at its path.
func binaryStamp(path string) string {
	fi, err := os.Stat(path)
	if err != nil {
		return "missing"
	}
	return fmt.Sprintf("%d@%d", fi.Size(), fi.ModTime().UnixNano())
}

// listFile is where a kept binary's -test.list output is kept (TopLevel).
func listFile(path string) string { return path + ".list" }

// keptList returns the -test.list output kept beside the binary, if it
// was listed from this very binary (its stamp).
func (b *Binary) keptList() ([]byte, bool) {
	if !b.kept {
		return nil, false
	}
	kept, err := os.ReadFile(listFile(b.Path))
	if err != nil {
		return nil, false
	}
	stamp, list, ok := bytes.Cut(kept, []byte("\n"))
	if !ok || string(stamp) != binaryStamp(b.Path) {
		return nil, false
	}
	return list, true
}

// keepList keeps the binary's -test.list output beside it, stamped.
func (b *Binary) keepList(list []byte) {
	if b.kept {
		os.WriteFile(listFile(b.Path), append([]byte(binaryStamp(b.Path)+"\n"), list...), 0o644)
	}
}
