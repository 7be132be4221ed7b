package console

import (
	"bufio"
	"context"
	"crypto/tls"
	"encoding/binary"
	"fmt"
	"io"
	"net"
	"net/url"
	"sync"
	"sync/atomic"
	"time"

	"github.com/kgeval/kgeval"
	"github.com/kgeval/kgeval/graphstore"
	"github.com/neo4j/neo4j-go-driver/v5/neo4j"
	"github.com/neo4j/neo4j-go-driver/v5/neo4j/config"
)

// This file gives the console a connection of its own to Neo4j: a driver
// with its own small pool, so that console queries cannot take the
// connections the dashboard's other requests need (a security test once had
// 22 hanging console queries stall every other request), whose connections
// go through an in-process relay that reads each message Neo4j sends and
// refuses one over messageFactor times the response cap before the driver sees any of it (the
// driver reads a whole row into memory, so a 64 MiB value cost the server
// 650 MB before any limit of the console could look at it).

const (
	// maxSlots is how many console queries run at once; more are
	// refused (ETOOMANY) rather than queued.
	maxSlots = 4
	// ownerSlots is how many of them one owner may run: one user
	// cannot hold every slot.
	ownerSlots = maxSlots / 2
	// messageFactor sizes the relay's cap on one message from the
	// response cap: a row's Bolt encoding can be a few times smaller than
	// its JSON (a float is 9 bytes in Bolt, 1 to 24 in JSON).
	messageFactor = 4
	// rowTooLarge is the code of the failure the relay sends in
	// place of a message over its cap.
	rowTooLarge = "Neo.ClientError.Statement.KgevalConsoleRowTooLarge"
)

// conn is the console's driver, relay and slots.
type conn struct {
	drv   neo4j.DriverWithContext
	relay *relay
	slots chan struct{}

	ownersMu sync.Mutex
	owners   map[string]int // slots held, by owner
}

// newConn makes the console's driver to the Neo4j of cfg, through a relay
// whose cap on a message is messageFactor times maxRow, the caller's
// response cap.
func newConn(cfg graphstore.Config, maxRow int) (*conn, error) {
	r, err := newRelay(cfg.URI, messageFactor*maxRow+64<<10)
	if err != nil {
		return nil, err
	}
	drv, err := neo4j.NewDriverWithContext("bolt://"+r.addr(), neo4j.BasicAuth(cfg.User, cfg.Password, ""), func(c *config.Config) {
		c.SocketConnectTimeout = cfg.ConnectTimeout
		c.ConnectionAcquisitionTimeout = cfg.ConnectTimeout
		c.MaxConnectionPoolSize = maxSlots
		c.MaxConnectionLifetime = 10 * time.Minute
	})
	if err != nil {
		r.close()
		return nil, kgeval.Wrap(kgeval.EINTERNAL, err, "console driver")
	}
	return &conn{drv: drv, relay: r, slots: make(chan struct{}, maxSlots), owners: map[string]int{}}, nil
}

func (c *conn) close(ctx context.Context) {
	c.drv.Close(ctx)
	c.relay.close()
}

// acquire takes a slot for owner, or refuses when all are taken or owner
// holds ownerSlots already. Errors: ETOOMANY.
func (c *conn) acquire(owner string) (release func(), err error) {
	c.ownersMu.Lock()
	defer c.ownersMu.Unlock()
	if c.owners[owner] >= ownerSlots {
		return nil, kgeval.Errorf(kgeval.ETOOMANY, "you are already running %d console queries, as many as one user may at once; try again when one has finished", ownerSlots)
	}
	select {
	case c.slots <- struct{}{}:
	default:
		return nil, kgeval.Errorf(kgeval.ETOOMANY, "the console is already running %d queries; try again when one has finished", maxSlots)
	}
	c.owners[owner]++
	return func() {
		c.ownersMu.Lock()
		defer c.ownersMu.Unlock()
		if c.owners[owner]--; c.owners[owner] == 0 {
			delete(c.owners, owner)
		}
		<-c.slots
	}, nil
}

// relay forwards Bolt connections from the console's driver to Neo4j and
// reads the messages Neo4j sends: each is passed on whole, and one over
// maxMsg bytes is replaced by a FAILURE with code rowTooLarge, after
// which both sides are closed (Neo4j then ends the transaction).
type relay struct {
	ln       net.Listener
	upstream string
	tls      *tls.Config
	maxMsg   atomic.Int64
	timeout  time.Duration
}

// raise makes the cap on a message at least n bytes.
func (r *relay) raise(n int) {
	for {
		old := r.maxMsg.Load()
		if int64(n) <= old || r.maxMsg.CompareAndSwap(old, int64(n)) {
			return
		}
	}
}

// newRelay listens on a loopback port for the Neo4j at uri (bolt, neo4j,
// and their +s and +ssc forms; the relay makes the TLS connection).
func newRelay(uri string, maxMsg int) (*relay, error) {
	u, err := url.Parse(uri)
	if err != nil {
		return nil, kgeval.Wrap(kgeval.EINVALID, err, "neo4j uri %q", uri)
	}
	r := &relay{upstream: u.Host, timeout: 10 * time.Second}
	r.maxMsg.Store(int64(maxMsg))
	if u.Port() == "" {
		r.upstream = net.JoinHostPort(u.Hostname(), "7687")
	}
	switch u.Scheme {
	case "bolt", "neo4j":
	case "bolt+s", "neo4j+s":
		r.tls = &tls.Config{ServerName: u.Hostname(), MinVersion: tls.VersionTLS12}
	case "bolt+ssc", "neo4j+ssc":
		r.tls = &tls.Config{ServerName: u.Hostname(), InsecureSkipVerify: true} // the scheme asks for a self-signed certificate
	default:
		return nil, kgeval.Errorf(kgeval.EINVALID, "neo4j uri %q: unknown scheme for the console", uri)
	}
	r.ln, err = net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, kgeval.Wrap(kgeval.EINTERNAL, err, "console relay")
	}
	go r.serve()
	return r, nil
}

func (r *relay) addr() string { return r.ln.Addr().String() }

func (r *relay) close() { r.ln.Close() }

func (r *relay) serve() {
	for {
		c, err := r.ln.Accept()
		if err != nil {
			return
		}
		go r.handle(c)
	}
}

func (r *relay) dial() (net.Conn, error) {
	d := &net.Dialer{Timeout: r.timeout, KeepAlive: 30 * time.Second}
	if r.tls != nil {
		return tls.DialWithDialer(d, "tcp", r.upstream, r.tls)
	}
	return d.Dial("tcp", r.upstream)
}

func (r *relay) handle(client net.Conn) {
	defer client.Close()
	up, err := r.dial()
	if err != nil {
		return
	}
	defer up.Close()
	go func() {
		defer up.Close()
		defer client.Close()
		// The handshake: the driver's proposal of the manifest
		// negotiation (00 00 01 FF) is withdrawn, so that Neo4j answers
		// with a plain version, after which both directions are chunked
		// messages.
		hs := make([]byte, 20)
		if _, err := io.ReadFull(client, hs); err != nil {
			return
		}
		for i := 4; i < 20; i += 4 {
			if hs[i+2] == 0x01 && hs[i+3] == 0xFF {
				copy(hs[i:i+4], []byte{0, 0, 0, 0})
			}
		}
		if _, err := up.Write(hs); err != nil {
			return
		}
		io.Copy(up, client)
	}()
	version := make([]byte, 4)
	if _, err := io.ReadFull(up, version); err != nil {
		return
	}
	if _, err := client.Write(version); err != nil {
		return
	}
	r.messages(bufio.NewReaderSize(up, 64<<10), client)
}

// messages passes on Neo4j's messages whole (see relay).
func (r *relay) messages(up io.Reader, client io.Writer) {
	var msg []byte
	hdr := make([]byte, 2)
	for {
		if _, err := io.ReadFull(up, hdr); err != nil {
			return
		}
		n := int(binary.BigEndian.Uint16(hdr))
		if n == 0 {
			if len(msg) == 0 { // a no-op chunk between messages
				if _, err := client.Write(hdr); err != nil {
					return
				}
				continue
			}
			msg = append(msg, 0, 0)
			if _, err := client.Write(msg); err != nil {
				return
			}
			if cap(msg) > 1<<20 {
				msg = nil
			} else {
				msg = msg[:0]
			}
			continue
		}
		maxMsg := int(r.maxMsg.Load())
		if len(msg)+2+n > maxMsg {
			client.Write(failureMessage(rowTooLarge, fmt.Sprintf("a row of the result is over %d bytes", maxMsg)))
			return
		}
		if need := len(msg) + 2 + n; need > cap(msg) {
			// grow by doubling, never past the cap
			grown := make([]byte, len(msg), min(max(2*cap(msg), need, 64<<10), maxMsg))
			copy(grown, msg)
			msg = grown
		}
		msg = append(msg, hdr...)
		msg = msg[:len(msg)+n]
		if _, err := io.ReadFull(up, msg[len(msg)-n:]); err != nil {
			return
		}
	}
}

// failureMessage returns a Bolt FAILURE message, chunked: a structure of
// signature 0x7F holding the map {code, message}.
func failureMessage(code, message string) []byte {
	b := []byte{0xB1, 0x7F, 0xA2}
	for _, s := range []string{"code", code, "message", message} {
		b = packString(b, s)
	}
	out := binary.BigEndian.AppendUint16(nil, uint16(len(b)))
	out = append(out, b...)
	return append(out, 0, 0)
}

func packString(b []byte, s string) []byte {
	switch n := len(s); {
	case n < 16:
		b = append(b, 0x80|byte(n))
	case n < 256:
		b = append(b, 0xD0, byte(n))
	default:
		b = append(b, 0xD1)
		b = binary.BigEndian.AppendUint16(b, uint16(n))
	}
	return append(b, s...)
}
