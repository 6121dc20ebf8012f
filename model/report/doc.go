// Package report is what zklocks' commands print of what the operator
// knows: `zklocks show`'s Report of some locks read once, `zklocks ls`'s
// list of a State's locks, `zklocks acquire --json`'s grant, and
// `zklocks postmortem`'s stories (one lock's model.Story, or every lock's
// from one model.StoryPass, written a story at a time), each as text for
// people and as JSON for scripts. The JSON shapes are a contract
// with scripts: names never change, fields may be added. Every name and
// datum from the cluster is escaped (model.Printable, and
// model.EscapeJSONBidi for the JSON).
package report
