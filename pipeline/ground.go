package pipeline

import "github.com/kgeval/kgeval"

// textIndex numbers the kinds of text, to key a sample's extracted texts.
func textIndex(t kgeval.Text) int {
	switch t {
	case kgeval.TextQuestion:
		return 0
	case kgeval.TextAnswer:
		return 1
	case kgeval.TextReference:
		return 2
	}
	return 3
}
