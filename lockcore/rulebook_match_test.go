package lockcore

import (
	"slices"
	"strings"
	"testing"
)

// matchEntries are patterns of every part and form, and the built-in
// entries' own.
func matchEntries() []Entry {
	out := []Entry{
		{Name: "free-last", Children: "lease-{owner}", Grant: GrantCoHolding},
		{Name: "free-typed", Children: "{owner}{session}", Grant: GrantCoHolding},
		{Name: "owner-seq", Children: "{mode}-{owner}{seq}", Modes: map[string]Mode{"read": ModeRead, "write": ModeWrite, "w": ModeWrite}, Grant: GrantReadWrite},
		{Name: "session-first", Children: "{session}{id:word}-{seq}", Grant: GrantMutex},
		{Name: "session-free", Children: "{session}{owner}", Grant: GrantCoHolding},
		{Name: "owner-hex", Children: "{owner}-{id:hex}", Grant: GrantCoHolding},
		{Name: "forms", Children: "{id:digits}.{owner}.{seq}", Grant: GrantMutex},
		{Name: "hex32", Children: "{owner}-{id:hex32}{seq}", Grant: GrantMutex},
		{Name: "quadratic", Children: "{owner}{session}{id:word}.{seq}", Grant: GrantMutex},
		{Name: "uuid-mode", Children: "{id:uuid}{mode}{seq}", Modes: map[string]Mode{"r": ModeRead, "rw": ModeWrite}, Grant: GrantReadWrite},
		{Name: "dots", Children: "{owner}..{mode}..{seq}", Modes: map[string]Mode{".": ModeRead, "..": ModeWrite}, Grant: GrantReadWrite},
	}
	for _, e := range builtinEntries() {
		if e.Children != "" {
			out = append(out, e)
		}
	}
	return out
}

// refMatch is the reference: the entry's regexp, and the text it captures
// for each part.
func refMatch(c *compiled, name string) []string {
	m := c.name.FindStringSubmatch(name)
	if m == nil {
		return nil
	}
	return m[1:]
}

// fastMatch is the matcher's answer in the same form.
func fastMatch(c *compiled, name string) []string {
	var sp spans
	if !c.matcher.match(name, &sp) {
		return nil
	}
	out := make([]string, len(c.groups))
	for i := range c.groups {
		out[i] = name[sp.at[i][0]:sp.at[i][1]]
	}
	return out
}

func compiledMatchEntries(t testing.TB) []*compiled {
	var out []*compiled
	for i, e := range matchEntries() {
		c, err := compile(e, i+1)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, c)
	}
	return out
}

var matchSeeds = []string{
	"_c_0f0e0d0c-0b0a-4908-8706-050403020100-lock-0000000001",
	"_c_0f0e0d0c-0b0a-4908-8706-050403020100-__READ__0000000001",
	"_c_0f0e0d0c0b0a49088706050403020100-lock-0000000001",
	"5f3a9b__lock__0000000007", "a__lock__b__lock__0000000007", "x__rlock__-000000001",
	"x-72057594037927937-0000000003", "x-0x100000abc-0000000003", "x--5-0000000003",
	"lock-0x1f-0000000001", "lock-0x-0000000001", "host-R-0000000001", "h-W--2147483648",
	"write-host-0000000001", "read--0000000001", "wr-0000000001",
	"zlock#0f0e0d0c-0b0a-4908-8706-050403020100#0000000001", "flock#ab#0000000002",
	"LOCK-SHARED-0000000001", "json.info_0000000001", "n_0000000001",
	"12-core1-n_0000000001", "lease-a\nb", "lease-é", "0x1fabc", "-12abc-0000000001",
	"0f0e0d0c-0b0a-4908-8706-050403020100rw0000000001", "a....0000000001", "a.....0000000001",
	"1.x.y.0000000001", "\xff__lock__0000000001", "a__lock__00000000011",
	"_c_0f0e0d0c0b0a4908870605040302010-lock-0000000001", "_c_0f0e0d0c0b0a490887060504030201000-lock-0000000001",
	"a0f0e0d0c0b0a49088706050403020100-0000000001",
	// Names on which the matcher gives up and asks the regexp.
	strings.Repeat("1", 3000) + "0000000001", strings.Repeat("1", 3000) + ".0000000001",
	strings.Repeat("a.", 2000) + "..r..0000000001", "x" + strings.Repeat("1", 2000) + "a.0000000001",
}

// TestNameMatcherAgreesWithRegexp: the matcher accepts exactly the names
// each pattern's regexp does, capturing the same parts.
func TestNameMatcherAgreesWithRegexp(t *testing.T) {
	accepted := 0
	for _, c := range compiledMatchEntries(t) {
		for _, name := range matchSeeds {
			want, got := refMatch(c, name), fastMatch(c, name)
			if (want == nil) != (got == nil) || !slices.Equal(want, got) {
				t.Errorf("%s %q: matcher %q, regexp %q", c.Children, name, got, want)
			}
			if got != nil {
				accepted++
			}
		}
	}
	if accepted < 20 {
		t.Errorf("only %d of the seeds match a pattern: the comparison tests little", accepted)
	}
}

// FuzzNameMatcher holds the matcher to the regexp on any name.
func FuzzNameMatcher(f *testing.F) {
	for _, s := range matchSeeds {
		f.Add(s)
	}
	cs := compiledMatchEntries(f)
	f.Fuzz(func(t *testing.T, name string) {
		for _, c := range cs {
			want, got := refMatch(c, name), fastMatch(c, name)
			if (want == nil) != (got == nil) || !slices.Equal(want, got) {
				t.Errorf("%s %q: matcher %q, regexp %q", c.Children, name, got, want)
			}
		}
	})
}

// BenchmarkChildName is what reading one child's name costs: the Go
// parser, an entry's regexp (the reference) and its matcher.
func BenchmarkChildName(b *testing.B) {
	book := builtinBook()
	for _, tc := range []struct{ entry, name string }{
		{string(RecipeKazooLock), "5f3a9be0c1d24e6f8a7b6c5d4e3f2a1b__lock__0000012345"},
		{string(RecipeCuratorMutex), "_c_0f0e0d0c-0b0a-4908-8706-050403020100-lock-0000012345"},
		{string(RecipeZKWriteLock), "x-72057594037927937-0000012345"},
	} {
		c := book.byName(tc.entry)
		b.Run(tc.entry+"/parser", func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if ParseName(tc.name).Kind == KindUnparsed {
					b.Fatal(tc.name)
				}
			}
		})
		b.Run(tc.entry+"/regexp", func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if c.name.FindStringSubmatch(tc.name) == nil {
					b.Fatal(tc.name)
				}
			}
		})
		b.Run(tc.entry+"/matcher", func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				var sp spans
				if !c.matcher.match(tc.name, &sp) {
					b.Fatal(tc.name)
				}
			}
		})
		b.Run(tc.entry+"/entry-parse", func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, _, ok := c.parse(tc.name); !ok {
					b.Fatal(tc.name)
				}
			}
		})
	}
}
