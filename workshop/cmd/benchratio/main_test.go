package main

import (
	"bytes"
	"strings"
	"testing"
)

// TestFloorColumn: a benchmark run as .../ours, .../client-go and
// .../floor gets ours ÷ floor beside ours ÷ client-go; one without a
// floor gets a dash.
func TestFloorColumn(t *testing.T) {
	for _, tc := range []struct {
		name, side string
		ok         bool
	}{
		{"BenchmarkFanOut/events=10/floor", "floor", true},
		{"BenchmarkFanOut/events=10/ours", "ours", true},
		{"BenchmarkFanOut/events=10/other", "other", false},
	} {
		if base, side, ok := cut(tc.name); side != tc.side || ok != tc.ok || base != "BenchmarkFanOut/events=10" {
			t.Errorf("cut(%q) = %q, %q, %v", tc.name, base, side, ok)
		}
	}
	ours := []result{{ns: 300}, {ns: 100}, {ns: 200}}
	r, _ := newRow("B", ours, []result{{ns: 400}})
	if got := r.overFloor(); got != "-" {
		t.Errorf("no floor: got %q, want -", got)
	}
	r.floor, r.hasFloor = spreadOf([]result{{ns: 50}, {ns: 40}, {ns: 60}})
	if got := r.overFloor(); got != "4.00x" {
		t.Errorf("ours' median 200 over the floor's 50: got %q, want 4.00x", got)
	}
	var md bytes.Buffer
	writeMarkdown(&md, []row{r})
	if !strings.Contains(md.String(), "| 0.50× | - | 4.00× |") {
		t.Errorf("markdown row lacks the floor column:\n%s", md.String())
	}
}
