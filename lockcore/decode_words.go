package lockcore

// whenSet is the words an optional field of a node's data adds to the
// name a decoder gives it: before, v and after when v is set, nothing
// when it is empty (the application left the field out).
func whenSet(before, v, after string) string {
	if v == "" {
		return ""
	}
	return before + v + after
}
