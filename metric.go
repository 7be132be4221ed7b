package kgeval

import "github.com/kgeval/kgeval/metricreg"

// The metric registry lives in package metricreg, which imports nothing of
// kgeval (issue 28): every metric's name, family, direction, scale,
// meaning, validity type and place in a KGResult's JSON, documented there.
// These are its names as the rest of kgeval has always called them
// (kgeval.MetricMultihop, kgeval.LookupMetric, ...); a package may as
// well import metricreg.

// Metric families and names (metricreg/names.go), validity types and
// directions.
const (
	FamilyKG                           = metricreg.FamilyKG
	FamilyTS                           = metricreg.FamilyTS
	FamilyLLM                          = metricreg.FamilyLLM
	FamilyRAGAS                        = metricreg.FamilyRAGAS
	FamilyBaseline                     = metricreg.FamilyBaseline
	MetricMultihop                     = metricreg.MetricMultihop
	MetricCommunityOverlap             = metricreg.MetricCommunityOverlap
	MetricCommunityCoverage            = metricreg.MetricCommunityCoverage
	MetricSupport                      = metricreg.MetricSupport
	MetricContradiction                = metricreg.MetricContradiction
	MetricRecall                       = metricreg.MetricRecall
	MetricF1                           = metricreg.MetricF1
	MetricSlotCoverage                 = metricreg.MetricSlotCoverage
	MetricSupportVerified              = metricreg.MetricSupportVerified
	MetricContradictionVerified        = metricreg.MetricContradictionVerified
	MetricSupportText                  = metricreg.MetricSupportText
	MetricContradictionText            = metricreg.MetricContradictionText
	MetricSlotCoverageText             = metricreg.MetricSlotCoverageText
	MetricAtomSupport                  = metricreg.MetricAtomSupport
	MetricTypedSlotCoverage            = metricreg.MetricTypedSlotCoverage
	MetricClaimScore                   = metricreg.MetricClaimScore
	MetricClaimScoreMin                = metricreg.MetricClaimScoreMin
	MetricPSupported                   = metricreg.MetricPSupported
	MetricClaimContradiction           = metricreg.MetricClaimContradiction
	MetricTSContextRelevancy           = metricreg.MetricTSContextRelevancy
	MetricTSGroundedness               = metricreg.MetricTSGroundedness
	MetricTSCompleteness               = metricreg.MetricTSCompleteness
	MetricTSAnswerRelevancy            = metricreg.MetricTSAnswerRelevancy
	MetricResponseRelevancy            = metricreg.MetricResponseRelevancy
	MetricFaithfulness                 = metricreg.MetricFaithfulness
	MetricFactualCorrectness           = metricreg.MetricFactualCorrectness
	MetricFaithfulnessValidation       = metricreg.MetricFaithfulnessValidation
	MetricFactualCorrectnessValidation = metricreg.MetricFactualCorrectnessValidation
	MetricRagasFaithfulness            = metricreg.MetricRagasFaithfulness
	MetricContextPrecision             = metricreg.MetricContextPrecision
	MetricContextPrecisionAtK          = metricreg.MetricContextPrecisionAtK
	MetricContextRecall                = metricreg.MetricContextRecall
	MetricAnswerRelevance              = metricreg.MetricAnswerRelevance
	MetricRagasScore                   = metricreg.MetricRagasScore
	MetricFactualAccuracy              = metricreg.MetricFactualAccuracy
	MetricSemanticSimilarity           = metricreg.MetricSemanticSimilarity
	MetricBERTScoreF1                  = metricreg.MetricBERTScoreF1
	MetricAnswerClass                  = metricreg.MetricAnswerClass
	MetricKPrecision                   = metricreg.MetricKPrecision
	HigherIsBetter                     = metricreg.HigherIsBetter
	LowerIsBetter                      = metricreg.LowerIsBetter
	TypeFaithfulness                   = metricreg.TypeFaithfulness
	TypeRelevance                      = metricreg.TypeRelevance
	TypeReference                      = metricreg.TypeReference
	TypeNoAnswer                       = metricreg.TypeNoAnswer
	TypeOther                          = metricreg.TypeOther
	TypeUnclassified                   = metricreg.TypeUnclassified
)

// The registry's types.
type (
	Direction  = metricreg.Direction
	MetricInfo = metricreg.MetricInfo
	Validity   = metricreg.Validity
)

// The registry's name lists (KGMetricNames in display order, KGJSONNames in
// a KGResult's JSON order) and its functions.
var (
	TSAggregates       = metricreg.TSAggregates
	KGMetricNames      = metricreg.KGMetricNames
	KGJSONNames        = metricreg.KGJSONNames
	EncoderMetricNames = metricreg.EncoderMetricNames
	Registry           = metricreg.Registry
	LookupMetric       = metricreg.LookupMetric
	MetricFamily       = metricreg.MetricFamily
	GraphMetric        = metricreg.GraphMetric
	IsLowerBetter      = metricreg.IsLowerBetter
	MetricLess         = metricreg.MetricLess
	ExpandMetrics      = metricreg.ExpandMetrics
	KnownMetrics       = metricreg.KnownMetrics
	MetricRange        = metricreg.MetricRange
	ValidityOf         = metricreg.ValidityOf
)
