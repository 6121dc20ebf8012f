package recording

import "github.com/zklocks/zklocks/lockcore"

// partField is one of a contender's fields that a lock line keeps as
// itself (or as a difference) when it is not its base's: how the encoder
// stores it and how the decoder puts it back. The fields whose defaults
// depend on others (name, path, session, watches, ctime, data, hold) are
// written out in part and apply.
type partField struct {
	enc func(pt *part, p, base *lockcore.Participant)
	dec func(pt *part, p *lockcore.Participant)
}

// partFields is every field a lock line keeps as it is, in the order the
// decoder applies them (each is independent of the others).
var partFields = []partField{
	conv(func(p *lockcore.Participant) *lockcore.Recipe { return &p.Recipe }, func(pt *part) **string { return &pt.Rcp },
		func(r lockcore.Recipe) string { return string(r) }, func(s string) lockcore.Recipe { return lockcore.Recipe(s) }),
	same(func(p *lockcore.Participant) *bool { return &p.HasSeq }, func(pt *part) **bool { return &pt.HasSeq }),
	delta(func(p *lockcore.Participant) *int64 { return &p.Seq }, func(pt *part) **int64 { return &pt.Seq }),
	conv(func(p *lockcore.Participant) *lockcore.Mode { return &p.Mode }, func(pt *part) **string { return &pt.Mode },
		func(m lockcore.Mode) string { return code(modeCodes, m) }, func(s string) lockcore.Mode { return decodeCode(modeOf, s) }),
	conv(func(p *lockcore.Participant) *lockcore.Role { return &p.Role }, func(pt *part) **string { return &pt.Role },
		func(r lockcore.Role) string { return code(roleCodes, r) }, func(s string) lockcore.Role { return decodeCode(roleOf, s) }),
	delta(func(p *lockcore.Participant) *int64 { return &p.Token }, func(pt *part) **int64 { return &pt.Token }),
	same(func(p *lockcore.Participant) *int32 { return &p.Version }, func(pt *part) **int32 { return &pt.Ver }),
	same(func(p *lockcore.Participant) *bool { return &p.DataTruncated }, func(pt *part) **bool { return &pt.Trunc }),
	same(func(p *lockcore.Participant) *string { return &p.Note }, func(pt *part) **string { return &pt.Note }),
	same(func(p *lockcore.Participant) *string { return &p.Identity }, func(pt *part) **string { return &pt.ID }),
	same(func(p *lockcore.Participant) *bool { return &p.WatchesUnknown }, func(pt *part) **bool { return &pt.WU }),
	same(func(p *lockcore.Participant) *bool { return &p.DataDenied }, func(pt *part) **bool { return &pt.DD }),
	same(func(p *lockcore.Participant) *string { return &p.PartOf }, func(pt *part) **string { return &pt.PF }),
	same(func(p *lockcore.Participant) *bool { return &p.Pending }, func(pt *part) **bool { return &pt.Pend }),
}

// same keeps a field as its value.
func same[T comparable](field func(*lockcore.Participant) *T, slot func(*part) **T) partField {
	return conv(field, slot, func(v T) T { return v }, func(v T) T { return v })
}

// conv keeps a field as its value turned into what the line holds (a
// mode's or a role's short code, a recipe's text).
func conv[T, S comparable](field func(*lockcore.Participant) *T, slot func(*part) **S, to func(T) S, from func(S) T) partField {
	return partField{
		enc: func(pt *part, p, base *lockcore.Participant) {
			if v := *field(p); v != *field(base) {
				*slot(pt) = ptr(to(v))
			}
		},
		dec: func(pt *part, p *lockcore.Participant) {
			if s := *slot(pt); s != nil {
				*field(p) = from(*s)
			}
		},
	}
}

// delta keeps a number as its difference from the base's.
func delta(field func(*lockcore.Participant) *int64, slot func(*part) **int64) partField {
	return partField{
		enc: func(pt *part, p, base *lockcore.Participant) {
			if v, b := *field(p), *field(base); v != b {
				*slot(pt) = ptr(v - b)
			}
		},
		dec: func(pt *part, p *lockcore.Participant) {
			if s := *slot(pt); s != nil {
				*field(p) += *s
			}
		},
	}
}
