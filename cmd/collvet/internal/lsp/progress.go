package lsp

import (
	"context"
	"fmt"
	"sync"
	"time"
)

// Work done progress: an analysis that runs longer than ProgressDelay (the
// first one of a large workspace, or a code edit in one) shows as
// "collvet: analysing" in the client's status bar, for clients that
// declare window.workDoneProgress. Short analyses, the common case on
// each edit, show nothing: a status item that flickers on every
// keystroke is noise.

// ProgressDelay is how long an analysis runs before its progress is shown.
const ProgressDelay = 400 * time.Millisecond

// progress is the report of one analysis; a nil *progress reports nothing.
type progress struct {
	s     *Server
	token string
	timer *time.Timer

	mu           sync.Mutex
	begun, ended bool
}

// startProgress arms the progress report of an analysis that begins now;
// end must be called when it finishes, whatever the outcome.
func (s *Server) startProgress(n uint64, delay time.Duration) *progress {
	s.mu.Lock()
	supported := s.clientCaps.Window.WorkDoneProgress
	s.mu.Unlock()
	if !supported || s.conn.Load() == nil {
		return nil
	}
	p := &progress{s: s, token: fmt.Sprintf("collvet-analysis-%d", n)}
	p.timer = time.AfterFunc(delay, p.begin)
	return p
}

// begin asks the client for the token, then announces the analysis,
// unless it ended meanwhile. It runs on its own goroutine (a timer's):
// the client's answer arrives on the connection's reader goroutine.
func (p *progress) begin() {
	p.mu.Lock()
	if p.ended {
		p.mu.Unlock()
		return
	}
	p.mu.Unlock()
	c := p.s.conn.Load()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := c.Call(ctx, "window/workDoneProgress/create", WorkDoneProgressCreateParams{Token: p.token}, nil); err != nil {
		return // the client refused the token: report nothing
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.ended {
		return
	}
	p.begun = true
	_ = c.Notify(context.Background(), "$/progress", ProgressParams{Token: p.token, Value: WorkDoneProgressV{
		Kind: "begin", Title: "collvet", Message: "analysing the workspace"}})
}

// end closes the report (an "end" after a "begin", nothing otherwise).
func (p *progress) end(message string) {
	if p == nil {
		return
	}
	p.timer.Stop()
	p.mu.Lock()
	p.ended = true
	begun := p.begun
	p.mu.Unlock()
	if begun {
		p.s.notify("$/progress", ProgressParams{Token: p.token, Value: WorkDoneProgressV{Kind: "end", Message: message}})
	}
}
