package zkserver

import (
	"os"
	"testing"
)

func TestThreadTicks(t *testing.T) {
	for _, tc := range []struct {
		stat, name string
		ticks      int64
		ok         bool
	}{
		{"4242 (C1 CompilerThre) S 4240 4240 100 0 -1 1077936192 1869 0 0 0 7 2 0 0 20 0 22 0 1000 0 0", "C1 CompilerThre", 9, true},
		{"4243 (a) b (c)) R 1 1 1 0 -1 0 0 0 0 0 30 12 0 0", "a) b (c)", 42, true},
		{"4244 (java) S 1 2", "", 0, false},
		{"garbage", "", 0, false},
	} {
		name, ticks, ok := threadTicks(tc.stat)
		if name != tc.name || ticks != tc.ticks || ok != tc.ok {
			t.Errorf("threadTicks(%q) = %q, %d, %v; want %q, %d, %v", tc.stat, name, ticks, ok, tc.name, tc.ticks, tc.ok)
		}
	}
}

func TestWorkOfThisProcess(t *testing.T) {
	if _, ok := work(os.Getpid()); !ok {
		t.Fatal("work(own pid) cannot read /proc")
	}
	if _, ok := work(1 << 30); ok {
		t.Error("work of no process says ok")
	}
}

func TestServesConnections(t *testing.T) {
	for name, want := range map[string]bool{"NIOWorkerThread": true, "NIOServerCxnFac": true, "nioEventLoopGro": true, "java": false, "QuorumPeer[myid": false, "C1 CompilerThre": false} {
		if got := servesConnections(name); got != want {
			t.Errorf("servesConnections(%q) = %v, want %v", name, got, want)
		}
	}
}

func TestCPUTimeOnlyWhileRunning(t *testing.T) {
	s := standIn(t, "sleep", "60")
	if _, ok := s.CPUTime(); !ok {
		t.Fatal("CPUTime of a running process is not known")
	}
	if err := s.Kill(); err != nil {
		t.Fatal(err)
	}
	if _, ok := s.CPUTime(); ok {
		t.Fatal("CPUTime of a killed process is known")
	}
}
