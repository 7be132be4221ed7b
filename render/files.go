package render

import (
	"fmt"
	"io"
	"os"

	"github.com/kgeval/kgeval"
)

// Output is a file a command writes when its flag (--json, --plot...) is
// set: Path is the flag's value, Flag its name for error messages.
type Output struct {
	Path, Flag string
	Write      func(io.Writer) error
}

// WriteFiles writes each output whose path is set, in order. A file that
// cannot be created is an EINVALID error naming its flag.
func WriteFiles(outs ...Output) error {
	for _, o := range outs {
		if o.Path == "" {
			continue
		}
		if err := writeFile(o.Path, o.Flag, o.Write); err != nil {
			return err
		}
	}
	return nil
}

// WriteTo writes to path (named by flag in errors), or to stdout when path
// is empty.
func WriteTo(stdout io.Writer, path, flag string, fn func(io.Writer) error) error {
	if path == "" {
		return fn(stdout)
	}
	return writeFile(path, flag, fn)
}

func writeFile(path, flag string, fn func(io.Writer) error) error {
	f, err := os.Create(path)
	if err != nil {
		return kgeval.Wrap(kgeval.EINVALID, err, "%s %s", flag, path)
	}
	if err := fn(f); err != nil {
		f.Close()
		return fmt.Errorf("%s %s: %w", flag, path, err)
	}
	return f.Close()
}

// File is the Output of flag, written to path by write.
func File(path, flag string, write func(io.Writer) error) Output {
	return Output{Path: path, Flag: flag, Write: write}
}
