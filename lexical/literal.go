package lexical

import (
	"fmt"
	"math"
	"strconv"
)

// Kind of a literal.
type Kind string

// The kinds of literal Parse finds.
const (
	KindNumber   Kind = "number"   // a count or any number without unit: "573", "1,234.5", "17th", "twelve"
	KindDate     Kind = "date"     // a calendar date at the precision stated, bare years and decades included
	KindTime     Kind = "time"     // a time of day: "06:30 IST", "6.30 pm"
	KindDuration Kind = "duration" // a length of time: "3 years", "45 minutes"
	KindPercent  Kind = "percent"  // a percentage or a percentage-point difference
	KindMoney    Kind = "money"    // an amount with a currency
	KindQuantity Kind = "quantity" // a measured quantity with a unit
)

// Literal is one literal found in a label or text.
type Literal struct {
	Kind Kind
	// Value is the canonical value: numbers as is; percent as a fraction
	// (70% -> 0.70, also for percentage points); money in units of the
	// currency; quantity in the SI base unit (573 km -> 573000, unit "m");
	// duration in seconds; time as seconds since midnight. Dates use the
	// fields below and leave Value 0.
	Value float64
	// Unit is the currency for money ("USD", "EUR", "GBP", "INR", ...), the
	// base unit for a quantity ("m", "kg", "s", "m2", "m3", "l", "W", "J",
	// "Hz", "B", "m/s", "Pa", "V", "A", "deg"; temperatures keep their scale,
	// "C", "F" or "K"), "pp" for percentage points, "" otherwise.
	Unit string
	// Year, Month (0 = not stated) and Day (0 = not stated) of a date: the
	// precision is what was stated. Year is 0 for a day and month without
	// a year ("30 July").
	Year, Month, Day int
	// Decade marks a decade ("1990s"): Year is its first year and the date
	// covers Year..Year+9.
	Decade bool
	// Zone is the time zone of a time as written ("UTC", "IST", "+05:30"),
	// "" if none; "Z" and "GMT" are written "UTC".
	Zone string
	// Start and End are the byte span of the literal in the parsed string.
	Start, End int
}

// String describes the literal for reasons and test failures:
// "date 2023-07-30", "money 3200000000 USD", "time 06:30 IST".
func (l Literal) String() string {
	switch l.Kind {
	case KindDate:
		return "date " + l.dateString()
	case KindTime:
		v := int(l.Value)
		s := fmt.Sprintf("%02d:%02d", v/3600, v/60%60)
		if v%60 != 0 {
			s += fmt.Sprintf(":%02d", v%60)
		}
		if l.Zone != "" {
			s += " " + l.Zone
		}
		return "time " + s
	case KindDuration:
		return "duration " + fmtNum(l.Value) + "s"
	case KindPercent:
		if l.Unit == "pp" {
			return "percent " + fmtNum(l.Value*100) + " pp"
		}
		return "percent " + fmtNum(l.Value*100) + "%"
	case KindMoney, KindQuantity:
		return string(l.Kind) + " " + fmtNum(l.Value) + " " + l.Unit
	}
	return string(l.Kind) + " " + fmtNum(l.Value)
}

func (l Literal) dateString() string {
	switch {
	case l.Decade:
		return strconv.Itoa(l.Year) + "s"
	case l.Year == 0:
		return fmt.Sprintf("--%02d-%02d", l.Month, l.Day)
	case l.Month == 0:
		return strconv.Itoa(l.Year)
	case l.Day == 0:
		return fmt.Sprintf("%d-%02d", l.Year, l.Month)
	}
	return fmt.Sprintf("%d-%02d-%02d", l.Year, l.Month, l.Day)
}

// fmtNum prints a value with 12 significant digits, without exponent for
// integers up to 1e15: 3200000000, 0.7, 16093.44.
func fmtNum(v float64) string {
	if v == math.Trunc(v) && math.Abs(v) < 1e15 {
		return strconv.FormatInt(int64(v), 10)
	}
	return strconv.FormatFloat(v, 'g', 12, 64)
}
