package readmodel

// Variant is one stored scoring variant of a run: kgeval.DefaultVariant,
// or a grid point of a sweep.
type Variant struct {
	Name       string
	Tau, Delta float64
	Scores     int
}

// PairSummary is the stored scores of one pair of a run, aggregated: Means
// maps each KG metric (metricreg.KGMetricNames) to its mean, nil when no graph
// has a value.
type PairSummary struct {
	Pair           string
	Graphs, Scored int
	Means          map[string]*float64
}

// SystemCount is a system of a run and how many samples it answered.
type SystemCount struct {
	System  string `json:"system"`
	Samples int    `json:"samples"`
}

// VariantMeans is one pair's mean KG scores under one sweep variant.
type VariantMeans struct {
	Variant           string   `json:"variant"`
	Pair              string   `json:"pair"`
	Tau               float64  `json:"tau"`
	Delta             float64  `json:"delta"`
	Graphs            int      `json:"graphs"`
	Scored            int      `json:"scored"`
	Multihop          *float64 `json:"multihop"`
	CommunityOverlap  *float64 `json:"community_overlap"`
	CommunityCoverage *float64 `json:"community_coverage"`
}
