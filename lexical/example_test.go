package lexical_test

import (
	"fmt"

	"github.com/kgeval/kgeval/lexical"
)

// Labels are parsed once and compared many times; Match takes the cosine of
// the two labels' embeddings.
func ExampleMatch() {
	a, b := lexical.NewLabel("2010"), lexical.NewLabel("2014")
	fmt.Println(lexical.Compare(a, b))
	fmt.Println(lexical.Match(a, b, 0.799, 0.7))

	a, b = lexical.NewLabel("PharmaCann"), lexical.NewLabel("Pharma Cann")
	fmt.Println(lexical.Match(a, b, 0.667, 0.7))

	a, b = lexical.NewLabel("launched on 30 July 2023"), lexical.NewLabel("30 July 2023")
	fmt.Println(lexical.Compare(a, b))
	fmt.Println(lexical.Match(a, b, 0.81, 0.7))
	// Output:
	// conflict
	// false 0
	// true 1
	// text-only
	// true 0.81
}

// One passage is prepared once and checked against every triplet extracted
// from it.
func ExampleGroundText() {
	ctx := lexical.NewText("It is scheduled to launch on Sunday, 30 July 2023 at 06:30 IST from Sriharikota.")
	fmt.Println(lexical.GroundText("PSLV-C56 launch", "30 July 2023", ctx))
	fmt.Println(lexical.GroundText("launch", "5 August 2023, 6:30 AM", ctx))
	// Output:
	// false subject "PSLV-C56 launch" does not occur in the text
	// false object "5 August 2023, 6:30 AM" does not occur in the text (date 2023-08-05 not stated)
}

func ExampleParse() {
	s := "$3.2 billion, 573-km, 70%, 2023年7月30日, 06:30 IST"
	for _, l := range lexical.Parse(s) {
		fmt.Printf("%-24s %q\n", l, s[l.Start:l.End])
	}
	// Output:
	// money 3200000000 USD     "$3.2 billion"
	// quantity 573000 m        "573-km"
	// percent 70%              "70%"
	// date 2023-07-30          "2023年7月30日"
	// time 06:30 IST           "06:30 IST"
}
