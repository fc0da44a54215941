// Command benchratio reads `go test -bench` output on standard input and
// prints, for every benchmark run as .../ours and .../client-go (or
// .../kube-apiserver: chapter 07's upstream is the server), the two times
// and their ratio (ours ÷ upstream: below 1 is faster). With
// -count=N it uses the median of each side's N runs.
//
//	go test -bench . ./03-indexer | go run ./workshop/cmd/benchratio
package main

import (
	"bufio"
	"cmp"
	"fmt"
	"os"
	"slices"
	"strconv"
	"strings"
)

type result struct{ ns, bytes, allocs float64 }

func main() {
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
	fmt.Printf("%-52s %12s %12s %7s %7s\n", "benchmark", "ours", "upstream", "time", "allocs")
	for _, base := range order {
		o, okO := median(results[base]["ours"])
		c, okC := median(results[base]["client-go"])
		if !okC {
			c, okC = median(results[base]["kube-apiserver"])
		}
		if !okO || !okC {
			continue
		}
		fmt.Printf("%-52s %12s %12s %6.2fx %7s\n", base, dur(o.ns), dur(c.ns), o.ns/c.ns, ratio(o.allocs, c.allocs))
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
	return name[:i], side, side == "ours" || side == "client-go" || side == "kube-apiserver"
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
