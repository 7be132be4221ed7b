package metrics

import (
	"slices"
	"strings"

	"github.com/kgeval/kgeval"
)

// Class is an answer classification (SPEC §7).
type Class string

// Answer classes.
const (
	ClassCorrect  Class = "CORRECT"
	ClassWrong    Class = "WRONG"
	ClassDontKnow Class = "DONT_KNOW"
)

// ParseClass reads a class name as a model writes it: case and surrounding
// white space are ignored, and a space or hyphen may stand for the
// underscore ("dont know", "DONT-KNOW"). Errors: EINVALID for anything else.
func ParseClass(s string) (Class, error) {
	k := strings.ToUpper(strings.Join(strings.Fields(strings.TrimSpace(s)), "_"))
	k = strings.ReplaceAll(k, "-", "_")
	switch c := Class(k); c {
	case ClassCorrect, ClassWrong, ClassDontKnow:
		return c, nil
	}
	return "", kgeval.Errorf(kgeval.EINVALID, "answer class %q is not CORRECT, WRONG or DONT_KNOW", s)
}

// ClassCounts counts answers per class.
type ClassCounts struct {
	Correct  int `json:"CORRECT"`
	Wrong    int `json:"WRONG"`
	DontKnow int `json:"DONT_KNOW"`
}

// Total is the number of answers counted.
func (c ClassCounts) Total() int { return c.Correct + c.Wrong + c.DontKnow }

// Count returns the count of class cl (0 for an unknown class).
func (c ClassCounts) Count(cl Class) int {
	switch cl {
	case ClassCorrect:
		return c.Correct
	case ClassWrong:
		return c.Wrong
	case ClassDontKnow:
		return c.DontKnow
	}
	return 0
}

func (c *ClassCounts) add(cl Class) {
	switch cl {
	case ClassCorrect:
		c.Correct++
	case ClassWrong:
		c.Wrong++
	case ClassDontKnow:
		c.DontKnow++
	}
}

// ClassTally counts answer classes over a run and per system (SPEC §7, §8).
// The zero value is ready to use.
type ClassTally struct {
	Overall  ClassCounts            `json:"overall"`
	BySystem map[string]ClassCounts `json:"by_system,omitempty"`
}

// Add counts one answer of system. An answer without a system ("") is
// counted in Overall only. Errors: EINVALID for an unknown class, which is
// then not counted.
func (t *ClassTally) Add(system string, cl Class) error {
	switch cl {
	case ClassCorrect, ClassWrong, ClassDontKnow:
	default:
		return kgeval.Errorf(kgeval.EINVALID, "answer class %q is not CORRECT, WRONG or DONT_KNOW", cl)
	}
	t.Overall.add(cl)
	if system == "" {
		return nil
	}
	if t.BySystem == nil {
		t.BySystem = make(map[string]ClassCounts)
	}
	c := t.BySystem[system]
	c.add(cl)
	t.BySystem[system] = c
	return nil
}

// Systems returns the systems counted, sorted.
func (t *ClassTally) Systems() []string {
	out := make([]string, 0, len(t.BySystem))
	for s := range t.BySystem {
		out = append(out, s)
	}
	slices.Sort(out)
	return out
}
