package progress

import (
	"path/filepath"
	"sort"
	"strings"

	"example.com/walkthrough/workshop/exgen"
)

// givenChanged lists the functions of your copy outside every exercise
// (the code the copy gives you) whose bodies differ from the reference's:
// "synctrack.go: maybeSynced". A swap puts back an exercise's code, never
// theirs, so a bug there can only be put on an exercise that runs it: the
// runner says so, and never claims an exercise is the only one that
// differs (the 04 trial's broken maybeSynced was put on its ring buffer,
// "the only one whose code differs from the reference's").
func (k *code) givenChanged() []string {
	k.givenOnce.Do(func() {
		for name, gen := range k.done {
			if !strings.HasPrefix(filepath.ToSlash(name), exgen.ExerciseDir+"/") {
				continue
			}
			base := filepath.Base(name)
			mine, ok := k.s.files[base]
			if !ok || mine == nil {
				continue
			}
			_, fns := funcDecls(gen)
			for _, fd := range fns {
				key := exgen.FuncKey(fd)
				if k.funcs[key] != 0 {
					continue // an exercise's
				}
				if !exgen.Untouched(mine, gen, []string{key}) {
					k.given = append(k.given, base+": "+key)
				}
			}
		}
		sort.Strings(k.given)
	})
	return k.given
}
