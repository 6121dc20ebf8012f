package serve

import (
	"context"

	"github.com/zklocks/zklocks/internal/hub"
	"github.com/zklocks/zklocks/lockcore"
	"github.com/zklocks/zklocks/model"
)

// sessionApprovals is one session's view of its cluster's board: the
// ui.Approvals it is given, deciding as that session's operator.
type sessionApprovals struct {
	b        *hub.Board
	me       lockcore.Operator
	readOnly bool // the session cannot decide
	notices  <-chan model.ApprovalNotice
	stop     func()
}

func (s *sessionApprovals) Pending() []model.Request             { return s.b.Pending() }
func (s *sessionApprovals) Notices() <-chan model.ApprovalNotice { return s.notices }
func (s *sessionApprovals) Mine(r model.Request) bool            { return model.SamePerson(r.By, s.me) }
func (s *sessionApprovals) Decide(ctx context.Context, id int, approve bool) (model.ApprovalNotice, error) {
	if s.readOnly {
		return model.ApprovalNotice{}, model.ErrReadOnly
	}
	return s.b.Decide(ctx, id, s.me, approve)
}
