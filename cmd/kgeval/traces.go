package main

import (
	"fmt"
	"io"
	"os"

	"github.com/kgeval/kgeval"
	"github.com/kgeval/kgeval/dataset"
	"github.com/kgeval/kgeval/render"
	"github.com/kgeval/kgeval/traces"
	"github.com/spf13/cobra"
)

// importTracesCommand turns recorded spans into a dataset (package traces):
// one sample per trace, JSONL as `kgeval evaluate --dataset` reads it.
func (m *Main) importTracesCommand() *cobra.Command {
	var out, system string
	c := &cobra.Command{
		Use:   "import-traces FILE [--out FILE] [--system NAME]",
		Short: "Turn OpenInference spans (OTLP JSON or a Phoenix span export) into samples, one per trace (JSONL)",
		Long:  help("import-traces"),
		Example: `  kgeval import-traces spans.json --out samples.jsonl && kgeval evaluate --dataset samples.jsonl
  kgeval import-traces phoenix-spans.jsonl --system my-rag-v2 --out samples.jsonl`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			b, err := m.traceSamples(args[0], system)
			if err != nil {
				return err
			}
			return render.WriteTo(m.Stdout, out, "--out", func(w io.Writer) error {
				_, err := w.Write(b)
				return err
			})
		},
	}
	c.Flags().StringVar(&out, "out", "", "write the samples to this file (default: standard output)")
	c.Flags().StringVar(&system, "system", "", "the samples' system (default: each trace's service.name)")
	return c
}

// traceSamples reads the spans of path (package traces) and returns their
// samples as JSONL, one per trace, with system when it is set; each trace
// rejected and the count go to standard error. Errors: EINVALID for a file
// that cannot be read or gives no sample.
func (m *Main) traceSamples(path, system string) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, kgeval.Wrap(kgeval.EINVALID, err, "import-traces %s", path)
	}
	defer f.Close()
	spans, format, err := traces.Read(f)
	if err != nil {
		return nil, kgeval.Wrap(kgeval.ErrorCode(err), err, "import-traces %s", path)
	}
	samples, rejected := traces.Samples(spans, traces.Options{System: system})
	for _, r := range rejected {
		fmt.Fprintf(m.Stderr, "import-traces: trace %d rejected: %s\n", r.Record, r.Reason)
	}
	fmt.Fprintf(m.Stderr, "import-traces: %s, %d spans in %d traces: %d samples, %d rejected\n",
		format, len(spans), len(samples)+len(rejected), len(samples), len(rejected))
	if len(samples) == 0 {
		return nil, kgeval.Errorf(kgeval.EINVALID, "import-traces %s: no trace gave a sample (see the rejections above)", path)
	}
	return dataset.EncodeJSONL(samples)
}
