package watchserver

import (
	"fmt"
	"net/url"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/fields"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/watch"
)

// Selector is what a LIST or WATCH asks for with labelSelector and
// fieldSelector. The zero Selector matches everything.
//
// A watch with a selector cannot just drop the events of objects that do
// not match: an update can move an object into the selection or out of it.
// So each update is judged twice, on the object before and after:
//
//	before  after   the watcher gets
//	match   match   MODIFIED
//	no      match   ADDED: the object entered the selection
//	match   no      DELETED, with the object as it was: it left
//	no      no      nothing
//
// upstream: k8s.io/apiserver/pkg/storage/cacher/cache_watcher.go
// (cacheWatcher.convertToWatchEvent),
// k8s.io/apiserver/pkg/storage/selection_predicate.go (SelectionPredicate).
type Selector struct {
	Labels labels.Selector // nil: every label set
	Fields fields.Selector // nil: every object
}

// metaFields are the field selector keys every resource here has, as any
// resource of kube-apiserver's generic registry has (ConfigMaps and Leases
// add none: DefaultNamespaceScopedAttr).
var metaFields = []string{"metadata.name", "metadata.namespace"}

// ParseSelector reads labelSelector and fieldSelector from a request. A
// selector that does not parse, or a field the resource does not have, is a
// 400 Bad Request.
func ParseSelector(q url.Values) (Selector, error) {
	if q.Get("labelSelector") == "" && q.Get("fieldSelector") == "" {
		return Selector{}, nil
	}
	// exercise:begin 11 Selectors: a LIST filters, a WATCH turns updates into ADDED and DELETED
	// exercise:hint ParseSelector parses labelSelector with labels.Parse and fieldSelector with
	//   fields.ParseSelector (a bad one is a 400, apierrors.NewBadRequest), and allows only the
	//   field keys every resource here has (metaFields). Matches tests the labels and the two
	//   fields, read through accessor(obj). See reads an event
	//   the way a watcher with this selector sees it: an ADDED or DELETED object passes when it
	//   matches; a MODIFIED one is judged on its object before (Prev) and after.
	// exercise:deeper Only MODIFIED can change type: matching before and after stays MODIFIED,
	//   after only becomes ADDED, before only becomes DELETED carrying Prev (the object as it was,
	//   the last state the watcher saw) stamped with the event's resourceVersion, never the new
	//   object. A MODIFIED without Prev (the cache did not hold the object) counts as not matching
	//   before. Bookmarks and errors pass untouched. An unknown field is
	//   fmt.Sprintf("%q is not a known field selector: only %q, %q", field, "metadata.name",
	//   "metadata.namespace"); a label selector's error is labels.Parse's own.
	// exercise:track deep
	var s Selector
	if v := q.Get("labelSelector"); v != "" {
		sel, err := labels.Parse(v)
		if err != nil {
			return Selector{}, apierrors.NewBadRequest(err.Error())
		}
		s.Labels = sel
	}
	if v := q.Get("fieldSelector"); v != "" {
		sel, err := fields.ParseSelector(v)
		if err != nil {
			return Selector{}, apierrors.NewBadRequest(err.Error())
		}
		for _, r := range sel.Requirements() {
			if r.Field != metaFields[0] && r.Field != metaFields[1] {
				return Selector{}, apierrors.NewBadRequest(fmt.Sprintf("%q is not a known field selector: only %q, %q", r.Field, metaFields[0], metaFields[1]))
			}
		}
		s.Fields = sel
	}
	return s, nil
	// exercise:end 11
}

// Matches reports whether obj is selected.
func (s Selector) Matches(obj runtime.Object) bool {
	if s.Empty() {
		return true
	}
	// exercise:begin 11
	m := accessor(obj)
	if s.Labels != nil && !s.Labels.Matches(labels.Set(m.GetLabels())) {
		return false
	}
	if s.Fields != nil && !s.Fields.Matches(fields.Set{"metadata.name": m.GetName(), "metadata.namespace": m.GetNamespace()}) {
		return false
	}
	return true
	// exercise:end 11
}

// Empty reports whether s selects everything.
func (s Selector) Empty() bool {
	return (s.Labels == nil || s.Labels.Empty()) && (s.Fields == nil || s.Fields.Empty())
}

// See returns ev as a watcher with this selector sees it, and false when
// it sees nothing of it.
func (s Selector) See(ev Event) (Event, bool) {
	if s.Empty() {
		return ev, true
	}
	// exercise:begin 11
	switch ev.Type {
	case watch.Added, watch.Deleted:
		return ev, s.Matches(ev.Object)
	case watch.Modified:
		now := s.Matches(ev.Object)
		before := ev.Prev != nil && s.Matches(ev.Prev)
		switch {
		case now && before:
			return ev, true
		case now:
			ev.Type = watch.Added
			return ev, true
		case before:
			gone := ev.Prev.DeepCopyObject()
			accessor(gone).SetResourceVersion(formatRV(ev.RV))
			return Event{Type: watch.Deleted, Object: gone, RV: ev.RV}, true
		}
		return Event{}, false
	}
	return ev, true
	// exercise:end 11
}
