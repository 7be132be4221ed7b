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
			f, err := os.Open(args[0])
			if err != nil {
				return kgeval.Wrap(kgeval.EINVALID, err, "import-traces %s", args[0])
			}
			defer f.Close()
			spans, format, err := traces.Read(f)
			if err != nil {
				return kgeval.Wrap(kgeval.ErrorCode(err), err, "import-traces %s", args[0])
			}
			samples, rejected := traces.Samples(spans, traces.Options{System: system})
			for _, r := range rejected {
				fmt.Fprintf(m.Stderr, "import-traces: trace %d rejected: %s\n", r.Record, r.Reason)
			}
			fmt.Fprintf(m.Stderr, "import-traces: %s, %d spans in %d traces: %d samples, %d rejected\n",
				format, len(spans), len(samples)+len(rejected), len(samples), len(rejected))
			if len(samples) == 0 {
				return kgeval.Errorf(kgeval.EINVALID, "import-traces %s: no trace gave a sample (see the rejections above)", args[0])
			}
			b, err := dataset.EncodeJSONL(samples)
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
