package main

// The document model both renderers draw: sections of paragraphs, tagged
// items (an option or a key and its description), verbatim examples and
// bulleted lists.
//
// Text uses two inline marks: `...` is literal text (an option, a command,
// a key), set in bold; <...> (a placeholder such as <file>) is set in
// italics by the roff renderer. Both are kept as typed in plain text
// except for the backquotes, which are dropped.

type manual struct {
	name, section, title, version string
	sections                      []section
}

type section struct {
	title  string
	blocks []block
}

// block is one of para, item, example, bullets.
type block interface{ isBlock() }

// para is a paragraph of running text.
type para string

// item is a tagged paragraph group: tag in the left margin (literal text
// and placeholders, as in "`--contents` <file>"), body indented under it.
type item struct {
	tag  string
	body []block
}

// example is verbatim text (commands, output), one string per line.
type example []string

// bullets is a list of paragraphs, each with a bullet.
type bullets []string

func (para) isBlock()    {}
func (item) isBlock()    {}
func (example) isBlock() {}
func (bullets) isBlock() {}
