package jsontext

import (
	"errors"
	"fmt"
)

func trailing(b []byte, i int) error {
	if space(b, i) != len(b) {
		return fmt.Errorf("text after the value at byte %d", i)
	}
	return nil
}

func space(b []byte, i int) int {
	for i < len(b) && (b[i] == ' ' || b[i] == '\t' || b[i] == '\n' || b[i] == '\r') {
		i++
	}
	return i
}

// skip returns the end of the JSON value that starts at b[i].
func skip(b []byte, i int) (int, error) {
	depth := 0
	for i < len(b) {
		switch c := b[i]; c {
		case '"':
			i++
			for i < len(b) && b[i] != '"' {
				if b[i] == '\\' {
					i++
				}
				i++
			}
			if i >= len(b) {
				return 0, errors.New("unterminated string")
			}
			i++
		case '{', '[':
			depth++
			i++
			continue
		case '}', ']':
			depth--
			if depth < 0 {
				return 0, fmt.Errorf("unexpected %q at byte %d", c, i)
			}
			i++
		case ' ', '\t', '\n', '\r', ',', ':':
			if depth == 0 {
				return 0, fmt.Errorf("unexpected %q at byte %d", c, i)
			}
			i++
			continue
		default:
			start := i
			for i < len(b) && !delimiter[b[i]] {
				i++
			}
			if i == start {
				return 0, fmt.Errorf("unexpected byte at %d", i)
			}
		}
		if depth == 0 {
			return i, nil
		}
	}
	return 0, errors.New("unexpected end of JSON")
}

// delimiter marks the bytes that end a literal (a number, true, false,
// null).
var delimiter = func() (d [256]bool) {
	for _, c := range []byte(" \t\n\r,:]}[{\"") {
		d[c] = true
	}
	return d
}()
