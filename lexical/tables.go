package lexical

import (
	"sort"
	"unicode"
	"unicode/utf8"
)

// This file holds the word lists the parser and the matcher read. They are
// deliberately small and explicit: every entry is a decision (which words are
// units, which are scales, which are stop words) that a test can pin down.

// months maps lower-case month names and abbreviations in English, French,
// German, Spanish, Italian, Portuguese and Dutch to their number. A month
// name alone is never a literal ("May", "August" and "March" are also words);
// it needs a day or a year next to it.
var months = map[string]int{
	// English
	"january": 1, "february": 2, "march": 3, "april": 4, "may": 5, "june": 6, "july": 7,
	"august": 8, "september": 9, "october": 10, "november": 11, "december": 12,
	"jan": 1, "feb": 2, "mar": 3, "apr": 4, "jun": 6, "jul": 7, "aug": 8, "sep": 9,
	"sept": 9, "oct": 10, "nov": 11, "dec": 12,
	// French ("mars" only in lower case: "Mars 2020" is the rover)
	"janvier": 1, "février": 2, "fevrier": 2, "mars": 3, "avril": 4, "mai": 5, "juin": 6,
	"juillet": 7, "août": 8, "aout": 8, "septembre": 9, "octobre": 10, "novembre": 11,
	"décembre": 12, "decembre": 12,
	// German
	"januar": 1, "jänner": 1, "februar": 2, "märz": 3, "maerz": 3, "juni": 6, "juli": 7,
	"oktober": 10, "dezember": 12,
	// Spanish
	"enero": 1, "febrero": 2, "marzo": 3, "abril": 4, "mayo": 5, "junio": 6, "julio": 7,
	"agosto": 8, "septiembre": 9, "setiembre": 9, "octubre": 10, "noviembre": 11, "diciembre": 12,
	// Italian
	"gennaio": 1, "febbraio": 2, "aprile": 4, "maggio": 5, "giugno": 6, "luglio": 7,
	"settembre": 9, "ottobre": 10, "dicembre": 12,
	// Portuguese
	"janeiro": 1, "fevereiro": 2, "março": 3, "marco": 3, "maio": 5, "junho": 6, "julho": 7,
	"setembro": 9, "outubro": 10, "dezembro": 12,
	// Dutch
	"januari": 1, "februari": 2, "maart": 3, "mei": 5, "augustus": 8,
}

// weekdays are filler next to a date ("Sunday, 30 July 2023").
var weekdays = []string{
	"monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday",
	"lundi", "mardi", "mercredi", "jeudi", "vendredi", "samedi", "dimanche",
	"montag", "dienstag", "mittwoch", "donnerstag", "freitag", "samstag", "sonntag",
	"lunes", "martes", "miércoles", "jueves", "viernes", "sábado", "domingo",
	"lunedì", "martedì", "mercoledì", "giovedì", "venerdì", "sabato", "domenica",
	"maandag", "dinsdag", "woensdag", "donderdag", "vrijdag", "zaterdag", "zondag",
}

// numberWords are the English cardinal words. "hundred", "thousand",
// "million", "billion", "trillion" and "dozen" multiply what precedes them.
var numberWords = map[string]int64{
	"zero": 0, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7,
	"eight": 8, "nine": 9, "ten": 10, "eleven": 11, "twelve": 12, "thirteen": 13,
	"fourteen": 14, "fifteen": 15, "sixteen": 16, "seventeen": 17, "eighteen": 18,
	"nineteen": 19, "twenty": 20, "thirty": 30, "forty": 40, "fifty": 50, "sixty": 60,
	"seventy": 70, "eighty": 80, "ninety": 90,
}

var numberMultipliers = map[string]int64{
	"hundred": 100, "dozen": 12, "thousand": 1e3, "million": 1e6, "billion": 1e9, "trillion": 1e12,
}

// zones are the time-zone abbreviations recognised after a time, upper case
// only. "Z" and "GMT" are written "UTC" (the same clock).
var zones = map[string]string{
	"UTC": "UTC", "GMT": "UTC", "Z": "UTC", "IST": "IST", "EST": "EST", "EDT": "EDT", "CST": "CST",
	"CDT": "CDT", "MST": "MST", "MDT": "MDT", "PST": "PST", "PDT": "PDT", "CET": "CET",
	"CEST": "CEST", "EET": "EET", "EEST": "EEST", "WET": "WET", "BST": "BST", "JST": "JST",
	"KST": "KST", "AEST": "AEST", "AEDT": "AEDT", "ACST": "ACST", "AWST": "AWST", "NZST": "NZST",
	"NZDT": "NZDT", "HKT": "HKT", "SGT": "SGT", "MSK": "MSK", "PKT": "PKT", "WIB": "WIB",
	"ICT": "ICT", "PHT": "PHT", "HST": "HST", "AKST": "AKST",
}

// currencySymbols are one-rune currency signs written before or after an amount.
// "¥" is read as the yen (the yuan is usually written 元 or CNY).
var currencySymbols = map[rune]string{
	'$': "USD", '＄': "USD", '€': "EUR", '£': "GBP", '￡': "GBP", '¥': "JPY", '￥': "JPY",
	'₹': "INR", '₩': "KRW", '₽': "RUB", '₺': "TRY", '₪': "ILS", '₦': "NGN", '฿': "THB",
	'₱': "PHP", '₫': "VND", '₴': "UAH",
}

// dollarPrefixes are the words glued before "$" that name the dollar: "US$", "A$", "HK$".
var dollarPrefixes = map[string]string{
	"US": "USD", "A": "AUD", "AU": "AUD", "C": "CAD", "CA": "CAD", "HK": "HKD",
	"NZ": "NZD", "S": "SGD", "R": "BRL", "NT": "TWD", "Mex": "MXN",
}

// currencyCodes are ISO 4217 codes, recognised in upper case only ("TRY" is
// a currency, "try" is a verb).
var currencyCodes = map[string]bool{
	"USD": true, "EUR": true, "GBP": true, "JPY": true, "CNY": true, "INR": true, "AUD": true,
	"CAD": true, "CHF": true, "HKD": true, "NZD": true, "SGD": true, "SEK": true, "NOK": true,
	"DKK": true, "KRW": true, "RUB": true, "BRL": true, "ZAR": true, "MXN": true, "TRY": true,
	"PLN": true, "AED": true, "SAR": true, "TWD": true, "THB": true, "IDR": true, "MYR": true,
	"PHP": true, "PKR": true, "BDT": true, "NGN": true, "EGP": true, "ILS": true, "CZK": true,
	"HUF": true, "RMB": true,
}

// prefixWords may be glued to a year by a hyphen without making it an
// identifier: "mid-2023" holds the year 2023, "COVID-19" holds no number.
var prefixWords = map[string]bool{
	"mid": true, "pre": true, "post": true, "early": true, "late": true, "circa": true, "ca": true,
	"since": true, "by": true, "end": true,
}

// stopWords are left out of the content tokens of a label (SPEC §2b's "content
// tokens"): English function words only.
var stopWords = setOf(
	"a", "an", "the", "of", "in", "on", "at", "by", "for", "to", "from", "with", "and", "or",
	"is", "are", "was", "were", "be", "been", "being", "as", "that", "this", "these", "those",
	"it", "its", "into", "onto", "over", "under", "about", "than", "then", "also", "has", "have",
	"had", "will", "would", "can", "could", "may", "might", "do", "does", "did", "not", "no",
	"but", "if", "so", "such", "which", "who", "whom", "whose", "what", "when", "where", "how",
	"s", "per", "via", "during", "after", "before", "between", "there", "their", "his", "her",
	"he", "she", "they", "them", "we", "our", "you", "your", "i", "my", "up", "out",
)

// fillerWords do not make a text part of their own when they are all that is
// left of a label once its literals are cut out: "Sunday, 30 July 2023 at
// 06:30 IST" says nothing beyond its literals.
var fillerWords = func() map[string]bool {
	m := setOf(
		"approximately", "approx", "about", "around", "roughly", "nearly", "almost", "some",
		"over", "under", "more", "less", "than", "just", "only", "circa", "ca", "c", "est",
		"estimated", "year", "years", "date", "time", "on", "at", "in", "of", "the", "a", "an",
		"by", "from", "to", "and", "until", "till", "since", "around", "local", "hrs",
		// English weekday abbreviations ("Sun, 30 July 2023").
		"mon", "tue", "tues", "wed", "thu", "thur", "thurs", "fri", "sat", "sun",
	)
	for _, w := range weekdays {
		m[w] = true
	}
	return m
}()

func setOf(words ...string) map[string]bool {
	m := make(map[string]bool, len(words))
	for _, w := range words {
		m[w] = true
	}
	return m
}

// Suffix categories: what a pattern after a number makes of it.
type category uint8

const (
	catScale category = iota + 1
	catPercent
	catCurrency
	catDuration
	catQuantity
)

// suffix is one pattern that may follow a number: "km", "per cent", "million".
// A space in pat matches one or more spaces of the text. fold: compare
// ignoring case (words); symbols like "m", "MW", "B" are case-sensitive.
type suffix struct {
	pat     string
	fold    bool
	cat     category
	unit    string  // base unit or currency
	exp     int     // power of ten of the factor
	mul     float64 // remaining factor (1 when the factor is a power of ten)
	needCur bool    // a scale ("m", "k", "B") only after a stated currency: "$5m" vs "5 m"
}

var suffixIndex = map[rune][]*suffix{}

// init fills suffixIndex, family by family, then orders each list.
func init() {
	addScales()
	addPercents()
	addCurrencies()
	addDurations()
	addMeasures()
	addPhysical()
	sortSuffixes()
}

// addSuffix indexes patterns pats of one category, unit and factor by
// their first rune, lower-cased.
func addSuffix(cat category, unit string, exp int, mul float64, fold bool, pats ...string) {
	for _, p := range pats {
		s := &suffix{pat: p, fold: fold, cat: cat, unit: unit, exp: exp, mul: mul}
		r, _ := utf8.DecodeRuneInString(p)
		r = unicode.ToLower(r)
		suffixIndex[r] = append(suffixIndex[r], s)
	}
}

// addScale indexes scale patterns; needCur: only after a stated currency.
func addScale(exp int, mul float64, fold, needCur bool, pats ...string) {
	for _, p := range pats {
		addSuffix(catScale, "", exp, mul, fold, p)
		l := suffixIndex[unicode.ToLower(firstRune(p))]
		l[len(l)-1].needCur = needCur
	}
}

// addQuantity indexes the patterns of a measured quantity, in SI base
// units.
func addQuantity(unit string, exp int, mul float64, fold bool, pats ...string) {
	addSuffix(catQuantity, unit, exp, mul, fold, pats...)
}

// addScales indexes the scales ("million", "lakh", the "m" of "$5m").
func addScales() {
	scale := addScale
	scale(2, 1, true, false, "hundred")
	scale(3, 1, true, false, "thousand", "tausend")
	scale(6, 1, true, false, "million", "millions", "mn", "mln", "millionen", "millones", "millón", "millon", "milioni", "milione", "milhões", "milhão", "miljoen")
	scale(6, 1, false, false, "Mio", "Mio.")
	scale(9, 1, true, false, "billion", "billions", "bn", "milliard", "milliards", "milliarde", "milliarden", "miliardi", "miliardo", "bilhões", "bilhão", "miljard")
	scale(9, 1, false, false, "Mrd", "Mrd.")
	scale(12, 1, true, false, "trillion", "trillions", "tn", "trn")
	scale(5, 1, true, false, "lakh", "lakhs", "lac", "lacs")
	scale(7, 1, true, false, "crore", "crores")
	scale(3, 1, true, false, "mil")
	scale(0, 12, true, false, "dozen")
	scale(6, 1, false, true, "m", "M")
	scale(3, 1, false, true, "k", "K")
	scale(9, 1, false, true, "b", "B")
	scale(7, 1, false, true, "cr")
}

// addPercents indexes the percent signs and words.
func addPercents() {
	add := addSuffix
	// Percentages: the value is a fraction (70% -> 0.70). Percentage points
	// and basis points are a difference of two percentages: unit "pp".
	add(catPercent, "", -2, 1, false, "%", "％", "٪")
	add(catPercent, "", -2, 1, true, "percent", "per cent", "pct", "pct.", "prozent", "por ciento",
		"pour cent", "pourcent", "per cento", "por cento", "procent", "pourcentage")
	add(catPercent, "pp", -2, 1, true, "percentage points", "percentage point", "p.p.")
	add(catPercent, "pp", -2, 1, false, "pp")
	add(catPercent, "pp", -4, 1, true, "basis points", "basis point")
}

// addCurrencies indexes the currencies written after the amount.
func addCurrencies() {
	add := addSuffix
	for r, c := range currencySymbols {
		add(catCurrency, c, 0, 1, false, string(r))
	}
	for c := range currencyCodes {
		cc := c
		if c == "RMB" {
			cc = "CNY"
		}
		add(catCurrency, cc, 0, 1, false, c)
	}
	add(catCurrency, "CNY", 0, 1, false, "元")
	add(catCurrency, "JPY", 0, 1, false, "円")
	add(catCurrency, "USD", 0, 1, true, "dollars", "dollar", "us dollars", "us dollar", "u.s. dollars",
		"american dollars", "dólares", "dolares", "dollari")
	add(catCurrency, "AUD", 0, 1, true, "australian dollars")
	add(catCurrency, "CAD", 0, 1, true, "canadian dollars")
	add(catCurrency, "HKD", 0, 1, true, "hong kong dollars")
	add(catCurrency, "SGD", 0, 1, true, "singapore dollars")
	add(catCurrency, "NZD", 0, 1, true, "new zealand dollars")
	add(catCurrency, "EUR", 0, 1, true, "euros", "euro")
	add(catCurrency, "GBP", 0, 1, true, "pounds sterling", "pound sterling", "sterling")
	add(catCurrency, "INR", 0, 1, true, "rupees", "rupee")
	add(catCurrency, "JPY", 0, 1, true, "yen")
	add(catCurrency, "CNY", 0, 1, true, "yuan", "renminbi")
	add(catCurrency, "RUB", 0, 1, true, "rubles", "roubles")
	add(catCurrency, "CHF", 0, 1, true, "swiss francs")
}

// addDurations indexes the units of time.
func addDurations() {
	add := addSuffix
	// Durations, in seconds. Calendar units use the mean Gregorian year:
	// 12 months = 1 year exactly.
	const year = 365.2425 * 86400
	dur := func(mul float64, fold bool, pats ...string) { add(catDuration, "", 0, mul, fold, pats...) }
	dur(1, true, "seconds", "second", "secs", "sec", "sekunden", "sekunde", "secondes", "seconde", "segundos", "segundo", "secondi")
	dur(1, false, "s")
	dur(1e-3, true, "milliseconds", "millisecond")
	dur(1e-3, false, "ms")
	dur(1e-6, true, "microseconds", "microsecond")
	dur(1e-6, false, "µs", "μs")
	dur(1e-9, true, "nanoseconds", "nanosecond")
	dur(1e-9, false, "ns")
	dur(60, true, "minutes", "minute", "mins", "min", "minuten", "minutos", "minuto", "minuti", "minuut")
	dur(3600, true, "hours", "hour", "hrs", "hr", "stunden", "stunde", "heures", "heure", "horas", "hora", "uur")
	dur(3600, false, "h")
	dur(86400, true, "days", "day", "tage", "tagen", "tag", "jours", "jour", "días", "día", "dias", "dia", "giorni", "giorno", "dagen", "dag")
	dur(7*86400, true, "weeks", "week", "wks", "wk", "wochen", "woche", "semaines", "semaine", "semanas", "semana", "settimane", "settimana", "weken")
	dur(14*86400, true, "fortnights", "fortnight")
	dur(year/12, true, "months", "month", "monate", "monaten", "monat", "mois", "meses", "mes", "mesi", "mese", "maanden", "maand")
	dur(year, true, "years", "year", "yrs", "yr", "jahre", "jahren", "jahr", "ans", "années", "année", "años", "año", "anni", "anno", "anos", "ano", "jaren", "jaar")
	dur(10*year, true, "decades", "decade")
	dur(100*year, true, "centuries", "century")

}

// addMeasures indexes length, mass, area and volume (SI base units;
// symbols are case-sensitive).
func addMeasures() {
	q := addQuantity
	// length
	q("m", 0, 1, false, "m")
	q("m", 0, 1, true, "metres", "meters", "metre", "meter", "mètres", "mètre", "metros", "metro", "metri")
	q("m", 3, 1, true, "km", "kms", "kilometres", "kilometers", "kilometre", "kilometer", "kilomètres", "kilómetros", "kilometri")
	q("m", -2, 1, true, "cm", "centimetres", "centimeters", "centimetre", "centimeter")
	q("m", -3, 1, false, "mm")
	q("m", -3, 1, true, "millimetres", "millimeters", "millimetre", "millimeter")
	q("m", -6, 1, false, "µm", "μm")
	q("m", -6, 1, true, "micrometres", "micrometers", "microns", "micron")
	q("m", -9, 1, false, "nm")
	q("m", -9, 1, true, "nanometres", "nanometers")
	q("m", 0, 1609.344, true, "miles", "mile", "mi")
	q("m", 0, 1852, true, "nautical miles", "nautical mile", "nmi")
	q("m", 0, 0.3048, true, "feet", "foot", "ft")
	q("m", 0, 0.0254, true, "inches", "inch")
	q("m", 0, 0.9144, true, "yards", "yard", "yd", "yds")
	q("m", 0, 9.4607304725808e15, true, "light-years", "light years", "light-year", "light year")
	// mass
	q("kg", 0, 1, true, "kg", "kgs", "kilograms", "kilogram", "kilogrammes", "kilogramme", "kilos", "kilo", "kilogramm")
	q("kg", -3, 1, false, "g")
	q("kg", -3, 1, true, "grams", "gram", "grammes", "gramme", "gramm")
	q("kg", -6, 1, false, "mg")
	q("kg", -6, 1, true, "milligrams", "milligram")
	q("kg", -9, 1, false, "µg", "μg")
	q("kg", 3, 1, false, "t")
	q("kg", 3, 1, true, "tonnes", "tonne", "tons", "ton", "metric tons", "metric tonnes", "metric ton")
	q("kg", 0, 0.45359237, true, "lbs", "lb", "pounds", "pound")
	q("kg", 0, 0.028349523125, true, "ounces", "ounce", "oz")
	// area
	q("m2", 0, 1, false, "m²", "m2", "m^2")
	q("m2", 0, 1, true, "sq m", "sq. m", "sqm", "square metres", "square meters", "square metre", "square meter")
	q("m2", 6, 1, true, "km²", "km2", "km^2", "sq km", "sq. km", "square kilometres", "square kilometers",
		"square kilometre", "square kilometer", "quadratkilometer")
	q("m2", -4, 1, true, "cm²", "cm2")
	q("m2", 4, 1, true, "hectares", "hectare")
	q("m2", 4, 1, false, "ha")
	q("m2", 0, 4046.8564224, true, "acres", "acre")
	q("m2", 0, 2589988.110336, true, "square miles", "square mile", "sq mi", "sq. mi")
	q("m2", 0, 0.09290304, true, "square feet", "square foot", "sq ft", "sq. ft")
	// volume: litres and cubic metres (Equal converts between them)
	q("l", 0, 1, false, "l", "L")
	q("l", 0, 1, true, "litres", "liters", "litre", "liter", "litros", "litro", "liter")
	q("l", -3, 1, false, "ml", "mL")
	q("l", -3, 1, true, "millilitres", "milliliters", "millilitre", "milliliter")
	q("l", -2, 1, false, "cl")
	q("l", -1, 1, false, "dl")
	q("l", 0, 3.785411784, true, "gallons", "gallon", "gal")
	q("l", 0, 158.987294928, true, "barrels", "barrel", "bbl")
	q("m3", 0, 1, false, "m³", "m3", "m^3")
	q("m3", 0, 1, true, "cubic metres", "cubic meters", "cubic metre", "cubic meter")
	q("m3", 9, 1, true, "km³", "km3", "cubic kilometres", "cubic kilometers")
	q("m3", 0, 0.028316846592, true, "cubic feet", "cubic foot", "ft³")
}

// addPhysical indexes power, energy, frequency, data, speed, temperature,
// electricity and pressure (SI base units; symbols are case-sensitive).
func addPhysical() {
	q := addQuantity
	// power, energy
	q("W", 0, 1, false, "W")
	q("W", 0, 1, true, "watts", "watt")
	q("W", -3, 1, false, "mW")
	q("W", 3, 1, false, "kW", "KW")
	q("W", 3, 1, true, "kilowatts", "kilowatt")
	q("W", 6, 1, false, "MW")
	q("W", 6, 1, true, "megawatts", "megawatt")
	q("W", 9, 1, false, "GW")
	q("W", 9, 1, true, "gigawatts", "gigawatt")
	q("W", 12, 1, false, "TW")
	q("W", 0, 745.69987158227022, true, "horsepower", "hp", "bhp")
	q("J", 0, 1, false, "J")
	q("J", 0, 1, true, "joules", "joule")
	q("J", 3, 1, false, "kJ")
	q("J", 6, 1, false, "MJ")
	q("J", 9, 1, false, "GJ")
	q("J", 0, 3600, false, "Wh")
	q("J", 3, 3600, false, "kWh", "KWh")
	q("J", 6, 3600, false, "MWh")
	q("J", 9, 3600, false, "GWh")
	q("J", 12, 3600, false, "TWh")
	q("J", 0, 4184, true, "kcal")
	// frequency
	q("Hz", 0, 1, true, "hz", "hertz")
	q("Hz", 3, 1, true, "khz", "kilohertz")
	q("Hz", 6, 1, true, "mhz", "megahertz")
	q("Hz", 9, 1, true, "ghz", "gigahertz")
	q("Hz", 12, 1, true, "thz", "terahertz")
	// data (decimal prefixes; KiB, MiB, ... binary)
	q("B", 0, 1, false, "B")
	q("B", 0, 1, true, "bytes", "byte")
	q("B", 3, 1, false, "kB", "KB")
	q("B", 3, 1, true, "kilobytes", "kilobyte")
	q("B", 6, 1, false, "MB")
	q("B", 6, 1, true, "megabytes", "megabyte")
	q("B", 9, 1, false, "GB")
	q("B", 9, 1, true, "gigabytes", "gigabyte")
	q("B", 12, 1, false, "TB")
	q("B", 12, 1, true, "terabytes", "terabyte")
	q("B", 15, 1, false, "PB")
	q("B", 0, 1024, false, "KiB")
	q("B", 0, 1048576, false, "MiB")
	q("B", 0, 1073741824, false, "GiB")
	q("B", 0, 1099511627776, false, "TiB")
	// speed
	q("m/s", 0, 1, true, "m/s", "metres per second", "meters per second")
	q("m/s", 0, 1/3.6, true, "km/h", "km/hr", "kmh", "kph", "kmph", "kilometres per hour", "kilometers per hour")
	q("m/s", 0, 0.44704, true, "mph", "miles per hour")
	q("m/s", 0, 1852.0/3600, true, "knots", "knot", "kn")
	// temperature: kept in the stated scale, not converted
	q("C", 0, 1, true, "°c", "° c", "℃", "degrees celsius", "degree celsius", "degrees c", "celsius")
	q("F", 0, 1, true, "°f", "° f", "℉", "degrees fahrenheit", "degree fahrenheit", "degrees f", "fahrenheit")
	q("K", 0, 1, true, "kelvins", "kelvin")
	q("deg", 0, 1, false, "°")
	q("deg", 0, 1, true, "degrees", "degree")
	// electricity, pressure
	q("V", 0, 1, false, "V")
	q("V", 0, 1, true, "volts", "volt")
	q("V", 3, 1, false, "kV")
	q("V", -3, 1, false, "mV")
	q("A", 0, 1, true, "amperes", "ampere", "amps", "amp")
	q("A", -3, 1, false, "mA")
	q("Pa", 0, 1, false, "Pa")
	q("Pa", 0, 1, true, "pascals", "pascal")
	q("Pa", 2, 1, false, "hPa")
	q("Pa", 3, 1, false, "kPa")
	q("Pa", 6, 1, false, "MPa")
	q("Pa", 9, 1, false, "GPa")
	q("Pa", 5, 1, true, "bar")
	q("Pa", 2, 1, true, "mbar")
	q("Pa", 0, 6894.757293168, true, "psi")
	q("Pa", 0, 101325, true, "atm")
}

// sortSuffixes orders each list of suffixIndex.
func sortSuffixes() {
	// Longest pattern first; at equal length a scale before a unit, so that
	// "$5 m" is five million dollars when a currency is stated.
	for r, l := range suffixIndex {
		sort.SliceStable(l, func(i, j int) bool {
			if len(l[i].pat) != len(l[j].pat) {
				return len(l[i].pat) > len(l[j].pat)
			}
			return l[i].cat < l[j].cat
		})
		suffixIndex[r] = l
	}
}

func firstRune(s string) rune {
	r, _ := utf8.DecodeRuneInString(s)
	return r
}
