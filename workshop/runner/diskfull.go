package runner

import (
	"fmt"
	"os/exec"
	"strings"
)

// DiskFull says what to do when text (an error, a build's output) shows the
// disk is full; "" when it does not. The go command then fails wherever it
// first writes (a work directory, an overlay, a compiled package), and its
// words read like a broken chapter (trial R: "does not build yet, and the
// errors are not in your copy" for a full disk).
func DiskFull(text string) string {
	if !strings.Contains(text, "no space left on device") {
		return ""
	}
	cache := "the go command's build cache"
	if out, err := exec.Command("go", "env", "GOCACHE").Output(); err == nil {
		cache += " (" + strings.TrimSpace(string(out)) + ")"
	}
	return fmt.Sprintf("The disk is full: the go command could not write its files (\"no space left on\n"+
		"device\"). Nothing of yours was lost. Free some space, for example with `go clean\n"+
		"-cache`, which empties %s, then run the same command again.", cache)
}
