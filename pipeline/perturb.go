package pipeline

import (
	"math/rand/v2"
	"strings"

	"github.com/kgeval/kgeval"
	"github.com/kgeval/kgeval/analysis"
)

// The sensitivity experiment's perturbations (SPEC §7): the samples with a
// reference, and the two answer variants scored against the original, the
// reference as the answer and another question's answer. They belong to the
// use case that evaluates them (Sensitivity); analysis reads the runs.

// WithReference returns the samples that have a non-blank reference and
// how many were dropped for lacking one.
func WithReference(samples []kgeval.Sample) (kept []kgeval.Sample, dropped int) {
	for _, s := range samples {
		if strings.TrimSpace(s.Reference) == "" {
			dropped++
			continue
		}
		kept = append(kept, s)
	}
	return kept, dropped
}

// ReferenceAsAnswer returns copies of samples (each with a reference) whose
// answer is their reference, system "reference_as_answer" and no human
// labels (they judged the original answer); metadata.answer_from is
// "reference". Pre-extracted reference
// triplets become the answer triplets; without them the answer triplets are
// "not provided" and will be extracted, never the original answer's.
func ReferenceAsAnswer(samples []kgeval.Sample) []kgeval.Sample {
	out := make([]kgeval.Sample, len(samples))
	for i, s := range samples {
		c := variantCopy(s, analysis.VariantReferenceAsAnswer)
		c.Answer = s.Reference
		c.Metadata["answer_from"] = "reference"
		if c.Triplets != nil {
			c.Triplets.Answer = cloneTriplets(s.Triplets.Reference)
		}
		out[i] = c
	}
	return out
}

// WrongAnswer returns copies of samples whose answer is the answer of
// samples[p[i]] for the seeded derangement p of Derangement (no sample keeps
// its own answer text or gets an answer to its own question), with system
// "wrong_answer", no human labels and metadata.answer_from the id of the
// sample whose answer it got. The answer's pre-extracted triplets
// move with it. It returns the permutation too. Errors: EINVALID when no
// such derangement exists (fewer than 2 samples, or every sample has the
// same question).
func WrongAnswer(samples []kgeval.Sample, seed uint64) ([]kgeval.Sample, []int, error) {
	p, err := Derangement(len(samples), func(i, j int) bool {
		return samples[i].Question == samples[j].Question || samples[i].Answer == samples[j].Answer
	}, seed)
	if err != nil {
		return nil, nil, err
	}
	out := make([]kgeval.Sample, len(samples))
	for i, s := range samples {
		c := variantCopy(s, analysis.VariantWrongAnswer)
		donor := samples[p[i]]
		c.Answer = donor.Answer
		c.Metadata["answer_from"] = donor.ID
		var moved []kgeval.Triplet
		if donor.Triplets != nil {
			moved = cloneTriplets(donor.Triplets.Answer)
		}
		switch {
		case c.Triplets != nil:
			c.Triplets.Answer = moved
		case moved != nil:
			c.Triplets = &kgeval.SampleTriplets{Answer: moved}
		}
		out[i] = c
	}
	return out, p, nil
}

func variantCopy(s kgeval.Sample, system string) kgeval.Sample {
	c := s
	c.System = system
	c.Human = nil
	c.Contexts = append([]string(nil), s.Contexts...)
	c.Metadata = map[string]any{}
	for k, v := range s.Metadata {
		c.Metadata[k] = v
	}
	if s.Triplets != nil {
		t := *s.Triplets
		t.Question = cloneTriplets(s.Triplets.Question)
		t.Reference = cloneTriplets(s.Triplets.Reference)
		if s.Triplets.Contexts != nil {
			t.Contexts = make([][]kgeval.Triplet, len(s.Triplets.Contexts))
			for i, p := range s.Triplets.Contexts {
				t.Contexts[i] = cloneTriplets(p)
			}
		}
		c.Triplets = &t
	}
	return c
}

// cloneTriplets copies a triplet list, keeping nil ("not provided") and
// empty ("provided, none") apart.
func cloneTriplets(t []kgeval.Triplet) []kgeval.Triplet {
	if t == nil {
		return nil
	}
	return append(make([]kgeval.Triplet, 0, len(t)), t...)
}

// Derangement returns a permutation p of 0..n−1 with p[i] ≠ i and
// !conflict(i, p[i]) for every i, drawn from a PCG generator seeded with
// seed: a random shuffle whose violations are repaired by swapping with a
// partner for which both swapped places are valid, the partners tried from a
// random start. The same n, conflict and seed give the same permutation.
// Errors: EINVALID when n < 2 or no valid permutation is found.
func Derangement(n int, conflict func(i, j int) bool, seed uint64) ([]int, error) {
	if n < 2 {
		return nil, kgeval.Errorf(kgeval.EINVALID, "a derangement needs at least 2 samples, got %d", n)
	}
	valid := func(i, j int) bool { return i != j && (conflict == nil || !conflict(i, j)) }
	rng := rand.New(rand.NewPCG(seed, 0x9e3779b97f4a7c15))
	p := rng.Perm(n)
	for pass := 0; pass < 20; pass++ {
		bad := 0
		for i := 0; i < n; i++ {
			if valid(i, p[i]) {
				continue
			}
			bad++
			start := rng.IntN(n)
			for k := 0; k < n; k++ {
				j := (start + k) % n
				if j != i && valid(i, p[j]) && valid(j, p[i]) {
					p[i], p[j] = p[j], p[i]
					break
				}
			}
		}
		if bad == 0 {
			return p, nil
		}
	}
	for i := range p {
		if !valid(i, p[i]) {
			return nil, kgeval.Errorf(kgeval.EINVALID, "no derangement of %d samples in which every sample gets another question's answer (do they all share one question?)", n)
		}
	}
	return p, nil
}
