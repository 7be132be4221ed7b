package llm_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/kgeval/kgeval"
	"github.com/kgeval/kgeval/llm"
)

// rawTap records the raw bodies of every request to the real model server
// and of its answers.
type rawTap struct {
	mu        sync.Mutex
	reqs, res [][]byte
}

func newRawTap(t *testing.T) (*rawTap, string) {
	t.Helper()
	MustLocalLLM(t)
	target, err := url.Parse(os.Getenv("KGEVAL_LLM_BASE_URL"))
	if err != nil {
		t.Fatal(err)
	}
	tp := &rawTap{}
	rp := &httputil.ReverseProxy{Rewrite: func(r *httputil.ProxyRequest) {
		r.SetURL(target)
		r.Out.URL.Path = strings.TrimSuffix(target.Path, "/") + strings.TrimPrefix(r.In.URL.Path, "/v1")
	}}
	rp.ModifyResponse = func(resp *http.Response) error {
		body, err := io.ReadAll(resp.Body)
		if err != nil {
			return err
		}
		resp.Body = io.NopCloser(bytes.NewReader(body))
		tp.mu.Lock()
		tp.reqs = append(tp.reqs, resp.Request.Context().Value(bodyKey{}).([]byte))
		tp.res = append(tp.res, body)
		tp.mu.Unlock()
		return nil
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		r.Body = io.NopCloser(bytes.NewReader(b))
		rp.ServeHTTP(w, r.WithContext(context.WithValue(r.Context(), bodyKey{}, b)))
	}))
	t.Cleanup(srv.Close)
	return tp, srv.URL + "/v1"
}

// TestGreedyDecoding_EndToEnd checks that the client's default temperature
// (0) reaches the bundled llama.cpp server as greedy decoding: every request
// says "temperature": 0, and each one-token answer is the most likely token
// of the server's own log-probabilities. Sampling at the tiny positive
// temperature sent before answered "Yes" where the logprobs gave No -0.08,
// Yes -2.7; the claims below are chosen to be uncertain (a
// paraphrase, a partly stated claim, a near-miss number), where sampling
// would disagree with the argmax on some of them.
func TestGreedyDecoding_EndToEnd(t *testing.T) {
	tp, base := newRawTap(t)
	client := llm.New(llm.Config{BaseURL: base, Model: os.Getenv("KGEVAL_LLM_MODEL"), Timeout: 5 * time.Minute, MaxRetries: 2, Concurrency: 1})
	v := &llm.ClaimVerifier{Client: client, Cache: MustCache(t)}
	nonce := fmt.Sprintf(" [greedy %d]", time.Now().UnixNano())
	doc := "The company reported revenue of $2.5 million in 2023, up from $2.1 million a year earlier. Its founder, Ana Ruiz, stepped down in March." + nonce
	claims := []string{
		"The company's revenue was €2.5 million in 2023.",
		"Revenue grew by roughly a fifth in 2023.",
		"Ana Ruiz left the company in the spring.",
		"Ana Ruiz was replaced by her deputy.",
		"The company reported revenue of about 2.5 million dollars.",
		"The company was profitable in 2023.",
		"Revenue in 2022 was $2.1 million.",
		"Its founder stepped down in May.",
	}
	qs := make([]kgeval.ClaimQuery, len(claims))
	for i, c := range claims {
		qs[i] = kgeval.ClaimQuery{Evidence: []string{doc}, Claim: c}
	}
	if _, _, err := v.CheckClaims(context.Background(), qs, nil); err != nil {
		t.Fatal(err)
	}
	tp.mu.Lock()
	defer tp.mu.Unlock()
	if len(tp.reqs) < len(claims) {
		t.Fatalf("%d requests reached the server, want %d", len(tp.reqs), len(claims))
	}
	uncertain := 0
	for i := range tp.reqs {
		var req struct {
			Temperature *float64 `json:"temperature"`
		}
		if err := json.Unmarshal(tp.reqs[i], &req); err != nil || req.Temperature == nil || *req.Temperature != 0 {
			t.Errorf("request %d: temperature %v (%v), want 0: %s", i, req.Temperature, err, tp.reqs[i])
		}
		var res struct {
			Choices []struct {
				Logprobs struct {
					Content []struct {
						Token       string `json:"token"`
						TopLogprobs []struct {
							Token   string  `json:"token"`
							Logprob float64 `json:"logprob"`
						} `json:"top_logprobs"`
					} `json:"content"`
				} `json:"logprobs"`
			} `json:"choices"`
		}
		if err := json.Unmarshal(tp.res[i], &res); err != nil || len(res.Choices) == 0 || len(res.Choices[0].Logprobs.Content) == 0 {
			t.Fatalf("answer %d has no logprobs (%v): %s", i, err, tp.res[i])
		}
		for _, c := range res.Choices[0].Logprobs.Content {
			best, bestLP := "", -1e300
			for _, tl := range c.TopLogprobs {
				if tl.Logprob > bestLP {
					best, bestLP = tl.Token, tl.Logprob
				}
			}
			if bestLP < -0.3 { // the argmax has under 74 %: sampling could differ
				uncertain++
			}
			if c.Token != best {
				t.Errorf("answer %d: token %q, but the server's most likely token is %q (logprob %.3f): not greedy", i, c.Token, best, bestLP)
			}
			t.Logf("answer %d (%q): token %q, most likely %q at %.3f", i, claims[min(i, len(claims)-1)], c.Token, best, bestLP)
		}
	}
	t.Logf("%d of %d answers had a most likely token under 74 %%", uncertain, len(tp.res))
}
