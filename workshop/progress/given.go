package progress

import (
	"path/filepath"
	"sort"

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
		k.eachFileOfYours(func(ref string, mine []byte) {
			base := filepath.Base(ref)
			gen := k.done[filepath.Join(exgen.ExerciseDir, base)]
			if mine == nil || gen == nil {
				return
			}
			var keys []string // the functions outside every exercise
			_, fns := funcDecls(gen)
			for _, fd := range fns {
				if key := exgen.FuncKey(fd); k.funcs[key] == 0 {
					keys = append(keys, key)
				}
			}
			for _, key := range exgen.Changed(mine, gen, keys) {
				k.given = append(k.given, base+": "+key)
			}
		})
		sort.Strings(k.given)
	})
	return k.given
}
