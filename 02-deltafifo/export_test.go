package deltafifo

import "example.com/walkthrough/workshop/scenario"

// LockHeld reports whether the queue's lock is held, by anyone. A test
// asks it from inside process, which Pop calls with the lock held (the
// DeltaFIFO always, the RealFIFO unless UnlockWhileProcessing lets
// producers in).
func (f *DeltaFIFO) LockHeld() bool { return scenario.Held(&f.lock) }

// LockHeld is the DeltaFIFO's, for the RealFIFO.
func (f *RealFIFO) LockHeld() bool { return scenario.Held(&f.lock) }
