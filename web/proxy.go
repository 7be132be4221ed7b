package web

import (
	"net"
	"net/http"
	"strings"

	"github.com/kgeval/kgeval"
)

// parseProxies reads web.trusted_proxies as gin's SetTrustedProxies does:
// an IP address (one host) or a CIDR each. None (the default) trusts
// nobody.
func parseProxies(list []string) ([]*net.IPNet, error) {
	var out []*net.IPNet
	for _, p := range list {
		if ip := net.ParseIP(p); ip != nil {
			bits := 8 * net.IPv6len
			if ip4 := ip.To4(); ip4 != nil {
				ip, bits = ip4, 8*net.IPv4len
			}
			out = append(out, &net.IPNet{IP: ip, Mask: net.CIDRMask(bits, bits)})
			continue
		}
		_, n, err := net.ParseCIDR(p)
		if err != nil {
			return nil, kgeval.Errorf(kgeval.EINVALID, "trusted proxy %q: want an IP address or a CIDR", p)
		}
		out = append(out, n)
	}
	return out, nil
}

// fromProxy reports whether r came straight from a trusted proxy, the only
// peer whose X-Forwarded-* headers are believed. gin's ClientIP reads
// X-Forwarded-For under the same list (NewServer gives it to
// SetTrustedProxies).
func (a *auth) fromProxy(r *http.Request) bool {
	if len(a.proxies) == 0 {
		return false
	}
	host, _, err := net.SplitHostPort(strings.TrimSpace(r.RemoteAddr))
	if err != nil {
		return false
	}
	ip := net.ParseIP(host)
	if ip == nil {
		return false
	}
	for _, n := range a.proxies {
		if n.Contains(ip) {
			return true
		}
	}
	return false
}

// overTLS reports whether the browser reached the server over https: the
// connection's own TLS, or a trusted proxy's X-Forwarded-Proto: https (its
// first value, the one the proxy nearest the browser set). From any other
// peer the header is ignored, so that a client cannot mark its own
// request secure.
func (a *auth) overTLS(r *http.Request) bool {
	if r.TLS != nil {
		return true
	}
	if !a.fromProxy(r) {
		return false
	}
	proto, _, _ := strings.Cut(r.Header.Get("X-Forwarded-Proto"), ",")
	return strings.EqualFold(strings.TrimSpace(proto), "https")
}
