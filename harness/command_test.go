package harness_test

import (
	"context"
	"os/exec"
	"runtime"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"kcalab/harness"
)

// A tool's output is not kept whole: a failing program that printed 100 MB
// costs a bounded tail, and the error shows that tail (where the program
// says why it failed) and how much came before it.
func TestRunCommandKeepsBoundedTail(t *testing.T) {
	if _, err := exec.LookPath("sh"); err != nil {
		t.Skip("no sh")
	}
	spec := loadSpecTo(t, writeSpec(t, fisherSpec), t.TempDir())
	tr := harness.NewTrialRun(&harness.Runner{}, spec, spec.Trials()[0])
	tests := []struct {
		name   string
		script string
		want   []string
	}{
		{"100 MB, then the reason", `head -c 100000000 /dev/zero | tr '\0' x; echo; echo the reason >&2; exit 3`,
			[]string{"exit status 3", "earlier bytes of output not kept", "the reason"}},
		{"short output kept whole", `echo short; exit 2`, []string{"exit status 2", "\nshort\n"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			err := tr.RunCommand(context.Background(), t.TempDir(), []string{"sh", "-c", tt.script})
			runtime.ReadMemStats(&after)
			require.Error(t, err)
			for _, w := range tt.want {
				assert.Contains(t, err.Error(), w)
			}
			assert.Less(t, len(err.Error()), 2500, "the message is bounded")
			assert.NotContains(t, err.Error(), strings.Repeat("x", 2100))
			assert.Less(t, after.TotalAlloc-before.TotalAlloc, uint64(32<<20), "the output was held in memory")
		})
	}
}
