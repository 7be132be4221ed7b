package minilm

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Benchmarks embed the label set of testdata/bench_labels.txt in calls of 1,
// 32 and 256 labels, the same work scripts/bench_minilm_st.py measures for
// sentence-transformers, and report labels/s.

func benchLabels(b *testing.B) []string {
	b.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", "bench_labels.txt"))
	if err != nil {
		b.Fatal(err)
	}
	var labels []string
	for _, l := range strings.Split(string(data), "\n") {
		if strings.TrimSpace(l) != "" {
			labels = append(labels, l)
		}
	}
	return labels
}

func benchEmbed(b *testing.B, batch int) {
	m := loadTestModel(b)
	labels := benchLabels(b)
	// Warm up (workspace allocation, page faults).
	if _, err := m.Embed(context.Background(), labels[:batch]); err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	n, pos := 0, 0
	for i := 0; i < b.N; i++ {
		if pos+batch > len(labels) {
			pos = 0
		}
		if _, err := m.Embed(context.Background(), labels[pos:pos+batch]); err != nil {
			b.Fatal(err)
		}
		pos += batch
		n += batch
	}
	b.ReportMetric(float64(n)/b.Elapsed().Seconds(), "labels/s")
}

func BenchmarkEmbed_Batch1(b *testing.B)   { benchEmbed(b, 1) }
func BenchmarkEmbed_Batch32(b *testing.B)  { benchEmbed(b, 32) }
func BenchmarkEmbed_Batch256(b *testing.B) { benchEmbed(b, 256) }

func BenchmarkEmbedTokens_Batch32(b *testing.B) {
	m := loadTestModel(b)
	labels := benchLabels(b)
	b.ResetTimer()
	n, pos := 0, 0
	for i := 0; i < b.N; i++ {
		if pos+32 > len(labels) {
			pos = 0
		}
		if _, err := m.EmbedTokens(context.Background(), labels[pos:pos+32]); err != nil {
			b.Fatal(err)
		}
		pos += 32
		n += 32
	}
	b.ReportMetric(float64(n)/b.Elapsed().Seconds(), "labels/s")
}
