package lockcore

import "testing"

func TestClassify(t *testing.T) {
	eph := Node{}
	eph.Stat.EphemeralOwner = 1
	tests := []struct {
		name  string
		self  Node
		kids  []string
		want  Candidate
		probe string
	}{
		{"curator mutex", Node{}, []string{curatorName("lock-", 3)}, IsALock, ""},
		{"curator semaphore", Node{}, []string{"leases", "locks"}, IsALock, ""},
		{"curator semaphore with only leases", Node{}, []string{"leases"}, IsALock, ""},
		{"a directory whose one child is locks", Node{}, []string{"locks"}, NotALock, ""},
		{"kazoo semaphore", Node{Data: []byte("3")}, []string{"0123456789abcdef0123456789abcdef"}, IsALock, ""},
		{"plain ephemeral node is not a parent", eph, nil, NotALock, ""},
		{"config tree", Node{}, []string{"db", "cache"}, NotALock, ""},
		{"empty", Node{}, nil, NotALock, ""},
		{"generic sequential needs a probe", Node{}, []string{"job-0000000007", "job-0000000003"}, IfEphemeral, "job-0000000003"},
		{"leader latch is an election", Node{}, []string{curatorName("latch-", 1)}, IsALock, ""},
		{"zookeeper election", Node{}, []string{"n_0000000004"}, IsALock, ""},
		{"another curator recipe is not a lock", Node{}, []string{curatorName("queue-", 1)}, NotALock, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, probe := Classify(tt.self, tt.kids)
			if got != tt.want || probe != tt.probe {
				t.Fatalf("Classify = %v %q, want %v %q", got, probe, tt.want, tt.probe)
			}
		})
	}
	for path, want := range map[string]string{"/sem-__lock__": "/sem", "/a/sem/leases": "/a/sem", "/a/sem/locks": "/a/sem"} {
		if got, ok := SemaphorePart(path); !ok || got != want {
			t.Fatalf("SemaphorePart(%s) = %s %v", path, got, ok)
		}
	}
	if _, ok := SemaphorePart("/locks/orders"); ok {
		t.Fatal("/locks/orders is not part of a semaphore")
	}
}
