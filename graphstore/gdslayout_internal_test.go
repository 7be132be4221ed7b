package graphstore

import (
	"fmt"
	"testing"
)

// TestStreamLeaves: the visiting order of java.util.stream's ForEachTask
// over LongStream.range(0, n) on one worker (checked against JDK 17).
func TestStreamLeaves(t *testing.T) {
	for _, tc := range []struct {
		n, lt int64
		want  string
	}{
		{1000, 4, "[[500 750] [750 1000] [250 500] [0 250]]"},
		{185828, 4, "[[92914 139371] [139371 185828] [46457 92914] [0 46457]]"},
		{12345, 4, "[[6172 9258] [10801 12345] [9258 10801] [3086 6172] [0 3086]]"},
		{7, 4, "[[4 5] [3 4] [6 7] [5 6] [1 2] [2 3] [0 1]]"},
		{3, 4, "[[1 2] [2 3] [0 1]]"},
		{1, 4, "[[0 1]]"},
	} {
		if got := fmt.Sprint(streamLeaves(tc.n, tc.lt)); got != tc.want {
			t.Errorf("streamLeaves(%d, %d) = %s, want %s", tc.n, tc.lt, got, tc.want)
		}
	}
}

// TestNewLayout: the real region lies in the first leaf visited at level 0
// and, whatever the aggregation shrinks it to, in the first leaf by
// position at level 1 (which keeps its order in the level-2 graph).
func TestNewLayout(t *testing.T) {
	{
		lt := int64(leafTarget)
		for _, real := range []int64{3, 10, 257, 5000, 46455} {
			l := newLayout(real, lt)
			n := l.before + real + l.after
			first := streamLeaves(n, lt)[0]
			if l.before != first[0] || l.before+real > first[1] {
				t.Errorf("real %d: region [%d, %d) not in the first leaf %v of %d nodes", real, l.before, l.before+real, first, n)
			}
			for r := int64(1); r <= real; r++ {
				if end := firstLeafEnd(l.before+l.after+r, lt); end < r {
					t.Fatalf("real %d: a level-1 region of %d nodes overflows the first leaf (ends at %d)", real, r, end)
				}
				if lv := streamLeaves(l.before+l.after+r, lt); r%997 == 0 && lv[len(lv)-1][0] != 0 {
					t.Fatalf("the leaf at 0 is not visited last: %v", lv)
				}
			}
			if real == 46455 {
				t.Logf("%d real nodes: %d spacers (%.1f per real node)", real, l.before+l.after, float64(l.before+l.after)/float64(real))
			}
		}
	}
}
