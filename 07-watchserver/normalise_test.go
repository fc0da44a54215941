package watchserver_test

import (
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
)

// The ONE place where what legitimately differs between our server and
// kube-apiserver is made equal, so the same golden holds for both.
//
//   - resourceVersions: etcd revisions count every write to etcd, and
//     kube-apiserver writes other resources (leases, events, namespaces)
//     between a scenario's steps. Each distinct revision is printed as a
//     label, r1, r2, ..., in the order it first appears, and a step that
//     watches "from r2" is sent the real value behind r2.
//   - a list's own resourceVersion is etcd's revision at the read, which
//     on a busy etcd is newer than the last ConfigMap write: printed as
//     "latest" when it is at least every revision seen so far, else as
//     "STALE" (a bug either side).
//     A later page of a paged list keeps its first page's revision: it is
//     printed "page-of-N", N counting the collections printed "latest".
//     A list read at a known older revision (an Exact read) prints its label.
//   - continue tokens hold a revision and a key, and are opaque: printed
//     as c1, c2, ... in order of appearance, and sent back as the real one.
//   - the annotated BOOKMARK's revision is the cache's at the snapshot,
//     which follows etcd's (progress notifications), not ours alone: it is
//     printed as "latest" in the same way.
//   - periodic BOOKMARKs (no annotation) depend on time and on writes to
//     etcd outside the scenario; the driver drops them.
//   - numbers inside error messages (the 410's "too old resource version:
//     2 (4)") are printed as their label when they are a known revision;
//     a revision the scenario never saw ("Too large resource version: N,
//     current: M") as "#". A number is a revision only where the message
//     says so (revisionBefore); every other is kubernetes' own text, the
//     same on both servers, and printed as it is ("RFC 1123", "415").
//   - UIDs, creationTimestamps, managedFields and the namespace name are
//     never printed.
type normaliser struct {
	labels map[string]string // real rv → r1..., continue token → c1...
	values map[string]string // r1..., c1... → the real value
	newest int64
	lists  []string // the collection revisions printed "latest", in order
	rvs    int      // revisions labelled so far
	tokens int      // continue tokens labelled so far
}

func newNormaliser() *normaliser {
	return &normaliser{labels: map[string]string{}, values: map[string]string{}}
}

// label names an object's revision.
func (n *normaliser) label(rv string) string {
	if rv == "" {
		return "none"
	}
	if l, ok := n.labels[rv]; ok {
		return l
	}
	n.rvs++
	l := fmt.Sprintf("r%d", n.rvs)
	n.labels[rv], n.values[l] = l, rv
	if v, err := strconv.ParseInt(rv, 10, 64); err == nil && v > n.newest {
		n.newest = v
	}
	return l
}

// collection names a list's or a bookmark's revision.
func (n *normaliser) collection(rv string) string {
	v, err := strconv.ParseInt(rv, 10, 64)
	switch {
	case err != nil:
		return "invalid(" + rv + ")"
	case v >= n.newest:
		if !slices.Contains(n.lists, rv) {
			n.lists = append(n.lists, rv)
		}
		return "latest"
	case slices.Contains(n.lists, rv):
		return fmt.Sprintf("page-of-%d", slices.Index(n.lists, rv)+1)
	case n.labels[rv] != "":
		// A list read at a version the client asked for (limit with a
		// past resourceVersion, or Exact) carries that version.
		return n.labels[rv]
	default:
		return "STALE"
	}
}

// token names a continue token.
func (n *normaliser) token(t string) string {
	if l, ok := n.labels[t]; ok {
		return l
	}
	n.tokens++
	l := fmt.Sprintf("c%d", n.tokens)
	n.labels[t], n.values[l] = l, t
	return l
}

// value is the real revision or token behind a label; anything else passes through
// ("0", "").
func (n *normaliser) value(label string) string {
	if v, ok := n.values[label]; ok {
		return v
	}
	return label
}

var number = regexp.MustCompile(`\b[0-9]+\b`)

// revisionBefore is the text before a number that makes it a revision in
// kube-apiserver's messages: "resource version: N", "current: N", and the
// one in parentheses after it ("too old resource version: 2 (4)").
var revisionBefore = regexp.MustCompile(`(?i)(resource ?version|current|revision):? *$|[0-9]+ \($`)

// message normalises the revisions in an error message.
func (n *normaliser) message(msg string) string {
	var b strings.Builder
	last := 0
	for _, at := range number.FindAllStringIndex(msg, -1) {
		s := msg[at[0]:at[1]]
		b.WriteString(msg[last:at[0]])
		last = at[1]
		l, known := n.labels[s]
		switch {
		case !revisionBefore.MatchString(msg[:at[0]]):
			b.WriteString(s) // "RFC 1123": a revision of ours may be 1123 too
		case known:
			b.WriteString(l)
		default:
			b.WriteString("#")
		}
	}
	return b.String() + msg[last:]
}
