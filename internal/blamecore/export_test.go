package blamecore

// SetLineTableBudget sets the differ's line-table budget for -C rounds
// (see trimLineTable) and returns a function that restores it.
func SetLineTableBudget(n int) (restore func()) {
	old := lineTableBudget
	lineTableBudget = n
	return func() { lineTableBudget = old }
}
