// Package zkwatch knows what the cluster says: connection and session state,
// discovery, watches, re-sync, and server enrichment from the four-letter
// words. It never imports Bubble Tea.
package zkwatch
