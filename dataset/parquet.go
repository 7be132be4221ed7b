package dataset

import (
	"errors"
	"fmt"
	"io"

	"github.com/parquet-go/parquet-go"
)

// readParquet reads a Parquet file whose columns are the dataset's fields
// (contexts as a list of strings or a JSON string).
func readParquet(f io.ReaderAt, size int64, opt Options) (res *Result, err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("parquet: %v", p)
		}
	}()
	pf, err := parquet.OpenFile(f, size)
	if err != nil {
		return nil, err
	}
	r := parquet.NewReader(pf)
	defer r.Close()
	v := newValidator(opt)
	for rec := 1; ; rec++ {
		m := map[string]any{}
		err := r.Read(&m)
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			v.reject(rec, "", "unreadable Parquet row: "+err.Error())
			break
		}
		v.add(rec, parquetValues(m).(map[string]any))
	}
	return &Result{Format: FormatParquet, Samples: v.samples, Rejected: v.rejected}, nil
}

// parquetValues converts the Go values the Parquet reader produces into the
// shapes JSON decoding produces ([]any, map[string]any, string, float64).
func parquetValues(x any) any {
	switch t := x.(type) {
	case map[string]any:
		for k, v := range t {
			t[k] = parquetValues(v)
		}
		return t
	case []any:
		for i, v := range t {
			t[i] = parquetValues(v)
		}
		return t
	case []string:
		out := make([]any, len(t))
		for i, s := range t {
			out[i] = s
		}
		return out
	case []byte:
		return string(t)
	case int32:
		return float64(t)
	case int64:
		return float64(t)
	case float32:
		return float64(t)
	}
	return x
}
