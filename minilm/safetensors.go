package minilm

import (
	"encoding/binary"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"os"
	"sort"
)

// tensorInfo describes one entry of a safetensors header.
type tensorInfo struct {
	DType       string   `json:"dtype"`
	Shape       []int    `json:"shape"`
	DataOffsets [2]int64 `json:"data_offsets"`
}

// safetensorsFile is an opened .safetensors file: the parsed header plus the
// raw data section. Only the tensors that are asked for are decoded.
type safetensorsFile struct {
	path    string
	tensors map[string]tensorInfo
	data    []byte
}

// maxHeaderSize guards against reading garbage as a header length.
const maxHeaderSize = 100 << 20

// readSafetensors reads the whole file into memory and parses its header.
// Format: 8-byte little-endian header length N, N bytes of JSON header
// ({"name": {"dtype","shape","data_offsets"}, "__metadata__": {...}}), then
// the data section that data_offsets index into.
func readSafetensors(path string) (*safetensorsFile, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var lenBuf [8]byte
	if _, err := io.ReadFull(f, lenBuf[:]); err != nil {
		return nil, fmt.Errorf("safetensors %s: reading header length: %w", path, err)
	}
	n := binary.LittleEndian.Uint64(lenBuf[:])
	if n == 0 || n > maxHeaderSize {
		return nil, fmt.Errorf("safetensors %s: implausible header length %d", path, n)
	}
	hdr := make([]byte, n)
	if _, err := io.ReadFull(f, hdr); err != nil {
		return nil, fmt.Errorf("safetensors %s: reading header: %w", path, err)
	}
	var raw map[string]json.RawMessage
	if err := json.Unmarshal(hdr, &raw); err != nil {
		return nil, fmt.Errorf("safetensors %s: parsing header: %w", path, err)
	}
	st := &safetensorsFile{path: path, tensors: make(map[string]tensorInfo, len(raw))}
	for name, msg := range raw {
		if name == "__metadata__" {
			continue
		}
		var ti tensorInfo
		if err := json.Unmarshal(msg, &ti); err != nil {
			return nil, fmt.Errorf("safetensors %s: tensor %q: %w", path, name, err)
		}
		st.tensors[name] = ti
	}
	data, err := io.ReadAll(f)
	if err != nil {
		return nil, fmt.Errorf("safetensors %s: reading data: %w", path, err)
	}
	st.data = data
	for name, ti := range st.tensors {
		if ti.DataOffsets[0] < 0 || ti.DataOffsets[1] < ti.DataOffsets[0] || ti.DataOffsets[1] > int64(len(data)) {
			return nil, fmt.Errorf("safetensors %s: tensor %q has offsets %v outside data (%d bytes)", path, name, ti.DataOffsets, len(data))
		}
		want := int64(numElems(ti.Shape)) * int64(dtypeSize(ti.DType))
		if dtypeSize(ti.DType) > 0 && want != ti.DataOffsets[1]-ti.DataOffsets[0] {
			return nil, fmt.Errorf("safetensors %s: tensor %q: shape %v dtype %s needs %d bytes, has %d", path, name, ti.Shape, ti.DType, want, ti.DataOffsets[1]-ti.DataOffsets[0])
		}
	}
	return st, nil
}

func numElems(shape []int) int {
	n := 1
	for _, d := range shape {
		n *= d
	}
	return n
}

func dtypeSize(dt string) int {
	switch dt {
	case "F32", "I32", "U32":
		return 4
	case "F16", "BF16", "I16", "U16":
		return 2
	case "F64", "I64", "U64":
		return 8
	case "I8", "U8", "BOOL":
		return 1
	}
	return 0
}

// names returns the tensor names in sorted order.
func (s *safetensorsFile) names() []string {
	out := make([]string, 0, len(s.tensors))
	for n := range s.tensors {
		out = append(out, n)
	}
	sort.Strings(out)
	return out
}

// float32s decodes tensor name as float32 (converting F16/BF16/F64) and
// checks its shape against want (nil: any shape).
func (s *safetensorsFile) float32s(name string, want ...int) ([]float32, error) {
	ti, ok := s.tensors[name]
	if !ok {
		return nil, fmt.Errorf("safetensors %s: tensor %q not found", s.path, name)
	}
	if want != nil {
		if len(want) != len(ti.Shape) {
			return nil, fmt.Errorf("safetensors %s: tensor %q has shape %v, want %v", s.path, name, ti.Shape, want)
		}
		for i := range want {
			if want[i] != ti.Shape[i] {
				return nil, fmt.Errorf("safetensors %s: tensor %q has shape %v, want %v", s.path, name, ti.Shape, want)
			}
		}
	}
	b := s.data[ti.DataOffsets[0]:ti.DataOffsets[1]]
	n := numElems(ti.Shape)
	out := make([]float32, n)
	switch ti.DType {
	case "F32":
		for i := range out {
			out[i] = math.Float32frombits(binary.LittleEndian.Uint32(b[4*i:]))
		}
	case "F16":
		for i := range out {
			out[i] = float16ToFloat32(binary.LittleEndian.Uint16(b[2*i:]))
		}
	case "BF16":
		for i := range out {
			out[i] = math.Float32frombits(uint32(binary.LittleEndian.Uint16(b[2*i:])) << 16)
		}
	case "F64":
		for i := range out {
			out[i] = float32(math.Float64frombits(binary.LittleEndian.Uint64(b[8*i:])))
		}
	default:
		return nil, fmt.Errorf("safetensors %s: tensor %q has unsupported dtype %s", s.path, name, ti.DType)
	}
	return out, nil
}

// float16ToFloat32 converts an IEEE 754 half-precision value.
func float16ToFloat32(h uint16) float32 {
	sign := uint32(h>>15) << 31
	exp := uint32(h>>10) & 0x1f
	mant := uint32(h) & 0x3ff
	switch {
	case exp == 0 && mant == 0:
		return math.Float32frombits(sign)
	case exp == 0:
		// Subnormal: normalise.
		e := uint32(127 - 15 + 1)
		for mant&0x400 == 0 {
			mant <<= 1
			e--
		}
		mant &= 0x3ff
		return math.Float32frombits(sign | e<<23 | mant<<13)
	case exp == 0x1f:
		return math.Float32frombits(sign | 0xff<<23 | mant<<13)
	default:
		return math.Float32frombits(sign | (exp+127-15)<<23 | mant<<13)
	}
}
