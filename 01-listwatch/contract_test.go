package listwatch_test

import (
	"errors"
	"fmt"
	"io"

	apierrors "k8s.io/apimachinery/pkg/api/errors"

	"example.com/walkthrough/01-listwatch/lwscenario"
	"example.com/walkthrough/workshop/scenario"
	"example.com/walkthrough/workshop/scenario/notation"
)

// This file is the contract the scenarios, the fuzz test and the
// benchmarks drive: what a list-watch implementation must offer. Each
// implementation (reference, exercise, client-go) has a small adapter
// file that fills in an impl.

// impl is one implementation of the chapter, and reflectorConfig one
// Reflector to start: they live in lwscenario, whose driver chapter 07
// plays too.
type (
	impl            = lwscenario.Impl
	reflectorConfig = lwscenario.ReflectorConfig
)

// describeAll describes each event of in, in describeEvent's notation,
// on the channel it returns, which closes when in does.
func describeAll[E any](in <-chan E, describe func(E) string) <-chan string {
	out := make(chan string)
	go func() {
		defer close(out)
		for ev := range in {
			out <- describe(ev)
		}
	}()
	return out
}

// impls holds every implementation; the adapter files register themselves.
var impls = scenario.Registry[impl]{}

// register adds an implementation under its name.
func register(name string, im impl) { impls[name] = im }

// describeEvent writes a decoded watch event, or the error that ended the
// stream, in a form both decoders can produce.
func describeEvent(typ string, obj any, err error) string {
	switch {
	case err == nil:
		return typ + " " + describe(obj)
	case errors.Is(err, io.EOF):
		return "EOF"
	case errors.Is(err, io.ErrUnexpectedEOF):
		return "unexpected EOF"
	}
	if st, ok := err.(apierrors.APIStatus); ok {
		return fmt.Sprintf("ERROR code=%d reason=%s expired=%t", st.Status().Code, st.Status().Reason, apierrors.IsResourceExpired(err))
	}
	return "decode error"
}

// describe writes an object as "namespace/name@rv".
func describe(obj any) string { return notation.Short(obj) }
