package console

import (
	"bytes"
	"encoding/binary"
	"strings"
	"testing"
)

// chunked frames payload as one Bolt message in chunks of at most size
// bytes.
func chunked(payload []byte, size int) []byte {
	var out []byte
	for len(payload) > 0 {
		n := min(size, len(payload))
		out = binary.BigEndian.AppendUint16(out, uint16(n))
		out = append(out, payload[:n]...)
		payload = payload[n:]
	}
	return append(out, 0, 0)
}

// TestRelay_Messages checks the relay's reading of Neo4j's messages: no-op
// chunks and messages under the cap pass unchanged, and a message over it
// is replaced by a FAILURE with rowTooLarge before any of its bytes
// are passed on.
func TestRelay_Messages(t *testing.T) {
	r := &relay{}
	r.maxMsg.Store(64)
	small := chunked([]byte("hello, world"), 5)
	big := chunked(bytes.Repeat([]byte("x"), 100), 30)
	in := append(append(append([]byte{0, 0}, small...), big...), small...)
	var out bytes.Buffer
	r.messages(bytes.NewReader(in), &out)
	want := append(append([]byte{0, 0}, small...), failureMessage(rowTooLarge, "a row of the result is over 64 bytes")...)
	if !bytes.Equal(out.Bytes(), want) {
		t.Errorf("out %q\nwant %q", out.Bytes(), want)
	}
	r.raise(32)
	if r.maxMsg.Load() != 64 {
		t.Errorf("raise lowered the cap to %d", r.maxMsg.Load())
	}
	r.raise(1 << 20)
	out.Reset()
	r.messages(bytes.NewReader(big), &out)
	if !bytes.Equal(out.Bytes(), big) {
		t.Errorf("under a raised cap: %q", out.Bytes())
	}
}

// TestFailureMessage checks the PackStream of the relay's FAILURE: a
// structure 0x7F with a map of two strings, short and long.
func TestFailureMessage(t *testing.T) {
	msg := strings.Repeat("m", 300)
	b := failureMessage(rowTooLarge, msg)
	n := int(binary.BigEndian.Uint16(b))
	body := b[2 : 2+n]
	if !bytes.HasSuffix(b, []byte{0, 0}) || len(b) != n+4 {
		t.Fatalf("framing: %d bytes, chunk of %d", len(b), n)
	}
	want := []byte{0xB1, 0x7F, 0xA2, 0x84, 'c', 'o', 'd', 'e', 0xD0, byte(len(rowTooLarge))}
	want = append(want, rowTooLarge...)
	want = append(want, 0x87, 'm', 'e', 's', 's', 'a', 'g', 'e', 0xD1, 0x01, 0x2C)
	want = append(want, msg...)
	if !bytes.Equal(body, want) {
		t.Errorf("body %x\nwant %x", body, want)
	}
}
