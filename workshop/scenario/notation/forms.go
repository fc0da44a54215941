package notation

import (
	"fmt"
	"strings"
)

// Forms are the special forms (see the package comment) a chapter accepts,
// each made into the chapter's own value: the implementations under test
// have their own tombstone and key types, so only the chapter can build
// them. A nil field refuses its form.
type Forms struct {
	// Object makes an object line into a value; nil makes it a pod.
	Object func(Object) any
	// Tombstone makes a tombstone for key, with last (nil when the line
	// gives no last state).
	Tombstone func(key string, last any) any
	// ExplicitKey makes an ExplicitKey.
	ExplicitKey func(key string) any
	// EmptyDeltas makes an empty Deltas.
	EmptyDeltas func() any
}

// Parse reads one line: a special form, a quoted string, or an object.
func (f Forms) Parse(line string) (any, error) {
	line = strings.TrimSpace(line)
	refused := func(form string) error {
		return fmt.Errorf("%q: this chapter's scenarios have no %s form", line, form)
	}
	if line == "deltas:[]" {
		if f.EmptyDeltas == nil {
			return nil, refused("deltas:[]")
		}
		return f.EmptyDeltas(), nil
	}
	if s, ok := strings.CutPrefix(line, "tombstone:"); ok {
		if f.Tombstone == nil {
			return nil, refused("tombstone:")
		}
		key, lastText, hasLast := strings.Cut(s, "=")
		var last any
		if hasLast {
			var err error
			if last, err = f.Parse(lastText); err != nil {
				return nil, err
			}
		}
		return f.Tombstone(key, last), nil
	}
	if s, ok := strings.CutPrefix(line, "explicit:"); ok {
		if f.ExplicitKey == nil {
			return nil, refused("explicit:")
		}
		return f.ExplicitKey(s), nil
	}
	if strings.HasPrefix(line, `"`) {
		return strings.Trim(line, `"`), nil
	}
	o, err := Parse(line)
	if err != nil {
		return nil, err
	}
	if f.Object == nil {
		return o.Pod(), nil
	}
	return f.Object(o), nil
}

// ParseAll reads one value per non-blank line of input.
func (f Forms) ParseAll(input string) ([]any, error) {
	var out []any
	for _, line := range Lines(input) {
		v, err := f.Parse(line)
		if err != nil {
			return nil, err
		}
		out = append(out, v)
	}
	return out, nil
}
