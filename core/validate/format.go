package validate

import (
	"strconv"
	"strings"
)

// sprintf formats the verbs dpplay's messages use — %v, %d, %g, %s, %q and
// %.Nf/%.Ng — as fmt.Sprintf does. It exists so that the page's first-load
// WebAssembly module, whose every error message is built here, does not link
// fmt and reflect: about 90 KB of the 1 MB gzip budget. A verb or argument
// it does not know is shown as %!verb(unsupported), never a panic.
func sprintf(format string, args ...any) string {
	var b strings.Builder
	next := 0
	for i := 0; i < len(format); i++ {
		c := format[i]
		if c != '%' {
			b.WriteByte(c)
			continue
		}
		i++
		if i < len(format) && format[i] == '%' {
			b.WriteByte('%')
			continue
		}
		prec := -1
		if i < len(format) && format[i] == '.' {
			j := i + 1
			for j < len(format) && format[j] >= '0' && format[j] <= '9' {
				j++
			}
			prec, _ = strconv.Atoi(format[i+1 : j])
			i = j
		}
		if i >= len(format) {
			b.WriteString("%!(NOVERB)")
			break
		}
		verb := format[i]
		if next >= len(args) {
			b.WriteString("%!" + string(verb) + "(MISSING)")
			continue
		}
		b.WriteString(formatArg(verb, prec, args[next]))
		next++
	}
	return b.String()
}

func formatArg(verb byte, prec int, arg any) string {
	if verb == 'q' {
		if s, ok := arg.(string); ok {
			return strconv.Quote(s)
		}
	}
	switch x := arg.(type) {
	case float64:
		return formatFloat(verb, prec, x)
	case float32:
		return formatFloat(verb, prec, float64(x))
	case int:
		return formatInt(verb, int64(x))
	case int64:
		return formatInt(verb, x)
	case int32:
		return formatInt(verb, int64(x))
	case uint64:
		if verb == 'v' || verb == 'd' {
			return strconv.FormatUint(x, 10)
		}
	case uint:
		if verb == 'v' || verb == 'd' {
			return strconv.FormatUint(uint64(x), 10)
		}
	case string:
		if verb == 'v' || verb == 's' {
			return x
		}
	case bool:
		if verb == 'v' {
			return strconv.FormatBool(x)
		}
	case error:
		if verb == 'v' || verb == 's' {
			return x.Error()
		}
	case []float64:
		if verb == 'v' || verb == 'g' {
			parts := make([]string, len(x))
			for i, v := range x {
				parts[i] = formatFloat(verb, prec, v)
			}
			return "[" + strings.Join(parts, " ") + "]"
		}
	case interface{ String() string }:
		// After error, as in fmt: named types such as synth.Stage print by
		// their String method, not as %!v(unsupported).
		if verb == 'v' || verb == 's' {
			return x.String()
		}
	case []string:
		if verb == 'v' || verb == 's' {
			return "[" + strings.Join(x, " ") + "]"
		}
	case []int:
		if verb == 'v' || verb == 'd' {
			parts := make([]string, len(x))
			for i, v := range x {
				parts[i] = strconv.Itoa(v)
			}
			return "[" + strings.Join(parts, " ") + "]"
		}
	}
	return "%!" + string(verb) + "(unsupported)"
}

func formatInt(verb byte, x int64) string {
	if verb == 'v' || verb == 'd' {
		return strconv.FormatInt(x, 10)
	}
	return "%!" + string(verb) + "(unsupported)"
}

func formatFloat(verb byte, prec int, x float64) string {
	switch verb {
	case 'v', 'g':
		return strconv.FormatFloat(x, 'g', prec, 64)
	case 'f', 'e':
		if prec < 0 {
			prec = 6
		}
		return strconv.FormatFloat(x, verb, prec, 64)
	}
	return "%!" + string(verb) + "(unsupported)"
}

// Sprintf formats as fmt.Sprintf does for the verbs Errorf takes, for
// messages and names built outside an error (core/synth's query and budget
// names), so that their modules do not link fmt either.
func Sprintf(format string, args ...any) string { return sprintf(format, args...) }
