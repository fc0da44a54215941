package gotest

import (
	"bytes"
	"os"
	"strconv"
)

// cpuTicks is the CPU time process pid has used so far, user and system,
// in clock ticks (a hundredth of a second), from /proc/PID/stat.
func cpuTicks(pid int) (int64, bool) {
	stat, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return 0, false
	}
	// The command name, field 2, is in parentheses and may hold spaces:
	// count the fields after its closing one. utime and stime are fields
	// 14 and 15 of the line, the 12th and 13th after the name.
	end := bytes.LastIndexByte(stat, ')')
	if end < 0 {
		return 0, false
	}
	fields := bytes.Fields(stat[end+1:])
	if len(fields) < 13 {
		return 0, false
	}
	user, err1 := strconv.ParseInt(string(fields[11]), 10, 64)
	system, err2 := strconv.ParseInt(string(fields[12]), 10, 64)
	return user + system, err1 == nil && err2 == nil
}
