package dataset

import (
	"bytes"
	"runtime"
	"strings"
	"testing"

	"github.com/klauspost/compress/zstd"
)

// TestZstdBound checks zstdBound on frames built with klauspost's encoder:
// a frame without a stated content size is counted by decoding it, two
// frames (and a skippable one between them) are summed, and a size over
// room, stated or decoded, is reported without allocating it.
func TestZstdBound(t *testing.T) {
	text := []byte(strings.Repeat("the quick brown fox jumps over the lazy dog. ", 20000)) // 900,000 bytes
	withSize := func(src []byte) []byte {
		e, err := zstd.NewWriter(nil, zstd.WithEncoderCRC(true))
		if err != nil {
			t.Fatal(err)
		}
		defer e.Close()
		return e.EncodeAll(src, nil)
	}
	withoutSize := func(src []byte) []byte { // a stream: its header states no content size
		var b bytes.Buffer
		e, err := zstd.NewWriter(&b, zstd.WithSingleSegment(false), zstd.WithEncoderCRC(true))
		if err != nil {
			t.Fatal(err)
		}
		if _, err := e.Write(src); err != nil {
			t.Fatal(err)
		}
		if err := e.Close(); err != nil {
			t.Fatal(err)
		}
		return b.Bytes()
	}
	skippable := func(payload []byte) []byte {
		b, _ := (&zstd.Header{Skippable: true, SkippableID: 3, SkippableSize: uint32(len(payload))}).AppendTo(nil)
		return append(b, payload...)
	}
	// declared returns a frame whose header states size bytes of content
	// (and a 128 KiB window) and whose one raw block holds 3.
	declared := func(size uint64) []byte {
		b, _ := (&zstd.Header{HasFCS: true, FrameContentSize: size, WindowSize: 128 << 10}).AppendTo(nil)
		return append(b, 3<<3|1, 0, 0, 'a', 'b', 'c')
	}
	var h zstd.Header
	if err := h.Decode(withoutSize(text)); err != nil || h.HasFCS {
		t.Fatalf("the streamed frame's header: %+v, %v; want no content size", h, err)
	}
	if err := h.Decode(withSize(text)); err != nil || !h.HasFCS || h.FrameContentSize != uint64(len(text)) {
		t.Fatalf("the EncodeAll frame's header: %+v, %v; want content size %d", h, err, len(text))
	}
	decoded := func(data []byte) int64 {
		d, err := zstd.NewReader(nil)
		if err != nil {
			t.Fatal(err)
		}
		defer d.Close()
		out, err := d.DecodeAll(data, nil)
		if err != nil {
			t.Fatalf("DecodeAll: %v", err)
		}
		return int64(len(out))
	}
	limit := int64(64 << 20)
	bound := func(data []byte, room int64) (n int64, err error, alloc uint64) {
		p := pageCheck{opt: Options{MaxDecodedBytes: limit}}
		defer func() {
			if p.zstdDec != nil {
				p.zstdDec.Close()
			}
		}()
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		n, err = p.zstdBound(data, room)
		runtime.ReadMemStats(&after)
		return n, err, after.TotalAlloc - before.TotalAlloc
	}

	for _, c := range []struct {
		name string
		data []byte
	}{
		{"NoContentSize", withoutSize(text)},
		{"ContentSize", withSize(text)},
		{"TwoFrames", append(withSize(text[:1000]), withoutSize(text)...)},
		{"SkippableBetween", append(append(withoutSize(text[:5000]), skippable([]byte("metadata"))...), withSize(text)...)},
		{"SkippableFirst", append(skippable(make([]byte, 100)), withSize(text)...)},
		{"Empty", nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			want := decoded(c.data)
			n, err, _ := bound(c.data, limit)
			if err != nil || n != want {
				t.Fatalf("zstdBound = %d, %v; want %d, what DecodeAll decodes", n, err, want)
			}
			// Room for less than the frames: more than room, decoding at
			// most room+1 bytes of them into nothing.
			room := want/2 + 1
			if want == 0 {
				return
			}
			if n, err, _ := bound(c.data, room); err != nil || n <= room || n > max(room+1, want) {
				t.Errorf("zstdBound with room %d = %d, %v; want over room", room, n, err)
			}
		})
	}

	t.Run("DeclaredHuge", func(t *testing.T) {
		// 1 TiB stated, 3 bytes held: reported as stated, without decoding.
		n, err, alloc := bound(declared(1<<40), limit)
		if err != nil || n != 1<<40 {
			t.Fatalf("zstdBound = %d, %v; want 1 TiB, as stated", n, err)
		}
		if alloc > 64<<10 {
			t.Errorf("reporting it allocated %d KiB", alloc>>10)
		}
		// After a skippable frame too.
		if n, err, _ := bound(append(skippable([]byte("x")), declared(1<<40)...), limit); err != nil || n != 1<<40 {
			t.Errorf("after a skippable frame: zstdBound = %d, %v; want 1 TiB", n, err)
		}
	})
	t.Run("SecondFrameLies", func(t *testing.T) {
		// A second frame stating 1 TiB and holding 3 bytes: the decoder
		// refuses it before allocating what it states.
		data := append(withSize(text[:1000]), declared(1<<40)...)
		n, err, alloc := bound(data, limit)
		if err == nil {
			t.Fatalf("zstdBound = %d, want an error", n)
		}
		t.Logf("zstdBound = %d, %v; %d KiB allocated", n, err, alloc>>10)
		if alloc > 4<<20 {
			t.Errorf("refusing it allocated %d KiB", alloc>>10)
		}
		// Stated within room but not what it holds: an error.
		if n, err, _ := bound(append(withSize(text[:1000]), declared(5000)...), limit); err == nil {
			t.Errorf("a frame of 3 bytes stating 5,000: zstdBound = %d, want an error", n)
		}
	})
	t.Run("NoContentSizeOverRoom", func(t *testing.T) {
		// 256 MiB of zeros without a stated size: more than room, found by
		// decoding room+1 bytes of it into nothing, holding no more than
		// the decoder's window.
		data := withoutSize(make([]byte, 256<<20))
		n, err, alloc := bound(data, 1<<20)
		if err != nil || n != 1<<20+1 {
			t.Fatalf("zstdBound = %d, %v; want %d (room+1)", n, err, 1<<20+1)
		}
		var h zstd.Header
		h.Decode(data)
		t.Logf("%d bytes of zstd, a %d KiB window: %d KiB allocated to find it over room", len(data), h.WindowSize>>10, alloc>>10)
		if alloc > h.WindowSize+2<<20 {
			t.Errorf("finding it over allocated %d KiB, more than its window and 2 MiB", alloc>>10)
		}
	})
	t.Run("WindowOverLimit", func(t *testing.T) {
		// A frame stating no size and a 1 GiB window (what the decoder
		// would hold) against a 64 MiB limit: over.
		b, _ := (&zstd.Header{WindowSize: 1 << 30}).AppendTo(nil)
		b = append(b, 3<<3|1, 0, 0, 'a', 'b', 'c')
		n, err, alloc := bound(b, 1<<20)
		if err != nil || n <= 1<<20 {
			t.Fatalf("zstdBound = %d, %v; want over room", n, err)
		}
		if alloc > 1<<20 {
			t.Errorf("refusing it allocated %d KiB", alloc>>10)
		}
	})
	t.Run("WindowHeldOnce", func(t *testing.T) {
		// Pages of 3 bytes each stating a 32 MiB window: the decoder, p's
		// for all pages, allocates the window at the first and reuses it.
		b, _ := (&zstd.Header{WindowSize: 32 << 20}).AppendTo(nil)
		b = append(b, 3<<3|1, 0, 0, 'a', 'b', 'c')
		p := pageCheck{opt: Options{MaxDecodedBytes: limit}}
		defer func() { p.zstdDec.Close() }()
		var total uint64
		for i := range 10 {
			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			if n, err := p.zstdBound(b, 1<<20); err != nil || n != 3 {
				t.Fatalf("page %d: zstdBound = %d, %v; want 3", i, n, err)
			}
			runtime.ReadMemStats(&after)
			total += after.TotalAlloc - before.TotalAlloc
		}
		t.Logf("10 pages: %d KiB allocated", total>>10)
		if total > 40<<20 {
			t.Errorf("10 pages allocated %d MiB, want one 32 MiB window", total>>20)
		}
	})
	t.Run("NotZstd", func(t *testing.T) {
		for _, data := range [][]byte{[]byte("not zstd at all"), withSize(text)[:100]} {
			if n, err, _ := bound(data, limit); err == nil {
				t.Errorf("zstdBound(%q...) = %d, want an error", data[:8], n)
			}
		}
	})
}
