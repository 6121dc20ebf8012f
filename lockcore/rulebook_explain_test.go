package lockcore

import (
	"strings"
	"testing"
)

func TestExplainBuiltin(t *testing.T) {
	var b builder
	uuid := "0f0e0d0c-0b0a-4908-8706-050403020100"
	tree := queueTree("/locks/orders", b.node("_c_"+uuid+"-lock-0000000001", 1), b.node("_c_"+uuid+"-lock-0000000002", 2))
	var book *Book
	l := Analyze(tree, nil, Options{})
	x := book.Explain(tree, l)
	if x.Entry == nil || x.Entry.Name != string(RecipeCuratorMutex) || len(x.Assumed) != 0 {
		t.Fatalf("entry %v, assumed %q", x.Entry, x.Assumed)
	}
	if why := strings.Join(x.Why, "; "); !strings.Contains(why, `2 of 2 children match its pattern "_c_{id:uuid}-lock-{seq}"`) ||
		!strings.Contains(why, "read by its fields: grant mutex") || !strings.Contains(why, "its hooks add what no field states: app") {
		t.Fatalf("why: %s", why)
	}
	if len(x.Near) != 0 {
		t.Fatalf("near %+v: go-zookeeper's {id:hex} does not read a UUID", x.Near)
	}
}
