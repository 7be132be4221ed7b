package web

import (
	"fmt"
	"html/template"
	"strings"
	"unicode/utf8"
)

// Text that cannot break the page: ids, system names,
// labels and texts come from datasets and may hold bidi controls, which
// reorder what is displayed ("rtl\u202Eexe.png" reads "rtlgnp.exe"), or
// zero-width characters, which make two different ids look the same or a
// label look blank. The pages show each such character as a small marked
// "⟨U+202E⟩" instead. web/assets/app.js (kg.vis, kg.visible) marks the same
// characters in what the scripts draw.

// invisibleNames names the bidi controls and zero-width characters; other
// marked characters (C0 and C1 controls, other format characters) are
// shown by code point only.
var invisibleNames = map[rune]string{
	0x061C: "ARABIC LETTER MARK",
	0x180E: "MONGOLIAN VOWEL SEPARATOR",
	0x200B: "ZERO WIDTH SPACE",
	0x200C: "ZERO WIDTH NON-JOINER",
	0x200D: "ZERO WIDTH JOINER",
	0x200E: "LEFT-TO-RIGHT MARK",
	0x200F: "RIGHT-TO-LEFT MARK",
	0x202A: "LEFT-TO-RIGHT EMBEDDING",
	0x202B: "RIGHT-TO-LEFT EMBEDDING",
	0x202C: "POP DIRECTIONAL FORMATTING",
	0x202D: "LEFT-TO-RIGHT OVERRIDE",
	0x202E: "RIGHT-TO-LEFT OVERRIDE",
	0x2060: "WORD JOINER",
	0x2066: "LEFT-TO-RIGHT ISOLATE",
	0x2067: "RIGHT-TO-LEFT ISOLATE",
	0x2068: "FIRST STRONG ISOLATE",
	0x2069: "POP DIRECTIONAL ISOLATE",
	0xFEFF: "ZERO WIDTH NO-BREAK SPACE",
}

// invisible reports whether r is shown as a marker: a control character
// other than tab, newline and carriage return, a bidi control, a
// zero-width or other invisible format character. The set is the same as
// app.js's.
func invisible(r rune) bool {
	switch {
	case r < 0x20:
		return r != '\t' && r != '\n' && r != '\r'
	case r >= 0x7F && r <= 0x9F:
		return true
	case r == 0x061C, r == 0x180E, r == 0xFEFF:
		return true
	case r >= 0x200B && r <= 0x200F, r >= 0x202A && r <= 0x202E, r >= 0x2060 && r <= 0x206F:
		return true
	}
	return false
}

// marker is how an invisible character is shown: "⟨U+202E⟩".
func marker(r rune) string { return fmt.Sprintf("⟨U+%04X⟩", r) }

func markerTitle(r rune) string {
	if n, ok := invisibleNames[r]; ok {
		return fmt.Sprintf("invisible character U+%04X %s", r, n)
	}
	return fmt.Sprintf("invisible character U+%04X", r)
}

// visibleText is s with every invisible character replaced by its marker,
// for places that hold only text (attributes, <title>, <option>).
func visibleText(s string) string {
	if !hasInvisible(s) {
		return s
	}
	var b strings.Builder
	for _, r := range s {
		if invisible(r) {
			b.WriteString(marker(r))
		} else {
			b.WriteRune(r)
		}
	}
	return b.String()
}

func hasInvisible(s string) bool {
	for _, r := range s {
		if invisible(r) {
			return true
		}
	}
	return false
}

// visibleHTML is s HTML-escaped, with every invisible character shown as a
// marked span: <span class="invis" title="...">⟨U+202E⟩</span>.
func visibleHTML(s string) template.HTML {
	if !hasInvisible(s) {
		return template.HTML(template.HTMLEscapeString(s))
	}
	var b strings.Builder
	start := 0
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		if invisible(r) {
			b.WriteString(template.HTMLEscapeString(s[start:i]))
			b.WriteString(`<span class="invis" title="`)
			b.WriteString(template.HTMLEscapeString(markerTitle(r)))
			b.WriteString(`">`)
			b.WriteString(marker(r))
			b.WriteString(`</span>`)
			start = i + n
		}
		i += n
	}
	b.WriteString(template.HTMLEscapeString(s[start:]))
	return template.HTML(b.String())
}

// visAny is visibleHTML of a value of any type ({{vis .X}} on a string, a
// fmt.Stringer or a number alike).
func visAny(v any) template.HTML {
	switch x := v.(type) {
	case string:
		return visibleHTML(x)
	case fmt.Stringer:
		return visibleHTML(x.String())
	case nil:
		return ""
	}
	return visibleHTML(fmt.Sprint(v))
}

// visTextAny is visibleText of a value of any type.
func visTextAny(v any) string {
	switch x := v.(type) {
	case string:
		return visibleText(x)
	case fmt.Stringer:
		return visibleText(x.String())
	case nil:
		return ""
	}
	return visibleText(fmt.Sprint(v))
}
