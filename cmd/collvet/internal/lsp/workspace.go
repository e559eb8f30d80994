package lsp

import (
	"context"
	"encoding/json"
	"path/filepath"
	"strings"
)

func init() {
	handlers["workspace/didChangeConfiguration"] = (*Server).didChangeConfiguration
	handlers["workspace/didChangeWatchedFiles"] = (*Server).didChangeWatchedFiles
	handlers["workspace/didChangeWorkspaceFolders"] = (*Server).didChangeWorkspaceFolders
}

// Settings are the client-side settings (VS Code's `collvet.*`).
type Settings struct {
	// Ignore lists rule codes, code prefixes or names not to report.
	Ignore []string `json:"ignore"`
}

// applySettings reads settings sent as {"collvet": {...}} (what
// vscode-languageclient's configurationSection sends) or as the bare
// object (initializationOptions).
func (s *Server) applySettings(raw json.RawMessage) {
	var wrapped struct {
		Collvet *Settings `json:"collvet"`
	}
	var st Settings
	if err := json.Unmarshal(raw, &wrapped); err == nil && wrapped.Collvet != nil {
		st = *wrapped.Collvet
	} else if err := json.Unmarshal(raw, &st); err != nil {
		s.logf(MessageWarning, "collvet: ignoring malformed settings: %v", err)
		return
	}
	s.mu.Lock()
	s.ignore = st.Ignore
	s.mu.Unlock()
}

func (s *Server) didChangeConfiguration(_ context.Context, params json.RawMessage) (any, error) {
	var p DidChangeConfigurationParams
	if err := unmarshal(params, &p); err != nil {
		return nil, err
	}
	if len(p.Settings) > 0 && string(p.Settings) != "null" {
		s.applySettings(p.Settings)
	}
	// Settings may change what is reported; the project configuration
	// files are read again too (the user may have just edited them).
	s.touch(nil, true)
	return nil, nil
}

// didChangeWatchedFiles: configuration files changed on disk re-read the
// configuration; source files changed on disk (a git checkout, a
// formatter) are re-analysed unless an open buffer shadows them.
func (s *Server) didChangeWatchedFiles(_ context.Context, params json.RawMessage) (any, error) {
	var p DidChangeWatchedFilesParams
	if err := unmarshal(params, &p); err != nil {
		return nil, err
	}
	var paths []string
	config := false
	for _, c := range p.Changes {
		path, err := uriToPath(c.URI)
		if err != nil {
			continue
		}
		if isConfigFile(path) {
			config = true
		}
		paths = append(paths, path)
	}
	if len(paths) > 0 {
		s.touch(paths, config)
	}
	return nil, nil
}

func (s *Server) didChangeWorkspaceFolders(_ context.Context, params json.RawMessage) (any, error) {
	var p DidChangeWorkspaceFoldersParams
	if err := unmarshal(params, &p); err != nil {
		return nil, err
	}
	s.mu.Lock()
	removed := map[string]bool{}
	for _, f := range p.Event.Removed {
		if path, err := uriToPath(f.URI); err == nil {
			removed[path] = true
		}
	}
	var roots []string
	for _, r := range s.roots {
		if !removed[r] {
			roots = append(roots, r)
		}
	}
	for _, f := range p.Event.Added {
		if path, err := uriToPath(f.URI); err == nil && !contains(roots, path) {
			roots = append(roots, path)
		}
	}
	s.roots = roots
	s.mu.Unlock()
	s.touch(nil, true)
	return nil, nil
}

// registerWatchers asks the client to watch the configuration files and
// the sources collvet reads.
func (s *Server) registerWatchers() {
	params := RegistrationParams{Registrations: []Registration{{
		ID:     "collvet-watched-files",
		Method: "workspace/didChangeWatchedFiles",
		RegisterOptions: DidChangeWatchedFilesRegistrationOptions{Watchers: []FileSystemWatcher{
			{GlobPattern: "**/pyproject.toml"},
			{GlobPattern: "**/collvet.toml"},
			{GlobPattern: "**/*.py"},
			{GlobPattern: "**/*.go"},
		}},
	}}}
	c := s.conn.Load()
	if c == nil {
		return
	}
	if err := c.Call(context.Background(), "client/registerCapability", params, nil); err != nil {
		s.logf(MessageWarning, "collvet: could not register file watchers: %v", err)
	}
}

// contains reports whether list holds path.
func contains(list []string, path string) bool {
	for _, p := range list {
		if p == path || strings.EqualFold(filepath.Clean(p), filepath.Clean(path)) && filepath.Separator == '\\' {
			return true
		}
	}
	return false
}
