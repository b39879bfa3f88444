// Package jsonb is the one rule of what PostgreSQL keeps of a JSON value
// in a jsonb (or text) column: UTF-8 text without NUL characters or lone
// surrogates, and numbers within the range of numeric, which jsonb keeps
// its numbers in (Problem); and of a string as text (TextProblem). The
// API checks every member of every body by it, and the browser app every
// field of every form, before either store sees them (server/httpx,
// server/web), so PostgreSQL and the in-memory twin, which keeps
// anything, answer alike.
package jsonb

import (
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"
)

// The limits of PostgreSQL's numeric, in decimal digits. A number written
// with an exponent counts as written out: 1e131072 has 131073 digits
// before the decimal point, 1e-16384 has 16384 after it, and so does
// 0e-16384. Digits after the point count as written, trailing zeros
// included, as numeric keeps them.
const (
	MaxIntegerDigits  = 131072 // before the decimal point
	MaxFractionDigits = 16383  // after the decimal point
	// maxExponent bounds an exponent: PostgreSQL refuses one from
	// INT_MAX/2 on whatever the digits, so 0e1073741823 too.
	maxExponent = 1<<30 - 1
)

// What PostgreSQL refuses in text, as Problem and TextProblem say it.
const (
	notUTF8 = "must be valid UTF-8"
	hasNUL  = "must not contain NUL characters (\\u0000)"
)

// TextProblem says why PostgreSQL cannot keep s, a string a form or a
// query sent, as text: bytes that are not UTF-8 (which a lone surrogate
// is, encoded), or a NUL; "" when it can.
func TextProblem(s string) string {
	switch {
	case !utf8.ValidString(s):
		return notUTF8
	case strings.ContainsRune(s, 0):
		return hasNUL
	}
	return ""
}

// Problem says what in raw, a valid JSON value, PostgreSQL cannot keep:
// bytes that are not UTF-8, a NUL (\u0000) or a lone surrogate escape in
// a string, or a number NumberProblem refuses; "" when there is nothing.
func Problem(raw []byte) string {
	if !utf8.Valid(raw) {
		return notUTF8
	}
	for i := 0; i < len(raw); {
		var msg string
		switch c := raw[i]; {
		case c == '"':
			i, msg = stringEnd(raw, i)
		case c == '-' || '0' <= c && c <= '9':
			end := numberEnd(raw, i)
			i, msg = end, NumberProblem(raw[i:end])
		default:
			i++
		}
		if msg != "" {
			return msg
		}
	}
	return ""
}

// stringEnd reads the string that starts at raw[i], its opening quote,
// and returns the index after its closing quote and what PostgreSQL
// cannot keep in it.
func stringEnd(raw []byte, i int) (int, string) {
	for i++; i < len(raw); i++ {
		switch raw[i] {
		case '"':
			return i + 1, ""
		case '\\':
			i++
			if i < len(raw) && raw[i] == 'u' {
				var msg string
				if i, msg = escapeEnd(raw, i); msg != "" {
					return i, msg
				}
			}
		}
	}
	return i, ""
}

// escapeEnd checks the \u escape whose u is raw[i], with the low half
// that must follow a high surrogate, and returns the index of its last
// hex digit.
func escapeEnd(raw []byte, i int) (int, string) {
	code, ok := hex4(raw, i+1)
	if !ok {
		return i, ""
	}
	i += 4
	switch {
	case code == 0:
		return i, hasNUL
	case code >= 0xDC00 && code <= 0xDFFF:
		return i, "must not contain a lone surrogate"
	case code >= 0xD800 && code <= 0xDBFF:
		if i+2 >= len(raw) || raw[i+1] != '\\' || raw[i+2] != 'u' {
			return i, "must not contain a lone surrogate"
		}
		if low, ok := hex4(raw, i+3); !ok || low < 0xDC00 || low > 0xDFFF {
			return i, "must not contain a lone surrogate"
		}
		i += 6
	}
	return i, ""
}

// hex4 reads the four hex digits at raw[i:].
func hex4(raw []byte, i int) (uint64, bool) {
	if i+4 > len(raw) {
		return 0, false
	}
	code, err := strconv.ParseUint(string(raw[i:i+4]), 16, 16)
	return code, err == nil
}

// numberEnd is the index after the number that starts at raw[i].
func numberEnd(raw []byte, i int) int {
	for i < len(raw) && isNumberByte(raw[i]) {
		i++
	}
	return i
}

func isNumberByte(c byte) bool {
	return '0' <= c && c <= '9' || c == '-' || c == '+' || c == '.' || c == 'e' || c == 'E'
}

// NumberProblem says why PostgreSQL cannot keep num, a JSON number, in
// jsonb: it has more than MaxIntegerDigits digits before the decimal
// point or more than MaxFractionDigits after it, once its exponent is
// applied, or an exponent PostgreSQL refuses; "" when it can.
func NumberProblem(num []byte) string {
	n, ok := parseNumber(string(num))
	if !ok {
		return ""
	}
	if n.exp <= -maxExponent || n.exp >= maxExponent {
		return fmt.Sprintf("has a number whose exponent PostgreSQL cannot store (at most %d either way)", maxExponent-1)
	}
	if scale := int64(len(n.frac)) - n.exp; scale > MaxFractionDigits {
		return fmt.Sprintf("has a number with %d digits after the decimal point: PostgreSQL stores at most %d", scale, MaxFractionDigits)
	}
	if digits := n.integerDigits(); digits > MaxIntegerDigits {
		return fmt.Sprintf("has a number with %d digits before the decimal point: PostgreSQL stores at most %d", digits, MaxIntegerDigits)
	}
	return ""
}

// number is a JSON number's parts: the digits before the point and after
// it, and the exponent.
type number struct {
	whole, frac string
	exp         int64
}

// parseNumber splits a JSON number into its parts; an exponent too long
// to read is taken as maxExponent, with its sign.
func parseNumber(s string) (number, bool) {
	var n number
	if len(s) > 0 && s[0] == '-' {
		s = s[1:]
	}
	i := digitsEnd(s, 0)
	n.whole = s[:i]
	if i < len(s) && s[i] == '.' {
		j := digitsEnd(s, i+1)
		n.frac, i = s[i+1:j], j
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		exp := s[i+1:]
		sign := int64(1)
		if exp != "" && (exp[0] == '+' || exp[0] == '-') {
			if exp[0] == '-' {
				sign = -1
			}
			exp = exp[1:]
		}
		v, err := strconv.ParseInt(exp, 10, 64)
		if err != nil || v > maxExponent {
			v = maxExponent
		}
		n.exp, i = sign*v, len(s)
	}
	return n, n.whole != "" && i == len(s)
}

// digitsEnd is the index after the digits that start at s[i].
func digitsEnd(s string, i int) int {
	for i < len(s) && '0' <= s[i] && s[i] <= '9' {
		i++
	}
	return i
}

// integerDigits is how many digits the number has before the decimal
// point once written out without leading zeros: 0 for zero and for
// numbers below 1.
func (n number) integerDigits() int64 {
	digits := n.whole + n.frac
	for k := 0; k < len(digits); k++ {
		if digits[k] != '0' {
			return max(0, int64(len(n.whole)-k)+n.exp)
		}
	}
	return 0
}
