package exgen

import (
	"strings"
	"testing"
)

func TestFixImportsKeepsVersionedImportInUse(t *testing.T) {
	src := `package p

import (
	"math/rand/v2"
	"strings"
)

func f() float64 { return rand.Float64() }
`
	out, err := FixImports([]byte(src))
	if err != nil {
		t.Fatal(err)
	}
	got := string(out)
	if !strings.Contains(got, `"math/rand/v2"`) {
		t.Errorf("dropped math/rand/v2, which rand.Float64 uses:\n%s", got)
	}
	if strings.Contains(got, `"strings"`) {
		t.Errorf("kept strings, which nothing uses:\n%s", got)
	}
}
