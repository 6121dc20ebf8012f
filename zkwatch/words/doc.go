// Package words asks ZooKeeper members about themselves and reads their
// answers: the four-letter words on a member's client port (srvr, cons,
// wchc, wchp, wchs, dump, mntr, conf) and, where a word is refused, the
// AdminServer command that answers the same question.
//
// FourLetter and FourLetterStream send a word (fourletter.go,
// fourletter_stream.go); AdminStream asks the AdminServer, after proving
// that the AdminServer asked is the member's own (admin*.go). Ways.Ask
// and Ways.AskEither try the word first and the AdminServer second,
// remembering in a WayMemory what each member refused (ask.go).
//
// The parsers read each answer into plain values (fourletter_*.go):
// ParseSrvr, ParseCons, ParseWchc and ParseWchs from its whole text;
// ParseWatchStream, ParseDump and ParseSessionExpiry as it arrives, so
// that a watch table or a dump of tens of megabytes is read in memory
// that grows with what is kept. The Admin* readers take the AdminServer's
// JSON key by key into the same values (admin_json.go). Costs counts what
// every ask cost each member and paces the expensive ones (cost.go). The
// errors are in errors.go; the answers in testdata were captured from
// Debian's ZooKeeper 3.8.0, byte for byte.
//
// What the answers mean for locks, sessions and watches is the caller's:
// this package imports nothing else of zklocks.
package words
