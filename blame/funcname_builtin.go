package blame

// builtinFuncnames are the function-name patterns of git 2.39.5's builtin
// diff drivers (userdiff.c), taken as data from its table: extended
// regular expressions, one per line, '!' negating, case-insensitive where
// icase is set. A .gitattributes "diff=<name>" selects one for
// "-L :<funcname>", unless diff.<name>.(x)funcname is configured.
var builtinFuncnames = []struct {
	name    string
	icase   bool
	pattern string
}{
	{name: "ada", icase: true, pattern: "!^(.*[ \t])?(is[ \t]+new|renames|is[ \t]+separate)([ \t].*)?$\n!^[ \t]*with[ \t].*$\n^[ \t]*((procedure|function)[ \t]+.*)$\n^[ \t]*((package|protected|task)[ \t]+.*)$"},
	{name: "bash", icase: false, pattern: "^[ \t]*(([a-zA-Z_][a-zA-Z0-9_]*[ \t]*\\([ \t]*\\))|(function[ \t]+[a-zA-Z_][a-zA-Z0-9_]*(([ \t]*\\([ \t]*\\))|([ \t]+)))[ \t]*(\\{|\\(\\(?|\\[\\[))"},
	{name: "bibtex", icase: false, pattern: "(@[a-zA-Z]{1,}[ \t]*\\{{0,1}[ \t]*[^ \t\"@',\\#}{~%]*).*$"},
	{name: "cpp", icase: false, pattern: "!^[ \t]*[A-Za-z_][A-Za-z_0-9]*:[[:space:]]*($|/[/*])\n^((::[[:space:]]*)?[A-Za-z_].*)$"},
	{name: "csharp", icase: false, pattern: "!^[ \t]*(do|while|for|if|else|instanceof|new|return|switch|case|throw|catch|using)\n^[ \t]*(((static|public|internal|private|protected|new|virtual|sealed|override|unsafe|async)[ \t]+)*[][<>@.~_[:alnum:]]+[ \t]+[<>@._[:alnum:]]+[ \t]*\\(.*\\))[ \t]*$\n^[ \t]*(((static|public|internal|private|protected|new|virtual|sealed|override|unsafe)[ \t]+)*[][<>@.~_[:alnum:]]+[ \t]+[@._[:alnum:]]+)[ \t]*$\n^[ \t]*(((static|public|internal|private|protected|new|unsafe|sealed|abstract|partial)[ \t]+)*(class|enum|interface|struct|record)[ \t]+.*)$\n^[ \t]*(namespace[ \t]+.*)$"},
	{name: "css", icase: true, pattern: "![:;][[:space:]]*$\n^[:[@.#]?[_a-z0-9].*$"},
	{name: "dts", icase: false, pattern: "!;\n!=\n^[ \t]*((/[ \t]*\\{|&?[a-zA-Z_]).*)"},
	{name: "elixir", icase: false, pattern: "^[ \t]*((def(macro|module|impl|protocol|p)?|test)[ \t].*)$"},
	{name: "fortran", icase: true, pattern: "!^([C*]|[ \t]*!)\n!^[ \t]*MODULE[ \t]+PROCEDURE[ \t]\n^[ \t]*((END[ \t]+)?(PROGRAM|MODULE|BLOCK[ \t]+DATA|([^!'\" \t]+[ \t]+)*(SUBROUTINE|FUNCTION))[ \t]+[A-Z].*)$"},
	{name: "fountain", icase: true, pattern: "^((\\.[^.]|(int|ext|est|int\\.?/ext|i/e)[. ]).*)$"},
	{name: "golang", icase: false, pattern: "^[ \t]*(func[ \t]*.*(\\{[ \t]*)?)\n^[ \t]*(type[ \t].*(struct|interface)[ \t]*(\\{[ \t]*)?)"},
	{name: "html", icase: false, pattern: "^[ \t]*(<[Hh][1-6]([ \t].*)?>.*)$"},
	{name: "java", icase: false, pattern: "!^[ \t]*(catch|do|for|if|instanceof|new|return|switch|throw|while)\n^[ \t]*(([a-z]+[ \t]+)*(class|enum|interface)[ \t]+[A-Za-z][A-Za-z0-9_$]*[ \t]+.*)$\n^[ \t]*(([A-Za-z_<>&][][?&<>.,A-Za-z_0-9]*[ \t]+)+[A-Za-z_][A-Za-z_0-9]*[ \t]*\\([^;]*)$"},
	{name: "kotlin", icase: false, pattern: "^[ \t]*(([a-z]+[ \t]+)*(fun|class|interface)[ \t]+.*)$"},
	{name: "markdown", icase: false, pattern: "^ {0,3}#{1,6}[ \t].*"},
	{name: "matlab", icase: false, pattern: "^[[:space:]]*((classdef|function)[[:space:]].*)$|^(%%%?|##)[[:space:]].*$"},
	{name: "objc", icase: false, pattern: "!^[ \t]*(do|for|if|else|return|switch|while)\n^[ \t]*([-+][ \t]*\\([ \t]*[A-Za-z_][A-Za-z_0-9* \t]*\\)[ \t]*[A-Za-z_].*)$\n^[ \t]*(([A-Za-z_][A-Za-z_0-9]*[ \t]+)+[A-Za-z_][A-Za-z_0-9]*[ \t]*\\([^;]*)$\n^(@(implementation|interface|protocol)[ \t].*)$"},
	{name: "pascal", icase: false, pattern: "^(((class[ \t]+)?(procedure|function)|constructor|destructor|interface|implementation|initialization|finalization)[ \t]*.*)$\n^(.*=[ \t]*(class|record).*)$"},
	{name: "perl", icase: false, pattern: "^package .*\n^sub [[:alnum:]_':]+[ \t]*(\\([^)]*\\)[ \t]*)?(:[^;#]*)?(\\{[ \t]*)?(#.*)?$\n^(BEGIN|END|INIT|CHECK|UNITCHECK|AUTOLOAD|DESTROY)[ \t]*(\\{[ \t]*)?(#.*)?$\n^=head[0-9] .*"},
	{name: "php", icase: false, pattern: "^[\t ]*(((public|protected|private|static|abstract|final)[\t ]+)*function.*)$\n^[\t ]*((((final|abstract)[\t ]+)?class|enum|interface|trait).*)$"},
	{name: "python", icase: false, pattern: "^[ \t]*((class|(async[ \t]+)?def)[ \t].*)$"},
	{name: "ruby", icase: false, pattern: "^[ \t]*((class|module|def)[ \t].*)$"},
	{name: "rust", icase: false, pattern: "^[\t ]*((pub(\\([^\\)]+\\))?[\t ]+)?((async|const|unsafe|extern([\t ]+\"[^\"]+\"))[\t ]+)?(struct|enum|union|mod|trait|fn|impl|macro_rules!)[< \t]+[^;]*)$"},
	{name: "scheme", icase: false, pattern: "^[\t ]*(\\(((define|def(struct|syntax|class|method|rules|record|proto|alias)?)[-*/ \t]|(library|module|struct|class)[*+ \t]).*)$"},
	{name: "tex", icase: false, pattern: "^(\\\\((sub)*section|chapter|part)\\*{0,1}\\{.*)$"},
}
