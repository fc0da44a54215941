// Command benchratio reads `go test -bench` output on standard input and
// prints, for every benchmark run as .../ours and .../client-go (or
// .../kube-apiserver: chapter 07's upstream is the server), the two times
// and their ratio (ours ÷ upstream: below 1 is faster). Given several runs
// of each side (`make bench` runs COUNT rounds, each running ours and then
// upstream, so a change of machine load hits both sides alike), it uses
// the median of each side and shows the spread, min–max. A benchmark that
// also runs as .../floor (the least any implementation must do: bytes read
// off the wire, a plain channel send per handler) gets ours ÷ floor too:
// how far from the floor we are, where client-go says only how far from
// client-go. With -md it also writes the table as Markdown, dated, for a
// chapter doc to quote.
//
//	go test -bench . ./03-indexer | go run ./workshop/cmd/benchratio
package main

import (
	"bufio"
	"cmp"
	"flag"
	"fmt"
	"io"
	"os"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"
)

type result struct{ ns, bytes, allocs float64 }

func main() {
	md := flag.String("md", "", "also write the table as Markdown to this file, dated")
	flag.Parse()
	results := map[string]map[string][]result{} // benchmark → side → runs
	var order []string
	sc := bufio.NewScanner(os.Stdin)
	for sc.Scan() {
		fields := strings.Fields(sc.Text())
		if len(fields) < 4 || !strings.HasPrefix(fields[0], "Benchmark") {
			continue
		}
		name := fields[0]
		if i := strings.LastIndex(name, "-"); i > 0 { // drop the -GOMAXPROCS suffix
			if _, err := strconv.Atoi(name[i+1:]); err == nil {
				name = name[:i]
			}
		}
		base, side, ok := cut(name)
		if !ok {
			continue
		}
		if results[base] == nil {
			results[base] = map[string][]result{}
			order = append(order, base)
		}
		results[base][side] = append(results[base][side], parse(fields))
	}
	var rows []row
	for _, base := range order {
		up := results[base]["client-go"]
		if len(up) == 0 {
			up = results[base]["kube-apiserver"]
		}
		if r, ok := newRow(base, results[base]["ours"], up); ok {
			r.floor, r.hasFloor = spreadOf(results[base]["floor"])
			rows = append(rows, r)
		}
	}
	fmt.Printf("%-46s %s %s %6s %7s %7s %7s\n", "benchmark", pad("ours (min–max)", 26), pad("upstream (min–max)", 26), "runs", "time", "allocs", "÷floor")
	for _, r := range rows {
		fmt.Printf("%-46s %s %s %6d %6.2fx %7s %7s\n", r.name, pad(r.ours.String(), 26), pad(r.upstream.String(), 26), r.runs, r.time(), r.allocs(), r.overFloor())
	}
	if *md != "" {
		f, err := os.Create(*md)
		if err != nil {
			fmt.Fprintln(os.Stderr, "benchratio:", err)
			os.Exit(1)
		}
		writeMarkdown(f, rows)
		if err := f.Close(); err != nil {
			fmt.Fprintln(os.Stderr, "benchratio:", err)
			os.Exit(1)
		}
		fmt.Printf("\nwrote %s\n", *md)
	}
}

// pad right-aligns s in width columns, counting runes: µ and – are one
// column each, though more than one byte.
func pad(s string, width int) string {
	return strings.Repeat(" ", max(0, width-utf8.RuneCountInString(s))) + s
}

// row is one benchmark's two sides.
type row struct {
	name           string
	ours, upstream spread
	runs           int // the fewer of the two sides' runs
	floor          spread
	hasFloor       bool
}

// spread is the median run of one side and the range of its times.
type spread struct {
	median   result
	min, max float64
}

func (s spread) String() string {
	return fmt.Sprintf("%s (%s–%s)", dur(s.median.ns), dur(s.min), dur(s.max))
}

func newRow(name string, ours, upstream []result) (row, bool) {
	o, okO := spreadOf(ours)
	u, okU := spreadOf(upstream)
	return row{name: name, ours: o, upstream: u, runs: min(len(ours), len(upstream))}, okO && okU
}

func spreadOf(runs []result) (spread, bool) {
	m, ok := median(runs)
	if !ok {
		return spread{}, false
	}
	s := spread{median: m, min: runs[0].ns, max: runs[0].ns}
	for _, r := range runs {
		s.min, s.max = min(s.min, r.ns), max(s.max, r.ns)
	}
	return s, true
}

func (r row) time() float64  { return r.ours.median.ns / r.upstream.median.ns }
func (r row) allocs() string { return ratio(r.ours.median.allocs, r.upstream.median.allocs) }

// overFloor is ours ÷ the floor's time, or "-" for a row without a floor.
func (r row) overFloor() string {
	if !r.hasFloor {
		return "-"
	}
	return ratio(r.ours.median.ns, r.floor.median.ns)
}

// writeMarkdown writes the table with what a reader needs to weigh it:
// when, on how many cores, with which Go, and how many rounds.
func writeMarkdown(w io.Writer, rows []row) {
	fmt.Fprintf(w, "Measured %s on %d CPUs with %s; median of each side's runs, ours and upstream\n"+
		"interleaved round by round (`make bench COUNT=N`); ratio is ours ÷ upstream;\n"+
		"÷ floor is ours ÷ the least any implementation must do (the benchmark's .../floor).\n\n",
		time.Now().Format("2006-01-02"), runtime.NumCPU(), runtime.Version())
	fmt.Fprintln(w, "| benchmark | ours (min–max) | upstream (min–max) | runs | time | allocs | ÷ floor |")
	fmt.Fprintln(w, "|---|---|---|---|---|---|---|")
	for _, r := range rows {
		fmt.Fprintf(w, "| %s | %s | %s | %d | %.2f× | %s | %s |\n", r.name, r.ours, r.upstream, r.runs, r.time(),
			strings.ReplaceAll(r.allocs(), "x", "×"), strings.ReplaceAll(r.overFloor(), "x", "×"))
	}
}

// median returns the run with the median time.
func median(runs []result) (result, bool) {
	if len(runs) == 0 {
		return result{}, false
	}
	sorted := slices.SortedFunc(slices.Values(runs), func(a, b result) int { return cmp.Compare(a.ns, b.ns) })
	return sorted[len(sorted)/2], true
}

// cut splits "BenchmarkAdd/n=10000/ours" into its base and side.
func cut(name string) (base, side string, ok bool) {
	i := strings.LastIndex(name, "/")
	if i < 0 {
		return "", "", false
	}
	side = name[i+1:]
	return name[:i], side, side == "ours" || side == "client-go" || side == "kube-apiserver" || side == "floor"
}

func parse(fields []string) result {
	var r result
	for i := 2; i+1 < len(fields); i++ {
		v, err := strconv.ParseFloat(fields[i], 64)
		if err != nil {
			continue
		}
		switch fields[i+1] {
		case "ns/op":
			r.ns = v
		case "B/op":
			r.bytes = v
		case "allocs/op":
			r.allocs = v
		}
	}
	return r
}

func dur(ns float64) string {
	switch {
	case ns >= 1e9:
		return fmt.Sprintf("%.2fs", ns/1e9)
	case ns >= 1e6:
		return fmt.Sprintf("%.2fms", ns/1e6)
	case ns >= 1e3:
		return fmt.Sprintf("%.2fµs", ns/1e3)
	}
	return fmt.Sprintf("%.0fns", ns)
}

func ratio(a, b float64) string {
	if b == 0 {
		return "-"
	}
	return fmt.Sprintf("%.2fx", a/b)
}
