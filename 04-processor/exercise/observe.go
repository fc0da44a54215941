// Your copy of ../observe.go, written by `make exercises`. Fill in each
// panic(todo.Exercise(...)); `go run ./workshop/cmd/workshop check 04`
// checks your work, and `go run ./workshop/cmd/workshop hint 04 N` gives
// exercise N's hint.

package processor

import deltafifo "example.com/walkthrough/02-deltafifo"

// PendingOf lists what waits in a queue that NewWalkthroughPipeline made
// (chapter 02's FIFO, oldest first), for the step-through viewer. It
// reports false for any other Queue, such as client-go's.
//
// client-go: none; it only reads the queue. Like the FIFO's own Pending,
// it takes the queue's lock.
func PendingOf(q Queue) ([]deltafifo.Pending, bool) {
	var fifo consumerFIFO
	switch q := q.(type) {
	case *fifoQueue:
		fifo = q.fifo
	case *realFIFOQueue:
		fifo = q.fifo
	default:
		return nil, false
	}
	p, ok := fifo.(interface{ Pending() []deltafifo.Pending })
	if !ok {
		return nil, false
	}
	return p.Pending(), true
}
