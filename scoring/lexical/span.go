package lexical

// Span is a byte range [Start, End) of a string.
type Span struct{ Start, End int }
