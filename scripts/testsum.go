//go:build ignore

// testsum reads `go test -json` (test2json events, stderr merged in) on
// stdin, prints the output `go test -v` would have printed as it comes, and
// closes with the failed packages and tests by name and a count of tests,
// subtests and packages. By hand:
//
//	go test -json ./stats/ 2>&1 | go run scripts/testsum.go
//
// scripts/test.sh builds it first, so that a testsum that does not build
// stops make test before the tests run.
//
// It counts from the events rather than from "--- PASS" lines because a
// package that fails to build, or whose test binary dies (a panic in a
// goroutine, os.Exit, a timeout), prints no "--- FAIL" line at all: the
// build fails with a "build-fail" event and a package "fail" event naming
// FailedBuild, and a dead binary leaves its running test with a "run" event
// and no end. Such a test counts as failed, and so does its package.
//
// A subtest is a test whose name holds '/' (fuzz seeds, FuzzX/seed#0,
// included). -counts writes one line of eight numbers for test.sh: tests
// passed, failed, skipped; subtests passed, failed, skipped; packages ok,
// failed. -summary writes the closing summary to a file as well, for
// test.sh to repeat after the steps that follow go test. The exit status is
// 1 when anything failed.
package main

import (
	"bufio"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"regexp"
	"sort"
	"strings"
)

// event is one test2json record (go doc test2json).
type event struct {
	Action      string
	Package     string
	ImportPath  string // build-output and build-fail events
	Test        string
	Output      string
	FailedBuild string
}

type counts struct{ passed, failed, skipped int }

type tally struct {
	tests, subtests   counts
	pkgOK, pkgNoTests int
	failedPkgs        []string // "pkg" or "pkg (why)", in the order they ended
	failedTests       []string // "pkg Test/sub", in the order they ended
	pkgDone           map[string]bool
	running           map[string]map[string]bool // package -> tests started and not ended
	started           []string                   // packages in the order they started
	died              map[string]string          // package -> "panicked" or "timed out", from its output
}

// A text line go test prints for a package it could not build or set up,
// should it reach us outside an event.
var failedText = regexp.MustCompile(`^FAIL\s+(\S+)\s+\[(build|setup) failed\]`)

func main() {
	countsFile := flag.String("counts", "", "write the eight counts to this file")
	summaryFile := flag.String("summary", "", "write the closing summary (failed packages and tests, counts) to this file too")
	flag.Parse()
	t := &tally{pkgDone: map[string]bool{}, running: map[string]map[string]bool{}, died: map[string]string{}}
	out := bufio.NewWriter(os.Stdout)
	in := bufio.NewReaderSize(os.Stdin, 1<<20)
	for {
		line, err := in.ReadString('\n')
		if line != "" {
			t.line(out, line)
			// Flush per line so that people watching `make test` see it as it comes.
			out.Flush()
		}
		if err == io.EOF {
			break
		}
		if err != nil {
			fmt.Fprintf(os.Stderr, "testsum: reading go test output: %v\n", err)
			os.Exit(2)
		}
	}
	// A package that started and never ended: go test was killed.
	for _, pkg := range t.started {
		if !t.pkgDone[pkg] {
			t.endPackage(pkg, "fail", "did not finish")
		}
	}
	var sum strings.Builder
	t.summary(&sum)
	io.WriteString(out, sum.String())
	out.Flush()
	if *summaryFile != "" {
		if err := os.WriteFile(*summaryFile, []byte(sum.String()), 0o644); err != nil {
			fmt.Fprintf(os.Stderr, "testsum: %v\n", err)
			os.Exit(2)
		}
	}
	if *countsFile != "" {
		line := fmt.Sprintf("%d %d %d %d %d %d %d %d\n",
			t.tests.passed, t.tests.failed, t.tests.skipped,
			t.subtests.passed, t.subtests.failed, t.subtests.skipped,
			t.pkgOK, len(t.failedPkgs))
		if err := os.WriteFile(*countsFile, []byte(line), 0o644); err != nil {
			fmt.Fprintf(os.Stderr, "testsum: %v\n", err)
			os.Exit(2)
		}
	}
	if len(t.failedPkgs) > 0 || t.tests.failed > 0 || t.subtests.failed > 0 {
		os.Exit(1)
	}
}

func (t *tally) line(out io.Writer, line string) {
	var e event
	if !strings.HasPrefix(line, "{") || json.Unmarshal([]byte(line), &e) != nil {
		// Not an event: stderr of go itself ("go: downloading ..."), printed as is.
		io.WriteString(out, line)
		if m := failedText.FindStringSubmatch(line); m != nil && !t.pkgDone[m[1]] {
			t.endPackage(m[1], "fail", m[2]+" failed")
		}
		return
	}
	io.WriteString(out, e.Output)
	if e.Package != "" && t.died[e.Package] == "" {
		if strings.HasPrefix(e.Output, "panic: test timed out") {
			t.died[e.Package] = "timed out"
		} else if strings.HasPrefix(e.Output, "panic: ") {
			t.died[e.Package] = "panicked"
		}
	}
	switch {
	case e.Package == "" || e.Action == "output":
	case e.Test == "":
		switch e.Action {
		case "start":
			t.started = append(t.started, e.Package)
		case "pass", "fail", "skip":
			why := ""
			if e.FailedBuild != "" {
				why = "build failed"
				if dep := strings.Fields(e.FailedBuild)[0]; dep != e.Package {
					why += ": " + dep
				}
			}
			t.endPackage(e.Package, e.Action, why)
		}
	default:
		switch e.Action {
		case "run":
			if t.running[e.Package] == nil {
				t.running[e.Package] = map[string]bool{}
			}
			t.running[e.Package][e.Test] = true
		case "pass", "fail", "skip":
			delete(t.running[e.Package], e.Test)
			t.endTest(e.Package, e.Test, e.Action, "")
		}
	}
}

func (t *tally) endTest(pkg, test, action, why string) {
	c := &t.tests
	if strings.Contains(test, "/") {
		c = &t.subtests
	}
	switch action {
	case "pass":
		c.passed++
	case "skip":
		c.skipped++
	default:
		c.failed++
		name := pkg + " " + test
		if why != "" {
			name += " (" + why + ")"
		}
		t.failedTests = append(t.failedTests, name)
	}
}

func (t *tally) endPackage(pkg, action, why string) {
	if t.pkgDone[pkg] {
		return
	}
	t.pkgDone[pkg] = true
	// Tests still running when their package ended never finished: the
	// binary panicked, exited or timed out inside them.
	var unfinished []string
	for test := range t.running[pkg] {
		unfinished = append(unfinished, test)
	}
	sort.Strings(unfinished)
	died := "did not finish: the test binary exited"
	if t.died[pkg] != "" {
		died = "did not finish: the test binary " + t.died[pkg]
	}
	for _, test := range unfinished {
		t.endTest(pkg, test, "fail", died)
	}
	delete(t.running, pkg)
	switch action {
	case "pass":
		t.pkgOK++
	case "skip":
		t.pkgNoTests++
	default:
		if why == "" {
			why = t.died[pkg]
		}
		if why != "" {
			pkg += " (" + why + ")"
		}
		t.failedPkgs = append(t.failedPkgs, pkg)
	}
}

func (t *tally) summary(out io.Writer) {
	if len(t.failedPkgs) > 0 {
		fmt.Fprintf(out, "=== failed packages (%d):\n", len(t.failedPkgs))
		for _, p := range t.failedPkgs {
			fmt.Fprintf(out, "    %s\n", p)
		}
	}
	if len(t.failedTests) > 0 {
		fmt.Fprintf(out, "=== failed tests and subtests (%d):\n", len(t.failedTests))
		for _, n := range t.failedTests {
			fmt.Fprintf(out, "    %s\n", n)
		}
	}
	fmt.Fprintf(out, "go test: tests %d passed, %d failed, %d skipped; subtests %d passed, %d failed, %d skipped; packages %d ok, %d failed, %d without tests\n",
		t.tests.passed, t.tests.failed, t.tests.skipped,
		t.subtests.passed, t.subtests.failed, t.subtests.skipped,
		t.pkgOK, len(t.failedPkgs), t.pkgNoTests)
}
