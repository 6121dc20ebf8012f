package txnlog

// aheadBatch is how many records the read-ahead decodes before it hands
// them over: one hand-over a record would cost more than the record.
const aheadBatch = 256

// aheadBatchSize bounds what a batch holds of its records' data and
// their parts: a multi creating a thousand nodes is one record, and a
// batch of them would hold the read's memory for nothing.
const aheadBatchSize = 1 << 20

// aheadBatches is how many batches stand decoded, waiting to be taken.
const aheadBatches = 2

// batch is records read ahead; their data share its arena, so that the
// file's buffer can be read on while they wait.
type batch struct {
	recs  []Record
	arena []byte
	// err ends the log after recs: io.EOF at its end, or where the read
	// stopped.
	err error
}

// stash copies d into the batch's arena. A grown arena leaves the data
// stashed before in the old one, which they keep alive.
func (b *batch) stash(d []byte) []byte {
	if d == nil {
		return nil
	}
	start := len(b.arena)
	b.arena = append(b.arena, d...)
	return b.arena[start:len(b.arena):len(b.arena)]
}

// recordSize is about what rec holds in memory.
func recordSize(rec *Record) int {
	n := len(rec.Txn.Path) + len(rec.Txn.Data)
	for _, op := range rec.Txn.Ops {
		n += 64 + len(op.Path) + len(op.Data)
	}
	return n
}

// keep moves what rec shares of the file's buffer into the batch.
func (b *batch) keep(rec *Record) {
	rec.Txn.Data = b.stash(rec.Txn.Data)
	for i := range rec.Txn.Ops {
		rec.Txn.Ops[i].Data = b.stash(rec.Txn.Ops[i].Data)
	}
}

// readAhead reads and decodes a log on a goroutine of its own, batches
// ahead of the one taking its records: reading, checking and decoding a
// gigabyte of log is a core's work, which the tree and the locks built
// from it need not wait for. A record's data stay good until the log's
// next record is taken, as they do when read directly.
type readAhead struct {
	ready chan *batch
	free  chan *batch
	quit  chan struct{}
	done  chan struct{}
	cur   *batch
	i     int
}

// startReadAhead makes l's records come from a read-ahead from now on.
func (l *logFile) startReadAhead() {
	a := &readAhead{ready: make(chan *batch, aheadBatches), free: make(chan *batch, aheadBatches+2),
		quit: make(chan struct{}), done: make(chan struct{})}
	l.ahead = a
	go a.fill(l)
}

// fill reads l until its end, or until stop.
func (a *readAhead) fill(l *logFile) {
	defer close(a.done)
	for {
		var b *batch
		select {
		case b = <-a.free:
			b.recs, b.arena = b.recs[:0], b.arena[:0]
		default:
			b = &batch{recs: make([]Record, 0, aheadBatch), arena: make([]byte, 0, 64<<10)}
		}
		for size := 0; len(b.recs) < aheadBatch && size < aheadBatchSize; {
			rec, err := l.read()
			if err != nil {
				b.err = err
				break
			}
			b.keep(&rec)
			b.recs = append(b.recs, rec)
			size += recordSize(&rec)
		}
		select {
		case a.ready <- b:
		case <-a.quit:
			return
		}
		if b.err != nil {
			return
		}
	}
}

// next is the next record read ahead, or the error the log ended with.
func (a *readAhead) next() (Record, error) {
	for a.cur == nil || a.i == len(a.cur.recs) {
		if a.cur != nil {
			if a.cur.err != nil {
				return Record{}, a.cur.err
			}
			select {
			case a.free <- a.cur:
			default:
			}
		}
		a.cur, a.i = <-a.ready, 0
	}
	a.i++
	return a.cur.recs[a.i-1], nil
}

// stop ends the read-ahead and waits for its goroutine, which reads the
// file no more once stop returns.
func (a *readAhead) stop() {
	close(a.quit)
	<-a.done
}
