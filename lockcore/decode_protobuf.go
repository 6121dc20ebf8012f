package lockcore

import "google.golang.org/protobuf/encoding/protowire"

// eachField calls f with each field of a protobuf message: its number and
// wire type, a varint's value, or a length-delimited field's bytes (nil
// for other types). It is false when the message is malformed or f says
// so.
func eachField(msg []byte, f func(num protowire.Number, typ protowire.Type, v uint64, b []byte) bool) bool {
	for len(msg) > 0 {
		num, typ, n := protowire.ConsumeTag(msg)
		if n < 0 {
			return false
		}
		msg = msg[n:]
		var v uint64
		var b []byte
		switch typ {
		case protowire.VarintType:
			v, n = protowire.ConsumeVarint(msg)
		case protowire.BytesType:
			b, n = protowire.ConsumeBytes(msg)
			if b == nil {
				b = []byte{}
			}
		default:
			n = protowire.ConsumeFieldValue(num, typ, msg)
		}
		if n < 0 || !f(num, typ, v, b) {
			return false
		}
		msg = msg[n:]
	}
	return true
}
