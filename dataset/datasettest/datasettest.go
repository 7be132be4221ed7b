// Package datasettest builds hostile dataset files for
// tests: a Parquet decompression bomb, a footer that states more bytes
// than its file holds, pages whose counts make the Parquet reader allocate
// gigabytes, and a JSONL of many tiny bad records. They are built in
// memory in milliseconds, so a test makes them itself rather than keeping
// them in testdata.
package datasettest

import (
	"bytes"
	"encoding/binary"
	"io"
	"strings"

	"github.com/parquet-go/parquet-go/encoding/thrift"
	"github.com/parquet-go/parquet-go/format"
)

// Page is one page of a hand-built column chunk: its header (sizes are
// filled in by File when zero) and its data as stored.
type Page struct {
	Header format.PageHeader
	Data   []byte
}

// File returns a Parquet file of one column, col (a leaf under the root),
// of rows rows, compressed with codec, holding pages. A page header's
// CompressedPageSize is set to its data's length, and its
// UncompressedPageSize too when zero.
func File(col format.SchemaElement, codec format.CompressionCodec, rows int64, pages ...Page) []byte {
	var chunk []byte
	var unpacked int64
	for _, p := range pages {
		h := p.Header
		h.CompressedPageSize = int32(len(p.Data))
		if h.UncompressedPageSize == 0 {
			h.UncompressedPageSize = int32(len(p.Data))
		}
		hb := mustMarshal(&h)
		chunk = append(append(chunk, hb...), p.Data...)
		unpacked += int64(len(hb)) + int64(h.UncompressedPageSize)
	}
	md := format.FileMetaData{
		Version: 1,
		Schema:  thrift.Slice[format.SchemaElement]{{Name: "schema", NumChildren: thrift.New[int32](1)}, col},
		NumRows: rows,
		RowGroups: thrift.Slice[format.RowGroup]{{
			Columns: thrift.Slice[format.ColumnChunk]{{FileOffset: 4, MetaData: format.ColumnMetaData{
				Type: col.Type.V, Encoding: thrift.Slice[format.Encoding]{format.Plain, format.RLE}, PathInSchema: thrift.Slice[string]{col.Name},
				Codec: codec, NumValues: rows, TotalUncompressedSize: unpacked, TotalCompressedSize: int64(len(chunk)), DataPageOffset: 4,
			}}},
			TotalByteSize: unpacked, NumRows: rows,
		}},
		CreatedBy: "kgeval datasettest",
	}
	var b bytes.Buffer
	b.WriteString("PAR1")
	b.Write(chunk)
	footer := mustMarshal(&md)
	b.Write(footer)
	b.Write(binary.LittleEndian.AppendUint32(nil, uint32(len(footer))))
	b.WriteString("PAR1")
	return b.Bytes()
}

// Question is the schema element of a required string column question.
var Question = format.SchemaElement{Name: "question", Type: thrift.New(format.ByteArray), RepetitionType: thrift.New(format.Required),
	LogicalType: format.LogicalType{Value: &format.StringType{}}}

// dataPage is the header of a v1 data page of values values in encoding.
func dataPage(values int32, encoding format.Encoding) format.PageHeader {
	return format.PageHeader{Type: format.DataPage, DataPageHeader: thrift.New(format.DataPageHeader{
		NumValues: values, Encoding: encoding, DefinitionLevelEncoding: format.RLE, RepetitionLevelEncoding: format.RLE})}
}

// ParquetBomb returns a Parquet file of one row whose question is a string
// of n bytes 'a', compressed with ZSTD into a frame of RLE blocks: about
// n/32,768 bytes for the whole file (a 512 MiB question makes a file of
// some 16 KiB, like the 17 KB bomb first reported). Its page header and
// footer state the sizes honestly; with lie set, they claim a 100-byte page
// instead, so that only the compressed data tells. n must be below 2 GiB.
func ParquetBomb(n int64, lie bool) []byte {
	length := binary.LittleEndian.AppendUint32(nil, uint32(n)) // PLAIN: the length, then the bytes
	h := dataPage(1, format.Plain)
	h.UncompressedPageSize = int32(4 + n)
	if lie {
		h.UncompressedPageSize = 100
	}
	return File(Question, format.Zstd, 1, Page{h, zstdRLE(length, 'a', n)})
}

// zstdRLE returns one zstd frame (RFC 8878) that decodes to prefix followed
// by n bytes c: a raw block for prefix, then RLE blocks of 128 KiB, each 4
// bytes long. The frame states its content size, as zstd encoders do.
func zstdRLE(prefix []byte, c byte, n int64) []byte {
	const block = 128 << 10
	b := binary.LittleEndian.AppendUint32(nil, 0xFD2FB528)
	b = append(b, 0xC0, 0x38) // an 8-byte content size, not single segment; a 128 KiB window
	b = binary.LittleEndian.AppendUint64(b, uint64(int64(len(prefix))+n))
	last := func(done bool) uint32 {
		if done {
			return 1
		}
		return 0
	}
	h := uint32(len(prefix))<<3 | last(n == 0) // a raw block
	b = append(b, byte(h), byte(h>>8), byte(h>>16))
	b = append(b, prefix...)
	for n > 0 {
		size := min(n, block)
		n -= size
		h := uint32(size)<<3 | 1<<1 | last(n == 0) // an RLE block
		b = append(b, byte(h), byte(h>>8), byte(h>>16), c)
	}
	return b
}

// LevelsBomb returns an uncompressed Parquet file of one row of an
// optional string column question whose page of one value holds a
// definition-level run of 2^31-1 levels in six bytes: the reader makes a
// buffer of that many bytes for the levels before it reads the value.
func LevelsBomb() []byte {
	col := Question
	col.RepetitionType = thrift.New(format.Optional)
	run := binary.AppendUvarint(nil, (1<<31-1)<<1) // an RLE run of 2^31-1 ...
	run = append(run, 1)                           // ... levels 1 (defined)
	data := binary.LittleEndian.AppendUint32(nil, uint32(len(run)))
	data = append(data, run...)
	data = binary.LittleEndian.AppendUint32(data, 1)
	data = append(data, 'a')
	return File(col, format.Uncompressed, 1, Page{Header: dataPage(1, format.Plain), Data: data})
}

// IndexBomb returns an uncompressed Parquet file of one row of question,
// dictionary-encoded: a dictionary of one value and a data page of one
// value whose index run counts 2^31-1 indexes in six bytes.
func IndexBomb() []byte {
	dict := format.PageHeader{Type: format.DictionaryPage, DictionaryPageHeader: thrift.New(format.DictionaryPageHeader{NumValues: 1, Encoding: format.Plain})}
	entry := append(binary.LittleEndian.AppendUint32(nil, 1), 'a')
	data := append([]byte{1}, binary.AppendUvarint(nil, (1<<31-1)<<1)...) // bit width 1, an RLE run ...
	data = append(data, 0)                                                // ... of index 0
	return File(Question, format.Uncompressed, 1, Page{Header: dict, Data: entry}, Page{Header: dataPage(1, format.RLEDictionary), Data: data})
}

// DeltaBomb returns an uncompressed Parquet file of one row of question in
// DELTA_LENGTH_BYTE_ARRAY whose length header counts 2^31-1 lengths: the
// reader allocates 4 bytes for each before it reads them.
func DeltaBomb() []byte {
	var data []byte
	for _, u := range []uint64{128, 4, 1<<31 - 1, 2} { // block size, miniblocks, value count, first value (zigzag 1)
		data = binary.AppendUvarint(data, u)
	}
	data = append(data, 0, 0, 0, 0, 0, 'a') // min delta 0, bit widths 0: no more lengths; the value
	return File(Question, format.Uncompressed, 1, Page{Header: dataPage(1, format.DeltaLengthByteArray), Data: data})
}

func mustMarshal(v any) []byte {
	b, err := thrift.Marshal(new(thrift.CompactProtocol), v)
	if err != nil {
		panic(err)
	}
	return b
}

// FooterBomb returns a 28-byte file whose footer lies: Parquet magic at
// both ends and a footer length of 0x7fffffff, which the Parquet reader
// used to allocate (2 GiB) before comparing it with the file's size.
func FooterBomb() []byte {
	b := []byte("PAR1")
	b = append(b, make([]byte, 16)...)
	b = binary.LittleEndian.AppendUint32(b, 0x7fffffff)
	return append(b, "PAR1"...)
}

// TinyBadRecords returns a reader of n lines "1" (each one a record
// rejected as not a JSON object), without holding them.
func TinyBadRecords(n int) io.Reader {
	const chunk = 1 << 16
	line := strings.Repeat("1\n", chunk)
	var rs []io.Reader
	for ; n >= chunk; n -= chunk {
		rs = append(rs, strings.NewReader(line))
	}
	rs = append(rs, strings.NewReader(line[:2*n]))
	return io.MultiReader(rs...)
}

// StructureBomb returns a JSONL file of one record whose metadata holds an
// array of n empty objects, {"metadata": {"x": [{}, {}, ...]}}: 3 bytes a
// value, and a Go map each once decoded (10.8 million of them, 31 MiB,
// cost about a gigabyte of server memory).
func StructureBomb(n int) io.Reader {
	return io.MultiReader(strings.NewReader(`{"question": "What is in the metadata?", "metadata": {"x": [{}`),
		strings.NewReader(strings.Repeat(`,{}`, n-1)), strings.NewReader("]}}\n"))
}
