package cli

import (
	"strings"
	"time"

	"github.com/goblame/goblame/format"
	"github.com/goblame/goblame/internal/passwd"
	"github.com/goblame/goblame/repo"
)

// blameConfig is what git blame takes from the configuration
// (git_blame_config and the parts of git_default_config it uses).
type blameConfig struct {
	args           BlameArgs // defaults for the command line
	markUnblamable bool
	markIgnored    bool
	repeatedColor  string // escape sequence; "" for the default cyan
	heat           format.HeatColors
	colorLines     bool // blame.coloring=repeatedLines
	colorByAge     bool // blame.coloring=highlightRecent
	quotePath      bool
	coreAbbrev     int // -1 auto
	outputEncoding string
	warnings       []string
}

const defaultHighlightRecent = "blue,12 month ago,white,1 month ago,red"

// badConfigVariable is git's message when a config callback fails.
func badConfigVariable(e repo.ConfigEntry) string {
	if e.Origin == "" {
		return "unable to parse '" + e.Key + "' from command-line config"
	}
	return "bad config variable '" + e.Key + "' in file '" + e.Origin + "' at line " + itoa(e.Line)
}

func itoa(n int) string {
	if n == 0 {
		return "0"
	}
	neg := n < 0
	if neg {
		n = -n
	}
	var b [20]byte
	i := len(b)
	for n > 0 {
		i--
		b[i] = byte('0' + n%10)
		n /= 10
	}
	if neg {
		i--
		b[i] = '-'
	}
	return string(b[i:])
}

func configBool(e repo.ConfigEntry) (bool, error) {
	b, valid := repo.BoolText(e.Value, e.HasValue)
	if !valid {
		return false, die("bad boolean config value '%s' for '%s'", e.Value, e.Key)
	}
	return b, nil
}

// readBlameConfig walks the configuration in git's order and applies the
// keys blame reads; the first bad value is fatal, as in git.
func readBlameConfig(r *repo.Repository, env Environ, now time.Time, local *time.Location) (*blameConfig, error) {
	cfg := &blameConfig{args: DefaultBlameArgs(), quotePath: true}
	heat, err := format.ParseHighlightRecent(defaultHighlightRecent, now, local)
	if err != nil {
		return nil, err
	}
	cfg.heat = heat
	missing := func(e repo.ConfigEntry) error {
		return &exitError{stderr: "error: missing value for '" + e.Key + "'\n" + reportLine("fatal: ", badConfigVariable(e)), code: 128}
	}
	var indent *bool
	for _, e := range r.Config.Entries() {
		switch e.Key {
		case "blame.showroot":
			b, err := configBool(e)
			if err != nil {
				return nil, err
			}
			cfg.args.ShowRoot = b
		case "blame.blankboundary":
			b, err := configBool(e)
			if err != nil {
				return nil, err
			}
			cfg.args.BlankBoundary = b
		case "blame.showemail":
			b, err := configBool(e)
			if err != nil {
				return nil, err
			}
			cfg.args.ShowEmail = b
		case "blame.date":
			if !e.HasValue {
				return nil, missing(e)
			}
			m, err := ParseDateFormat(e.Value, env.StdoutIsTerminal)
			if err != nil {
				return nil, err
			}
			cfg.args.Date = m
		case "blame.ignorerevsfile":
			if !e.HasValue {
				return nil, missing(e)
			}
			p, err := expandPath(e.Value, env)
			if err != nil {
				return nil, err
			}
			cfg.args.IgnoreRevsFiles = append(cfg.args.IgnoreRevsFiles, p)
		case "blame.markunblamablelines":
			b, err := configBool(e)
			if err != nil {
				return nil, err
			}
			cfg.markUnblamable = b
		case "blame.markignoredlines":
			b, err := configBool(e)
			if err != nil {
				return nil, err
			}
			cfg.markIgnored = b
		case "color.blame.repeatedlines":
			// git 2.39.5 crashes on a value-less key here; goblame
			// reports it as git reports other missing values.
			if !e.HasValue {
				return nil, missing(e)
			}
			c, err := format.ParseColor(e.Value)
			if err != nil {
				cfg.warnings = append(cfg.warnings, "warning: invalid value for 'color.blame.repeatedLines': '"+e.Value+"'")
			} else {
				cfg.repeatedColor = c
			}
		case "color.blame.highlightrecent":
			if !e.HasValue {
				return nil, missing(e)
			}
			h, err := format.ParseHighlightRecent(e.Value, now, local)
			if err != nil {
				return nil, err
			}
			cfg.heat = h
		case "blame.coloring":
			if !e.HasValue {
				return nil, missing(e)
			}
			switch e.Value {
			case "repeatedLines":
				cfg.colorLines = true
			case "highlightRecent":
				cfg.colorByAge = true
			case "none":
				cfg.colorLines, cfg.colorByAge = false, false
			default:
				cfg.warnings = append(cfg.warnings, "warning: invalid value for 'blame.coloring': '"+e.Value+"'")
			}
		case "diff.indentheuristic":
			b, err := configBool(e)
			if err != nil {
				return nil, err
			}
			indent = &b
		case "core.quotepath":
			b, err := configBool(e)
			if err != nil {
				return nil, err
			}
			cfg.quotePath = b
		}
	}
	if indent != nil {
		cfg.args.IndentHeuristic = indent
	}
	abbrev, err := r.DefaultAbbrev()
	if err != nil {
		return nil, err
	}
	cfg.coreAbbrev = abbrev
	if v, ok := r.Config.Get("i18n.logoutputencoding"); ok && v != "" {
		cfg.outputEncoding = v
	} else if v, ok := r.Config.Get("i18n.commitencoding"); ok && v != "" {
		cfg.outputEncoding = v
	}
	return cfg, nil
}

// expandPath is git's interpolate_path for "~/" and "~user/".
func expandPath(p string, env Environ) (string, error) {
	if !strings.HasPrefix(p, "~") {
		return p, nil
	}
	name, _, _ := strings.Cut(p[1:], "/")
	tail := p[1+len(name):]
	if name == "" {
		home := env.Getenv("HOME")
		if home == "" {
			return "", die("failed to expand user dir in: '%s'", p)
		}
		return home + tail, nil
	}
	home, ok := passwd.Home(name)
	if !ok {
		return "", die("failed to expand user dir in: '%s'", p)
	}
	return home + tail, nil
}
