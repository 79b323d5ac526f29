package cli

import (
	"errors"
	"time"

	"github.com/goblame/goblame/blame"
	"github.com/goblame/goblame/format"
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
	heatSet        bool // color.blame.highlightRecent is set (else the default)
	colorLines     bool // blame.coloring=repeatedLines
	colorByAge     bool // blame.coloring=highlightRecent
	quotePath      bool
	coreAbbrev     int // -1 auto
	outputEncoding string
	warnings       []string
}

// readBlameConfig walks the configuration in git's order and applies the
// keys blame reads; the first bad value is fatal, as in git.
func readBlameConfig(r *repo.Repository, env Environ, now time.Time, local *time.Location) (*blameConfig, error) {
	cfg := &blameConfig{args: DefaultBlameArgs(), quotePath: true}
	var attribution blame.Options
	for _, e := range r.Config.Entries() {
		if ok, err := attribution.ApplyConfig(e, r.Env()); ok {
			if err != nil {
				return nil, err
			}
			continue
		}
		// git_default_config's checks (git_blame_config ends with it).
		if err := r.CheckDefaultConfig(e); err != nil {
			return nil, err
		}
		switch e.Key {
		case "blame.blankboundary":
			b, err := repo.ConfigBool(e)
			if err != nil {
				return nil, err
			}
			cfg.args.BlankBoundary = b
		case "blame.showemail":
			b, err := repo.ConfigBool(e)
			if err != nil {
				return nil, err
			}
			cfg.args.ShowEmail = b
		case "blame.date":
			if !e.HasValue {
				return nil, repo.MissingValueError(e)
			}
			m, err := ParseDateFormat(e.Value, env.StdoutIsTerminal)
			if err != nil {
				return nil, err
			}
			cfg.args.Date = m
		case "blame.markunblamablelines":
			b, err := repo.ConfigBool(e)
			if err != nil {
				return nil, err
			}
			cfg.markUnblamable = b
		case "blame.markignoredlines":
			b, err := repo.ConfigBool(e)
			if err != nil {
				return nil, err
			}
			cfg.markIgnored = b
		case "color.blame.repeatedlines":
			// git 2.39.5 crashes on a value-less key here; goblame
			// reports it as git reports other missing values.
			if !e.HasValue {
				return nil, repo.MissingValueError(e)
			}
			c, err := format.ParseColor(e.Value)
			if err != nil {
				// color_parse_mem's error, then blame's warning.
				cfg.warnings = append(cfg.warnings, "error: invalid color value: "+e.Value,
					"warning: invalid value for 'color.blame.repeatedLines': '"+e.Value+"'")
			} else {
				cfg.repeatedColor = c
			}
		case "color.blame.highlightrecent":
			if !e.HasValue {
				return nil, repo.MissingValueError(e)
			}
			h, err := format.ParseHighlightRecent(e.Value, now, local)
			var bad *format.ColorError
			if errors.As(err, &bad) && bad.Cause != nil {
				// color_parse's error() line, then parse_color_fields'
				// death.
				return nil, &exitError{stderr: reportLine("error: ", bad.Cause.Error()) + reportLine("fatal: ", bad.Msg), code: 128}
			}
			if err != nil {
				return nil, err
			}
			cfg.heat, cfg.heatSet = h, true
		case "blame.coloring":
			if !e.HasValue {
				return nil, repo.MissingValueError(e)
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
		case "color.advice.hint", "color.advice.reset":
			// git_default_advice_config's colour slots (the color
			// package is the command line's; repo checks the rest).
			if !e.HasValue {
				return nil, repo.MissingValueError(e)
			}
			if _, err := format.ParseColor(e.Value); err != nil {
				return nil, &exitError{stderr: "error: invalid color value: " + e.Value + "\n" + reportLine("fatal: ", blame.BadConfigVariable(e)), code: 128}
			}
		case "core.quotepath":
			b, err := repo.ConfigBool(e)
			if err != nil {
				return nil, err
			}
			cfg.quotePath = b
		}
	}
	cfg.args.ShowRoot = attribution.ShowRoot
	if attribution.NoIndentHeuristic {
		off := false
		cfg.args.IndentHeuristic = &off
	}
	cfg.args.IgnoreRevsFiles = attribution.IgnoreRevsFiles
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
