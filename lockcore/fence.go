package lockcore

// FenceCandidate is a node that fencing could delete, with why.
type FenceCandidate struct {
	Participant Participant
	Reason      AnomalyKind
	Evidence    string
	// Selected: a persistent contender or the orphan a session waits
	// behind. Other duplicates are suspects, shown but never selected.
	Selected bool
}

// FenceCandidates lists a lock's fencing candidates from its anomalies:
// persistent contenders and self-wait orphans (selected), other nodes of
// duplicated sessions (suspects, not selected).
func FenceCandidates(l Lock) []FenceCandidate {
	var out []FenceCandidate
	seen := map[string]bool{}
	add := func(node string, kind AnomalyKind, detail string, selected bool) {
		p, ok := l.Participant(node)
		if !ok || seen[node] {
			return
		}
		seen[node] = true
		out = append(out, FenceCandidate{Participant: p, Reason: kind, Evidence: detail, Selected: selected})
	}
	for _, a := range l.Anomalies {
		switch a.Kind {
		case AnomalyPersistent, AnomalySelfWait:
			add(a.Node, a.Kind, a.Detail, true)
		}
	}
	for _, a := range l.Anomalies {
		if a.Kind == AnomalyDuplicateSession {
			for _, n := range a.Nodes {
				add(n, a.Kind, a.Detail, false)
			}
		}
	}
	return out
}
