// Package lexical is the literal- and spelling-aware layer under entity
// matching and triplet grounding (SPEC §2b, §3b). Embedding cosine alone links
// "2010" to "2014" (0.80) and "5 August 2023" to "30 July 2023" (0.86) and
// misses "PharmaCann" / "Pharma Cann" (0.67); and a small extraction model
// invents facts that are not in its text. This package decides what cosine
// cannot: which labels state different values, which are spelling variants,
// and which labels occur in the text they were extracted from. It uses the
// standard library and golang.org/x/text only, with no model.
//
// # Literals
//
// Parse finds the literals of a string: numbers, dates (bare years
// included), times, durations, percentages, money amounts and measured
// quantities, each with a canonical value (see Literal). Equal compares two
// literals. The forms read, and the choices made where a form is ambiguous:
//
//   - Numbers: "573", "1,234", "1,234.5", "1.234,5", "1 234 567" (space,
//     no-break, thin or narrow no-break space), Indian "1,23,45,678",
//     "-5" and "−5", scales "3.2 million", "4.8 bn", "1.5 lakh", "3 crore",
//     "Mio", "Mrd", "milliards", "millones"; English number words "twelve",
//     "twenty-one", "a dozen", "three hundred and five" (other languages'
//     number words are not read). "1.234" is one point two three four (the
//     English reading) and "1,234" is twelve hundred thirty-four; "1,5" and
//     "12,34" are decimals; "1,2,3" is a list of three numbers; "1/2" is two
//     numbers (fractions are not read). Ordinals "17th", "58th" are the
//     numbers 17 and 58 (so "17th" agrees with "17"); ordinal words ("first")
//     are not numbers.
//   - Identifiers are not literals: digits glued to letters ("C56", "B2B",
//     "H2O", "4K", "3D", "A320") or joined to letters by a hyphen on their
//     left ("F-16", "COVID-19", "PSLV-C56", "Chandrayaan-3") or to one or two
//     capitals on their right ("3-D") are part of a name; so is a dotted
//     run like "192.168.1.1". A number standing alone is a number, even after
//     a capitalised word: "Boeing 737" holds 737, so it conflicts with
//     "Boeing 747". Letters glued to digits are a literal only when they are
//     a known unit or suffix ("5kg", "100m", "2.4GHz", "17th", "1990s",
//     "6pm", "$5m"). A year may follow "mid-", "pre-", "post-", "early-",
//     "late-": "mid-2023" holds 2023.
//   - Dates: a four-digit integer from 1000 to 2100 standing alone (no
//     separator, sign, scale or unit) is a year: "2010", "in 1948"; "2,010"
//     and "2010 km" are not. Decades "1990s", "1990's" cover ten years. Day
//     and month: "30 July 2023", "July 30, 2023", "30th of July 2023",
//     "Sunday, 30 July 2023", "July 2023", "Jul. 2023", "30 July" (no year);
//     French, German ("30. Juli 2023"), Spanish and Portuguese ("30 de julio
//     de 2023"), Italian and Dutch month names; ISO "2023-07-30" (also with
//     "T06:30:00Z"), "2023/07/30"; "30/07/2023", "30.07.2023", "30-07-2023"
//     are day/month/year unless the first part is at most 12 and the second
//     above 12 ("07/30/2023"): two parts both at most 12 are read
//     day-first, "05/08/2023" is 5 August. CJK "2023年7月30日", "7月30日"
//     and Korean "2023년 7월 30일". A month name alone is not a date
//     ("May", "March"); French "mars" is a month only in lower case.
//   - Times: "06:30", "06:30:15", "6:30 AM", "6.30 pm" (a period only with
//     am/pm, else it is a decimal), "18h30", "6 pm", "noon", "midnight", an
//     hour with a zone "12 UTC", with zone "IST", "UTC", "UTC+5:30", ISO "Z"
//     or "+05:30". Times in different zones are not comparable: there is no
//     conversion, so "06:30 IST" and "01:00 UTC" neither agree nor conflict.
//   - Durations: a number with a unit of time, "3 years", "45 minutes",
//     "2 hrs", "1.5 hours", "two weeks", "3-year contract", "20-year-old",
//     also in French, German, Spanish, Italian, Portuguese and Dutch. A year
//     is 365.2425 days and a month a twelfth of it; long durations agree
//     within 0.5 % (365 days = 52 weeks = 12 months = 1 year).
//   - Percentages: "70%", "70 %", "70 percent", "70 per cent", "70 pct",
//     "70 Prozent", "70 por ciento", "70 pour cent" are the fraction 0.70.
//     "0.7 percentage points" (and basis points) are a difference of
//     percentages, kind percent with unit "pp": never equal to a percentage.
//   - Money: a currency before or after the amount, with scales: "$3.2
//     billion", "US$ 5m", "USD 100", "100 USD", "€5 million", "5 million
//     euros", "£20", "GBP 20", "¥500" (yen), "Rs 500 crore", "₹500", "3.2
//     billion dollars", "500元". "m", "k" and "b" glued to an amount are
//     scales only when a currency is stated ("$5m" is five million dollars,
//     "5m" and "3.2m" are metres). "pounds" alone is a mass; "pounds
//     sterling" and "£" are money. ISO codes count only in upper case.
//   - Quantities, in SI base units: lengths ("573-km", "600 km", "573
//     kilometres", "10 miles", "3 ft" to metres), masses (kg; tons are
//     metric), areas (m2: "30 m²", "30 sq m", hectares, acres), volumes
//     (litres "l", cubic metres "m3", which Equal converts), power (W),
//     energy (J; kWh), frequency (Hz), data (bytes, B; KB/MB/GB decimal,
//     KiB/MiB/GiB binary), speed (m/s: "60 mph", "100 km/h"), pressure (Pa),
//     voltage (V), current (A), angles (deg). Temperatures keep their scale
//     as the unit ("20 °C" is 20 "C", "68 °F" is 68 "F"): they are not
//     converted, so the two are not comparable.
//
// # Matching labels
//
// NewLabel parses a label once; Compare gives the lexical verdict on two
// labels (Same, Conflict, TextOnly or Undecided: see Compare for every case)
// and Match combines it with the cosine of their embeddings into SPEC §3b's
// rule: equal literals and spelling variants match at weight 1, conflicting
// literals never match whatever the cosine, and everything else matches when
// cos >= tau, at weight cos. Spelling variants (NearIdentical) are compact
// keys at least 4 runes long with a normalised Levenshtein similarity of at
// least 0.9 and the same digits.
//
// # Grounding
//
// Occurs and Ground decide whether an extracted label occurs in its source
// text (SPEC §2b): by compact containment ("P SLV -C 56" occurs in
// "PSLV-C56"), or by 80 % of its content words in one sentence, and in both
// cases only if every literal it states is stated in the text. Sentences and
// Windows split long passages into sentences and windows of whole sentences
// for extraction. NewText prepares a passage once for many labels.
//
// # Checks read by rule
//
// Atoms reads the names (runs of capitalised words) and literal values of a
// text without any extractor; Text.Backing finds the sentence of another
// text that states one (atom_support). Asked reads the clauses of a question
// that ask for a typed value (when, where, who, how many, how long, a
// measure: the expected answer type of classic question answering) and
// Text.Answers finds the value of that type another text gives
// (typed_slot_coverage). For the graph's asked facts (SPEC-NOTES §4c),
// WantOf reads the type an asked relation names ("mission date": a date)
// and FitsOf the types an entity label is a value of. ContentWords and Text.HasWord give the word-overlap
// baseline K-Precision. The rules, and why, are in docs/SPEC-NOTES.md §4b.
//
// # Triplets read by rule
//
// Chain is the extractor of `extraction.method: rules`: Phrases splits a
// sentence into its content phrases (RAKE's candidate keywords: runs of
// words between stop words and punctuation, a literal kept whole), and every
// two neighbouring phrases make a triplet with the words between them as the
// relation. Its subjects and objects are copied from the text, so it invents
// nothing; it reads no typed relation either (docs/SPEC-NOTES.md §2).
//
// # Files
//
// Code that is called together sits together: text.go holds the prepared
// Text and Label with everything the checks call on them (folding, the
// literal comparison Equal, occurrence, mentions) and the label verdicts
// built on Equal (Compare, Match), which call back into it at every
// literal; occurs.go the Occurs and Ground API over them; checks.go Atoms,
// Asked and what fills an asked fact's slot (WantOf, FitsOf, NonAnswer);
// literal.go and parse*.go the literals; window.go the sentences;
// phrases.go the rule extractor.
package lexical
