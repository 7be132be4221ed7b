package judge

import "testing"

func TestSameText(t *testing.T) {
	for _, c := range []struct {
		a, b string
		want bool
	}{
		{"PharmaCann was founded in 2014.", "PharmaCann was founded in 2014.", true},
		{"pharmacann  was founded\nin 2014", "PharmaCann was founded in 2014.", true},
		{"PharmaCann was founded in 2014!", "PharmaCann was founded in 2014", true},
		{"PharmaCann was founded in 2010.", "PharmaCann was founded in 2014.", false},
		{"PharmaCann was founded in 2014 by Theodore Scott.", "PharmaCann was founded in 2014.", false},
		{"", "", false},
		{" . ", ".", false},
	} {
		if got := sameText(c.a, c.b); got != c.want {
			t.Errorf("sameText(%q, %q) = %v, want %v", c.a, c.b, got, c.want)
		}
	}
}
