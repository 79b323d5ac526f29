package blamecore

// SetLineTableBudget sets the differ's line-table budget for -C rounds
// (see trimLineTable) and returns a function that restores it.
func SetLineTableBudget(n int) (restore func()) {
	old := lineTableBudget
	lineTableBudget = n
	return func() { lineTableBudget = old }
}

// SetRuleOutEntryDiffs turns the -M/-C entry prefilter (entryMayHoldRun)
// on or off and returns a function that restores it.
func SetRuleOutEntryDiffs(on bool) (restore func()) {
	old := ruleOutEntryDiffs
	ruleOutEntryDiffs = on
	return func() { ruleOutEntryDiffs = old }
}
