package words

import (
	"bufio"
	"context"
	"fmt"
	"sync"
	"testing"

	"github.com/zklocks/zklocks/internal/testkit/zktest"
)

// BenchmarkWatchTableRead reads one real server's watch table of 20,000
// data watches, whole, by wchc and by the AdminServer's watches: what each
// costs the member and this process together, as the pacing counts it.
func BenchmarkWatchTableRead(b *testing.B) {
	s := zktest.Start(b, zktest.WithAdminServer())
	c := s.Connect(b)
	var wg sync.WaitGroup
	sem := make(chan struct{}, 64)
	for i := range 20_000 {
		sem <- struct{}{}
		wg.Go(func() {
			defer func() { <-sem }()
			if _, _, _, err := c.ExistsW(fmt.Sprintf("/bench/absent-%05d", i)); err != nil {
				b.Error(err)
			}
		})
	}
	wg.Wait()
	admin := &AdminServer{Port: s.AdminPort()}
	b.Run("wchc", func(b *testing.B) {
		for b.Loop() {
			n, err := FourLetterStream(context.Background(), s.Addr(), "wchc", nil, nil, func(r *bufio.Reader) error {
				_, err := ParseWatchStream("wchc", r, nil)
				return err
			})
			if err != nil {
				b.Fatal(err)
			}
			b.SetBytes(n)
		}
	})
	b.Run("admin watches", func(b *testing.B) {
		for b.Loop() {
			n, err := AdminStream(context.Background(), admin, s.Addr(), "wchc", nil, AdminWatchTable(map[int64][]string{}, nil))
			if err != nil {
				b.Fatal(err)
			}
			b.SetBytes(n)
		}
	})
}
