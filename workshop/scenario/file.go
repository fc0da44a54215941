package scenario

import (
	"fmt"
	"os"
	"regexp"
	"strconv"
	"strings"
)

// File is what a scenario file's header says about it.
type File struct {
	Path      string
	Story     string          // the header comment, without directives
	Exercises []int           // "# exercise: 2" — what the scenario checks
	Features  map[string]bool // "# feature: WatchListClient=false"
	lines     []string
}

var directive = regexp.MustCompile(`^#\s*(exercises?|feature):\s*(.*)$`)

// ReadFile reads a scenario file's header: the comment lines at its top.
func ReadFile(path string) (*File, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	f := &File{Path: path, Features: map[string]bool{}, lines: strings.Split(string(data), "\n")}
	var story []string
	for i, line := range f.lines {
		if !strings.HasPrefix(line, "#") {
			break
		}
		m := directive.FindStringSubmatch(line)
		if m == nil {
			story = append(story, strings.TrimSpace(strings.TrimPrefix(line, "#")))
			continue
		}
		switch m[1] {
		case "exercise", "exercises":
			for _, field := range strings.Fields(m[2]) {
				n, err := strconv.Atoi(field)
				if err != nil {
					return nil, fmt.Errorf("%s:%d: want exercise numbers, got %q", path, i+1, field)
				}
				f.Exercises = append(f.Exercises, n)
			}
		case "feature":
			name, value, ok := strings.Cut(strings.TrimSpace(m[2]), "=")
			on, err := strconv.ParseBool(value)
			if !ok || err != nil {
				return nil, fmt.Errorf("%s:%d: want `# feature: Name=true|false`, got %q", path, i+1, m[2])
			}
			f.Features[name] = on
		}
	}
	f.Story = strings.TrimSpace(strings.Join(story, " "))
	return f, nil
}

var posLine = regexp.MustCompile(`:(\d+)$`)

// stepComment returns the comment lines right above the step at pos
// ("path:line"), which say what the step shows.
func (f *File) stepComment(pos string) string {
	m := posLine.FindStringSubmatch(pos)
	if m == nil {
		return ""
	}
	line, _ := strconv.Atoi(m[1])
	var comment []string
	for i := line - 2; i >= 0 && i < len(f.lines) && strings.HasPrefix(f.lines[i], "#"); i-- {
		if directive.MatchString(f.lines[i]) {
			break
		}
		comment = append([]string{strings.TrimSpace(strings.TrimPrefix(f.lines[i], "#"))}, comment...)
	}
	return strings.Join(comment, " ")
}
