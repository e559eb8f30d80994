package driver

import (
	"strings"
	"testing"

	"github.com/collvet/collvet/rules"
	"github.com/collvet/collvet/rules/textpos"
)

func TestFileSuppressionFix(t *testing.T) {
	apply := func(f *rules.File, fix rules.Fix) string {
		m := textpos.New(f.Src)
		e := fix.Edits[0]
		start, end := m.Offset(e.Pos.Line, e.Pos.Col), m.Offset(e.Pos.EndLine, e.Pos.EndCol)
		return string(f.Src[:start]) + e.NewText + string(f.Src[end:])
	}
	for _, tc := range []struct {
		name, src, want string
		lang            rules.Language
	}{
		{"plain", "import torch\n", "# collvet: file-ignore[CV301] \nimport torch\n", rules.Python},
		{"empty", "", "# collvet: file-ignore[CV301] \n", rules.Python},
		{"shebang", "#!/usr/bin/env python\nimport torch\n", "#!/usr/bin/env python\n# collvet: file-ignore[CV301] \nimport torch\n", rules.Python},
		{"shebang and coding", "#!/usr/bin/env python\n# -*- coding: latin-1 -*-\nx = 1\n", "#!/usr/bin/env python\n# -*- coding: latin-1 -*-\n# collvet: file-ignore[CV301] \nx = 1\n", rules.Python},
		{"coding first", "# vim: set fileencoding=utf-8 :\nx = 1\n", "# vim: set fileencoding=utf-8 :\n# collvet: file-ignore[CV301] \nx = 1\n", rules.Python},
		{"shebang without newline", "#!/usr/bin/env python", "#!/usr/bin/env python\n# collvet: file-ignore[CV301] ", rules.Python},
		{"shebang then end", "#!/usr/bin/env python\n", "#!/usr/bin/env python\n# collvet: file-ignore[CV301] \n", rules.Python},
		{"docstring stays first statement", "\"\"\"Doc.\"\"\"\n", "# collvet: file-ignore[CV301] \n\"\"\"Doc.\"\"\"\n", rules.Python},
		{"go", "//go:build linux\n\npackage p\n", "//collvet:file-ignore CV301 \n//go:build linux\n\npackage p\n", rules.Go},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := &rules.File{Path: "f", Lang: tc.lang, Src: []byte(tc.src)}
			got := apply(f, FileSuppressionFix(f, "CV301"))
			if got != tc.want {
				t.Fatalf("got %q\nwant %q", got, tc.want)
			}
			// With a reason typed after it, it is a valid file directive.
			withReason := strings.Replace(got, "CV301 ", "CV301 generated", 1)
			withReason = strings.Replace(withReason, "[CV301] ", "[CV301] generated", 1)
			ss := findSuppressions(&rules.File{Path: "f", Lang: tc.lang, Src: []byte(withReason)})
			if len(ss) != 1 || !ss[0].file || ss[0].problem != "" {
				t.Errorf("not a valid file directive once the reason is written: %+v", ss)
			}
		})
	}
}
