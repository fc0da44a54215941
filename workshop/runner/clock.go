package runner

import "time"

// SetClock makes the runner read the time from now instead of time.Now:
// the time watch prints on each run and the names of the backups it
// keeps. The transcripts of docs/workshop.md use it so that a
// regenerated run shows the same times (workshop/transcripts).
func (r *Runner) SetClock(now func() time.Time) { r.now = now }
