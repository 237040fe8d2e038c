package scaffold

import (
	"fmt"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Printable is text from input as it may reach a terminal or a README:
// each control character (a line break, a carriage return, an escape
// that would start a terminal sequence), each format character that
// reorders or hides text (U+202E and the like) and each byte that is not
// UTF-8 becomes its Go escape (\n, \x1b, \u202e, \xff), so a model's
// name can neither add an output line nor drive the terminal. Every
// other character, spaces included, stays as it is.
func Printable(s string) string {
	if strings.IndexFunc(s, unsafeRune) < 0 && utf8.ValidString(s) {
		return s
	}
	var b strings.Builder
	for i, r := range s {
		switch {
		case r == utf8.RuneError && !strings.HasPrefix(s[i:], string(utf8.RuneError)):
			fmt.Fprintf(&b, `\x%02x`, s[i])
		case unsafeRune(r):
			q := strconv.QuoteRuneToASCII(r)
			b.WriteString(q[1 : len(q)-1])
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// unsafeRune is a character Printable escapes.
func unsafeRune(r rune) bool {
	return r != ' ' && (!unicode.IsGraphic(r) || unicode.Is(unicode.Cf, r))
}
