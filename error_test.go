package kgeval_test

import (
	"errors"
	"fmt"
	"testing"

	"github.com/kgeval/kgeval"
)

// TestErrorKind checks that an error's kind is read from its *Error chain,
// never from its text: a wrapped refusal keeps its kind, a message that
// only reads like one has none.
func TestErrorKind(t *testing.T) {
	refused := kgeval.Errorf(kgeval.EINVALID, "refused: over the limit")
	refused.Kind = kgeval.KindRefused
	timeout := kgeval.Wrap(kgeval.EINVALID, errors.New("neo4j: terminated"), "timed out: past 5s")
	timeout.Kind = kgeval.KindTimeout
	for _, tc := range []struct {
		name string
		err  error
		want string
	}{
		{"nil", nil, ""},
		{"refused", refused, kgeval.KindRefused},
		{"wrapped by fmt", fmt.Errorf("console: %w", refused), kgeval.KindRefused},
		{"inside an error without a kind", kgeval.Wrap(kgeval.EINTERNAL, timeout, "running"), kgeval.KindTimeout},
		{"text alone", kgeval.Errorf(kgeval.EINVALID, "refused: reads like one"), ""},
		{"not an *Error", errors.New("refused: plain"), ""},
	} {
		if got := kgeval.ErrorKind(tc.err); got != tc.want {
			t.Errorf("%s: ErrorKind = %q, want %q", tc.name, got, tc.want)
		}
	}
	if kgeval.ErrorCode(refused) != kgeval.EINVALID {
		t.Errorf("a kind changes the code: %q", kgeval.ErrorCode(refused))
	}
}
