package dataset

import (
	"bytes"
	"compress/gzip"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math/bits"

	"github.com/kgeval/kgeval"
	"github.com/klauspost/compress/zstd"
	"github.com/parquet-go/parquet-go"
	"github.com/parquet-go/parquet-go/encoding/thrift"
	"github.com/parquet-go/parquet-go/format"
)

// readParquet reads a Parquet file whose columns are the dataset's fields
// (contexts as a list of strings or a JSON string). checkParquet reads the
// footer and every page header first and refuses the file before the
// Parquet reader allocates or decompresses anything over opt's limits;
// then each row's values are counted against dataset.max_decoded_bytes
// before the row becomes a record.
func readParquet(f io.ReaderAt, size int64, opt Options) (res *Result, err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("parquet: %v", p)
		}
	}()
	if err := checkParquet(f, size, opt); err != nil {
		return nil, err
	}
	pf, err := parquet.OpenFile(f, size, parquet.SkipPageIndex(true), parquet.SkipBloomFilters(true))
	if err != nil {
		return nil, err
	}
	r := parquet.NewReader(pf)
	defer r.Close()
	v := newValidator(opt)
	rows := make([]parquet.Row, 1)
	for rec := 1; v.err == nil; rec++ {
		n, err := r.ReadRows(rows)
		if n == 0 {
			if err != nil && !errors.Is(err, io.EOF) {
				v.reject(rec, "", "unreadable Parquet row: "+err.Error())
			}
			break
		}
		if !v.decode(valueBytes(rows[0]), "its rows hold") {
			break
		}
		if reason, ok := v.leaves(rec, len(rows[0])); !ok {
			if reason != "" {
				v.reject(rec, "", reason)
			}
			continue
		}
		m := map[string]any{}
		if err := r.Schema().Reconstruct(&m, rows[0]); err != nil {
			v.reject(rec, "", "unreadable Parquet row: "+err.Error())
			break
		}
		v.add(rec, parquetValues(m).(map[string]any))
	}
	if v.err != nil {
		return nil, v.err
	}
	return v.result(FormatParquet), nil
}

// valueBytes is what a row's values hold: their bytes for strings, 8 for
// any other value. A dictionary-encoded page repeats one stored value
// many times, so a row can hold far more than its pages decompress to.
func valueBytes(row parquet.Row) int64 {
	var n int64
	for _, v := range row {
		switch {
		case v.IsNull():
		case v.Kind() == parquet.ByteArray || v.Kind() == parquet.FixedLenByteArray:
			n += int64(len(v.ByteArray()))
		default:
			n += 8
		}
	}
	return n
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

// ValueCost is the least one Parquet value costs the reader to decode, in
// bytes (its parquet.Value, offset and levels): a file may hold at most
// Options.MaxDecodedBytes / ValueCost values, nulls included.
const ValueCost = 32

// Bounds of a Parquet file's structure, whatever the limits: what the
// reader would allocate from the footer and the page headers before it can
// tell that they lie.
const (
	maxFooterBytes    = 64 << 20 // the footer's length
	maxFooterCost     = 64 << 20 // what decoding it may allocate (thriftWalk.cost)
	maxPageHeader     = 16 << 20 // one page header's length (statistics may hold two values)
	maxSchemaElements = 10000
	maxSchemaDepth    = 32
	maxThriftDepth    = 64
)

func parquetInvalid(format string, args ...any) error {
	return kgeval.Errorf(kgeval.EINVALID, format, args...)
}

// checkParquet checks the file's magic, that its footer length fits in the
// file, the footer's Thrift encoding (every length within the footer: the
// decoder allocates what a length says before reading it) and its
// metadata, then every page header of every column chunk, against opt:
// rows over dataset.max_records, pages that decompress (by their headers
// and by the compressed data itself) to more than
// dataset.max_decoded_bytes, or hold more than MaxDecodedBytes/ValueCost
// values, are refused before any page is decompressed. Compression must be
// none, SNAPPY, GZIP or ZSTD (LZ4 and BROTLI are not read: the reader's LZ4
// doubles its buffer until a corrupt page fits), value encodings PLAIN,
// RLE, dictionary, DELTA_BINARY_PACKED or BYTE_STREAM_SPLIT (the delta byte
// array encodings are not read: their values can repeat a prefix without
// bound). Errors: EINVALID, ETOOLARGE.
func checkParquet(f io.ReaderAt, size int64, opt Options) error {
	if size < 12 {
		return parquetInvalid("%d bytes: too short for a Parquet file", size)
	}
	var head [4]byte
	if _, err := f.ReadAt(head[:], 0); err != nil {
		return err
	}
	if string(head[:]) != "PAR1" {
		return parquetInvalid("no Parquet magic (PAR1) at the start")
	}
	var tail [8]byte
	if _, err := f.ReadAt(tail[:], size-8); err != nil {
		return err
	}
	switch string(tail[4:]) {
	case "PAR1":
	case "PARE":
		return parquetInvalid("encrypted Parquet files are not read")
	default:
		return parquetInvalid("no Parquet magic (PAR1) at the end")
	}
	footerLen := int64(binary.LittleEndian.Uint32(tail[:4]))
	if footerLen > size-12 {
		return parquetInvalid("footer length %s over the file's %s bytes", thousands(footerLen), thousands(size))
	}
	if footerLen > maxFooterBytes {
		return kgeval.Errorf(kgeval.ETOOLARGE, "footer of %s bytes, more than the %s read", thousands(footerLen), thousands(maxFooterBytes))
	}
	footer := make([]byte, footerLen)
	if _, err := f.ReadAt(footer, size-8-footerLen); err != nil {
		return err
	}
	w := thriftWalk{b: footer}
	if err := w.structure(0); err != nil {
		return parquetInvalid("footer: %v", err)
	}
	if w.off != len(footer) {
		return parquetInvalid("footer: %d bytes after its metadata (signed footers are not read)", len(footer)-w.off)
	}
	if w.cost > maxFooterCost {
		return kgeval.Errorf(kgeval.ETOOLARGE, "footer lists too much: decoding it would take about %s bytes, more than %s", thousands(w.cost), thousands(maxFooterCost))
	}
	var md format.FileMetaData
	if err := thrift.Unmarshal(new(thrift.CompactProtocol), footer, &md); err != nil {
		return parquetInvalid("footer: %v", err)
	}
	return checkMetadata(f, size-8-footerLen, &md, opt)
}

// checkMetadata checks the decoded footer md of a file whose pages end at
// dataEnd, then each column chunk's pages (pageCheck).
func checkMetadata(f io.ReaderAt, dataEnd int64, md *format.FileMetaData, opt Options) error {
	if md.EncryptionAlgorithm.Value != nil || len(md.FooterSigningKeyMetadata) > 0 {
		return parquetInvalid("encrypted Parquet files are not read")
	}
	leaves, err := schemaLeaves(md.Schema)
	if err != nil {
		return err
	}
	if md.NumRows < 0 {
		return parquetInvalid("footer: %d rows", md.NumRows)
	}
	var rows, unpacked int64
	for i, rg := range md.RowGroups {
		if rg.NumRows < 0 {
			return parquetInvalid("row group %d: %d rows", i, rg.NumRows)
		}
		rows += rg.NumRows
		if len(rg.Columns) != len(leaves) {
			return parquetInvalid("row group %d: %d column chunks for %d columns", i, len(rg.Columns), len(leaves))
		}
		for j, cc := range rg.Columns {
			m := &cc.MetaData
			col := leaves[j]
			if cc.FilePath != "" {
				return parquetInvalid("column %s: its data is in another file (%q)", col, cc.FilePath)
			}
			if cc.CryptoMetadata.Value != nil || len(cc.EncryptedColumnMetadata) > 0 {
				return parquetInvalid("encrypted Parquet files are not read")
			}
			switch m.Codec {
			case format.Uncompressed, format.Snappy, format.Gzip, format.Zstd:
			default:
				return parquetInvalid("column %s: compression %s is not read (use ZSTD, SNAPPY, GZIP or none)", col, m.Codec)
			}
			base := m.DataPageOffset
			if m.DictionaryPageOffset != 0 {
				base = m.DictionaryPageOffset
			}
			if base < 4 || base > dataEnd || m.TotalCompressedSize < 0 || m.TotalCompressedSize > dataEnd-base {
				return parquetInvalid("column %s: chunk of %s bytes at byte %s, outside the file's %s bytes of data", col, thousands(m.TotalCompressedSize), thousands(base), thousands(dataEnd))
			}
			if m.TotalUncompressedSize < 0 {
				return parquetInvalid("column %s: %d bytes uncompressed", col, m.TotalUncompressedSize)
			}
			unpacked = min(unpacked+min(m.TotalUncompressedSize, 1<<53), 1<<60)
		}
	}
	if opt.MaxRecords > 0 && max(rows, md.NumRows) > int64(opt.MaxRecords) {
		return kgeval.Errorf(kgeval.ETOOLARGE, "%s rows, more than %s records (dataset.max_records); refused by its footer, before reading them",
			thousands(max(rows, md.NumRows)), thousands(int64(opt.MaxRecords)))
	}
	if opt.MaxDecodedBytes > 0 && unpacked > opt.MaxDecodedBytes {
		return kgeval.Errorf(kgeval.ETOOLARGE, "its column chunks decompress to %s bytes by its footer, more than %s (dataset.max_decoded_bytes); refused before decompressing them",
			thousands(unpacked), thousands(opt.MaxDecodedBytes))
	}
	p := pageCheck{f: f, opt: opt}
	defer func() {
		if p.zstdDec != nil {
			p.zstdDec.Close()
		}
	}()
	for _, rg := range md.RowGroups {
		for j, cc := range rg.Columns {
			m := &cc.MetaData
			base := m.DataPageOffset
			if m.DictionaryPageOffset != 0 {
				base = m.DictionaryPageOffset
			}
			if err := p.chunk(leaves[j], base, m.TotalCompressedSize, m.Codec); err != nil {
				return err
			}
		}
	}
	return nil
}

// leaf is a leaf column: its dotted path and its largest repetition and
// definition levels (the levels its pages hold).
type leaf struct {
	path           string
	maxRep, maxDef int
}

func (l leaf) String() string { return l.path }

// schemaLeaves returns the schema's leaf columns, in order (the order of a
// row group's column chunks), checking the tree: at most maxSchemaElements
// elements and maxSchemaDepth levels (the reader builds it recursively).
func schemaLeaves(schema []format.SchemaElement) ([]leaf, error) {
	if len(schema) == 0 {
		return nil, parquetInvalid("footer: no schema")
	}
	if len(schema) > maxSchemaElements {
		return nil, parquetInvalid("schema of %s elements, more than %s", thousands(int64(len(schema))), thousands(maxSchemaElements))
	}
	type level struct {
		left           int
		name           string
		maxRep, maxDef int
	}
	var leaves []leaf
	stack := []level{{left: 1}}
	for i, e := range schema {
		for len(stack) > 0 && stack[len(stack)-1].left == 0 {
			stack = stack[:len(stack)-1]
		}
		if len(stack) == 0 {
			return nil, parquetInvalid("schema: element %d is outside the tree", i)
		}
		parent := &stack[len(stack)-1]
		parent.left--
		name := e.Name
		if parent.name != "" {
			name = parent.name + "." + e.Name
		}
		rep, def := parent.maxRep, parent.maxDef
		switch {
		case i == 0:
			name = ""
		case e.RepetitionType.Valid && e.RepetitionType.V == format.Repeated:
			rep, def = rep+1, def+1
		case e.RepetitionType.Valid && e.RepetitionType.V == format.Optional:
			def++
		}
		children := 0
		if e.NumChildren.Valid {
			children = int(e.NumChildren.V)
		}
		switch {
		case children < 0 || children > len(schema):
			return nil, parquetInvalid("schema: element %q has %d children", e.Name, children)
		case children > 0:
			if len(stack) >= maxSchemaDepth {
				return nil, parquetInvalid("schema nested more than %d levels", maxSchemaDepth)
			}
			stack = append(stack, level{left: children, name: name, maxRep: rep, maxDef: def})
		case i > 0:
			leaves = append(leaves, leaf{path: name, maxRep: rep, maxDef: def})
		}
	}
	for _, l := range stack {
		if l.left != 0 {
			return nil, parquetInvalid("schema: %d elements missing", l.left)
		}
	}
	return leaves, nil
}

// pageCheck walks the pages of column chunks, counting what they
// decompress to and the values they hold against the limits.
type pageCheck struct {
	f        io.ReaderAt
	opt      Options
	unpacked int64 // bytes the pages decompress to
	values   int64
	zstdDec  *zstd.Decoder // zstdBound's, made at the first ZSTD page
}

// chunk checks the pages of the column chunk of col at base, length bytes.
func (p *pageCheck) chunk(col leaf, base, length int64, codec format.CompressionCodec) error {
	for pos, page := int64(0), 1; pos < length; page++ {
		h, n, err := p.header(base+pos, length-pos)
		if err != nil {
			return parquetInvalid("column %s, page %d: header: %v", col, page, err)
		}
		pos += n
		if h.CompressedPageSize < 0 || h.UncompressedPageSize < 0 || int64(h.CompressedPageSize) > length-pos {
			return parquetInvalid("column %s, page %d: %d bytes, %d uncompressed, past its column chunk", col, page, h.CompressedPageSize, h.UncompressedPageSize)
		}
		if err := p.page(fmt.Sprintf("column %s, page %d", col, page), col, h, base+pos, codec); err != nil {
			return err
		}
		pos += int64(h.CompressedPageSize)
	}
	return nil
}

// header reads the page header at off (room bytes left in its chunk),
// reading more of the file only as the header needs it.
func (p *pageCheck) header(off, room int64) (*format.PageHeader, int64, error) {
	for size := int64(4 << 10); ; size *= 16 {
		size = min(size, room, maxPageHeader)
		buf := make([]byte, size)
		if n, err := p.f.ReadAt(buf, off); n < len(buf) {
			return nil, 0, err
		}
		w := thriftWalk{b: buf}
		err := w.structure(0)
		if errors.Is(err, errThriftShort) {
			if size < min(room, maxPageHeader) {
				continue
			}
			if size == maxPageHeader {
				return nil, 0, fmt.Errorf("longer than %s bytes", thousands(maxPageHeader))
			}
		}
		if err != nil {
			return nil, 0, err
		}
		var h format.PageHeader
		if err := thrift.Unmarshal(new(thrift.CompactProtocol), buf[:w.off], &h); err != nil {
			return nil, 0, err
		}
		return &h, int64(w.off), nil
	}
}

// Encodings a page's values may have; levels are RLE or BIT_PACKED.
var valueEncodings = map[format.Encoding]bool{
	format.Plain: true, format.PlainDictionary: true, format.RLE: true, format.RLEDictionary: true,
	format.BitPacked: true, format.DeltaBinaryPacked: true, format.DeltaLengthByteArray: true, format.ByteStreamSplit: true,
}

// page checks one page of column col whose header is h and data at off:
// its type and encodings, its values, and what it decompresses to, by its
// header first and then by its compressed data (zstdBound, the snappy
// length, gzip decompressed into nothing), each against what is left of
// dataset.max_decoded_bytes. Then it decompresses the page, now known to
// be within the limit, and checks the counts inside it that the reader
// allocates by (pageCounts).
func (p *pageCheck) page(where string, col leaf, h *format.PageHeader, off int64, codec format.CompressionCodec) error {
	var values, levels int64
	compressed := codec != format.Uncompressed
	var encoding format.Encoding
	switch h.Type {
	case format.DataPage:
		if !h.DataPageHeader.Valid {
			return parquetInvalid("%s: data page without its header", where)
		}
		d := h.DataPageHeader.V
		values, encoding = int64(d.NumValues), d.Encoding
		for _, e := range []format.Encoding{d.DefinitionLevelEncoding, d.RepetitionLevelEncoding} {
			if e != format.RLE && e != format.BitPacked {
				return parquetInvalid("%s: level encoding %s is not read", where, e)
			}
		}
	case format.DataPageV2:
		if !h.DataPageHeaderV2.Valid {
			return parquetInvalid("%s: data page without its header", where)
		}
		d := h.DataPageHeaderV2.V
		values, encoding = int64(d.NumValues), d.Encoding
		levels = int64(d.DefinitionLevelsByteLength) + int64(d.RepetitionLevelsByteLength)
		if d.NumNulls < 0 || d.NumRows < 0 || d.DefinitionLevelsByteLength < 0 || d.RepetitionLevelsByteLength < 0 || levels > int64(h.CompressedPageSize) {
			return parquetInvalid("%s: bad data page header", where)
		}
		if d.IsCompressed.Valid && !d.IsCompressed.V {
			compressed = false
		}
	case format.DictionaryPage:
		if !h.DictionaryPageHeader.Valid {
			return parquetInvalid("%s: dictionary page without its header", where)
		}
		d := h.DictionaryPageHeader.V
		values, encoding = int64(d.NumValues), format.Plain
		if d.Encoding != format.Plain && d.Encoding != format.PlainDictionary {
			return parquetInvalid("%s: dictionary encoding %s is not read", where, d.Encoding)
		}
	default:
		return parquetInvalid("%s: page type %s is not read", where, h.Type)
	}
	if !valueEncodings[encoding] {
		return parquetInvalid("%s: encoding %s is not read (use PLAIN or dictionary encoding)", where, encoding)
	}
	if values < 0 {
		return parquetInvalid("%s: %d values", where, values)
	}
	p.values += values
	limit := p.opt.MaxDecodedBytes
	if limit > 0 && p.values > limit/ValueCost {
		return kgeval.Errorf(kgeval.ETOOLARGE, "%s: its pages hold more than %s values (dataset.max_decoded_bytes / %d: a value costs at least %d bytes to decode); refused before decompressing it",
			where, thousands(limit/ValueCost), ValueCost, ValueCost)
	}
	over := func(n int64, by string) error {
		return kgeval.Errorf(kgeval.ETOOLARGE, "%s decompresses to %s bytes by its %s, and the pages before it to %s: more than the %s bytes a dataset may expand to (dataset.max_decoded_bytes); refused before decompressing it",
			where, thousands(n), by, thousands(p.unpacked), thousands(limit))
	}
	claimed := int64(h.UncompressedPageSize)
	if limit > 0 && claimed > limit-p.unpacked {
		return over(claimed, "header")
	}
	raw := make([]byte, h.CompressedPageSize)
	if _, err := p.f.ReadAt(raw, off); err != nil {
		return err
	}
	body := raw[levels:]
	if compressed {
		n, err := p.expansion(body, codec, limit-p.unpacked-levels)
		if err != nil {
			return parquetInvalid("%s: %s data: %v", where, codec, err)
		}
		if limit > 0 && levels+n > limit-p.unpacked {
			return over(levels+n, "compressed data")
		}
		p.unpacked += max(claimed, levels+n)
		if body, err = parquet.LookupCompressionCodec(codec).Decode(make([]byte, n), body); err != nil {
			return parquetInvalid("%s: %s data: %v", where, codec, err)
		}
	} else {
		if limit > 0 && int64(len(raw)) > limit-p.unpacked {
			return over(int64(len(raw)), "data")
		}
		p.unpacked += max(claimed, int64(len(raw)))
	}
	if err := pageCounts(h, col, raw[:levels], body, values, encoding); err != nil {
		return parquetInvalid("%s: %v", where, err)
	}
	return nil
}

// pageCounts checks the counts inside a decompressed page that the reader
// allocates by before it reads what they count: the runs of its RLE
// levels, dictionary indexes and booleans, and the value count of a delta
// header, each within (about) the values its header states. levels holds
// the levels of a v2 page (a v1 page has them in body).
func pageCounts(h *format.PageHeader, col leaf, levels, body []byte, values int64, encoding format.Encoding) error {
	var err error
	switch h.Type {
	case format.DictionaryPage:
		return nil
	case format.DataPage:
		d := h.DataPageHeader.V
		if col.maxRep > 0 && d.RepetitionLevelEncoding == format.RLE {
			if body, err = rleLevelsV1(body, col.maxRep, values); err != nil {
				return fmt.Errorf("repetition levels: %v", err)
			}
		}
		if col.maxDef > 0 && d.DefinitionLevelEncoding == format.RLE {
			if body, err = rleLevelsV1(body, col.maxDef, values); err != nil {
				return fmt.Errorf("definition levels: %v", err)
			}
		}
	case format.DataPageV2:
		d := h.DataPageHeaderV2.V
		rep, def := levels[:d.RepetitionLevelsByteLength], levels[d.RepetitionLevelsByteLength:]
		if col.maxRep > 0 {
			if err := rleRuns(rep, bits.Len(uint(col.maxRep)), values); err != nil {
				return fmt.Errorf("repetition levels: %v", err)
			}
		}
		if col.maxDef > 0 {
			if err := rleRuns(def, bits.Len(uint(col.maxDef)), values); err != nil {
				return fmt.Errorf("definition levels: %v", err)
			}
		}
	}
	switch encoding {
	case format.PlainDictionary, format.RLEDictionary:
		if len(body) == 0 {
			return nil
		}
		if body[0] > 32 {
			return fmt.Errorf("dictionary indexes of %d bits", body[0])
		}
		if err := rleRuns(body[1:], int(body[0]), values); err != nil {
			return fmt.Errorf("dictionary indexes: %v", err)
		}
	case format.RLE: // booleans: a 4-byte length, then the runs
		if len(body) < 4 {
			return nil
		}
		n := int64(binary.LittleEndian.Uint32(body))
		if n > int64(len(body)-4) {
			return fmt.Errorf("booleans: %d bytes past the page", n)
		}
		if err := rleRuns(body[4:4+n], 1, values); err != nil {
			return fmt.Errorf("booleans: %v", err)
		}
	case format.DeltaBinaryPacked, format.DeltaLengthByteArray:
		// A header of block size, miniblocks per block and value count:
		// the reader allocates 4 bytes per counted value.
		rest := body
		var n uint64
		for range 3 {
			var k int
			if n, k = binary.Uvarint(rest); k <= 0 {
				return nil // the reader refuses it
			}
			rest = rest[k:]
		}
		if int64(min(n, 1<<53)) > values {
			return fmt.Errorf("a delta header of %s values in a page of %s", thousands(int64(min(n, 1<<53))), thousands(values))
		}
	}
	return nil
}

// rleLevelsV1 checks the RLE levels at the start of a v1 page body (a
// 4-byte length, then the runs) and returns what follows them.
func rleLevelsV1(body []byte, max int, values int64) ([]byte, error) {
	if len(body) < 4 {
		return body, nil // the reader refuses it
	}
	n := int64(binary.LittleEndian.Uint32(body))
	if n > int64(len(body)-4) {
		return nil, fmt.Errorf("%d bytes past the page", n)
	}
	return body[4+n:], rleRuns(body[4:4+n], bits.Len(uint(max)), values)
}

// rleRuns checks that the runs of an RLE/bit-packed hybrid stream of width
// bits hold about the values of their page, not more (a run header of six
// bytes may count 2^31); bit-packed runs come in groups of 8, hence the
// slack.
func rleRuns(src []byte, width int, values int64) error {
	most := 2*values + 1024
	var n int64
	for i := 0; i < len(src); {
		u, k := binary.Uvarint(src[i:])
		if k <= 0 {
			return nil // the reader refuses it
		}
		i += k
		count := int64(min(u>>1, 1<<40))
		if u&1 != 0 { // bit-packed: groups of 8 values
			count *= 8
			i += int((count*int64(width) + 7) / 8)
		} else {
			i += (width + 7) / 8
		}
		if n += count; n > most {
			return fmt.Errorf("runs of %s values or more in a page of %s", thousands(n), thousands(values))
		}
	}
	return nil
}

// expansion returns at least what data compressed with codec decompresses
// to, without holding it: a snappy block's length prefix, zstdBound, or
// the gzip stream decompressed into nothing (up to room+1 bytes when room
// is positive: more is over anyway).
func (p *pageCheck) expansion(data []byte, codec format.CompressionCodec, room int64) (int64, error) {
	switch codec {
	case format.Snappy:
		n, k := binary.Uvarint(data)
		if k <= 0 {
			return 0, fmt.Errorf("no length")
		}
		return int64(min(n, 1<<53)), nil
	case format.Zstd:
		return p.zstdBound(data, room)
	case format.Gzip:
		z, err := gzip.NewReader(bytes.NewReader(data))
		if err != nil {
			return 0, err
		}
		var r io.Reader = z
		if room > 0 {
			r = io.LimitReader(z, room+1)
		}
		return io.Copy(io.Discard, r)
	}
	return int64(len(data)), nil
}

// zstdBound returns what the zstd frames of data decode to, or more than
// room when that is over, with github.com/klauspost/compress/zstd (the
// decoder the Parquet reader uses). When the first frame's header
// (zstd.Header, after any skippable frames) states a content size over
// room, that size is the answer, and nothing is decoded: the reader's
// DecodeAll allocates a frame's stated size at once. Otherwise the frames
// are decoded into nothing, at most room+1 bytes of them when
// dataset.max_decoded_bytes is set, by p's streaming decoder (one
// goroutine, reused from page to page). Decoding is how it steps from one
// frame to the next (zstd.Header reads one frame's header; a frame's
// length is in its blocks), and it checks each frame against the size its
// header states (a frame that decodes to more or less is an error), so a
// count without an error is what the reader's DecodeAll will allocate.
// The decoder holds a frame's window, not its output, and its memory cap
// (WithDecoderMaxMemory) is dataset.max_decoded_bytes: a frame whose
// window or stated size is over it is over.
func (p *pageCheck) zstdBound(data []byte, room int64) (int64, error) {
	limit := p.opt.MaxDecodedBytes
	if limit > 0 {
		room = max(room, 0)
		var h zstd.Header
		for rest := data; h.Decode(rest) == nil; {
			if !h.Skippable {
				if h.HasFCS && h.FrameContentSize > uint64(room) {
					return int64(min(h.FrameContentSize, 1<<53)), nil
				}
				break
			}
			skip := uint64(h.HeaderSize) + uint64(h.SkippableSize)
			if skip > uint64(len(rest)) {
				break // the decoder reports it
			}
			rest = rest[skip:]
		}
	}
	if p.zstdDec == nil {
		opts := []zstd.DOption{zstd.WithDecoderConcurrency(1), zstd.WithDecoderLowmem(true)}
		if limit > 0 {
			opts = append(opts, zstd.WithDecoderMaxMemory(uint64(limit)))
		}
		d, err := zstd.NewReader(nil, opts...)
		if err != nil {
			return 0, err
		}
		p.zstdDec = d
	}
	// A *bytes.Reader: Reset would DecodeAll a *bytes.Buffer into memory.
	if err := p.zstdDec.Reset(bytes.NewReader(data)); err != nil {
		return 0, err
	}
	var r io.Reader = p.zstdDec
	if limit > 0 {
		r = io.LimitReader(p.zstdDec, room+1)
	}
	n, err := io.Copy(io.Discard, r)
	if limit > 0 && (errors.Is(err, zstd.ErrDecoderSizeExceeded) || errors.Is(err, zstd.ErrWindowSizeExceeded)) {
		return room + 1, nil
	}
	return n, err
}

// errThriftShort: the bytes end inside a value, or a length says more than
// is left.
var errThriftShort = errors.New("truncated, or a length past its end")

// thriftWalk checks Thrift compact-protocol bytes without decoding them:
// every length and list size within the bytes left (the decoder allocates
// what one says before it reads the bytes), nesting within maxThriftDepth,
// and cost, about what decoding them allocates.
type thriftWalk struct {
	b    []byte
	off  int
	cost int64
}

func (w *thriftWalk) byte() (byte, error) {
	if w.off >= len(w.b) {
		return 0, errThriftShort
	}
	w.off++
	return w.b[w.off-1], nil
}

func (w *thriftWalk) uvarint() (uint64, error) {
	n, k := binary.Uvarint(w.b[w.off:])
	if k <= 0 {
		return 0, errThriftShort
	}
	w.off += k
	return n, nil
}

func (w *thriftWalk) skip(n uint64) error {
	if n > uint64(len(w.b)-w.off) {
		return errThriftShort
	}
	w.off += int(n)
	return nil
}

// structure walks a struct: fields up to STOP.
func (w *thriftWalk) structure(depth int) error {
	if depth > maxThriftDepth {
		return fmt.Errorf("nested more than %d levels", maxThriftDepth)
	}
	for {
		h, err := w.byte()
		if err != nil {
			return err
		}
		if h == 0 { // STOP
			return nil
		}
		if h>>4 == 0 { // the field id follows
			if _, err := w.uvarint(); err != nil {
				return err
			}
		}
		if err := w.value(h&0x0F, depth, true); err != nil {
			return err
		}
	}
}

// elemCost is about what one decoded element of a list of type t takes
// (a struct: at most the size of parquet-go's largest format struct).
func elemCost(t byte) int64 {
	switch t {
	case 1, 2, 3:
		return 1
	case 4, 5, 6, 7:
		return 8
	case 12:
		return 1 << 10
	}
	return 48
}

func (w *thriftWalk) value(t byte, depth int, field bool) error {
	switch t {
	case 1, 2: // a bool: in a field the type holds it
		if field {
			return nil
		}
		return w.skip(1)
	case 3:
		return w.skip(1)
	case 4, 5, 6:
		_, err := w.uvarint()
		return err
	case 7:
		return w.skip(8)
	case 8:
		n, err := w.uvarint()
		if err != nil {
			return err
		}
		return w.skip(n)
	case 9, 10: // list, set
		h, err := w.byte()
		if err != nil {
			return err
		}
		n, et := uint64(h>>4), h&0x0F
		if n == 15 {
			if n, err = w.uvarint(); err != nil {
				return err
			}
		}
		if n > uint64(len(w.b)-w.off) { // every element takes a byte at least
			return errThriftShort
		}
		w.cost += int64(n) * elemCost(et)
		for range n {
			if err := w.value(et, depth+1, false); err != nil {
				return err
			}
		}
		return nil
	case 11: // map
		n, err := w.uvarint()
		if err != nil || n == 0 {
			return err
		}
		kv, err := w.byte()
		if err != nil {
			return err
		}
		if n > uint64(len(w.b)-w.off)/2 {
			return errThriftShort
		}
		w.cost += int64(n) * (elemCost(kv>>4) + elemCost(kv&0x0F) + 16)
		for range n {
			if err := w.value(kv>>4, depth+1, false); err != nil {
				return err
			}
			if err := w.value(kv&0x0F, depth+1, false); err != nil {
				return err
			}
		}
		return nil
	case 12:
		return w.structure(depth + 1)
	}
	return fmt.Errorf("unknown Thrift type %d", t)
}
