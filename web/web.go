// Package web serves kgeval over HTTP with Gin: for now the health endpoint
// that load balancers and `kgeval doctor`-style checks use; the JSON API and
// the dashboard grow here. Handlers parse input, make one service call and
// render; they never hold Cypher or scoring logic.
package web

import (
	"context"
	"net/http"
	"time"

	"github.com/gin-gonic/gin"
	"github.com/kgeval/kgeval"
)

// Health reports on the services kgeval depends on.
type Health interface {
	// Check returns the versions of what answered. Errors: EUNAVAILABLE.
	Check(ctx context.Context) (map[string]string, error)
}

// Server is kgeval's HTTP server.
type Server struct {
	Health  Health
	Version string
	engine  *gin.Engine
}

// NewServer returns a server with its routes.
func NewServer(h Health, version string) *Server {
	gin.SetMode(gin.ReleaseMode)
	s := &Server{Health: h, Version: version, engine: gin.New()}
	s.engine.Use(gin.Recovery())
	s.engine.GET("/healthz", s.healthz)
	return s
}

// Handler returns the server's http.Handler.
func (s *Server) Handler() http.Handler { return s.engine }

// statusOf maps application error codes to HTTP status codes.
var statusOf = map[string]int{
	kgeval.EINVALID:      http.StatusBadRequest,
	kgeval.ENOTFOUND:     http.StatusNotFound,
	kgeval.ECONFLICT:     http.StatusConflict,
	kgeval.EUNAUTHORIZED: http.StatusUnauthorized,
	kgeval.EUNAVAILABLE:  http.StatusServiceUnavailable,
	kgeval.EINTERNAL:     http.StatusInternalServerError,
}

func (s *Server) healthz(c *gin.Context) {
	ctx, cancel := context.WithTimeout(c.Request.Context(), 5*time.Second)
	defer cancel()
	versions, err := s.Health.Check(ctx)
	if err != nil {
		c.JSON(statusOf[kgeval.ErrorCode(err)], gin.H{"status": "unavailable", "error": kgeval.ErrorMessage(err), "kgeval": s.Version})
		return
	}
	body := gin.H{"status": "ok", "kgeval": s.Version}
	for k, v := range versions {
		body[k] = v
	}
	c.JSON(http.StatusOK, body)
}
