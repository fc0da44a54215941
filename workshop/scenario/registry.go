package scenario

import "testing"

// Registry holds a chapter's implementations of its contract (the impl
// struct of contract_test.go) by name: Reference, Exercise, ClientGo. The
// adapter files fill it in init(); the fuzz tests and benchmarks take the
// implementations from it, and Drivers makes it what Run starts.
type Registry[I any] map[string]I

// Drivers is what Run starts: for each implementation, start makes the
// driver of one scenario file.
func Drivers[I any](r Registry[I], start func(t testing.TB, im I, f *File) Driver) Impls {
	impls := Impls{}
	for name, im := range r {
		impls[name] = func(t testing.TB, f *File) Driver { return start(t, im, f) }
	}
	return impls
}
