package lexical_test

import (
	"strings"
	"testing"

	"github.com/kgeval/kgeval/lexical"
)

// describe prints the literals of s as "kind value [covered text]", joined by " | ".
func describe(s string, lits []lexical.Literal) string {
	parts := make([]string, len(lits))
	for i, l := range lits {
		parts[i] = l.String() + " [" + s[l.Start:l.End] + "]"
	}
	return strings.Join(parts, " | ")
}

func TestParse(t *testing.T) {
	for _, tt := range []struct{ in, want string }{
		// numbers
		{"573", "number 573 [573]"},
		{"1,234", "number 1234 [1,234]"},
		{"1,234,567", "number 1234567 [1,234,567]"},
		{"1,234.5", "number 1234.5 [1,234.5]"},
		{"1.234,5", "number 1234.5 [1.234,5]"},
		{"1.234.567", "number 1234567 [1.234.567]"},
		{"1.234", "number 1.234 [1.234]"},
		{"1,5", "number 1.5 [1,5]"},
		{"1 234 567", "number 1234567 [1 234 567]"},
		{"1\u00a0234\u00a0567", "number 1234567 [1\u00a0234\u00a0567]"},
		{"1\u2009234", "number 1234 [1\u2009234]"},
		{"1\u202f234,5", "number 1234.5 [1\u202f234,5]"},
		{"1,23,45,678", "number 12345678 [1,23,45,678]"},
		{"3.2 million", "number 3200000 [3.2 million]"},
		{"4.8 bn", "number 4800000000 [4.8 bn]"},
		{"4.8bn", "number 4800000000 [4.8bn]"},
		{"2 billion", "number 2000000000 [2 billion]"},
		{"1.5 lakh", "number 150000 [1.5 lakh]"},
		{"3 crore", "number 30000000 [3 crore]"},
		{"1.5 lakh crore", "number 1500000000000 [1.5 lakh crore]"},
		{"5 Mio. Einwohner", "number 5000000 [5 Mio.]"},
		{"3 millones", "number 3000000 [3 millones]"},
		{"twelve", "number 12 [twelve]"},
		{"Twelve", "number 12 [Twelve]"},
		{"a dozen eggs", "number 12 [a dozen]"},
		{"twenty-one", "number 21 [twenty-one]"},
		{"three hundred and five", "number 305 [three hundred and five]"},
		{"two million people", "number 2000000 [two million]"},
		{"-5", "number -5 [-5]"},
		{"a loss of −3.5", "number -3.5 [−3.5]"},
		{"17th flight", "number 17 [17th]"},
		{"the 58th mission", "number 58 [58th]"},
		{"1st", "number 1 [1st]"},
		{"1/2", "number 1 [1] | number 2 [2]"},
		{"1,2,3", "number 1 [1] | number 2 [2] | number 3 [3]"},
		{"Boeing 737", "number 737 [737]"},
		{"5 Satellites", "number 5 [5]"},
		{"P SLV -C 56", "number 56 [56]"},
		{"০১২", "number 12 [০১২]"},
		{"１２３", "number 123 [１２３]"},
		// identifiers and words: no literal
		{"PSLV-C56", ""},
		{"COVID-19", ""},
		{"C56", ""},
		{"B2B", ""},
		{"4K", ""},
		{"F-16", ""},
		{"H2O", ""},
		{"3D", ""},
		{"3-D", ""},
		{"A320neo", ""},
		{"Chandrayaan-3", ""},
		{"192.168.1.1", ""},
		{"1.2.3", ""},
		{"Boeing", ""},
		{"Satish Dhawan Space Centre", ""},
		{"May", ""},
		{"March", ""},
		{"the first flight", ""},
		{"IST", ""},
		{"hundred", ""},
		{"", ""},
		// years and dates
		{"2010", "date 2010 [2010]"},
		{"in 1948", "date 1948 [1948]"},
		{"2,010", "number 2010 [2,010]"},
		{"2010 km", "quantity 2010000 m [2010 km]"},
		{"0999", "number 999 [0999]"},
		{"2101", "number 2101 [2101]"},
		{"1990s", "date 1990s [1990s]"},
		{"the 1990's", "date 1990s [1990's]"},
		{"2010-2014", "date 2010 [2010] | date 2014 [2014]"},
		{"mid-2023", "date 2023 [2023]"},
		{"Mars 2020", "date 2020 [2020]"},
		{"30 July 2023", "date 2023-07-30 [30 July 2023]"},
		{"July 30, 2023", "date 2023-07-30 [July 30, 2023]"},
		{"July 30th, 2023", "date 2023-07-30 [July 30th, 2023]"},
		{"30th of July 2023", "date 2023-07-30 [30th of July 2023]"},
		{"Sunday, 30 July 2023", "date 2023-07-30 [30 July 2023]"},
		{"Sunday, July 30, 2023", "date 2023-07-30 [July 30, 2023]"},
		{"2023-07-30", "date 2023-07-30 [2023-07-30]"},
		{"2023/07/30", "date 2023-07-30 [2023/07/30]"},
		{"30/07/2023", "date 2023-07-30 [30/07/2023]"},
		{"07/30/2023", "date 2023-07-30 [07/30/2023]"},
		{"05/08/2023", "date 2023-08-05 [05/08/2023]"},
		{"30.07.2023", "date 2023-07-30 [30.07.2023]"},
		{"30-07-2023", "date 2023-07-30 [30-07-2023]"},
		{"30-Jul-2023", "date 2023-07-30 [30-Jul-2023]"},
		{"31/02/2023", "number 31 [31] | number 2 [02] | date 2023 [2023]"},
		{"July 2023", "date 2023-07 [July 2023]"},
		{"Jul. 2023", "date 2023-07 [Jul. 2023]"},
		{"30 July", "date --07-30 [30 July]"},
		{"5 May", "date --05-05 [5 May]"},
		{"30 juillet 2023", "date 2023-07-30 [30 juillet 2023]"},
		{"1er août 2023", "date 2023-08-01 [1er août 2023]"},
		{"le 14 mars 2022", "date 2022-03-14 [14 mars 2022]"},
		{"30. Juli 2023", "date 2023-07-30 [30. Juli 2023]"},
		{"Sonntag, 30. Juli 2023", "date 2023-07-30 [30. Juli 2023]"},
		{"3. März 2021", "date 2021-03-03 [3. März 2021]"},
		{"30 de julio de 2023", "date 2023-07-30 [30 de julio de 2023]"},
		{"julio de 2023", "date 2023-07 [julio de 2023]"},
		{"30 luglio 2023", "date 2023-07-30 [30 luglio 2023]"},
		{"30 de julho de 2023", "date 2023-07-30 [30 de julho de 2023]"},
		{"30 juli 2023", "date 2023-07-30 [30 juli 2023]"},
		{"2023-07-30T06:30:00Z", "date 2023-07-30 [2023-07-30] | time 06:30 UTC [06:30:00Z]"},
		{"2023-07-30T06:30:00+05:30", "date 2023-07-30 [2023-07-30] | time 06:30 +05:30 [06:30:00+05:30]"},
		{"2023年7月30日", "date 2023-07-30 [2023年7月30日]"},
		{"2023年7月", "date 2023-07 [2023年7月]"},
		{"7月30日", "date --07-30 [7月30日]"},
		{"2023년 7월 30일", "date 2023-07-30 [2023년 7월 30일]"},
		// times
		{"06:30", "time 06:30 [06:30]"},
		{"06:30:15", "time 06:30:15 [06:30:15]"},
		{"6:30 AM", "time 06:30 [6:30 AM]"},
		{"6:30 a.m.", "time 06:30 [6:30 a.m.]"},
		{"12:15 am", "time 00:15 [12:15 am]"},
		{"6.30 pm", "time 18:30 [6.30 pm]"},
		{"6pm", "time 18:00 [6pm]"},
		{"18h30", "time 18:30 [18h30]"},
		{"01:00 UTC", "time 01:00 UTC [01:00 UTC]"},
		{"06:30 IST", "time 06:30 IST [06:30 IST]"},
		{"09:00 GMT", "time 09:00 UTC [09:00 GMT]"},
		{"06:30 UTC+5:30", "time 06:30 UTC+5:30 [06:30 UTC+5:30]"},
		{"12 UTC", "time 12:00 UTC [12 UTC]"},
		{"noon", "time 12:00 [noon]"},
		{"25:00", "number 25 [25] | number 0 [00]"},
		{"16:9", "number 16 [16] | number 9 [9]"},
		// durations
		{"3 years", "duration 94670856s [3 years]"},
		{"12 months", "duration 31556952s [12 months]"},
		{"45 minutes", "duration 2700s [45 minutes]"},
		{"2 hrs", "duration 7200s [2 hrs]"},
		{"1.5 hours", "duration 5400s [1.5 hours]"},
		{"10 days", "duration 864000s [10 days]"},
		{"two weeks", "duration 1209600s [two weeks]"},
		{"3-year contract", "duration 94670856s [3-year]"},
		{"a 20-year-old man", "duration 631139040s [20-year]"},
		{"30 s", "duration 30s [30 s]"},
		{"5 Jahre", "duration 157784760s [5 Jahre]"},
		{"3 años", "duration 94670856s [3 años]"},
		// percentages
		{"70%", "percent 70% [70%]"},
		{"70 %", "percent 70% [70 %]"},
		{"70 percent", "percent 70% [70 percent]"},
		{"70 per cent", "percent 70% [70 per cent]"},
		{"70 pct", "percent 70% [70 pct]"},
		{"70 Prozent", "percent 70% [70 Prozent]"},
		{"70 por ciento", "percent 70% [70 por ciento]"},
		{"12,5 %", "percent 12.5% [12,5 %]"},
		{"0.7 percentage points", "percent 0.7 pp [0.7 percentage points]"},
		{"25 basis points", "percent 0.25 pp [25 basis points]"},
		{"seventy percent", "percent 70% [seventy percent]"},
		// money
		{"$3.2 billion", "money 3200000000 USD [$3.2 billion]"},
		{"$4.8bn", "money 4800000000 USD [$4.8bn]"},
		{"$50k", "money 50000 USD [$50k]"},
		{"US$ 5m", "money 5000000 USD [US$ 5m]"},
		{"A$20", "money 20 AUD [A$20]"},
		{"USD 100", "money 100 USD [USD 100]"},
		{"100 USD", "money 100 USD [100 USD]"},
		{"€5 million", "money 5000000 EUR [€5 million]"},
		{"5 million euros", "money 5000000 EUR [5 million euros]"},
		{"5 Mio. Euro", "money 5000000 EUR [5 Mio. Euro]"},
		{"100 €", "money 100 EUR [100 €]"},
		{"£20", "money 20 GBP [£20]"},
		{"GBP 20", "money 20 GBP [GBP 20]"},
		{"¥500", "money 500 JPY [¥500]"},
		{"500元", "money 500 CNY [500元]"},
		{"Rs 500 crore", "money 5000000000 INR [Rs 500 crore]"},
		{"Rs. 1,500", "money 1500 INR [Rs. 1,500]"},
		{"₹500", "money 500 INR [₹500]"},
		{"3.2 billion dollars", "money 3200000000 USD [3.2 billion dollars]"},
		{"3.2 billion US dollars", "money 3200000000 USD [3.2 billion US dollars]"},
		{"twenty dollars", "money 20 USD [twenty dollars]"},
		{"$5 per kg", "money 5 USD [$5]"},
		// quantities
		{"573-km", "quantity 573000 m [573-km]"},
		{"600 km", "quantity 600000 m [600 km]"},
		{"573 kilometres", "quantity 573000 m [573 kilometres]"},
		{"573 kilometers", "quantity 573000 m [573 kilometers]"},
		{"100m", "quantity 100 m [100m]"},
		{"3.2m", "quantity 3.2 m [3.2m]"},
		{"5 kg", "quantity 5 kg [5 kg]"},
		{"5kg", "quantity 5 kg [5kg]"},
		{"2 million tonnes", "quantity 2000000000 kg [2 million tonnes]"},
		{"10 miles", "quantity 16093.44 m [10 miles]"},
		{"3 ft", "quantity 0.9144 m [3 ft]"},
		{"20 °C", "quantity 20 C [20 °C]"},
		{"20°C", "quantity 20 C [20°C]"},
		{"−5 ℃", "quantity -5 C [−5 ℃]"},
		{"68 °F", "quantity 68 F [68 °F]"},
		{"100 MW", "quantity 100000000 W [100 MW]"},
		{"2.4 GHz", "quantity 2400000000 Hz [2.4 GHz]"},
		{"500 GB", "quantity 500000000000 B [500 GB]"},
		{"30 m²", "quantity 30 m2 [30 m²]"},
		{"30 sq m", "quantity 30 m2 [30 sq m]"},
		{"3,287 km2", "quantity 3287000000 m2 [3,287 km2]"},
		{"5 litres", "quantity 5 l [5 litres]"},
		{"60 mph", "quantity 26.8224 m/s [60 mph]"},
		{"100 km/h", "quantity 27.7777777778 m/s [100 km/h]"},
		{"5 pounds", "quantity 2.26796185 kg [5 pounds]"},
		// mixed
		{"5 August 2023, 6:30 AM, 12 UTC", "date 2023-08-05 [5 August 2023] | time 06:30 [6:30 AM] | time 12:00 UTC [12 UTC]"},
		{"Sunday, 30 July 2023 at 06:30 IST / 01:00 UTC", "date 2023-07-30 [30 July 2023] | time 06:30 IST [06:30 IST] | time 01:00 UTC [01:00 UTC]"},
		{"founded in 2010 by Theodore Wolf", "date 2010 [2010]"},
		{"one of the largest", "number 1 [one]"},
		{"the 17th flight of the PSLV-CA variant", "number 17 [17th]"},
	} {
		got := describe(tt.in, lexical.Parse(tt.in))
		if got != tt.want {
			t.Errorf("Parse(%q)\n got %s\nwant %s", tt.in, got, tt.want)
		}
	}
}

func TestParse_Deterministic(t *testing.T) {
	s := "Sunday, 30 July 2023 at 06:30 IST, $3.2 billion and 573-km, 70%"
	a, b := describe(s, lexical.Parse(s)), describe(s, lexical.Parse(s))
	if a != b {
		t.Errorf("two parses differ:\n%s\n%s", a, b)
	}
}

func TestParse_Fields(t *testing.T) {
	l := lexical.Parse("Sunday, 30 July 2023 at 06:30 IST")
	if len(l) != 2 {
		t.Fatalf("got %v", l)
	}
	if d := l[0]; d.Kind != lexical.KindDate || d.Year != 2023 || d.Month != 7 || d.Day != 30 || d.Start != 8 || d.End != 20 {
		t.Errorf("date: %+v", d)
	}
	if tm := l[1]; tm.Kind != lexical.KindTime || tm.Value != 6*3600+30*60 || tm.Zone != "IST" {
		t.Errorf("time: %+v", tm)
	}
	m := lexical.Parse("$3.2 billion")[0]
	if m.Kind != lexical.KindMoney || m.Value != 3.2e9 || m.Unit != "USD" {
		t.Errorf("money: %+v", m)
	}
	p := lexical.Parse("70%")[0]
	if p.Kind != lexical.KindPercent || p.Value != 0.70 || p.Unit != "" {
		t.Errorf("percent: %+v", p)
	}
	q := lexical.Parse("573-km")[0]
	if q.Kind != lexical.KindQuantity || q.Value != 573000 || q.Unit != "m" {
		t.Errorf("quantity: %+v", q)
	}
}
