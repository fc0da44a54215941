package progress

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// TogetherFile declares the exercises of a chapter that no scenario can
// check apart yet, with the reason. It is a gap, stated where everyone
// sees it: selftest names it in its unlock-order checks, and the doc's
// exercise table is followed by it.
const TogetherFile = "testdata/checked-together.txt"

// Together is one declared group: exercises whose scenarios all run each
// other's code.
type Together struct {
	IDs    []int
	Reason string
}

// Has reports whether the group holds id.
func (g Together) Has(id int) bool {
	for _, x := range g.IDs {
		if x == id {
			return true
		}
	}
	return false
}

// Last is the group's highest exercise.
func (g Together) Last() int { return g.IDs[len(g.IDs)-1] }

// LoadTogether reads a chapter's groups ("2 3 4 5: why" per line).
func LoadTogether(chapterDir string) ([]Together, error) {
	f, err := os.Open(filepath.Join(chapterDir, TogetherFile))
	if os.IsNotExist(err) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var groups []Together
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		ids, reason, ok := strings.Cut(line, ":")
		var g Together
		for _, field := range strings.Fields(ids) {
			id, err := strconv.Atoi(field)
			if err != nil {
				ok = false
				break
			}
			g.IDs = append(g.IDs, id)
		}
		if !ok || len(g.IDs) < 2 || strings.TrimSpace(reason) == "" {
			return nil, fmt.Errorf("%s:%d: want `2 3 4: why no scenario checks them apart`, got %q", TogetherFile, n, line)
		}
		g.Reason = strings.TrimSpace(reason)
		groups = append(groups, g)
	}
	return groups, sc.Err()
}
