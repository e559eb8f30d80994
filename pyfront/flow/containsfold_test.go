package flow

import (
	"bytes"
	"testing"
)

func TestContainsFold(t *testing.T) {
	for _, text := range []string{"", "s", "stream", "Stream", "STREAM", "x = torch.cuda.Stream()", "strea", "sstream", "tream s", "resize_(0)", "RESIZE_", "a Stream b", "ss"} {
		for _, w := range []string{"stream", "resize_", "s"} {
			want := bytes.Contains(bytes.ToLower([]byte(text)), []byte(w))
			if got := containsFold([]byte(text), w); got != want {
				t.Errorf("containsFold(%q, %q) = %v, want %v", text, w, got, want)
			}
		}
	}
}
